/**
 * Discount rules (docs/contract/admin.md 'Discount rules'): the pricing engine's rules from `GET
 * shop/v1/discount-rules` (all of them: a shop has tens, not thousands), in the engine's order, on
 * `@wordpress/dataviews` — searched, sorted and paged in the browser: name (a link to the editor), code, kind, status
 * (published, draft, scheduled, ended) and schedule. "Add discount rule" opens an empty editor.
 */
import { useMemo, useState } from "react";
import { DataViews, filterSortAndPaginate, type Field, type View } from "@wordpress/dataviews";
import "@wordpress/components/build-style/style.css";
import "@wordpress/dataviews/build-style/style.css";
import "./admin-screens.css";
import { Notice } from "@wordpress/components";
import { usePagedList } from "./use-paged-list.ts";
import { ResultNotice } from "./Status.tsx";
import { kindLabel, type RestRule } from "./discount-form.ts";

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
  const [view, setView] = useState<View>(() =>
    window.matchMedia("(max-width: 782px)").matches ? { ...DEFAULT_VIEW, type: "list", fields: ["kind", "status"] } : DEFAULT_VIEW,
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
  const { data, paginationInfo } = useMemo(() => filterSortAndPaginate(list.items, view, fields), [list.items, view, fields]);
  const deleted = new URLSearchParams(window.location.search).get("deleted");
  return (
    <>
      <ResultNotice result={deleted ? { status: "success", text: `Discount rule “${deleted}” deleted.` } : null} />
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
          actions={[]}
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
