/**
 * A list's view in the address (issue 14; docs/contract/admin.md 'The list's view in the address'): the page, search,
 * sort and filters of a DataViews list, and a screen's own choices (a status tab, a date range), are written to the
 * query string — `paged`, `s`, `orderby`, `order`, `per_page`, one parameter per filter (`stock_status=instock`,
 * `categories=3,7`) and the screen's keys — so a reload shows the same rows and back/forward walk the views.
 * A new page, filter, sort, tab or date adds a history entry; typing in the search replaces the current one (not an
 * entry per key typed). What only changes the layout (table or list, columns) stays out of the address.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { Filter, View } from "@wordpress/dataviews";

/**
 * A filter on a number or a date kept as two parameters, a lower and an upper bound (`total_spend_min=100`,
 * `last_order_before=2026-11-01`): the operator that writes each, and whether both at once are DataViews' `between`.
 * Only values of the kind (a number, or a day as YYYY-MM-DD) are read back.
 */
export interface RangeInAddress {
  kind: "number" | "date";
  low: [operator: string, key: string];
  high: [operator: string, key: string];
  between?: boolean;
}

/** The filters a list offers: DataViews' operator (`isAny` values are comma-separated; digits read back as numbers), or a range. */
type FilterOperators = Record<string, "is" | "isAny" | RangeInAddress>;

/** A range filter's bounds as parameters (`{ total_spend_min: "100" }`), for the address and for the API alike. */
export function rangeParams(view: View, field: string, range: RangeInAddress): Record<string, string> {
  const f = view.filters?.find((x) => x.field === field);
  const text = (v: unknown) => (v === undefined || v === null || v === "" ? undefined : String(v));
  const out: Record<string, string> = {};
  const put = (key: string, v: unknown) => {
    const t = text(v);
    if (t !== undefined) out[key] = t;
  };
  if (!f) return out;
  if (f.operator === range.low[0]) put(range.low[1], f.value);
  else if (f.operator === range.high[0]) put(range.high[1], f.value);
  else if (f.operator === "between" && range.between && Array.isArray(f.value)) {
    put(range.low[1], f.value[0]);
    put(range.high[1], f.value[1]);
  }
  return out;
}

/** A range filter read from the address, or null. */
function rangeOf(p: URLSearchParams, field: string, range: RangeInAddress): Filter | null {
  const read = (key: string) => {
    const raw = p.get(key);
    if (raw === null || raw === "") return undefined;
    if (range.kind === "date") return /^\d{4}-\d{2}-\d{2}$/.test(raw) ? raw : undefined;
    return /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : undefined;
  };
  const low = read(range.low[1]);
  const high = read(range.high[1]);
  if (low !== undefined && high !== undefined && range.between) return { field, operator: "between", value: [low, high] };
  if (low !== undefined) return { field, operator: range.low[0] as Filter["operator"], value: low };
  if (high !== undefined) return { field, operator: range.high[0] as Filter["operator"], value: high };
  return null;
}

export interface AddressView {
  view: View;
  /** The screen's own keys (a status tab, dates): "" when absent. */
  extra: Record<string, string>;
}

/** The query string (with its "?", or "") for a view: only what differs from `initial`. */
export function addressOf(state: AddressView, initial: View, filters: FilterOperators): string {
  const p = new URLSearchParams();
  const { view } = state;
  if ((view.page ?? 1) !== 1) p.set("paged", String(view.page));
  if (view.search) p.set("s", view.search);
  if (view.sort && (view.sort.field !== initial.sort?.field || view.sort.direction !== initial.sort?.direction)) {
    p.set("orderby", view.sort.field);
    p.set("order", view.sort.direction);
  }
  if (view.perPage !== undefined && view.perPage !== initial.perPage) p.set("per_page", String(view.perPage));
  for (const f of view.filters ?? []) {
    const spec = filters[f.field];
    if (typeof spec === "object") {
      for (const [key, value] of Object.entries(rangeParams(view, f.field, spec))) p.set(key, value);
      continue;
    }
    if (!spec || f.value === undefined || f.value === null || f.value === "") continue;
    const value = Array.isArray(f.value) ? (f.value as unknown[]).join(",") : String(f.value);
    if (value) p.set(f.field, value);
  }
  for (const [key, value] of Object.entries(state.extra)) if (value) p.set(key, value);
  const s = p.toString();
  return s ? `?${s}` : "";
}

/** The view an address asks for, over `base` (its layout and columns kept); unknown or malformed values are left out. */
export function viewOf(search: string, base: View, initial: View, filters: FilterOperators, extraKeys: readonly string[]): AddressView {
  const p = new URLSearchParams(search);
  const page = Number(p.get("paged"));
  const perPage = Number(p.get("per_page"));
  const order = p.get("order");
  const orderby = p.get("orderby");
  const chosen: Filter[] = [];
  for (const [field, operator] of Object.entries(filters)) {
    if (typeof operator === "object") {
      const range = rangeOf(p, field, operator);
      if (range) chosen.push(range);
      continue;
    }
    const raw = p.get(field);
    if (!raw) continue;
    const value = operator === "isAny" ? raw.split(",").map((v) => (/^\d+$/.test(v) ? Number(v) : v)) : raw;
    chosen.push({ field, operator, value });
  }
  const view: View = {
    ...base,
    page: Number.isInteger(page) && page > 0 ? page : 1,
    search: p.get("s") ?? "",
    perPage: Number.isInteger(perPage) && perPage > 0 && perPage <= 100 ? perPage : initial.perPage,
    ...(orderby && (order === "asc" || order === "desc") ? { sort: { field: orderby, direction: order } } : initial.sort ? { sort: initial.sort } : {}),
    ...(Object.keys(filters).length || base.filters ? { filters: chosen } : {}),
  } as View;
  return { view, extra: Object.fromEntries(extraKeys.map((k) => [k, p.get(k) ?? ""])) };
}

/** `next`'s filters with each range filter's value put back as `was` had it when only that value changed (typing in it). */
function typedOver(was: View, next: View, filters: FilterOperators): View["filters"] {
  return next.filters?.map((f) => {
    const before = was.filters?.find((x) => x.field === f.field);
    return typeof filters[f.field] === "object" && before && before.operator === f.operator ? { ...f, value: before.value } : f;
  });
}

/**
 * The view and the screen's keys, read from the address at first and after back/forward, written to it on change.
 * `restored` counts back/forward moves: a screen keys its uncontrolled widgets (a TabPanel's tab) on it.
 */
export function useViewInAddress(initial: View, options: { filters?: FilterOperators; extra?: readonly string[] } = {}) {
  const [config] = useState(() => {
    const filters = options.filters ?? {};
    const extraKeys = options.extra ?? [];
    return { first: initial, filters, extraKeys, start: viewOf(window.location.search, initial, initial, filters, extraKeys) };
  });
  const [state, setState] = useState<AddressView>(config.start);
  const [restored, setRestored] = useState(0);
  /** The state last set (by a change or a back/forward move): a functional update starts from it. */
  const current = useRef(config.start);

  useEffect(() => {
    const onPop = () => {
      const next = viewOf(window.location.search, current.current.view, config.first, config.filters, config.extraKeys);
      current.current = next;
      setState(next);
      setRestored((n) => n + 1);
    };
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, [config]);

  const change = useCallback(
    (next: AddressView) => {
      const was = current.current;
      current.current = next;
      setState(next);
      const address = addressOf(next, config.first, config.filters);
      if (address === window.location.search) return;
      // Only the search text, or the number typed in a range filter already there, changed: the entry is replaced, so
      // back does not walk through each key typed.
      const typing =
        addressOf(
          { ...next, view: { ...next.view, search: was.view.search, filters: typedOver(was.view, next.view, config.filters) } },
          config.first,
          config.filters,
        ) === window.location.search;
      const url = `${window.location.pathname}${address}${window.location.hash}`;
      if (typing) window.history.replaceState(window.history.state, "", url);
      else window.history.pushState(null, "", url);
    },
    [config],
  );
  const setView = useCallback(
    (v: View | ((old: View) => View)) => change({ ...current.current, view: typeof v === "function" ? v(current.current.view) : v }),
    [change],
  );
  /** Sets the screen's own keys (and the view with them, e.g. back to page 1). */
  const setExtra = useCallback(
    (extra: Record<string, string>, view?: (old: View) => View) =>
      change({ view: view ? view(current.current.view) : current.current.view, extra: { ...current.current.extra, ...extra } }),
    [change],
  );
  return { view: state.view, extra: state.extra, setView, setExtra, restored };
}
