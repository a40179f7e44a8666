/**
 * Orders (docs/contract/admin.md 'Orders'): status tabs with their counts and WooCommerce's order list on
 * `@wordpress/dataviews`, from `GET wc/v3/orders` (`status`, `search` by number, e-mail or name, a date range as
 * `after`/`before`, pages) and each order's origin (its attribution); an order's number opens the order.
 *
 * Row and bulk actions are optimistic (optimistic-rows.tsx): WooCommerce's "Mark processing", "Mark on-hold",
 * "Mark complete" and "Mark cancelled" (`PUT wc/v3/orders/{id} {status}`, offered where the status machine allows
 * the move: core/domain/orders/status.ts) show the new status at once (a row leaves a tab it no longer belongs to),
 * and "Delete permanently" (orders have no trash: `DELETE ?force=true`) after a confirmation. A refused row comes
 * back with the reason in the result notice; the tab counts are read again. The tab, dates, page and search are in
 * the address (view-in-address.ts).
 */
import { useCallback, useEffect, useMemo, useState } from "react";
import { usePagedList } from "./use-paged-list.ts";
import { ListView } from "./ListView.tsx";
import type { Action, Field, View } from "@wordpress/dataviews";
import { TabPanel, TextControl } from "@wordpress/components";
import "@wordpress/components/build-style/style.css";
import "@wordpress/dataviews/build-style/style.css";
import { getWithHeaders, query, send, type RestError } from "./api.ts";
import { confirmedAction, forEachRow, outcomeText, removeRows, useOptimisticRows, withRows } from "./optimistic-rows.tsx";
import { ResultNotice } from "./Status.tsx";
import { useViewInAddress } from "./view-in-address.ts";
import { canTransition, isOrderStatus, type OrderStatus } from "../../core/domain/orders/status.ts";
import { ORDER_STATUS_NAMES, money, personOf } from "./orders-shared.ts";
import type { RestOrder } from "./types.ts";
import { orderAttribution } from "../../core/domain/attribution/origin.ts";
import { ExportCsvButton } from "./ImportExport.tsx";
import { cancelCircleFilled, check, pending, update } from "@wordpress/icons";

const TABS = ["any", ...Object.keys(ORDER_STATUS_NAMES)];
const DEFAULT_VIEW: View = {
  type: "table",
  search: "",
  page: 1,
  perPage: 20,
  titleField: "number",
  fields: ["date_created", "status", "total", "email", "origin"],
  layout: {},
};
const orderUrl = (o: RestOrder) => `/wp-admin/orders/${o.id}/`;
/** WooCommerce's "Mark …" bulk actions: the status, the action's label, and the result's words. */
/** Each with an icon: at 782 px and below DataViews offers only bulk actions that have one. */
const MARKS: { status: OrderStatus; label: string; done: string; icon: Action<RestOrder>["icon"] }[] = [
  { status: "processing", label: "Mark processing", done: "marked processing", icon: update },
  { status: "on-hold", label: "Mark on-hold", done: "marked on-hold", icon: pending },
  { status: "completed", label: "Mark complete", done: "marked complete", icon: check },
  { status: "cancelled", label: "Mark cancelled", done: "marked cancelled", icon: cancelCircleFilled },
];
const orderName = (o: RestOrder) => `#${o.number}`;

export default function OrdersScreen() {
  const { view, setView, extra, setExtra, restored } = useViewInAddress(
    window.matchMedia("(max-width: 782px)").matches ? { ...DEFAULT_VIEW, type: "list", fields: ["status", "total"] } : DEFAULT_VIEW,
    { extra: ["status", "from", "until"] },
  );
  const status = TABS.includes(extra.status!) ? extra.status! : "any";
  const from = extra.from ?? "";
  const until = extra.until ?? "";
  const [counts, setCounts] = useState<Record<string, number>>({});
  const [countReads, setCountReads] = useState(0);
  const [loadError, setError] = useState<RestError | null>(null);
  const rangeError = from && until && from > until ? "The end date is before the start date." : null;
  // Whole UTC days, both included (the API's after/before are exclusive instants).
  const range = rangeError ? {} : { after: from ? `${from}T00:00:00Z` : undefined, before: until ? `${until}T23:59:59Z` : undefined };
  const rangeQuery = query(range);

  // Each tab's count: the list's X-WP-Total for one row of that status.
  useEffect(() => {
    let live = true;
    Promise.all(TABS.map((s) => getWithHeaders<RestOrder[]>(`/wc/v3/orders?per_page=1&status=${s}&_fields=id${rangeQuery ? `&${rangeQuery}` : ""}`))).then(
      (answers) => live && setCounts(Object.fromEntries(answers.map((a, i) => [TABS[i]!, Number(a.headers.get("X-WP-Total") ?? 0)]))),
      (e: RestError) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [rangeQuery, countReads]);

  const q = query({ status, page: view.page ?? 1, per_page: view.perPage ?? 20, search: view.search, ...range, orderby: "date", order: "desc" });
  const list = usePagedList<RestOrder>(`/wc/v3/orders?${q}`);
  const { refresh } = list;
  const reconcile = useCallback(async () => {
    await refresh();
    setCountReads((n) => n + 1);
  }, [refresh]);
  const { rows, result, run } = useOptimisticRows(list.items, reconcile);
  const exportQuery = query({ status: status === "any" ? undefined : status, ...range });

  const fields = useMemo<Field<RestOrder>[]>(
    () => [
      {
        id: "number",
        label: "Order",
        enableHiding: false,
        enableSorting: false,
        filterBy: false,
        getValue: ({ item }) => `#${item.number} ${personOf(item.billing)}`,
      },
      {
        id: "date_created",
        label: "Date",
        enableSorting: false,
        filterBy: false,
        render: ({ item }) => <>{item.date_created.replace("T", " ").slice(0, 16)}</>,
      },
      { id: "status", label: "Status", enableSorting: false, filterBy: false, render: ({ item }) => <>{ORDER_STATUS_NAMES[item.status] ?? item.status}</> },
      { id: "total", label: "Total", enableSorting: false, filterBy: false, render: ({ item }) => <>{money(item, item.total)}</> },
      { id: "email", label: "E-mail", enableSorting: false, filterBy: false, getValue: ({ item }) => item.billing.email ?? "" },
      { id: "origin", label: "Origin", enableSorting: false, filterBy: false, getValue: ({ item }) => orderAttribution(item.meta_data)?.origin ?? "Unknown" },
    ],
    [],
  );

  const actions = useMemo<Action<RestOrder>[]>(() => {
    const words = { one: "order", many: "orders" };
    const belongs = (o: RestOrder) => status === "any" || o.status === status;
    const marks = MARKS.map<Action<RestOrder>>((m) => ({
      id: `mark-${m.status}`,
      label: m.label,
      icon: m.icon,
      supportsBulk: true,
      isEligible: (o) => isOrderStatus(o.status) && canTransition(o.status, m.status),
      callback: (items) => {
        const ids = new Set(items.map((o) => o.id));
        run(
          (shown) => shown.map((o) => (ids.has(o.id) ? { ...o, status: m.status } : o)).filter(belongs),
          async () =>
            outcomeText(await forEachRow(items, (o) => send(`/wc/v3/orders/${o.id}`, "PUT", { status: m.status })), { ...words, done: m.done }, orderName),
        );
      },
    }));
    return [
      { id: "edit", label: "Edit", isPrimary: true, callback: ([item]) => item && window.location.assign(orderUrl(item)) },
      ...marks,
      confirmedAction<RestOrder>({
        id: "delete",
        label: "Delete permanently",
        question: (items) => (items.length === 1 ? `Delete order ${orderName(items[0]!)} permanently?` : `Delete ${items.length} orders permanently?`),
        warning: "Orders have no trash. An unpaid order gives back its stock and coupon uses first. This cannot be undone.",
        confirmLabel: "Delete permanently",
        perform: (items) =>
          removeRows(run, items, (o) => send(`/wc/v3/orders/${o.id}?force=true`, "DELETE", undefined), { ...words, done: "deleted permanently" }, orderName),
      }),
    ];
  }, [run, status]);

  return (
    <div className="admin-orders">
      <ResultNotice result={result} />
      <p className="admin-export-row">
        <ExportCsvButton path={`/shop/v1/exports/orders${exportQuery ? `?${exportQuery}` : ""}`} label="Export CSV" describedBy="orders-export-help" />
        <span id="orders-export-help" className="admin-export-help">
          The orders of the tab and dates shown, every page.
        </span>
      </p>
      <fieldset className="admin-date-range">
        <legend className="screen-reader-text">Orders created between</legend>
        <TextControl
          __next40pxDefaultSize
          __nextHasNoMarginBottom
          type="date"
          label="Created from"
          value={from}
          onChange={(v) => setExtra({ from: v }, (old) => ({ ...old, page: 1 }))}
        />
        <TextControl
          __next40pxDefaultSize
          __nextHasNoMarginBottom
          type="date"
          label="Created until"
          value={until}
          onChange={(v) => setExtra({ until: v }, (old) => ({ ...old, page: 1 }))}
          aria-invalid={Boolean(rangeError)}
          aria-describedby={rangeError ? "orders-range-error" : undefined}
        />
      </fieldset>
      {rangeError ? (
        <p id="orders-range-error" className="admin-field-error" role="alert">
          {rangeError}
        </p>
      ) : null}
      <p className="screen-reader-text admin-orders-found" aria-live="polite">
        {list.loading ? "" : `${list.totals.totalItems} ${list.totals.totalItems === 1 ? "order" : "orders"} found.`}
      </p>
      <TabPanel
        key={restored}
        initialTabName={status}
        className="admin-status-tabs"
        tabs={TABS.map((s) => ({ name: s, title: `${s === "any" ? "All" : ORDER_STATUS_NAMES[s]}${counts[s] === undefined ? "" : ` (${counts[s]})`}` }))}
        onSelect={(name) => {
          if (name !== status) setExtra({ status: name === "any" ? "" : name }, (v) => ({ ...v, page: 1 }));
        }}
      >
        {() => (
          <ListView<RestOrder>
            list={withRows(list, rows)}
            otherError={loadError}
            fields={fields}
            view={view}
            onChangeView={setView}
            actions={actions}
            searchLabel="Search orders"
            itemUrl={orderUrl}
          />
        )}
      </TabPanel>
    </div>
  );
}
