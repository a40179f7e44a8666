/**
 * Product search as the results page and the suggestions endpoint use it (docs/contract/storefront-search.md):
 * the listing's full-text match, then, when nothing matches, the term with its typos corrected against the
 * catalogue's words, then suggestions (the nearest title, the best sellers). All reads run in one transaction
 * with a time budget (core/db/repositories/search.ts `withSearchBudget`).
 */
import type { Db, Queryable } from "../db/client.ts";
import { listProducts, popularProducts } from "../db/repositories/catalog.ts";
import { isStatementTimeout, nearestProduct, nearestWord, withSearchBudget } from "../db/repositories/search.ts";
import type { ProductSummary } from "../domain/catalog/products.ts";
import { maxTypoDistance, searchWords } from "../domain/catalog/search.ts";
import { loadListing, type ListingRequest, type ListingResult } from "./listing.ts";

/** A search statement's time budget on PostgreSQL. */
export const SEARCH_TIMEOUT_MS = 2000;
const POPULAR_SUGGESTIONS = 4;

export interface SearchSuggestions {
  /** The published product nearest the term by trigrams ("Did you mean …?"). */
  nearest: { id: number; name: string; slug: string } | null;
  popular: ProductSummary[];
}

export interface SearchOutcome {
  listing: ListingResult;
  /** The corrected term the results are for, when the typed one matched nothing and a correction did. */
  correctedTo: string | null;
  /** When nothing was found (not even after correction): what to offer instead. */
  suggestions: SearchSuggestions | null;
  /** The search ran out of its time budget: the page shows no results rather than an error. */
  timedOut: boolean;
}

/** The term with each word replaced by its nearest dictionary word, or null when no word changes. */
async function correctedTerm(db: Queryable, term: string): Promise<string | null> {
  const words = searchWords(term);
  let changed = false;
  const out: string[] = [];
  for (const word of words) {
    const near = await nearestWord(db, word, maxTypoDistance(word));
    if (near !== null) changed = true;
    out.push(near ?? word);
  }
  return changed ? out.join(" ") : null;
}

/** One page of the product listing for a search (or a plain listing when `req.search` is null). */
export async function searchListing(db: Db, perPage: number, req: ListingRequest, filterTaxonomies: readonly string[]): Promise<SearchOutcome> {
  const empty = (): SearchOutcome => ({
    listing: {
      kind: "ok",
      category: null,
      data: { items: [], extras: {}, total: 0, page: 1, perPage, totalPages: 1, basePath: req.basePath, query: req.query, view: req.view },
    },
    correctedTo: null,
    suggestions: { nearest: null, popular: [] },
    timedOut: true,
  });
  // Without a term it is the plain listing: no transaction, no budget (the listing's own indexed reads).
  if (req.search === null) return { listing: await loadListing(db, perPage, req, filterTaxonomies), correctedTo: null, suggestions: null, timedOut: false };
  const term = req.search;
  try {
    return await withSearchBudget(db, SEARCH_TIMEOUT_MS, async (tx) => {
      const listing = await loadListing(tx, perPage, req, filterTaxonomies);
      if (listing.kind !== "ok" || listing.data.total > 0) return { listing, correctedTo: null, suggestions: null, timedOut: false };
      const corrected = await correctedTerm(tx, term);
      if (corrected !== null) {
        const retry = await loadListing(tx, perPage, { ...req, search: corrected }, filterTaxonomies);
        if (retry.kind === "ok" && retry.data.total > 0) return { listing: retry, correctedTo: corrected, suggestions: null, timedOut: false };
      }
      const [nearest, popular] = [await nearestProduct(tx, corrected ?? term), await popularProducts(tx, POPULAR_SUGGESTIONS)];
      return { listing, correctedTo: null, suggestions: { nearest, popular }, timedOut: false };
    });
  } catch (error) {
    if (isStatementTimeout(error)) return empty();
    throw error;
  }
}

/** As-you-type suggestions: the `limit` most relevant products (typos corrected when nothing matches). */
export async function suggestProducts(db: Db, term: string, limit: number): Promise<ProductSummary[]> {
  try {
    return await withSearchBudget(db, SEARCH_TIMEOUT_MS, async (tx) => {
      const query = { search: term, relevance: true, orderby: "menu_order" as const, page: 1, perPage: limit };
      // No count: the box shows a handful of rows, and counting every match is most of a short prefix's cost.
      const { items } = await listProducts(tx, query, { count: false });
      if (items.length) return items;
      const corrected = await correctedTerm(tx, term);
      return corrected === null ? [] : (await listProducts(tx, { ...query, search: corrected }, { count: false })).items;
    });
  } catch (error) {
    if (isStatementTimeout(error)) return [];
    throw error;
  }
}
