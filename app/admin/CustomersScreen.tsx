/**
 * Customers (docs/contract/admin.md 'Customers'): WooCommerce's customer list on `@wordpress/dataviews`, from
 * `GET wc/v3/customers` (customers only, `search` by name or e-mail, sorted by name or registration, pages of 20),
 * with each one's orders and lifetime value (`orders_count`, `total_spent`); a name opens the customer.
 */
import { useMemo, useState } from "react";
import type { Field, View } from "@wordpress/dataviews";
import "@wordpress/components/build-style/style.css";
import "@wordpress/dataviews/build-style/style.css";
import { usePagedList } from "./use-paged-list.ts";
import { ListView } from "./ListView.tsx";
import { query } from "./api.ts";
import { ExportCsvButton } from "./ImportExport.tsx";
import { personOf, shopMoney } from "./orders-shared.ts";
import type { RestCustomer } from "./types.ts";

const ORDERBY: Record<string, string> = { name: "name", date_created: "registered_date" };
const DEFAULT_VIEW: View = {
  type: "table",
  search: "",
  page: 1,
  perPage: 20,
  sort: { field: "date_created", direction: "desc" },
  titleField: "name",
  fields: ["email", "orders_count", "total_spent", "date_created"],
  layout: {},
};
const customerUrl = (c: RestCustomer) => `/wp-admin/customers/${c.id}/`;
const spent = (c: RestCustomer) => shopMoney(c.total_spent);

export default function CustomersScreen() {
  const [view, setView] = useState<View>(() =>
    window.matchMedia("(max-width: 782px)").matches ? { ...DEFAULT_VIEW, type: "list", fields: ["email", "total_spent"] } : DEFAULT_VIEW,
  );
  const q = query({
    role: "customer",
    page: view.page ?? 1,
    per_page: view.perPage ?? 20,
    search: view.search,
    orderby: view.sort ? ORDERBY[view.sort.field] : undefined,
    order: view.sort?.direction,
  });
  const list = usePagedList<RestCustomer>(`/wc/v3/customers?${q}`);
  const fields = useMemo<Field<RestCustomer>[]>(
    () => [
      {
        id: "name",
        label: "Name",
        enableHiding: false,
        filterBy: false,
        getValue: ({ item }) => [item.first_name, item.last_name].filter(Boolean).join(" ") || personOf(item.billing) || item.email,
      },
      { id: "email", label: "E-mail", enableSorting: false, filterBy: false, getValue: ({ item }) => item.email },
      { id: "orders_count", label: "Orders", enableSorting: false, filterBy: false, getValue: ({ item }) => item.orders_count },
      { id: "total_spent", label: "Lifetime value", enableSorting: false, filterBy: false, render: ({ item }) => <>{spent(item)}</> },
      {
        id: "date_created",
        label: "Registered",
        filterBy: false,
        render: ({ item }) => <>{item.date_created.slice(0, 10)}</>,
      },
    ],
    [],
  );
  return (
    <>
      <p className="admin-export-row">
        <ExportCsvButton path="/shop/v1/exports/customers" label="Export CSV" />
      </p>
      <ListView<RestCustomer>
        list={list}
        otherError={null}
        fields={fields}
        view={view}
        onChangeView={setView}
        actions={[]}
        searchLabel="Search customers"
        itemUrl={customerUrl}
      />
    </>
  );
}
