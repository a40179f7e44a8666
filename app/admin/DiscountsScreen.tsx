/**
 * Discount rules (docs/contract/admin.md 'Discount rules'): the pricing engine's rules from `GET
 * shop/v1/discount-rules` (all of them: a shop has tens, not thousands), in the engine's order, on
 * `@wordpress/dataviews` — searched, sorted and paged in the browser: name (a link to the editor), code, kind, status
 * (published, draft, scheduled, ended) and schedule. "Add discount rule" opens an empty editor. Row actions, on one
 * rule or several: publish and switch to draft (`PUT shop/v1/discount-rules/{code}` with `enabled` alone, so nothing
 * else an editor saved meanwhile is overwritten) and delete after a confirmation; the rows change at once and
 * reconcile with the server (optimistic-rows.tsx).
 */
import { useMemo } from "react";
import { DataViews, filterSortAndPaginate, type Action, type Field, type View } from "@wordpress/dataviews";
import "@wordpress/components/build-style/style.css";
import "@wordpress/dataviews/build-style/style.css";
import "./admin-screens.css";
import { Notice } from "@wordpress/components";
import { usePagedList } from "./use-paged-list.ts";
import { useViewInAddress } from "./view-in-address.ts";
import { send } from "./api.ts";
import { confirmedAction, forEachRow, outcomeText, useOptimisticRows } from "./optimistic-rows.tsx";
import { ResultNotice } from "./Status.tsx";
import { kindLabel, type RestRule } from "./discount-form.ts";
import { drafts, published } from "@wordpress/icons";

const DEFAULT_VIEW: View = {
  type: "table",
  search: "",
  page: 1,
  perPage: 20,
  sort: { field: "priority", direction: "asc" },
  titleField: "title",
  fields: ["code", "kind", "status", "schedule"],
  layout: {},
};
const ruleUrl = (r: RestRule) => `/wp-admin/discounts/${encodeURIComponent(r.code)}/`;
const minute = (iso: string) => `${new Date(iso).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** Published, Draft, Scheduled (published, starts later) or Ended (published, its schedule is over). */
function ruleStatus(r: Pick<RestRule, "enabled" | "schedule">, now = Date.now()): string {
  if (!r.enabled) return "Draft";
  if (r.schedule?.from && Date.parse(r.schedule.from) > now) return "Scheduled";
  if (r.schedule?.to && Date.parse(r.schedule.to) <= now) return "Ended";
  return "Published";
}
const scheduleText = (r: RestRule) =>
  r.schedule?.from || r.schedule?.to ? `${r.schedule.from ? minute(r.schedule.from) : "now"} – ${r.schedule.to ? minute(r.schedule.to) : "no end"}` : "Always";

export default function DiscountsScreen() {
  const { view, setView } = useViewInAddress(
    window.matchMedia("(max-width: 782px)").matches ? { ...DEFAULT_VIEW, type: "list", fields: ["kind", "status"] } : DEFAULT_VIEW,
    { filters: { kind: "isAny", status: "isAny" } },
  );
  const list = usePagedList<RestRule>("/shop/v1/discount-rules?per_page=100");
  const fields = useMemo<Field<RestRule>[]>(
    () => [
      { id: "title", label: "Name", enableHiding: false, filterBy: false, enableGlobalSearch: true, getValue: ({ item }) => item.title },
      { id: "code", label: "Code", filterBy: false, enableGlobalSearch: true, getValue: ({ item }) => item.code },
      {
        id: "kind",
        label: "Kind",
        getValue: ({ item }) => item.action.kind,
        render: ({ item }) => <>{kindLabel(item.action.kind)}</>,
        elements: ["bulk", "product_percent", "product_fixed", "cart_percent", "cart_fixed", "free_shipping", "buy_x_get_y"].map((k) => ({
          value: k,
          label: kindLabel(k),
        })),
        filterBy: { operators: ["isAny"] },
      },
      {
        id: "status",
        label: "Status",
        getValue: ({ item }) => ruleStatus(item),
        elements: ["Published", "Draft", "Scheduled", "Ended"].map((s) => ({ value: s, label: s })),
        filterBy: { operators: ["isAny"] },
      },
      { id: "schedule", label: "Schedule", enableSorting: false, filterBy: false, getValue: ({ item }) => scheduleText(item) },
      { id: "priority", label: "Priority", type: "integer", filterBy: false, getValue: ({ item }) => item.priority },
    ],
    [],
  );
  const { rows, result, run } = useOptimisticRows(list.items, list.refresh);
  const actions = useMemo<Action<RestRule>[]>(() => {
    const words = { one: "discount rule", many: "discount rules" };
    const switchTo = (enabled: boolean) => (items: RestRule[]) => {
      const codes = new Set(items.map((r) => r.code));
      run(
        (shown) => shown.map((r) => (codes.has(r.code) ? { ...r, enabled } : r)),
        async () =>
          outcomeText(
            await forEachRow(items, (r) => send(`/shop/v1/discount-rules/${encodeURIComponent(r.code)}`, "PUT", { enabled })),
            { ...words, done: enabled ? "published" : "switched to draft" },
            (r) => `“${r.title}”`,
          ),
      );
    };
    return [
      { id: "edit", label: "Edit", isPrimary: true, callback: ([item]) => item && window.location.assign(ruleUrl(item)) },
      { id: "publish", label: "Publish", icon: published, supportsBulk: true, isEligible: (r) => !r.enabled, callback: switchTo(true) },
      { id: "draft", label: "Switch to draft", icon: drafts, supportsBulk: true, isEligible: (r) => r.enabled, callback: switchTo(false) },
      confirmedAction<RestRule>({
        id: "delete",
        label: "Delete",
        question: (items) => (items.length === 1 ? `Delete discount rule “${items[0]!.title}”?` : `Delete ${items.length} discount rules?`),
        warning: "Carts and the storefront stop applying them at once; orders keep the discounts they got. This cannot be undone.",
        confirmLabel: "Delete",
        perform: (items) => {
          const codes = new Set(items.map((r) => r.code));
          run(
            (shown) => shown.filter((r) => !codes.has(r.code)),
            async () =>
              outcomeText(
                await forEachRow(items, (r) => send(`/shop/v1/discount-rules/${encodeURIComponent(r.code)}`, "DELETE", undefined)),
                { ...words, done: "deleted" },
                (r) => `“${r.title}”`,
              ),
          );
        },
      }),
    ];
  }, [run]);
  const { data, paginationInfo } = useMemo(() => filterSortAndPaginate(rows, view, fields), [rows, view, fields]);
  const deleted = new URLSearchParams(window.location.search).get("deleted");
  return (
    <>
      <ResultNotice result={result ?? (deleted ? { status: "success", text: `Discount rule “${deleted}” deleted.` } : null)} />
      <p className="admin-buttons">
        <a className="components-button is-primary admin-add-link" href="/wp-admin/discounts/new/">
          Add discount rule
        </a>
        <a className="components-button is-secondary admin-add-link" href="/wp-admin/discounts/simulate/">
          Promotion simulator
        </a>
      </p>
      <div className="admin-products">
        {list.error ? (
          <Notice status="error" isDismissible={false}>
            {list.error.message}
          </Notice>
        ) : null}
        <DataViews<RestRule>
          data={data}
          fields={fields}
          view={view}
          onChangeView={setView}
          actions={actions}
          getItemId={(item) => item.code}
          isLoading={list.loading}
          paginationInfo={paginationInfo}
          defaultLayouts={{ table: {}, list: {} }}
          search
          searchLabel="Search discount rules"
          renderItemLink={({ item, children, ...rest }) => (
            <a {...rest} href={ruleUrl(item)}>
              {children}
            </a>
          )}
        />
      </div>
    </>
  );
}
