/**
 * Popups (docs/contract/admin.md 'Popups'): every popup from `GET shop/v1/popups` with its figures from
 * `GET shop/v1/popups/stats` on `@wordpress/dataviews` (all popups at once, searched and sorted in the browser):
 * title (a link to the editor), status, triggers, impressions, conversions, conversion rate and revenue. Row
 * actions, on one popup or several: switch on or off (the popup read, then written back with `If-Match`) and delete
 * after a confirmation; the rows change at once and reconcile with the server (optimistic-rows.tsx). "Add popup"
 * opens an empty editor.
 */
import { useCallback, useEffect, useMemo, useState } from "react";
import { filterSortAndPaginate, type Action, type Field, type View } from "@wordpress/dataviews";
import "@wordpress/components/build-style/style.css";
import "@wordpress/dataviews/build-style/style.css";
import "./popups.css";
import { getWithHeaders, send, type RestError } from "./api.ts";
import { ListView } from "./ListView.tsx";
import { ResultNotice } from "./Status.tsx";
import { confirmedAction, forEachRow, outcomeText, useOptimisticRows } from "./optimistic-rows.tsx";
import { shopMoney } from "./orders-shared.ts";
import { useViewInAddress } from "./view-in-address.ts";
import type { PopupStatsRow, RestPopup } from "./popup-form.ts";
import { notAllowed, published } from "@wordpress/icons";

type Row = RestPopup & { stats: PopupStatsRow | null };

const TRIGGER_NAMES: Record<string, string> = {
  page_load: "On page load",
  scrolling: "On scroll",
  scrolling_to: "On scroll to element",
  click: "On clicks",
  inactivity: "After inactivity",
  exit_intent: "On exit intent",
  adblock_detection: "On ad-block detection",
};
/** The triggers in words; a popup with none opens only by a link action or its open selector. */
function triggersText(p: Pick<RestPopup, "triggers" | "display">): string {
  const names = Object.keys(p.triggers).map((k) => TRIGGER_NAMES[k] ?? k);
  if (p.display.open_selector) names.push("On click of selector");
  return names.length ? names.join(", ") : "Link action only";
}

const DEFAULT_VIEW: View = {
  type: "table",
  search: "",
  page: 1,
  perPage: 20,
  sort: { field: "id", direction: "asc" },
  titleField: "title",
  fields: ["status", "triggers", "impressions", "conversions", "conversion_rate", "revenue"],
  layout: {},
};
const popupUrl = (p: Row) => `/wp-admin/popups/${p.id}/`;

/** Every popup with its figures. */
async function readRows(): Promise<Row[]> {
  const [popups, stats] = await Promise.all([getWithHeaders<RestPopup[]>("/shop/v1/popups"), getWithHeaders<PopupStatsRow[]>("/shop/v1/popups/stats")]);
  const byId = new Map(stats.body.map((s) => [s.id, s]));
  return popups.body.map((p) => ({ ...p, stats: byId.get(p.id) ?? null }));
}

export default function PopupsScreen() {
  const { view, setView } = useViewInAddress(
    window.matchMedia("(max-width: 782px)").matches ? { ...DEFAULT_VIEW, type: "list", fields: ["status", "impressions", "conversions"] } : DEFAULT_VIEW,
  );
  const [loaded, setLoaded] = useState<Row[]>([]);
  const [error, setError] = useState<RestError | null>(null);
  const [loading, setLoading] = useState(true);
  const deleted = new URLSearchParams(window.location.search).get("deleted");

  const show = useCallback((read: Promise<Row[]>) => {
    return read.then(
      (rows) => {
        setLoaded(rows);
        setError(null);
        setLoading(false);
      },
      (e: RestError) => {
        setError(e);
        setLoading(false);
      },
    );
  }, []);
  useEffect(() => void show(readRows()), [show]);
  const reload = useCallback(() => show(readRows()), [show]);
  const { rows, result, run } = useOptimisticRows(loaded, reload);

  const fields = useMemo<Field<Row>[]>(
    () => [
      { id: "id", label: "ID", filterBy: false, enableHiding: false, getValue: ({ item }) => item.id },
      { id: "title", label: "Title", enableHiding: false, enableGlobalSearch: true, filterBy: false, getValue: ({ item }) => item.title },
      {
        id: "status",
        label: "Status",
        filterBy: false,
        getValue: ({ item }) => (item.enabled ? "Enabled" : "Disabled"),
        render: ({ item }) => <span className={`admin-popup-status is-${item.enabled ? "on" : "off"}`}>{item.enabled ? "Enabled" : "Disabled"}</span>,
      },
      { id: "triggers", label: "Triggers", enableSorting: false, filterBy: false, getValue: ({ item }) => triggersText(item) },
      { id: "impressions", label: "Impressions", type: "integer", filterBy: false, getValue: ({ item }) => item.stats?.impressions ?? 0 },
      { id: "conversions", label: "Conversions", type: "integer", filterBy: false, getValue: ({ item }) => item.stats?.conversions ?? 0 },
      {
        id: "conversion_rate",
        label: "Conversion rate",
        filterBy: false,
        getValue: ({ item }) => item.stats?.conversion_rate ?? 0,
        render: ({ item }) => <>{`${Math.round((item.stats?.conversion_rate ?? 0) * 1000) / 10}%`}</>,
      },
      {
        id: "revenue",
        label: "Revenue",
        filterBy: false,
        getValue: ({ item }) => item.stats?.revenue ?? 0,
        render: ({ item }) => <>{shopMoney(item.stats?.revenue ?? 0)}</>,
      },
    ],
    [],
  );

  const actions = useMemo<Action<Row>[]>(() => {
    const switchTo = (enabled: boolean) => (items: Row[]) => {
      const ids = new Set(items.map((p) => p.id));
      run(
        (shown) => shown.map((p) => (ids.has(p.id) ? { ...p, enabled } : p)),
        async () =>
          outcomeText(
            await forEachRow(items, async (item) => {
              // The popup as saved now, written back whole with its version: a PUT replaces every setting.
              const { body, headers } = await getWithHeaders<RestPopup>(`/shop/v1/popups/${item.id}`);
              const { id: _id, modified_gmt: _modified, ...settings } = body;
              await send(`/shop/v1/popups/${item.id}`, "PUT", { ...settings, enabled }, { "If-Match": headers.get("ETag") ?? "" });
            }),
            { one: "popup", many: "popups", done: enabled ? "enabled" : "disabled" },
            (p) => `“${p.title}”`,
          ),
      );
    };
    return [
      { id: "edit", label: "Edit", isPrimary: true, callback: ([item]) => item && window.location.assign(popupUrl(item)) },
      { id: "enable", label: "Enable", icon: published, supportsBulk: true, isEligible: (item) => !item.enabled, callback: switchTo(true) },
      { id: "disable", label: "Disable", icon: notAllowed, supportsBulk: true, isEligible: (item) => item.enabled, callback: switchTo(false) },
      confirmedAction<Row>({
        id: "delete",
        label: "Delete",
        question: (items) => (items.length === 1 ? `Delete popup “${items[0]!.title}”?` : `Delete ${items.length} popups?`),
        warning: "The storefront stops showing them at once, and their figures go with them. This cannot be undone.",
        confirmLabel: "Delete",
        perform: (items) => {
          const ids = new Set(items.map((p) => p.id));
          run(
            (shown) => shown.filter((p) => !ids.has(p.id)),
            async () =>
              outcomeText(
                await forEachRow(items, (p) => send(`/shop/v1/popups/${p.id}`, "DELETE", undefined)),
                { one: "popup", many: "popups", done: "deleted" },
                (p) => `“${p.title}”`,
              ),
          );
        },
      }),
    ];
  }, [run]);

  const shown = filterSortAndPaginate(rows, view, fields);
  return (
    <>
      <ResultNotice result={result ?? (deleted ? { status: "success", text: `Popup “${deleted}” deleted.` } : null)} />
      <p>
        <a className="components-button is-primary admin-add-link" href="/wp-admin/popups/new/">
          Add popup
        </a>
      </p>
      <ListView<Row>
        list={{ items: shown.data, totals: shown.paginationInfo, error, loading }}
        otherError={null}
        fields={fields}
        view={view}
        onChangeView={setView}
        actions={actions}
        searchLabel="Search popups"
        itemUrl={popupUrl}
      />
    </>
  );
}
