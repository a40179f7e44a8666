/**
 * Customers (docs/contract/admin.md 'Customers'): WooCommerce's customer list on `@wordpress/dataviews`, from
 * `GET wc/v3/customers` (customers only, `search` by name or e-mail, sorted by name or registration, pages of 20,
 * filtered by the billing country and whether they ordered), with each one's orders and lifetime value
 * (`orders_count`, `total_spent`); a name opens the customer. "Add customer" for staff with `create_users`.
 * "Delete" (one or several, after a confirmation; `DELETE wc/v3/customers/{id}?force=true`, their orders stay as
 * guest orders) is offered only to staff with `delete_users` (an administrator; a shop manager has not, and the
 * server refuses them): the rows leave at once and come back if the server refuses (optimistic-rows.tsx). The page,
 * search, filters and sort are in the address (view-in-address.ts).
 *
 * As WooCommerce's Customers report, the owner filters by **Total spend** (at least, at most or between, in the shop's
 * currency, paid orders only), **Orders** (any status) and **Last order** (after or before a day), and sorts by each:
 * the API does both in SQL (`total_spend_min|max`, `orders_count_min|max`, `last_order_after|before`, `orderby`).
 */
import { useMemo } from "react";
import type { Action, Field, View } from "@wordpress/dataviews";
import "@wordpress/components/build-style/style.css";
import "@wordpress/dataviews/build-style/style.css";
import { usePagedList } from "./use-paged-list.ts";
import { ListView } from "./ListView.tsx";
import { query, send } from "./api.ts";
import { confirmedAction, removeRows, useOptimisticRows, withRows } from "./optimistic-rows.tsx";
import { rangeParams, useViewInAddress, type RangeInAddress } from "./view-in-address.ts";
import { ExportCsvButton } from "./ImportExport.tsx";
import { ResultNotice } from "./Status.tsx";
import { COUNTRIES } from "../../core/domain/checkout/countries.ts";
import { personOf, shopMoney } from "./orders-shared.ts";
import type { RestCustomer } from "./types.ts";

const ORDERBY: Record<string, string> = {
  name: "name",
  date_created: "registered_date",
  total_spent: "total_spend",
  orders_count: "orders_count",
  date_last_order: "date_last_order",
};
const DEFAULT_VIEW: View = {
  type: "table",
  search: "",
  page: 1,
  perPage: 20,
  sort: { field: "date_created", direction: "desc" },
  filters: [],
  titleField: "name",
  fields: ["email", "country", "orders_count", "total_spent", "date_last_order", "date_created"],
  layout: {},
};
const customerUrl = (c: RestCustomer) => `/wp-admin/customers/${c.id}/`;
const spent = (c: RestCustomer) => shopMoney(c.total_spent);
const COUNTRY_ELEMENTS = Object.entries(COUNTRIES).map(([value, c]) => ({ value, label: c.name }));
const HAS_ORDERS = [
  { value: "true", label: "Has orders" },
  { value: "false", label: "No orders yet" },
];

/** The range filters, each as two parameters of the address and of the API (the Last order's days become instants). */
const SPEND: RangeInAddress = { kind: "number", low: ["greaterThanOrEqual", "total_spend_min"], high: ["lessThanOrEqual", "total_spend_max"], between: true };
const ORDERS: RangeInAddress = {
  kind: "number",
  low: ["greaterThanOrEqual", "orders_count_min"],
  high: ["lessThanOrEqual", "orders_count_max"],
  between: true,
};
const LAST_ORDER: RangeInAddress = { kind: "date", low: ["after", "last_order_after"], high: ["before", "last_order_before"] };
const FILTERS = { country: "is", has_orders: "is", total_spent: SPEND, orders_count: ORDERS, date_last_order: LAST_ORDER } as const;

/** The Last order filter's days as the API's exclusive instants (UTC, the shop's time): after the whole day, before its start. */
function lastOrderParams(view: View): Record<string, string> {
  const days = rangeParams(view, "date_last_order", LAST_ORDER);
  return {
    ...(days.last_order_after ? { last_order_after: `${days.last_order_after}T23:59:59.999Z` } : {}),
    ...(days.last_order_before ? { last_order_before: `${days.last_order_before}T00:00:00Z` } : {}),
  };
}
const customerName = (c: RestCustomer) => [c.first_name, c.last_name].filter(Boolean).join(" ") || personOf(c.billing) || c.email;

export default function CustomersScreen({ canCreate = false, canDelete = false }: { canCreate?: boolean; canDelete?: boolean }) {
  const { view, setView: setAddressView } = useViewInAddress(
    window.matchMedia("(max-width: 782px)").matches ? { ...DEFAULT_VIEW, type: "list", fields: ["email", "total_spent"] } : DEFAULT_VIEW,
    { filters: FILTERS },
  );
  // A changed filter value shows its first page (DataViews' value inputs keep the page they were typed on).
  const setView = (next: View) => setAddressView((old) => (JSON.stringify(old.filters) !== JSON.stringify(next.filters) ? { ...next, page: 1 } : next));
  const q = query({
    role: "customer",
    page: view.page ?? 1,
    per_page: view.perPage ?? 20,
    search: view.search,
    orderby: view.sort ? ORDERBY[view.sort.field] : undefined,
    order: view.sort?.direction,
    country: filterValue(view, "country"),
    has_orders: filterValue(view, "has_orders"),
    ...rangeParams(view, "total_spent", SPEND),
    ...rangeParams(view, "orders_count", ORDERS),
    ...lastOrderParams(view),
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
      {
        id: "orders_count",
        label: "Orders",
        type: "integer",
        filterBy: { operators: ["greaterThanOrEqual", "lessThanOrEqual", "between"] },
        getValue: ({ item }) => item.orders_count,
      },
      {
        id: "total_spent",
        label: "Total spend",
        type: "number",
        filterBy: { operators: ["greaterThanOrEqual", "lessThanOrEqual", "between"] },
        getValue: ({ item }) => Number(item.total_spent),
        // The filter's chip shows the amount as money ("Total spend is greater than or equal to: $100.00").
        getValueFormatted: ({ item, field }) => shopMoney(Number(field.getValue({ item }))),
        render: ({ item }) => <>{spent(item)}</>,
      },
      {
        id: "date_last_order",
        label: "Last order",
        type: "date",
        filterBy: { operators: ["after", "before"] },
        getValue: ({ item }) => item.date_last_order?.slice(0, 10) ?? "",
        render: ({ item }) => <>{item.date_last_order?.slice(0, 10) ?? "–"}</>,
      },
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
