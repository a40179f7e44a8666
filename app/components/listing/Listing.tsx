/**
 * The product listing page body: toolbar (result count, view toggle, sort), the off-canvas
 * filter sidebar (price slider, taxonomy filters) and the product loop. Taxonomy filters
 * are written into the address (e-filter-{widgetId}-{taxonomy}) with a history push and the
 * loop refreshed in place through refresh-loop (docs/contract/storefront.md §4 'Listing filters', §7 'Listings').
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { Form, useSubmit } from "react-router";
import {
  consolidateFilters,
  paginationBaseUrl,
  writeWidgetFilters,
  type LogicalJoin,
  type WidgetFilters,
} from "../../../core/domain/catalog/listing-filters.ts";
import { ORDER_OPTIONS, LISTING_WIDGET_ID, VIEW_COOKIE, VIEW_COOKIE_MAX_AGE, type ListingOrder } from "../../lib/listing-params.ts";
import { FilterSidebar, FilterWidget } from "./FilterSidebar.tsx";
import { PriceSlider } from "./PriceSlider.tsx";
import { ProductLoop, readLoopHtml, resultCountText, type LoopSettings, type LoopSource } from "./Loop.tsx";
import type { LoopData } from "./types.ts";

export const REFRESH_LOOP_PATH = "/wp-json/elementor-pro/v1/refresh-loop";

export interface TaxonomyFilterView {
  taxonomy: string;
  label: string;
  logicalJoin: LogicalJoin;
  terms: { slug: string; name: string; color: string | null }[];
}

export interface ListingProps {
  postId: number;
  loop: LoopData;
  settings: LoopSettings;
  orderby: ListingOrder;
  /** taxonomy → chosen terms, from the address. */
  selected: Record<string, string[]>;
  filterWidgets: TaxonomyFilterView[];
  price: { bounds: { min: number; max: number }; current: { min: number | null; max: number | null } };
  resultCountReannounceMs: number;
}

type Selected = Record<string, string[]>;

function widgetFiltersOf(selected: Selected, widgets: TaxonomyFilterView[]): WidgetFilters {
  const filters: Record<string, WidgetFilters[string]> = {};
  for (const w of widgets) {
    const terms = selected[w.taxonomy] ?? [];
    if (terms.length) filters[w.taxonomy] = { filterType: "taxonomy", filterData: { terms, selectedTaxonomy: w.taxonomy, logicalJoin: w.logicalJoin } };
  }
  return filters;
}

/** The listing address with one widget's filters written in; page and paged dropped (a filter change starts at page one). */
export function filterHref(basePath: string, query: string, selected: Selected, widgets: TaxonomyFilterView[]): string {
  const params = new URLSearchParams(query);
  params.delete("paged");
  params.delete("page");
  const next = writeWidgetFilters(params, LISTING_WIDGET_ID, consolidateFilters(widgetFiltersOf(selected, widgets))).toString();
  return `${basePath}${next ? `?${next}` : ""}`;
}

function toggled(selected: Selected, taxonomy: string, slug: string): Selected {
  const current = selected[taxonomy] ?? [];
  return { ...selected, [taxonomy]: current.includes(slug) ? current.filter((s) => s !== slug) : [...current, slug] };
}

/** A history entry key as React Router makes them (random, 8 base-36 characters); called from event handlers only. */
const historyKey = () => Math.random().toString(36).slice(2, 10);

/** The result count, a live region; re-announced a while after each change so it is not lost in the DOM update. */
function ResultCount({ text, delayMs }: { text: string; delayMs: number }) {
  const [shown, setShown] = useState(text);
  const [announced, setAnnounced] = useState(0);
  // A new text is shown at once (during render, not in an effect); the effect only schedules the re-announcement.
  const [current, setCurrent] = useState(text);
  if (current !== text) {
    setCurrent(text);
    setShown(text);
  }
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const timer = window.setTimeout(() => {
      setShown("");
      window.requestAnimationFrame(() => {
        setShown(text);
        setAnnounced((n) => n + 1);
      });
    }, delayMs);
    return () => window.clearTimeout(timer);
  }, [text, delayMs]);
  return (
    <p className="woocommerce-result-count" role="status" aria-live="polite" data-announced={announced}>
      {shown}
    </p>
  );
}

export function Listing(props: ListingProps) {
  const { loop, settings, filterWidgets, price, postId } = props;
  const submit = useSubmit();
  const [view, setView] = useState(loop.view);
  const [selected, setSelected] = useState<Selected>(props.selected);
  const [query, setQuery] = useState(loop.query);
  const [source, setSource] = useState<LoopSource>({ kind: "data", data: loop });
  const [generation, setGeneration] = useState(0);
  const [refreshing, setRefreshing] = useState(false);
  const [count, setCount] = useState(() => resultCountText((loop.page - 1) * loop.perPage + 1, (loop.page - 1) * loop.perPage + loop.items.length, loop.total));
  const request = useRef<AbortController | null>(null);
  const onShown = useCallback((first: number, last: number, total: number) => setCount(resultCountText(first, last, total)), []);

  const applyFilters = async (next: Selected, e: React.MouseEvent | React.KeyboardEvent) => {
    e.preventDefault();
    const href = filterHref(loop.basePath, query, next, filterWidgets);
    setSelected(next);
    setQuery(href.includes("?") ? href.slice(href.indexOf("?")) : "");
    // Same shape as React Router's own entries, so back and forward go through its loader.
    const state = window.history.state as { idx?: number } | null;
    window.history.pushState({ usr: null, key: historyKey(), idx: (state?.idx ?? 0) + 1 }, "", href);
    request.current?.abort();
    const controller = new AbortController();
    request.current = controller;
    setRefreshing(true);
    try {
      const response = await fetch(REFRESH_LOOP_PATH, {
        method: "POST",
        credentials: "same-origin",
        signal: controller.signal,
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({
          post_id: postId,
          widget_filters: consolidateFilters(widgetFiltersOf(next, filterWidgets)),
          widget_id: LISTING_WIDGET_ID,
          pagination_base_url: paginationBaseUrl(window.location.href),
        }),
      });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const body = (await response.json()) as { data?: unknown };
      if (typeof body.data !== "string") throw new Error("no data");
      const { items, meta } = readLoopHtml(body.data);
      if (!meta) throw new Error("no loop");
      setSource({ kind: "html", meta, items });
      setGeneration((g) => g + 1);
    } catch {
      // docs/contract/storefront.md §8: a failed refresh is silent; the old markup stays.
    } finally {
      if (request.current === controller) {
        request.current = null;
        setRefreshing(false);
      }
    }
  };

  const chooseView = (v: "grid" | "list") => (e: React.MouseEvent) => {
    e.preventDefault();
    document.cookie = `${VIEW_COOKIE}=${v}; Path=/; Max-Age=${VIEW_COOKIE_MAX_AGE}; SameSite=Lax`;
    setView(v);
  };

  // Nothing found: no sorting or view choice for nothing; the filters stay only when some are chosen (to undo them).
  const empty = (source.kind === "data" ? source.data.total : source.meta.total) === 0;
  const filtered = Object.values(selected).some((terms) => terms.length > 0) || price.current.min !== null || price.current.max !== null;

  const keep = [...new URLSearchParams(query).entries()].filter(([k]) => !["min_price", "max_price", "paged", "page"].includes(k));
  const sortKeep = [...new URLSearchParams(query).entries()].filter(([k]) => !["orderby", "paged", "page"].includes(k));
  const viewHref = (v: string) => {
    const p = new URLSearchParams(query);
    p.set("view", v);
    return `?${p}`;
  };

  return (
    <div className={`listing-body${refreshing ? " e-loading" : ""}`}>
      <ResultCount text={count} delayMs={props.resultCountReannounceMs} />
      {empty && !filtered ? null : (
        <div className="listing-toolbar ast-shop-toolbar-container">
          <FilterSidebar>
            <FilterWidget title="Filter by price">
              <PriceSlider bounds={price.bounds} current={price.current} action={loop.basePath} keep={keep} />
            </FilterWidget>
            {filterWidgets.map((w) => (
              <FilterWidget key={w.taxonomy} title={w.label}>
                <ul className={`e-filter e-filter-${w.taxonomy}`} data-taxonomy={w.taxonomy} data-logical-join={w.logicalJoin}>
                  {w.terms.map((t) => {
                    const on = (selected[w.taxonomy] ?? []).includes(t.slug);
                    const next = toggled(selected, w.taxonomy, t.slug);
                    return (
                      <li key={t.slug}>
                        <a
                          className={`e-filter-item${on ? " is-selected" : ""}`}
                          href={filterHref(loop.basePath, query, next, filterWidgets)}
                          role="checkbox"
                          aria-checked={on}
                          data-filter={t.slug}
                          onClick={(e) => void applyFilters(next, e)}
                          onKeyDown={(e) => {
                            if (e.key === " ") void applyFilters(next, e);
                          }}
                        >
                          {t.color ? <span className="e-filter-swatch" style={{ backgroundColor: t.color }} aria-hidden="true" /> : null}
                          {t.name}
                        </a>
                      </li>
                    );
                  })}
                </ul>
              </FilterWidget>
            ))}
          </FilterSidebar>
          {empty ? null : (
            <>
              <div className="ast-view-toggle" role="group" aria-label="Product view">
                {(["grid", "list"] as const).map((v) => (
                  <a
                    key={v}
                    href={viewHref(v)}
                    data-view={v}
                    className={`ast-view-trigger view-${v}${view === v ? " active" : ""}`}
                    aria-pressed={view === v}
                    role="button"
                    onClick={chooseView(v)}
                  >
                    {v === "grid" ? "Grid" : "List"}
                    <span className="screen-reader-text"> view</span>
                  </a>
                ))}
              </div>
              <Form method="get" action={loop.basePath} className="woocommerce-ordering" onChange={(e) => submit(e.currentTarget)}>
                <label htmlFor="orderby" className="screen-reader-text">
                  Shop order
                </label>
                <select name="orderby" id="orderby" className="orderby" defaultValue={props.orderby} aria-label="Shop order">
                  {ORDER_OPTIONS.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </select>
                {sortKeep.map(([k, v], i) => (
                  <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
                ))}
                <noscript>
                  <button type="submit">Sort</button>
                </noscript>
              </Form>
            </>
          )}
        </div>
      )}
      <div className="listing-loop-wrap">
        {refreshing ? <div className="e-loading-overlay" aria-hidden="true" /> : null}
        <ProductLoop key={generation} source={source} view={view} settings={settings} onShown={onShown} />
      </div>
    </div>
  );
}
