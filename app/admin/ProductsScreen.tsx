/**
 * Products (docs/contract/admin.md 'Products'): WooCommerce's product list on `@wordpress/dataviews`, every row from
 * `GET wc/v3/products` with the view's search, filters (category, type, stock status, status), sort and page as
 * the route's parameters; a product's name opens its edit screen. Rows selected on the page (the table's checkboxes,
 * "Select all") can be edited together ("Bulk edit": ProductsBulkEdit.tsx); the list is then read again.
 *
 * Row and bulk actions are optimistic (optimistic-rows.tsx): "Publish" and "Switch to draft" (`PUT {status}`) show
 * the new status at once; "Move to trash" (`DELETE`, WooCommerce's trash) takes the rows out at once; in the Trash
 * tab (`status=trash`), "Restore" (`PUT {status: "draft"}`) and, after a confirmation, "Delete permanently"
 * (`DELETE ?force=true`). A refused row comes back with the reason in the result notice. The tab, page, search,
 * filters and sort are in the address (view-in-address.ts).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Notice, TabPanel } from "@wordpress/components";
import { backup, drafts, pencil, published, trash as trashIcon } from "@wordpress/icons";
import { usePagedList } from "./use-paged-list.ts";
import { ListView } from "./ListView.tsx";
import type { Action, Field, View } from "@wordpress/dataviews";
import "@wordpress/components/build-style/style.css";
import "@wordpress/dataviews/build-style/style.css";
import { getWithHeaders, query, send, type RestError } from "./api.ts";
import { confirmedAction, forEachRow, outcomeText, removeRows, useOptimisticRows, withRows } from "./optimistic-rows.tsx";
import { ResultNotice } from "./Status.tsx";
import { useViewInAddress } from "./view-in-address.ts";
import type { RestProduct, Term } from "./types.ts";
import { BulkEditForm, BulkResultNotice, type BulkResult } from "./ProductsBulkEdit.tsx";

const TYPES = [
  { value: "simple", label: "Simple" },
  { value: "variable", label: "Variable" },
  { value: "grouped", label: "Grouped" },
  { value: "external", label: "External/Affiliate" },
  { value: "bundle", label: "Bundle" },
];
const STOCK = [
  { value: "instock", label: "In stock" },
  { value: "outofstock", label: "Out of stock" },
  { value: "onbackorder", label: "On backorder" },
];
const STATUSES = [
  { value: "publish", label: "Published" },
  { value: "draft", label: "Draft" },
  { value: "pending", label: "Pending" },
  { value: "private", label: "Private" },
];
const labelOf = (list: { value: string; label: string }[], value: string) => list.find((e) => e.value === value)?.label ?? value;

/** The view's sort field → wc/v3's `orderby`. */
const ORDERBY: Record<string, string> = { name: "title", date_created: "date", price: "price", id: "id" };

const DEFAULT_VIEW: View = {
  type: "table",
  search: "",
  page: 1,
  perPage: 20,
  sort: { field: "date_created", direction: "desc" },
  filters: [],
  titleField: "name",
  fields: ["sku", "stock_status", "price", "categories", "type", "status", "date_created"],
  layout: {},
};

/** The filters the address keeps (view-in-address.ts). */
const FILTERS = { stock_status: "is", categories: "isAny", type: "is", status: "is" } as const;

/** The REST list's parameters for a view (filters: one value per field, categories any of several); the Trash tab lists `status=trash`. */
export function listQuery(view: View, trash = false): string {
  const filter = (field: string) => view.filters?.find((f) => f.field === field && f.value !== undefined && f.value !== "" && f.value !== null);
  const category = filter("categories")?.value as number[] | number | undefined;
  return query({
    page: view.page ?? 1,
    per_page: view.perPage ?? 20,
    search: view.search,
    orderby: view.sort ? ORDERBY[view.sort.field] : undefined,
    order: view.sort?.direction,
    type: filter("type")?.value as string | undefined,
    stock_status: filter("stock_status")?.value as string | undefined,
    status: trash ? "trash" : (filter("status")?.value as string | undefined),
    category: Array.isArray(category) ? category.join(",") : category,
  });
}

const editUrl = (item: RestProduct) => `/wp-admin/edit/product/${item.id}/`;

export default function ProductsScreen() {
  // A narrow screen starts with the list layout (one product a row); the table and the list are both offered.
  const { view, setView, extra, setExtra, restored } = useViewInAddress(
    window.matchMedia("(max-width: 782px)").matches ? { ...DEFAULT_VIEW, type: "list", fields: ["sku", "stock_status", "price"] } : DEFAULT_VIEW,
    { filters: FILTERS, extra: ["post_status"] },
  );
  const trash = extra.post_status === "trash";
  /** The query the list shows the answer to: the list is loading while it differs from the view's. */
  const [loadError, setError] = useState<RestError | null>(null);
  const [categories, setCategories] = useState<Term[]>([]);

  useEffect(() => {
    let live = true;
    getWithHeaders<Term[]>("/wc/v3/products/categories?per_page=100&orderby=name&order=asc").then(
      (r) => live && setCategories(r.body),
      (e: RestError) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, []);

  const q = listQuery(view, trash);
  const [reloads, setReloads] = useState(0);
  const list = usePagedList<RestProduct>(`/wc/v3/products?${q}`, reloads);
  const [selection, setSelection] = useState<string[]>([]);
  const [result, setResult] = useState<BulkResult | null>(null);
  const resultRef = useRef<HTMLDivElement>(null);

  /** After a bulk edit: the result in the live region (focused: the dialog's button is gone), the refused rows still selected, the page read again. */
  const bulkDone = useCallback((r: BulkResult) => {
    setResult(r);
    setSelection(r.error ? [] : r.failed.map((f) => String(f.id)));
    setReloads((n) => n + 1);
  }, []);
  // Focus after the commit that shows the result: that commit also closes the dialog, whose focus return (to the
  // "Bulk edit" button) runs during the commit; a frame scheduled before it could run first and lose the focus.
  useEffect(() => {
    if (result) resultRef.current?.focus();
  }, [result]);

  const fields = useMemo<Field<RestProduct>[]>(
    () => [
      { id: "name", label: "Name", enableHiding: false, enableGlobalSearch: true, filterBy: false },
      { id: "sku", label: "SKU", enableSorting: false, filterBy: false, render: ({ item }) => <>{item.sku || "–"}</> },
      {
        id: "stock_status",
        label: "Stock",
        enableSorting: false,
        elements: STOCK,
        filterBy: { operators: ["is"] },
        render: ({ item }) => (
          <>
            {labelOf(STOCK, item.stock_status)}
            {item.manage_stock && item.stock_quantity !== null ? ` (${item.stock_quantity})` : ""}
          </>
        ),
      },
      {
        id: "price",
        label: "Price",
        filterBy: false,
        // The shop's own markup: amounts, and a sale as <del>/<ins> with screen-reader text.
        render: ({ item }) => (
          <span className="admin-price" dangerouslySetInnerHTML={{ __html: (item as RestProduct & { price_html?: string }).price_html ?? item.price }} />
        ),
      },
      {
        id: "categories",
        label: "Categories",
        type: "array",
        enableSorting: false,
        elements: categories.map((c) => ({ value: c.id, label: c.name })),
        filterBy: { operators: ["isAny"] },
        getValue: ({ item }) => item.categories.map((c) => c.id),
        render: ({ item }) => <>{item.categories.map((c) => c.name).join(", ") || "–"}</>,
      },
      {
        id: "type",
        label: "Type",
        enableSorting: false,
        elements: TYPES,
        filterBy: { operators: ["is"] },
        render: ({ item }) => <>{item.downloadable ? "Downloadable" : labelOf(TYPES, item.type)}</>,
      },
      {
        id: "status",
        label: "Status",
        enableSorting: false,
        elements: STATUSES,
        filterBy: { operators: ["is"] },
        render: ({ item }) => <>{item.status === "trash" ? "Trash" : labelOf(STATUSES, item.status)}</>,
      },
      { id: "date_created", label: "Date", type: "datetime", filterBy: false, render: ({ item }) => <>{item.date_created.slice(0, 10)}</> },
    ],
    [categories],
  );

  const { rows, result: rowResult, run } = useOptimisticRows(list.items, list.refresh);
  const actions = useMemo<Action<RestProduct>[]>(() => {
    const inTrash = (p: RestProduct) => p.status === "trash";
    const name = (p: RestProduct) => `“${p.name}”`;
    const words = { one: "product", many: "products" };
    /** Rows that leave this view (to or from the trash): gone at once. */
    const leaving = (items: RestProduct[], write: (p: RestProduct) => Promise<unknown>, done: string) => {
      setSelection([]);
      removeRows(run, items, write, { ...words, done }, name);
    };
    /** Rows whose status changes: the new status shown at once. */
    const setStatus = (items: RestProduct[], status: string, done: string) => {
      const ids = new Set(items.map((p) => p.id));
      run(
        (shown) => shown.map((p) => (ids.has(p.id) ? { ...p, status } : p)),
        async () => outcomeText(await forEachRow(items, (p) => send(`/wc/v3/products/${p.id}`, "PUT", { status })), { ...words, done }, name),
      );
    };
    return [
      { id: "edit", label: "Edit", isPrimary: true, isEligible: (p) => !inTrash(p), callback: ([item]) => item && window.location.assign(editUrl(item)) },
      {
        id: "view",
        label: "View product",
        isEligible: (item) => item.status === "publish",
        callback: ([item]) => item && window.location.assign(item.permalink),
      },
      {
        id: "publish",
        label: "Publish",
        icon: published,
        supportsBulk: true,
        isEligible: (p) => !inTrash(p) && p.status !== "publish",
        callback: (items) => setStatus(items, "publish", "published"),
      },
      {
        id: "draft",
        label: "Switch to draft",
        icon: drafts,
        supportsBulk: true,
        isEligible: (p) => !inTrash(p) && p.status !== "draft",
        callback: (items) => setStatus(items, "draft", "switched to draft"),
      },
      {
        id: "trash",
        label: "Move to trash",
        icon: trashIcon,
        supportsBulk: true,
        isEligible: (p) => !inTrash(p),
        callback: (items) => leaving(items, (p) => send(`/wc/v3/products/${p.id}`, "DELETE", undefined), "moved to the trash"),
      },
      {
        id: "restore",
        label: "Restore",
        icon: backup,
        supportsBulk: true,
        isEligible: inTrash,
        callback: (items) => leaving(items, (p) => send(`/wc/v3/products/${p.id}`, "PUT", { status: "draft" }), "restored"),
      },
      confirmedAction<RestProduct>({
        id: "delete",
        label: "Delete permanently",
        isEligible: inTrash,
        question: (items) => (items.length === 1 ? `Delete “${items[0]!.name}” permanently?` : `Delete ${items.length} products permanently?`),
        warning: "Their variations and reviews are deleted with them; orders keep their lines. This cannot be undone.",
        confirmLabel: "Delete permanently",
        perform: (items) => leaving(items, (p) => send(`/wc/v3/products/${p.id}?force=true`, "DELETE", undefined), "deleted permanently"),
      }),
      {
        id: "bulk-edit",
        label: "Bulk edit",
        icon: pencil,
        supportsBulk: true,
        modalHeader: (items) => `Bulk edit ${items.length} product${items.length === 1 ? "" : "s"}`,
        RenderModal: ({ items, closeModal }) => (
          <BulkEditForm
            items={items}
            onCancel={() => closeModal?.()}
            onDone={(r) => {
              closeModal?.();
              bulkDone(r);
            }}
          />
        ),
      },
    ];
  }, [bulkDone, run]);

  return (
    <>
      <p>
        <a className="components-button is-primary admin-add-link" href="/wp-admin/products/new/">
          Add product
        </a>{" "}
        <a className="components-button is-secondary admin-add-link" href="/wp-admin/products/attributes/">
          Attributes
        </a>{" "}
        <a className="components-button is-secondary admin-add-link" href="/wp-admin/products/import/">
          Import
        </a>{" "}
        <a className="components-button is-secondary admin-add-link" href="/wp-admin/products/export/">
          Export
        </a>
      </p>
      <div className="admin-bulk-result" role="status" ref={resultRef} tabIndex={-1} aria-label="Bulk edit result">
        {result ? (
          <Notice status={result.error || result.failed.length ? "warning" : "success"} isDismissible={false}>
            <BulkResultNotice result={result} />
          </Notice>
        ) : null}
      </div>
      <ResultNotice result={rowResult} />
      <TabPanel
        key={restored}
        className="admin-status-tabs"
        initialTabName={trash ? "trash" : "all"}
        tabs={[
          { name: "all", title: "All" },
          { name: "trash", title: "Trash" },
        ]}
        onSelect={(name) => {
          if ((name === "trash") === trash) return;
          setSelection([]);
          setExtra({ post_status: name === "trash" ? "trash" : "" }, (v) => ({ ...v, page: 1 }));
        }}
      >
        {() => (
          <ListView<RestProduct>
            list={withRows(list, rows)}
            otherError={loadError}
            fields={fields}
            view={view}
            onChangeView={setView}
            actions={actions}
            searchLabel="Search products"
            itemUrl={editUrl}
            selection={selection}
            onChangeSelection={setSelection}
          />
        )}
      </TabPanel>
    </>
  );
}
