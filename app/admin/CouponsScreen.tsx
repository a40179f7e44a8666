/**
 * Coupons (docs/contract/admin.md 'Coupons'): WooCommerce's coupon list on `@wordpress/dataviews`, from
 * `GET wc/v3/coupons` (`search` in the code, newest first or by code, pages of 20): code (a link to the editor),
 * type, amount, usage / limit and expiry. "Add coupon" opens an empty editor. Rows are deleted, one or several at
 * once, after a confirmation (`DELETE wc/v3/coupons/{id}?force=true`): they leave the list at once and come back if
 * the server refuses (optimistic-rows.tsx).
 */
import { useMemo } from "react";
import type { Action, Field, View } from "@wordpress/dataviews";
import "@wordpress/components/build-style/style.css";
import "@wordpress/dataviews/build-style/style.css";
import { usePagedList } from "./use-paged-list.ts";
import { useViewInAddress } from "./view-in-address.ts";
import { ListView } from "./ListView.tsx";
import { query, send } from "./api.ts";
import { confirmedAction, removeRows, useOptimisticRows, withRows } from "./optimistic-rows.tsx";
import { ResultNotice } from "./Status.tsx";
import { shopMoney } from "./orders-shared.ts";
import { COUPON_TYPES, type RestCoupon } from "./coupon-types.ts";

const ORDERBY: Record<string, string> = { code: "title", date_created: "date" };
const DEFAULT_VIEW: View = {
  type: "table",
  search: "",
  page: 1,
  perPage: 20,
  sort: { field: "date_created", direction: "desc" },
  titleField: "code",
  fields: ["discount_type", "amount", "usage", "date_expires"],
  layout: {},
};
const couponUrl = (c: RestCoupon) => `/wp-admin/coupons/${c.id}/`;
export const couponAmount = (c: Pick<RestCoupon, "discount_type" | "amount">) => (c.discount_type === "percent" ? `${Number(c.amount)}%` : shopMoney(c.amount));

export default function CouponsScreen() {
  const { view, setView } = useViewInAddress(
    window.matchMedia("(max-width: 782px)").matches ? { ...DEFAULT_VIEW, type: "list", fields: ["amount", "usage"] } : DEFAULT_VIEW,
  );
  const q = query({
    page: view.page ?? 1,
    per_page: view.perPage ?? 20,
    search: view.search,
    orderby: view.sort ? ORDERBY[view.sort.field] : undefined,
    order: view.sort?.direction,
  });
  const list = usePagedList<RestCoupon>(`/wc/v3/coupons?${q}`);
  const fields = useMemo<Field<RestCoupon>[]>(
    () => [
      { id: "code", label: "Code", enableHiding: false, filterBy: false, getValue: ({ item }) => item.code },
      {
        id: "discount_type",
        label: "Type",
        enableSorting: false,
        filterBy: false,
        getValue: ({ item }) => COUPON_TYPES.find((t) => t.value === item.discount_type)?.label ?? item.discount_type,
      },
      { id: "amount", label: "Amount", enableSorting: false, filterBy: false, render: ({ item }) => <>{couponAmount(item)}</> },
      {
        id: "usage",
        label: "Usage / Limit",
        enableSorting: false,
        filterBy: false,
        getValue: ({ item }) => `${item.usage_count} / ${item.usage_limit ?? "∞"}`,
      },
      {
        id: "date_expires",
        label: "Expiry date",
        enableSorting: false,
        filterBy: false,
        getValue: ({ item }) => (item.date_expires ? item.date_expires.slice(0, 10) : "–"),
      },
      { id: "date_created", label: "Created", filterBy: false, getValue: ({ item }) => item.date_created.slice(0, 10) },
    ],
    [],
  );
  const { rows, result, run } = useOptimisticRows(list.items, list.refresh);
  const actions = useMemo<Action<RestCoupon>[]>(
    () => [
      { id: "edit", label: "Edit", isPrimary: true, callback: ([item]) => item && window.location.assign(couponUrl(item)) },
      confirmedAction<RestCoupon>({
        id: "delete",
        label: "Delete",
        question: (items) => (items.length === 1 ? `Delete coupon “${items[0]!.code}”?` : `Delete ${items.length} coupons?`),
        warning: "Orders that used them keep their discount; the codes stop working at once. This cannot be undone.",
        confirmLabel: "Delete",
        perform: (items) =>
          removeRows(
            run,
            items,
            (c) => send(`/wc/v3/coupons/${c.id}?force=true`, "DELETE", undefined),
            { one: "coupon", many: "coupons", done: "deleted" },
            (c) => `“${c.code}”`,
          ),
      }),
    ],
    [run],
  );
  const deleted = new URLSearchParams(window.location.search).get("deleted");
  return (
    <>
      <ResultNotice result={result ?? (deleted ? { status: "success", text: `Coupon “${deleted}” deleted.` } : null)} />
      <p>
        <a className="components-button is-primary admin-add-link" href="/wp-admin/coupons/new/">
          Add coupon
        </a>
      </p>
      <ListView<RestCoupon>
        list={withRows(list, rows)}
        otherError={null}
        fields={fields}
        view={view}
        onChangeView={setView}
        actions={actions}
        searchLabel="Search coupons"
        itemUrl={couponUrl}
      />
    </>
  );
}
