/**
 * The product loop: the list of `li.product` items and its pagination. `LoopMarkup` is the
 * static form the refresh-loop endpoint renders; `ProductLoop` is the same markup in the page,
 * with infinite loading (docs/contract/storefront.md §4 'Infinite listing', §7 'Listings') added in the browser.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { ProductCard } from "../product/ProductCard.tsx";
import type { LoopData } from "./types.ts";

export type InfiniteMode = "click" | "scroll";

/** Items in the grid's widest row (`ul.products`: 4 columns from 922 px): the first row is loaded eagerly. */
const FIRST_ROW = 4;

export interface LoopSettings {
  pagination: "infinite" | "number";
  mode: InfiniteMode;
  noMoreText: string;
  fadeUpDelayMs: number;
}

export function pageHref(basePath: string, n: number, query: string): string {
  return `${basePath}${n > 1 ? `page/${n}/` : ""}${query}`;
}

/** "Showing 1–12 of 43 results", WooCommerce's wording. */
export function resultCountText(first: number, last: number, total: number): string {
  if (total === 0) return "No products were found matching your selection.";
  if (total === 1) return "Showing the single result";
  if (first === 1 && last >= total) return `Showing all ${total} results`;
  return `Showing ${first}–${Math.min(total, last)} of ${total} results`;
}

/** 1 … 4 5 [6] 7 8 … 417: the first, the last and two either side of the current page. */
export function pageWindow(current: number, total: number): (number | null)[] {
  const pages: (number | null)[] = [];
  for (let n = 1; n <= total; n++) {
    if (n === 1 || n === total || Math.abs(n - current) <= 2) pages.push(n);
    else if (pages[pages.length - 1] !== null) pages.push(null);
  }
  return pages;
}

interface PaginationProps {
  data: Pick<LoopData, "basePath" | "query" | "page" | "totalPages">;
  settings: LoopSettings;
  nextPage: number;
  finished: boolean;
  loading?: boolean;
  onLoadMore?: (e: React.MouseEvent<HTMLAnchorElement>) => void;
}

export function LoopPagination({ data, settings, nextPage, finished, loading = false, onLoadMore }: PaginationProps) {
  const { basePath, query, page, totalPages } = data;
  if (settings.pagination === "number") {
    if (totalPages <= 1) return null;
    return (
      <nav className="woocommerce-pagination" aria-label="Product Pagination">
        <ul className="page-numbers">
          {page > 1 ? (
            <li>
              <a className="prev page-numbers" href={pageHref(basePath, page - 1, query)} rel="prev">
                <span className="dir-arrow" aria-hidden="true">
                  ←
                </span>{" "}
                Previous
              </a>
            </li>
          ) : null}
          {pageWindow(page, totalPages).map((n, i) => (
            <li key={n ?? `gap-${i}`}>
              {n === null ? (
                <span className="page-numbers dots">…</span>
              ) : n === page ? (
                <span aria-current="page" className="page-numbers current">
                  {n}
                </span>
              ) : (
                <a className="page-numbers" href={pageHref(basePath, n, query)}>
                  {n}
                </a>
              )}
            </li>
          ))}
          {page < totalPages ? (
            <li>
              <a className="next page-numbers" href={pageHref(basePath, page + 1, query)} rel="next">
                Next{" "}
                <span className="dir-arrow" aria-hidden="true">
                  →
                </span>
              </a>
            </li>
          ) : null}
        </ul>
      </nav>
    );
  }
  if (finished) {
    return (
      <nav className="ast-pagination-infinite" aria-label="Product Pagination">
        <p className="ast-load-more-msg" role="status">
          {settings.noMoreText}
        </p>
      </nav>
    );
  }
  if (nextPage > totalPages) {
    // Without JavaScript a later page still links back.
    return page > 1 ? (
      <nav className="ast-pagination-infinite" aria-label="Product Pagination">
        <a className="prev page-numbers" href={pageHref(basePath, page - 1, query)} rel="prev">
          <span className="dir-arrow" aria-hidden="true">
            ←
          </span>{" "}
          Previous
        </a>
      </nav>
    ) : null;
  }
  return (
    <nav className="ast-pagination-infinite" aria-label="Product Pagination" data-infinite-event={settings.mode} data-shop-infinite-total={totalPages}>
      {page > 1 ? (
        <a className="prev page-numbers" href={pageHref(basePath, page - 1, query)} rel="prev">
          <span className="dir-arrow" aria-hidden="true">
            ←
          </span>{" "}
          Previous
        </a>
      ) : null}
      <span className={`ast-loader${loading ? " is-loading" : ""}`} role="status" aria-label={loading ? "Loading more products" : undefined} hidden={!loading}>
        <span />
        <span />
        <span />
      </span>
      <a
        className="ast-load-more next page-numbers"
        href={pageHref(basePath, nextPage, query)}
        rel="next"
        data-page={nextPage}
        onClick={onLoadMore}
        aria-disabled={loading || undefined}
      >
        Load More
      </a>
    </nav>
  );
}

/** What the refresh-loop endpoint answers: the loop, with its counts as data attributes. */
export function LoopMarkup({ data, settings }: { data: LoopData; settings: LoopSettings }) {
  return (
    <div
      className="listing-loop"
      data-total={data.total}
      data-page={data.page}
      data-per-page={data.perPage}
      data-pages={data.totalPages}
      data-base={data.basePath}
      data-query={data.query}
    >
      <ul className={`products columns-4 view-${data.view}`}>
        {data.items.map((p) => (
          <ProductCard key={p.id} product={p} extras={data.extras[p.id]} />
        ))}
      </ul>
      <LoopPagination data={data} settings={settings} nextPage={data.page + 1} finished={false} />
    </div>
  );
}

/** A `li.product` taken from fetched markup. */
export interface LoopItemHtml {
  key: string;
  className: string;
  html: string;
}

/** The loop's items and counts read back from a page or a refresh-loop answer. */
export function readLoopHtml(html: string): { items: LoopItemHtml[]; meta: Omit<LoopData, "items" | "extras" | "view"> | null } {
  const doc = new DOMParser().parseFromString(html, "text/html");
  const items = [...doc.querySelectorAll<HTMLLIElement>("ul.products > li.product")].map((li, i) => ({
    key: `${li.className.match(/post-(\d+)/)?.[1] ?? i}`,
    className: li.className,
    html: li.innerHTML,
  }));
  const loop = doc.querySelector<HTMLElement>(".listing-loop");
  const meta = loop
    ? {
        total: Number(loop.dataset.total),
        page: Number(loop.dataset.page),
        perPage: Number(loop.dataset.perPage),
        totalPages: Number(loop.dataset.pages),
        basePath: loop.dataset.base ?? "/shop/",
        query: loop.dataset.query ?? "",
      }
    : null;
  return { items, meta };
}

export type LoopSource = { kind: "data"; data: LoopData } | { kind: "html"; meta: Omit<LoopData, "items" | "extras" | "view">; items: LoopItemHtml[] };

interface ProductLoopProps {
  source: LoopSource;
  view: "grid" | "list";
  settings: LoopSettings;
  /** first and last item shown, and the total: for the result count. */
  onShown: (first: number, last: number, total: number) => void;
}

export function ProductLoop({ source, view, settings, onShown }: ProductLoopProps) {
  const meta = source.kind === "data" ? source.data : source.meta;
  const [extra, setExtra] = useState<(LoopItemHtml & { shown: boolean })[]>([]);
  const [nextPage, setNextPage] = useState(meta.page + 1);
  const [loading, setLoading] = useState(false);
  const [finished, setFinished] = useState(false);
  const busy = useRef(false);
  const listRef = useRef<HTMLUListElement>(null);
  const firstCount = source.kind === "data" ? source.data.items.length : source.items.length;

  const loadMore = useCallback(async () => {
    // One request at a time, and only while the page count has not passed the total.
    if (busy.current || nextPage > meta.totalPages) return;
    busy.current = true;
    setLoading(true);
    try {
      const response = await fetch(pageHref(meta.basePath, nextPage, meta.query), { credentials: "same-origin", headers: { Accept: "text/html" } });
      if (!response.ok) throw new Error(`status ${response.status}`);
      const { items } = readLoopHtml(await response.text());
      const stamp = `p${nextPage}-`;
      setExtra((prev) => [...prev, ...items.map((it) => ({ ...it, key: stamp + it.key, shown: false }))]);
      // New items fade up after the spec's delay.
      window.setTimeout(() => setExtra((prev) => prev.map((it) => (it.shown ? it : { ...it, shown: true }))), settings.fadeUpDelayMs);
      const after = nextPage + 1;
      setNextPage(after);
      if (after > meta.totalPages) setFinished(true);
      // `busy` stays set until the new items are in the page (the layout effect below): a scroll check already
      // scheduled still sees the old last product at the bottom, and would ask for this same page again.
    } catch {
      // Keep the button: the shopper can try again, or follow the link without JavaScript.
      busy.current = false;
    } finally {
      setLoading(false);
    }
  }, [nextPage, meta.basePath, meta.query, meta.totalPages, settings.fadeUpDelayMs]);

  // The loaded page's items (or, for an empty page, the next page number) are in the DOM: the next load may start.
  useLayoutEffect(() => {
    busy.current = false;
  }, [extra.length, nextPage]);

  useEffect(() => {
    const first = (meta.page - 1) * meta.perPage + 1;
    onShown(first, first + firstCount + extra.length - 1, meta.total);
  }, [extra.length, firstCount, meta.page, meta.perPage, meta.total, onShown]);

  // Scroll mode: load when the last product's bottom edge reaches the bottom of the viewport
  // (an IntersectionObserver would fire as soon as its top edge peeks in, too early).
  useEffect(() => {
    if (settings.pagination !== "infinite" || settings.mode !== "scroll" || finished || nextPage > meta.totalPages) return;
    let frame = 0;
    const check = () => {
      frame = 0;
      const last = listRef.current?.lastElementChild;
      if (last && last.getBoundingClientRect().bottom <= window.innerHeight) void loadMore();
    };
    const schedule = () => {
      if (!frame) frame = window.requestAnimationFrame(check);
    };
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule);
    // Also now: a short page, or new items that still leave the last one in view.
    schedule();
    return () => {
      window.removeEventListener("scroll", schedule);
      window.removeEventListener("resize", schedule);
      if (frame) window.cancelAnimationFrame(frame);
    };
  }, [settings.pagination, settings.mode, finished, nextPage, meta.totalPages, extra.length, loadMore]);

  const onLoadMore = (e: React.MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    void loadMore();
  };

  return (
    <div
      className="listing-loop"
      data-total={meta.total}
      data-page={meta.page}
      data-per-page={meta.perPage}
      data-pages={meta.totalPages}
      data-base={meta.basePath}
      data-query={meta.query}
    >
      <ul ref={listRef} className={`products columns-4 view-${view}`}>
        {source.kind === "data"
          ? source.data.items.map((p, i) => <ProductCard key={p.id} product={p} extras={source.data.extras[p.id]} priority={i < FIRST_ROW} />)
          : source.items.map((it) => <li key={it.key} className={it.className} dangerouslySetInnerHTML={{ __html: it.html }} />)}
        {extra.map((it) => (
          <li key={it.key} className={`${it.className} ast-fade-up${it.shown ? " is-shown" : ""}`} dangerouslySetInnerHTML={{ __html: it.html }} />
        ))}
      </ul>
      <LoopPagination data={meta} settings={settings} nextPage={nextPage} finished={finished} loading={loading} onLoadMore={onLoadMore} />
    </div>
  );
}
