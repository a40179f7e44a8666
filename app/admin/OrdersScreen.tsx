/**
 * Orders (docs/contract/admin.md 'Orders'): status tabs with their counts and WooCommerce's order list on
 * `@wordpress/dataviews`, from `GET wc/v3/orders` (`status`, `search` by number, e-mail or name, a date range as
 * `after`/`before`, pages) and each order's origin (its attribution); an order's number opens the order.
 */
import { useEffect, useMemo, useState } from "react";
import { usePagedList } from "./use-paged-list.ts";
import { ListView } from "./ListView.tsx";
import type { Field, View } from "@wordpress/dataviews";
import { TabPanel, TextControl } from "@wordpress/components";
import "@wordpress/components/build-style/style.css";
import "@wordpress/dataviews/build-style/style.css";
import { getWithHeaders, query, type RestError } from "./api.ts";
import { ORDER_STATUS_NAMES, money, personOf } from "./orders-shared.ts";
import type { RestOrder } from "./types.ts";
import { orderAttribution } from "../../core/domain/attribution/origin.ts";
import { ExportCsvButton } from "./ImportExport.tsx";

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

export default function OrdersScreen() {
  const [status, setStatus] = useState("any");
  const [view, setView] = useState<View>(() =>
    window.matchMedia("(max-width: 782px)").matches ? { ...DEFAULT_VIEW, type: "list", fields: ["status", "total"] } : DEFAULT_VIEW,
  );
  const [counts, setCounts] = useState<Record<string, number>>({});
  const [loadError, setError] = useState<RestError | null>(null);
  const [from, setFrom] = useState("");
  const [until, setUntil] = useState("");
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
  }, [rangeQuery]);

  const q = query({ status, page: view.page ?? 1, per_page: view.perPage ?? 20, search: view.search, ...range, orderby: "date", order: "desc" });
  const list = usePagedList<RestOrder>(`/wc/v3/orders?${q}`);
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

  return (
    <div className="admin-orders">
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
          onChange={(v) => {
            setFrom(v);
            setView((old) => ({ ...old, page: 1 }));
          }}
        />
        <TextControl
          __next40pxDefaultSize
          __nextHasNoMarginBottom
          type="date"
          label="Created until"
          value={until}
          onChange={(v) => {
            setUntil(v);
            setView((old) => ({ ...old, page: 1 }));
          }}
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
        className="admin-status-tabs"
        tabs={TABS.map((s) => ({ name: s, title: `${s === "any" ? "All" : ORDER_STATUS_NAMES[s]}${counts[s] === undefined ? "" : ` (${counts[s]})`}` }))}
        onSelect={(name) => {
          setStatus(name);
          setView((v) => ({ ...v, page: 1 }));
        }}
      >
        {() => (
          <ListView<RestOrder>
            list={list}
            otherError={loadError}
            fields={fields}
            view={view}
            onChangeView={setView}
            actions={[]}
            searchLabel="Search orders"
            itemUrl={orderUrl}
          />
        )}
      </TabPanel>
    </div>
  );
}
