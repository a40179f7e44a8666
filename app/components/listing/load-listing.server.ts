/** The listing use case (core/commerce/listing.ts, through core/commerce/search.ts) with this shop's filter widgets. */
import type { Db } from "../../../core/db/client.ts";
import { searchListing as searchListingPage, type SearchOutcome } from "../../../core/commerce/search.ts";
import { termConditions as conditionsFor, type ListingRequest } from "../../../core/commerce/listing.ts";
import type { ConsolidatedFilters } from "../../../core/domain/catalog/index.ts";
import { FILTER_TAXONOMIES } from "../../lib/listing-params.ts";

export type { ListingRequest };
export { priceBounds } from "../../../core/commerce/listing.ts";

export function termConditions(filters: ConsolidatedFilters) {
  return conditionsFor(filters, FILTER_TAXONOMIES);
}

/**
 * The listing page's read: the plain listing, or with a search term, product search (typo correction, suggestions,
 * time budget): core/commerce/search.ts.
 */
export function searchListing(db: Db, perPage: number, req: ListingRequest): Promise<SearchOutcome> {
  return searchListingPage(db, perPage, req, FILTER_TAXONOMIES);
}
