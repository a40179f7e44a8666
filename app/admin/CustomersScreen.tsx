/**
 * Customers (docs/contract/admin.md 'Customers'): WooCommerce's customer list on `@wordpress/dataviews`, from
 * `GET wc/v3/customers` (customers only, `search` by name or e-mail, sorted by name or registration, pages of 20,
 * filtered by the billing country and whether they ordered), with each one's orders and lifetime value
 * (`orders_count`, `total_spent`); a name opens the customer. "Add customer" for staff with `create_users`.
 * "Delete" (one or several, after a confirmation; `DELETE wc/v3/customers/{id}?force=true`, their orders stay as
 * guest orders) is offered only to staff with `delete_users` (an administrator; a shop manager has not, and the
 * server refuses them): the rows leave at once and come back if the server refuses (optimistic-rows.tsx). The page,
 * search, filters and sort are in the address (view-in-address.ts).
 */
import { useMemo } from "react";
import type { Action, Field, View } from "@wordpress/dataviews";
import "@wordpress/components/build-style/style.css";
import "@wordpress/dataviews/build-style/style.css";
import { usePagedList } from "./use-paged-list.ts";
import { ListView } from "./ListView.tsx";
import { query, send } from "./api.ts";
import { confirmedAction, removeRows, useOptimisticRows, withRows } from "./optimistic-rows.tsx";
import { useViewInAddress } from "./view-in-address.ts";
import { ExportCsvButton } from "./ImportExport.tsx";
import { ResultNotice } from "./Status.tsx";
import { COUNTRIES } from "../../core/domain/checkout/countries.ts";
import { personOf, shopMoney } from "./orders-shared.ts";
import type { RestCustomer } from "./types.ts";

const ORDERBY: Record<string, string> = { name: "name", date_created: "registered_date" };
const DEFAULT_VIEW: View = {
  type: "table",
  search: "",
  page: 1,
  perPage: 20,
  sort: { field: "date_created", direction: "desc" },
  filters: [],
  titleField: "name",
  fields: ["email", "country", "orders_count", "total_spent", "date_created"],
  layout: {},
};
const customerUrl = (c: RestCustomer) => `/wp-admin/customers/${c.id}/`;
const spent = (c: RestCustomer) => shopMoney(c.total_spent);
const COUNTRY_ELEMENTS = Object.entries(COUNTRIES).map(([value, c]) => ({ value, label: c.name }));
const HAS_ORDERS = [
  { value: "true", label: "Has orders" },
  { value: "false", label: "No orders yet" },
];

const FILTERS = { country: "is", has_orders: "is" } as const;
const customerName = (c: RestCustomer) => [c.first_name, c.last_name].filter(Boolean).join(" ") || personOf(c.billing) || c.email;

export default function CustomersScreen({ canCreate = false, canDelete = false }: { canCreate?: boolean; canDelete?: boolean }) {
  const { view, setView } = useViewInAddress(
    window.matchMedia("(max-width: 782px)").matches ? { ...DEFAULT_VIEW, type: "list", fields: ["email", "total_spent"] } : DEFAULT_VIEW,
    { filters: FILTERS },
  );
  const q = query({
    role: "customer",
    page: view.page ?? 1,
    per_page: view.perPage ?? 20,
    search: view.search,
    orderby: view.sort ? ORDERBY[view.sort.field] : undefined,
    order: view.sort?.direction,
    country: filterValue(view, "country"),
    has_orders: filterValue(view, "has_orders"),
  });
  const list = usePagedList<RestCustomer>(`/wc/v3/customers?${q}`);
  const fields = useMemo<Field<RestCustomer>[]>(
    () => [
      {
        id: "name",
        label: "Name",
        enableHiding: false,
        filterBy: false,
        getValue: ({ item }) => customerName(item),
      },
      { id: "email", label: "E-mail", enableSorting: false, filterBy: false, getValue: ({ item }) => item.email },
      {
        id: "country",
        label: "Country",
        enableSorting: false,
        elements: COUNTRY_ELEMENTS,
        filterBy: { operators: ["is"] },
        getValue: ({ item }) => item.billing.country,
        render: ({ item }) => <>{COUNTRIES[item.billing.country]?.name ?? (item.billing.country || "–")}</>,
      },
      {
        id: "has_orders",
        label: "Orders placed",
        enableSorting: false,
        elements: HAS_ORDERS,
        filterBy: { operators: ["is"] },
        getValue: ({ item }) => String(item.orders_count > 0),
      },
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
  const { rows, result, run } = useOptimisticRows(list.items, list.refresh);
  const actions = useMemo<Action<RestCustomer>[]>(
    () => [
      { id: "edit", label: "Edit", isPrimary: true, callback: ([item]) => item && window.location.assign(customerUrl(item)) },
      ...(canDelete
        ? [
            confirmedAction<RestCustomer>({
              id: "delete",
              label: "Delete",
              question: (items) => (items.length === 1 ? `Delete customer “${customerName(items[0]!)}”?` : `Delete ${items.length} customers?`),
              warning: "They can no longer sign in; their addresses and saved payment methods go. Their orders stay, as a guest’s. This cannot be undone.",
              confirmLabel: "Delete",
              perform: (items) =>
                removeRows(
                  run,
                  items,
                  (c) => send(`/wc/v3/customers/${c.id}?force=true`, "DELETE", undefined),
                  { one: "customer", many: "customers", done: "deleted" },
                  (c) => `“${customerName(c)}”`,
                ),
            }),
          ]
        : []),
    ],
    [run, canDelete],
  );
  const deleted = new URLSearchParams(window.location.search).get("deleted");
  return (
    <>
      <ResultNotice result={result ?? (deleted ? { status: "success", text: `Customer “${deleted}” deleted. Their orders stay, as guest orders.` } : null)} />
      <p className="admin-export-row">
        {canCreate ? (
          <a className="components-button is-primary admin-add-link" href="/wp-admin/customers/new/">
            Add customer
          </a>
        ) : null}
        <ExportCsvButton path="/shop/v1/exports/customers" label="Export CSV" />
      </p>
      <ListView<RestCustomer>
        list={withRows(list, rows)}
        otherError={null}
        fields={fields}
        view={view}
        onChangeView={setView}
        actions={actions}
        searchLabel="Search customers"
        itemUrl={customerUrl}
      />
    </>
  );
}

/** A filter's one value, or undefined. */
function filterValue(view: View, field: string): string | undefined {
  const v = view.filters?.find((f) => f.field === field)?.value as unknown;
  return typeof v === "string" && v !== "" ? v : undefined;
}
