/**
 * A product listing's address (shop or category archive) parsed into the normalised query
 * the server turns into SQL (docs/contract/storefront.md §2 'Product listing', §7 'Listings'). Lenient by design: a bad
 * value falls back to the default rather than failing the page, as WooCommerce does.
 */
import { MAX_LISTING_PAGE, MAX_SEARCH_LENGTH, type ORDERBY_VALUES, type VIEW_VALUES } from "./settings.ts";
import type { PriceFilterQuery } from "./price-filter.ts";

export type Orderby = (typeof ORDERBY_VALUES)[number];
export type ListingView = (typeof VIEW_VALUES)[number];

export interface ListingQuery {
  readonly orderby: Orderby;
  /** 1-based page. */
  readonly page: number;
  readonly view: ListingView;
  /** Normalised search term, or null for no search. */
  readonly search: string | null;
  readonly price: PriceFilterQuery;
}

export interface SortKey {
  readonly key: "menu_order" | "title" | "total_sales" | "average_rating" | "rating_count" | "date" | "min_price" | "max_price" | "id";
  readonly direction: "asc" | "desc";
}

/** WooCommerce's ordering for each orderby value, tie-breakers included so pages are stable. */
export const ORDERBY_SORT: Readonly<Record<Orderby, readonly SortKey[]>> = Object.freeze({
  menu_order: [
    { key: "menu_order", direction: "asc" },
    { key: "title", direction: "asc" },
    { key: "id", direction: "asc" },
  ],
  popularity: [
    { key: "total_sales", direction: "desc" },
    { key: "id", direction: "desc" },
  ],
  rating: [
    { key: "average_rating", direction: "desc" },
    { key: "rating_count", direction: "desc" },
    { key: "id", direction: "desc" },
  ],
  date: [
    { key: "date", direction: "desc" },
    { key: "id", direction: "desc" },
  ],
  price: [
    { key: "min_price", direction: "asc" },
    { key: "id", direction: "asc" },
  ],
  "price-desc": [
    { key: "max_price", direction: "desc" },
    { key: "id", direction: "desc" },
  ],
});

const PAGE_TEXT = /^[1-9][0-9]*$/;

/** A page number: a positive integer written plainly ('2', not '02', '2.0', '+2' or '1e3'); else null. */
export function parsePageNumber(text: string | null | undefined): number | null {
  if (text === null || text === undefined || !PAGE_TEXT.test(text)) return null;
  const page = Number(text);
  return page <= MAX_LISTING_PAGE ? page : null;
}

export const PAGE_SEGMENT = /\/page\/([^/]*)\/?$/;

/**
 * Splits `{listing path}/page/{n}/` into the listing path and the page. `page` is 1 without a
 * page segment and null when the segment is there but not a valid page (the server may 404).
 */
export function pageFromPath(pathname: string): { basePath: string; page: number | null } {
  const match = PAGE_SEGMENT.exec(pathname);
  if (!match) return { basePath: pathname, page: 1 };
  return { basePath: pathname.slice(0, match.index) + "/", page: parsePageNumber(match[1]) };
}

/**
 * Trims, NFC-normalises, drops control characters, collapses runs of white space and cuts to
 * MAX_SEARCH_LENGTH characters (never inside a surrogate pair). Empty → null.
 */
export function normalizeSearch(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const cleaned = raw
    .normalize("NFC")
    .replace(/[\p{Cc}\p{Cf}]/gu, " ")
    .replace(/\s+/gu, " ")
    .trim();
  const cut = Array.from(cleaned).slice(0, MAX_SEARCH_LENGTH).join("").trim();
  return cut === "" ? null : cut;
}
