/** The server half of the shop route: its loader (and action), everything that reaches the database; the route module renders. */
import { data } from "react-router";
import { chosenCountry } from "../../core/commerce/customer-country.ts";
import { DEFAULT_COUNTRY } from "../../core/domain/checkout/address.ts";
import { termsOf } from "../../core/db/repositories/catalog.ts";
import { attributeLabels } from "../../core/db/repositories/taxonomies.ts";
import { TAXONOMY_FILTER_TYPE } from "../../core/domain/catalog/settings.ts";
import { consolidateFilters, readFiltersFromParams } from "../../core/domain/catalog/listing-filters.ts";
import { parseListingQuery } from "../../core/domain/catalog/listing-query.schema.ts";
import { priceBounds, searchListing } from "../components/listing/load-listing.server.ts";
import { FILTER_WIDGETS, LISTING_WIDGET_ID, VIEW_COOKIE, VIEW_COOKIE_MAX_AGE, parsePage } from "../lib/listing-params.ts";
import type { Route } from "./+types/shop";

export async function loader({ context, params, request }: Route.LoaderArgs) {
  return listingPage(context, request, params);
}

/**
 * The listing page's data: the shop, a category archive, or (basePath "/") the search results page
 * (docs/contract/storefront-search.md), which home.server.ts renders with the same view.
 */
export async function listingPage(
  context: Route.LoaderArgs["context"],
  request: Request,
  params: { page?: string; category?: string },
  basePathOverride?: string,
) {
  const { services, shop } = context;
  const url = new URL(request.url);
  const page = parsePage(params.page);
  if (page === null) throw data(null, { status: 404 });
  const q = parseListingQuery("/", url.searchParams);
  // The view is remembered in a cookie, so the server renders what the shopper chose last.
  const viewParam = url.searchParams.get("view");
  if (viewParam === "grid" || viewParam === "list") shop.setCookie(VIEW_COOKIE, viewParam, { httpOnly: false, maxAgeSeconds: VIEW_COOKIE_MAX_AGE });
  const cookieView = shop.cookies[VIEW_COOKIE];
  const view = viewParam === "grid" || viewParam === "list" ? viewParam : cookieView === "list" ? "list" : "grid";
  const widgetFilters = readFiltersFromParams(url.searchParams, LISTING_WIDGET_ID)[LISTING_WIDGET_ID] ?? {};
  const consolidated = consolidateFilters(widgetFilters);
  const basePath = basePathOverride ?? (params.category ? `/product-category/${params.category}/` : "/shop/");
  const keep = new URLSearchParams(url.searchParams);
  keep.delete("paged");
  keep.delete("page");
  keep.delete("view");
  const query = keep.toString() ? `?${keep}` : "";
  const config = services.config;
  const [outcome, bounds, terms, country, labels] = await Promise.all([
    searchListing(services.db, config.shop.perPage, {
      categorySlug: params.category,
      search: q.search,
      orderby: q.orderby,
      page,
      price: q.price,
      filters: consolidated,
      basePath,
      query,
      view,
    }),
    priceBounds(services.db),
    termsOf(
      services.db,
      FILTER_WIDGETS.map((w) => w.taxonomy),
    ),
    chosenCountry(shop),
    attributeLabels(services.db),
  ]);
  if (outcome.listing.kind !== "ok") throw data(null, { status: 404 });
  const { category, data: loop } = outcome.listing;
  const search = q.search;
  const selected: Record<string, string[]> = {};
  for (const [taxonomy, f] of Object.entries(consolidated[TAXONOMY_FILTER_TYPE] ?? {})) selected[taxonomy] = [...f.terms];
  return {
    title: category ? `${category.name} Archives` : search ? `Search results: “${search}”` : "Shop",
    heading: category ? category.name : search ? `Search results: “${search}”` : "Shop",
    description: category?.description ?? "",
    listing: {
      postId: category?.id ?? 0,
      loop,
      orderby: q.orderby,
      selected,
      filterWidgets: FILTER_WIDGETS.map((w) => ({
        ...w,
        // A global attribute's widget carries the attribute's own label (products/attributes, docs/contract/rest/taxonomies.md).
        label: labels.get(w.taxonomy) ?? w.label,
        terms: terms.filter((t) => t.taxonomy === w.taxonomy).map((t) => ({ slug: t.slug, name: t.name, color: t.meta?.color ?? null })),
      })),
      price: {
        bounds: { min: Math.floor(bounds.min / 100), max: Math.ceil(bounds.max / 100) },
        current: { min: q.price.minCents === null ? null : q.price.minCents / 100, max: q.price.maxCents === null ? null : q.price.maxCents / 100 },
      },
      settings: {
        pagination: config.shop.pagination,
        mode: config.shop.infiniteScrollEvent,
        noMoreText: config.shop.noMorePostMessage,
        fadeUpDelayMs: config.timings.infiniteFadeUpDelayMs,
      },
      resultCountReannounceMs: config.timings.resultCountReannounceMs,
    },
    canonical: `${context.origin}${basePath}${page > 1 ? `page/${page}/` : ""}`,
    search:
      search === null
        ? null
        : {
            term: search,
            correctedTo: outcome.correctedTo,
            timedOut: outcome.timedOut,
            suggestions: outcome.suggestions,
          },
    country: country ?? DEFAULT_COUNTRY,
  };
}
