/**
 * Taxonomy filters of listing widgets (docs/contract/storefront.md §3 'Listing filter', §4 'Listing filters', §9).
 *
 * Address encoding, decided here (docs in the report and in tests):
 * - One parameter per widget and taxonomy: `e-filter-{widgetId}-{taxonomy}`.
 *   Widget ids have no '-', so the first '-' after the prefix ends the widget id.
 * - AND: terms joined by '+'. OR (operator IN): joined by '~'.
 *   NOT (operator NOT IN): every term prefixed by '!' (so '!a!b', and '!a' for one term),
 *   because a lone term joined by nothing could not otherwise say "NOT".
 * - A single term without a leading '!' is written bare and reads back as OR (IN),
 *   which means the same as AND for one term.
 * - Each term is percent-encoded first (encodeURIComponent plus ! ' ( ) * ~), so a term can
 *   hold any character, separators included; URLSearchParams then encodes the whole value
 *   once more when the address is serialised. Plain slugs (a-z 0-9 - _ .) are written as is.
 * - Reading is lenient but safe: a literal '+' in a typed address arrives as a space and is
 *   read as AND; a value mixing separators, with bad escapes, or too many/long terms is
 *   ignored. Nothing here throws on input from an address.
 */
import {
  FILTER_OPERATORS,
  FILTER_PARAM_PREFIX,
  FILTER_SEPARATORS,
  MAX_FILTER_TERM_LENGTH,
  MAX_FILTER_TERMS,
  TAXONOMY_FILTER_TYPE,
  WIDGET_PAGE_PARAM_PREFIX,
} from "./settings.ts";

/** AND / OR as configured on a filter widget; NOT from an address; DISABLED = no valid operator. */
export type LogicalJoin = "AND" | "OR" | "NOT" | "DISABLED";
export type TermOperator = (typeof FILTER_OPERATORS)[keyof typeof FILTER_OPERATORS];

export interface FilterData {
  readonly terms: readonly string[];
  readonly selectedTaxonomy: string;
  readonly logicalJoin: LogicalJoin;
}

export interface ListingFilter {
  readonly filterType: string;
  readonly filterData: FilterData;
}

/** One widget's filters, keyed by filter id. */
export type WidgetFilters = Readonly<Record<string, ListingFilter>>;

export interface ConsolidatedTaxonomyFilter {
  readonly terms: readonly string[];
  readonly logicalJoin: LogicalJoin;
}

/** Grouped by filter type, then taxonomy. This is what refresh-loop's widget_filters carries. */
export type ConsolidatedFilters = Readonly<Record<string, Readonly<Record<string, ConsolidatedTaxonomyFilter>>>>;

export const WIDGET_ID_PATTERN = /^[A-Za-z0-9_]{1,64}$/;
/** WordPress taxonomy names: at most 32 characters of a-z, 0-9, '_' and '-'. */
export const TAXONOMY_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

/** docs/contract/storefront.md §5: the widget's logical operator must be AND or OR, else DISABLED. */
export function validateLogicalJoin(value: unknown): "AND" | "OR" | "DISABLED" {
  return value === "AND" || value === "OR" ? value : "DISABLED";
}

/** The query operator a join stands for. DISABLED (single choice) is plain IN. */
export function termOperator(join: LogicalJoin): TermOperator {
  switch (join) {
    case "AND":
      return FILTER_OPERATORS.AND;
    case "NOT":
      return FILTER_OPERATORS.NOT;
    case "OR":
    case "DISABLED":
      return FILTER_OPERATORS.OR;
  }
}

function uniqueInOrder(terms: readonly string[]): string[] {
  return [...new Set(terms)];
}

/**
 * Groups a widget's filters by filter type and taxonomy. Filters without terms are skipped.
 * Several filters on the same taxonomy merge their terms (first-seen order, no duplicates)
 * and keep the first filter's join: the address holds one join per taxonomy anyway.
 */
export function consolidateFilters(filters: WidgetFilters): ConsolidatedFilters {
  const result: Record<string, Record<string, { terms: string[]; logicalJoin: LogicalJoin }>> = {};
  for (const { filterType, filterData } of Object.values(filters)) {
    if (filterData.terms.length === 0) continue;
    const byTaxonomy = (result[filterType] ??= {});
    const existing = byTaxonomy[filterData.selectedTaxonomy];
    if (existing) existing.terms = uniqueInOrder([...existing.terms, ...filterData.terms]);
    else
      byTaxonomy[filterData.selectedTaxonomy] = {
        terms: uniqueInOrder(filterData.terms),
        logicalJoin: filterData.logicalJoin,
      };
  }
  return result;
}

export function filterParamName(widgetId: string, taxonomy: string): string {
  if (!WIDGET_ID_PATTERN.test(widgetId)) throw new RangeError(`invalid widget id: ${JSON.stringify(widgetId)}`);
  if (!TAXONOMY_PATTERN.test(taxonomy)) throw new RangeError(`invalid taxonomy: ${JSON.stringify(taxonomy)}`);
  return `${FILTER_PARAM_PREFIX}${widgetId}-${taxonomy}`;
}

export function widgetPageParamName(widgetId: string): string {
  return `${WIDGET_PAGE_PARAM_PREFIX}${widgetId}`;
}

/** Splits `e-filter-{widgetId}-{taxonomy}`; null for anything else. */
export function parseFilterParamName(name: string): { widgetId: string; taxonomy: string } | null {
  if (!name.startsWith(FILTER_PARAM_PREFIX)) return null;
  const rest = name.slice(FILTER_PARAM_PREFIX.length);
  const dash = rest.indexOf("-");
  if (dash <= 0) return null;
  const widgetId = rest.slice(0, dash);
  const taxonomy = rest.slice(dash + 1);
  if (!WIDGET_ID_PATTERN.test(widgetId) || !TAXONOMY_PATTERN.test(taxonomy)) return null;
  return { widgetId, taxonomy };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Percent-encodes a term so that only [A-Za-z0-9-_.%] remain: separators can't leak. */
export function escapeTerm(term: string): string {
  // encodeURIComponent throws on lone surrogates; write them as U+FFFD like toWellFormed().
  const wellFormed = term.replace(LONE_SURROGATE, "\uFFFD");
  return encodeURIComponent(wellFormed).replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}

/** Reverses escapeTerm; null for anything escapeTerm could not have written. */
export function unescapeTerm(text: string): string | null {
  if (!/^[A-Za-z0-9\-_.%]+$/.test(text)) return null;
  try {
    const term = decodeURIComponent(text);
    return term.length > 0 && term.length <= MAX_FILTER_TERM_LENGTH ? term : null;
  } catch {
    return null; // malformed escape such as '%zz' or a lone surrogate
  }
}

/** The parameter value for a taxonomy filter, or null when there are no terms (no parameter). */
export function encodeFilterValue(filter: ConsolidatedTaxonomyFilter): string | null {
  const terms = uniqueInOrder(filter.terms.filter((t) => t !== "")).map(escapeTerm);
  if (terms.length === 0) return null;
  switch (filter.logicalJoin) {
    case "NOT":
      return terms.map((t) => FILTER_SEPARATORS.NOT + t).join("");
    case "AND":
      return terms.join(FILTER_SEPARATORS.AND);
    case "OR":
    case "DISABLED":
      return terms.join(FILTER_SEPARATORS.OR);
  }
}

/**
 * Reads a parameter value (as URLSearchParams.get returns it) back into terms and a join.
 * Null for garbage: mixed separators, empty, bad escapes, too many terms.
 */
export function decodeFilterValue(value: string): { terms: string[]; logicalJoin: "AND" | "OR" | "NOT" } | null {
  if (value.length === 0 || value.length > MAX_FILTER_TERMS * (MAX_FILTER_TERM_LENGTH * 9 + 1)) return null;
  // A '+' typed into an address reaches us as a space.
  const text = value.replace(/ /g, FILTER_SEPARATORS.AND);
  const has = (sep: string) => text.includes(sep);
  let join: "AND" | "OR" | "NOT";
  let pieces: string[];
  if (has(FILTER_SEPARATORS.NOT)) {
    if (has(FILTER_SEPARATORS.AND) || has(FILTER_SEPARATORS.OR)) return null;
    join = "NOT";
    pieces = text.split(FILTER_SEPARATORS.NOT);
    // Written as '!a!b'; also accept 'a!b' from hand-made or older addresses.
    if (pieces[0] === "") pieces.shift();
  } else if (has(FILTER_SEPARATORS.OR)) {
    if (has(FILTER_SEPARATORS.AND)) return null;
    join = "OR";
    pieces = text.split(FILTER_SEPARATORS.OR);
  } else if (has(FILTER_SEPARATORS.AND)) {
    join = "AND";
    pieces = text.split(FILTER_SEPARATORS.AND);
  } else {
    join = "OR";
    pieces = [text];
  }
  // Tolerate stray empty pieces ('a++b', trailing '~'), reject the value on any bad term.
  const terms: string[] = [];
  for (const piece of pieces) {
    if (piece === "") continue;
    const term = unescapeTerm(piece);
    if (term === null) return null;
    terms.push(term);
  }
  const unique = uniqueInOrder(terms);
  if (unique.length === 0 || unique.length > MAX_FILTER_TERMS) return null;
  return { terms: unique, logicalJoin: join };
}

/**
 * The search parameters with one widget's taxonomy filters written in: the widget's previous
 * `e-filter-…` parameters are replaced and its `e-page-{widgetId}` removed (a filter change
 * starts from page one). Other filter types have no place in the address and are not written.
 */
export function writeWidgetFilters(params: URLSearchParams, widgetId: string, consolidated: ConsolidatedFilters): URLSearchParams {
  if (!WIDGET_ID_PATTERN.test(widgetId)) throw new RangeError(`invalid widget id: ${JSON.stringify(widgetId)}`);
  const next = new URLSearchParams(params);
  for (const name of [...next.keys()]) {
    if (parseFilterParamName(name)?.widgetId === widgetId) next.delete(name);
  }
  next.delete(widgetPageParamName(widgetId));
  const taxonomies = consolidated[TAXONOMY_FILTER_TYPE] ?? {};
  for (const [taxonomy, filter] of Object.entries(taxonomies)) {
    const value = encodeFilterValue(filter);
    if (value !== null) next.set(filterParamName(widgetId, taxonomy), value);
  }
  return next;
}

/**
 * The address to push into history after a widget's filters change (docs/contract/storefront.md §4). Keeps the path,
 * other parameters and the hash.
 */
export function filteredAddress(href: string, widgetId: string, filters: WidgetFilters): string {
  const url = new URL(href);
  url.search = writeWidgetFilters(url.searchParams, widgetId, consolidateFilters(filters)).toString();
  return url.toString();
}

/**
 * Every widget's filters found in an address, keyed by widget id, then by filter id (= the
 * taxonomy, as the address does not carry the widget's own filter ids). Ignores anything
 * malformed; never throws. With a widget id, only that widget's filters are returned (under it).
 */
export function readFiltersFromParams(params: URLSearchParams, onlyWidgetId?: string): Record<string, Record<string, ListingFilter>> {
  const result: Record<string, Record<string, ListingFilter>> = {};
  const seen = new Set<string>();
  for (const [name, value] of params) {
    if (seen.has(name)) continue; // the first occurrence wins, like URLSearchParams.get
    seen.add(name);
    const key = parseFilterParamName(name);
    if (!key || (onlyWidgetId !== undefined && key.widgetId !== onlyWidgetId)) continue;
    const decoded = decodeFilterValue(value);
    if (!decoded) continue;
    const widget = (result[key.widgetId] ??= {});
    widget[key.taxonomy] = {
      filterType: TAXONOMY_FILTER_TYPE,
      filterData: { terms: decoded.terms, selectedTaxonomy: key.taxonomy, logicalJoin: decoded.logicalJoin },
    };
  }
  return result;
}

/** The widget's own page from `e-page-{widgetId}`: a positive integer, else 1. */
export function readWidgetPage(params: URLSearchParams, widgetId: string): number {
  const raw = params.get(widgetPageParamName(widgetId));
  if (raw === null || !/^[1-9][0-9]{0,8}$/.test(raw)) return 1;
  return Number(raw);
}

/**
 * The base address numbered pagination builds page links from (refresh-loop's
 * pagination_base_url): `page` and `paged` parameters stripped and a trailing
 * `/page/{n}/` path segment removed. Other parameters (filters, orderby) and the hash stay.
 */
export function paginationBaseUrl(href: string): string {
  const url = new URL(href);
  url.searchParams.delete("page");
  url.searchParams.delete("paged");
  url.pathname = url.pathname.replace(/\/page\/[0-9]+\/?$/, "/");
  return url.toString();
}
