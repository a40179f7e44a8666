/**
 * Orders (docs/contract/admin.md 'Orders'): status tabs with their counts and WooCommerce's order list on
 * `@wordpress/dataviews`, from `GET wc/v3/orders` (`status`, `search` by number, e-mail or name, pages); an order's
 * number opens the order.
 */
import { useEffect, useMemo, useState } from "react";
import { usePagedList } from "./use-paged-list.ts";
import { ListView } from "./ListView.tsx";
import type { Field, View } from "@wordpress/dataviews";
import { TabPanel } from "@wordpress/components";
import "@wordpress/components/build-style/style.css";
import "@wordpress/dataviews/build-style/style.css";
import { getWithHeaders, query, type RestError } from "./api.ts";
import { ORDER_STATUS_NAMES, money, personOf } from "./orders-shared.ts";
import type { RestOrder } from "./types.ts";

const TABS = ["any", ...Object.keys(ORDER_STATUS_NAMES)];
const DEFAULT_VIEW: View = {
  type: "table",
  search: "",
  page: 1,
  perPage: 20,
  titleField: "number",
  fields: ["date_created", "status", "total", "email"],
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

  // Each tab's count: the list's X-WP-Total for one row of that status.
  useEffect(() => {
    let live = true;
    Promise.all(TABS.map((s) => getWithHeaders<RestOrder[]>(`/wc/v3/orders?per_page=1&status=${s}&_fields=id`))).then(
      (answers) => live && setCounts(Object.fromEntries(answers.map((a, i) => [TABS[i]!, Number(a.headers.get("X-WP-Total") ?? 0)]))),
      (e: RestError) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, []);

  const q = query({ status, page: view.page ?? 1, per_page: view.perPage ?? 20, search: view.search, orderby: "date", order: "desc" });
  const list = usePagedList<RestOrder>(`/wc/v3/orders?${q}`);

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
    ],
    [],
  );

  return (
    <div className="admin-orders">
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
