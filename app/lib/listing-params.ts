/**
 * The listing's address vocabulary shared by the page, the refresh-loop endpoint and the
 * browser: sort labels, the filter widgets, the view cookie. Parsing itself is the domain's
 * (core/domain/catalog/listing-query.ts, listing-filters.ts); this file only names our choices.
 */
// Single modules, not the index (which carries zod schemas): every page's bundle imports this file.
import { paginationBaseUrl, type LogicalJoin } from "../../core/domain/catalog/listing-filters.ts";
import { parsePageNumber, type Orderby } from "../../core/domain/catalog/listing-query.ts";

export type ListingOrder = Orderby;

export const ORDER_OPTIONS: { value: ListingOrder; label: string }[] = [
  { value: "menu_order", label: "Default sorting" },
  { value: "popularity", label: "Sort by popularity" },
  { value: "rating", label: "Sort by average rating" },
  { value: "date", label: "Sort by latest" },
  { value: "price", label: "Sort by price: low to high" },
  { value: "price-desc", label: "Sort by price: high to low" },
];

/** A page number from `/page/{n}`: a positive whole number, else null (the caller answers 404). */
export function parsePage(value: string | undefined): number | null {
  if (value === undefined) return 1;
  return parsePageNumber(value);
}

/** The product listing grid's widget id: its filters live under `e-filter-shop-{taxonomy}`. */
export const LISTING_WIDGET_ID = "shop";

/** The taxonomy filter widgets of the shop sidebar and the join each is configured with. */
export const FILTER_WIDGETS: readonly { taxonomy: string; label: string; logicalJoin: LogicalJoin }[] = [
  { taxonomy: "pa_color", label: "Color", logicalJoin: "OR" },
  { taxonomy: "pa_size", label: "Size", logicalJoin: "OR" },
  { taxonomy: "product_tag", label: "Tags", logicalJoin: "AND" },
];
export const FILTER_TAXONOMIES: readonly string[] = FILTER_WIDGETS.map((w) => w.taxonomy);

/** The grid/list choice is remembered in this cookie so the server renders the same view. */
export const VIEW_COOKIE = "shop_view";
export const VIEW_COOKIE_MAX_AGE = 60 * 60 * 24 * 365;

export function pageTitle(...parts: string[]): string {
  return [...parts, "Maskerade"].filter(Boolean).join(" – ");
}

/**
 * The listing a refresh-loop pagination base address names: the shop or a category archive
 * (any `/page/{n}/`, `page` and `paged` dropped). Null for anything else. Never throws.
 */
export function listingOfAddress(address: string): { basePath: string; categorySlug?: string; url: URL } | null {
  let url: URL;
  try {
    url = new URL(paginationBaseUrl(new URL(address, "http://shop.invalid").toString()));
  } catch {
    return null;
  }
  if (url.pathname === "/shop/" || url.pathname === "/shop") return { basePath: "/shop/", url };
  // The search results page, WordPress's /?s=… (docs/contract/storefront-search.md).
  if (url.pathname === "/" && url.searchParams.has("s")) return { basePath: "/", url };
  const m = /^\/product-category\/([A-Za-z0-9_%-]{1,200})\/?$/.exec(url.pathname);
  if (!m) return null;
  let slug: string;
  try {
    slug = decodeURIComponent(m[1]!);
  } catch {
    return null;
  }
  return { basePath: `/product-category/${m[1]}/`, categorySlug: slug, url };
}
