/**
 * One listing read shared by the listing page's loader and the refresh-loop endpoint, so a
 * filtered address and an in-place refresh render the same products. Filtering, sorting and
 * paging happen in SQL (core/db/repositories/catalog.ts).
 */
import type { Queryable } from "../db/client.ts";
import { findCategory, listProducts, priceBounds, termsOf, variationsOfProducts } from "../db/repositories/catalog.ts";
import type { Category, Term } from "../domain/catalog/products.ts";
import type { ConsolidatedFilters, Orderby, PriceFilterQuery } from "../domain/catalog/index.ts";
import { DEFAULT_ORDERBY, TAXONOMY_FILTER_TYPE } from "../domain/catalog/index.ts";
import type { CardExtras, LoopData } from "../domain/catalog/listing-view.ts";

export interface ListingRequest {
  categorySlug?: string;
  search: string | null;
  orderby: Orderby;
  page: number;
  price: PriceFilterQuery;
  filters: ConsolidatedFilters;
  /** The listing path without /page/{n}/, e.g. "/shop/". */
  basePath: string;
  /** The query string (with its '?', or '') that page links and load-more keep. */
  query: string;
  view: "grid" | "list";
}

export type ListingResult = { kind: "ok"; data: LoopData; category: Category | null } | { kind: "no-category" } | { kind: "past-end" };

/** Maps the consolidated taxonomy filters onto the repository's term conditions; unknown taxonomies are ignored. */
export function termConditions(filters: ConsolidatedFilters, filterTaxonomies: readonly string[]) {
  const termsAll: Record<string, string[]> = {};
  const termsAny: Record<string, string[]> = {};
  const termsNone: Record<string, string[]> = {};
  for (const [taxonomy, f] of Object.entries(filters[TAXONOMY_FILTER_TYPE] ?? {})) {
    if (!filterTaxonomies.includes(taxonomy) && taxonomy !== "product_cat") continue;
    const terms = [...f.terms];
    if (!terms.length) continue;
    if (f.logicalJoin === "AND") termsAll[taxonomy] = terms;
    else if (f.logicalJoin === "NOT") termsNone[taxonomy] = terms;
    else termsAny[taxonomy] = terms; // OR, and DISABLED which is treated as IN
  }
  return { termsAll, termsAny, termsNone };
}

/** One page of a listing; `filterTaxonomies` are the taxonomies the shop offers as filters (others are ignored). */
export async function loadListing(db: Queryable, perPage: number, req: ListingRequest, filterTaxonomies: readonly string[]): Promise<ListingResult> {
  const category = req.categorySlug ? await findCategory(db, req.categorySlug) : null;
  if (req.categorySlug && !category) return { kind: "no-category" };
  const { items, total } = await listProducts(db, {
    categorySlug: req.categorySlug,
    search: req.search ?? undefined,
    // A search in the default order is ordered by relevance, as WooCommerce does (docs/contract/storefront-search.md).
    relevance: req.search !== null && req.orderby === DEFAULT_ORDERBY,
    orderby: req.orderby,
    page: req.page,
    perPage,
    minPrice: req.price.minCents ?? undefined,
    maxPrice: req.price.maxCents ?? undefined,
    ...termConditions(req.filters, filterTaxonomies),
  });
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  if (req.page > totalPages) return { kind: "past-end" };
  const variable = items.filter((p) => p.type === "variable").map((p) => p.id);
  // One after the other: `db` may be a transaction's single connection (product search, core/commerce/search.ts).
  const variations = await variationsOfProducts(db, variable);
  const attributeTerms = variable.length ? await termsOf(db, ["pa_color", "pa_size"]) : ([] as Term[]);
  const extras: Record<number, CardExtras> = {};
  for (const id of variable) {
    const list = variations.get(id) ?? [];
    extras[id] = {
      swatches: swatchesOf(
        list.map((v) => v.attributes.attribute_pa_color ?? ""),
        attributeTerms,
      ),
      // Individual variations are offered on category archives only (docs/contract/storefront.md §2 'Listing items').
      variations: category
        ? list
            .filter((v) => v.stockStatus !== "outofstock" && Object.values(v.attributes).every((a) => a !== ""))
            .slice(0, 8)
            .map((v) => ({
              id: v.id,
              sku: v.sku,
              attributes: v.attributes,
              price: v.salePrice ?? v.regularPrice,
              label: variationLabel(v.attributes, attributeTerms),
            }))
        : [],
    };
  }
  return {
    kind: "ok",
    category,
    data: { items, extras, total, page: req.page, perPage, totalPages, basePath: req.basePath, query: req.query, view: req.view },
  };
}

function swatchesOf(colorSlugs: string[], terms: Term[]): CardExtras["swatches"] {
  const seen = [...new Set(colorSlugs.filter(Boolean))];
  return seen.map((slug) => {
    const term = terms.find((t) => t.taxonomy === "pa_color" && t.slug === slug);
    return { taxonomy: "pa_color", slug, name: term?.name ?? slug, color: term?.meta?.color ?? null };
  });
}

function variationLabel(attributes: Record<string, string>, terms: Term[]): string {
  return Object.entries(attributes)
    .map(([name, slug]) => terms.find((t) => `attribute_${t.taxonomy}` === name && t.slug === slug)?.name ?? slug.toUpperCase())
    .join(" - "); // variation_label_separator
}

export { priceBounds };
