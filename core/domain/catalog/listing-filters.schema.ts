/**
 * zod schemas of listing filters, for input that crosses a boundary (the refresh-loop body).
 * Server only: kept apart from listing-filters.ts so the browser's bundle has no zod.
 */
import { z } from "zod";
import { MAX_FILTER_TERM_LENGTH, MAX_FILTER_TERMS } from "./settings.ts";
import { TAXONOMY_PATTERN, validateLogicalJoin } from "./listing-filters.ts";

const termSchema = z.string().min(1).max(MAX_FILTER_TERM_LENGTH);

export const filterDataSchema = z.object({
  terms: z.array(termSchema).max(MAX_FILTER_TERMS),
  selectedTaxonomy: z.string().regex(TAXONOMY_PATTERN),
  logicalJoin: z.unknown().transform((value) => validateLogicalJoin(value)),
});

export const listingFilterSchema = z.object({
  filterType: z.string().min(1).max(64),
  filterData: filterDataSchema,
});

/** Validates a widget's filters (e.g. a refresh request body); an unknown join becomes DISABLED. */
export const widgetFiltersSchema = z.record(z.string().min(1).max(64), listingFilterSchema);
