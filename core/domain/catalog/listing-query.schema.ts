/**
 * The zod-backed parser of a listing address (server only: it keeps zod out of the browser's
 * bundle; the pure helpers it builds on are in listing-query.ts).
 */
import { z } from "zod";
import { DEFAULT_ORDERBY, DEFAULT_VIEW, ORDERBY_VALUES, VIEW_VALUES } from "./settings.ts";
import { parsePriceFilter } from "./price-filter.ts";
import { PAGE_SEGMENT, normalizeSearch, pageFromPath, parsePageNumber, type ListingQuery } from "./listing-query.ts";

const firstString = z.preprocess((value) => (Array.isArray(value) ? value[0] : value), z.string().optional());

/** The query-string part, zod-backed: every field falls back to its default when bad. */
export const listingParamsSchema = z.object({
  orderby: firstString
    .pipe(z.enum(ORDERBY_VALUES).optional())
    .catch(undefined)
    .transform((v) => v ?? DEFAULT_ORDERBY),
  view: firstString
    .pipe(z.enum(VIEW_VALUES).optional())
    .catch(undefined)
    .transform((v) => v ?? DEFAULT_VIEW),
  s: firstString.catch(undefined).transform((v) => normalizeSearch(v)),
  paged: firstString.catch(undefined).transform((v) => parsePageNumber(v)),
});

function paramsToRecord(params: URLSearchParams): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [key, value] of params) if (!Object.hasOwn(record, key)) record[key] = value; // first wins
  return record;
}

/**
 * Parses a listing address. The page comes from the `/page/{n}` path segment, else from a
 * `paged` parameter; anything invalid means page 1. Never throws.
 */
export function parseListingQuery(pathname: string, params: URLSearchParams): ListingQuery {
  const parsed = listingParamsSchema.parse(paramsToRecord(params));
  const fromPath = pageFromPath(pathname);
  const hasSegment = PAGE_SEGMENT.test(pathname);
  const page = (hasSegment ? fromPath.page : parsed.paged) ?? 1;
  return {
    orderby: parsed.orderby,
    page,
    view: parsed.view,
    search: parsed.s,
    price: parsePriceFilter(params),
  };
}

/** Convenience for a full address. */
export function parseListingUrl(href: string | URL): ListingQuery {
  const url = typeof href === "string" ? new URL(href) : href;
  return parseListingQuery(url.pathname, url.searchParams);
}
