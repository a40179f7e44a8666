import { useEffect, useState } from "react";
import { data } from "react-router";
import type { Route } from "./+types/shop";
import { termsOf } from "../../core/db/repositories/catalog.ts";
// Single modules: only the loader uses the zod-backed parser, so the browser's bundle drops it with the loader.
import { TAXONOMY_FILTER_TYPE } from "../../core/domain/catalog/settings.ts";
import { consolidateFilters, readFiltersFromParams } from "../../core/domain/catalog/listing-filters.ts";
import { parseListingQuery } from "../../core/domain/catalog/listing-query.schema.ts";
import { loadListing, priceBounds } from "../components/listing/load-listing.server.ts";
import { Listing } from "../components/listing/Listing.tsx";
import { FILTER_WIDGETS, LISTING_WIDGET_ID, VIEW_COOKIE, VIEW_COOKIE_MAX_AGE, pageTitle, parsePage } from "../lib/listing-params.ts";

export async function loader({ context, params, request }: Route.LoaderArgs) {
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
  const basePath = params.category ? `/product-category/${params.category}/` : "/shop/";
  const keep = new URLSearchParams(url.searchParams);
  keep.delete("paged");
  keep.delete("page");
  keep.delete("view");
  const query = keep.toString() ? `?${keep}` : "";
  const config = services.config;
  const [result, bounds, terms] = await Promise.all([
    loadListing(services.db, config.shop.perPage, { categorySlug: params.category, search: q.search, orderby: q.orderby, page, price: q.price, filters: consolidated, basePath, query, view }),
    priceBounds(services.db),
    termsOf(services.db, FILTER_WIDGETS.map((w) => w.taxonomy)),
  ]);
  if (result.kind !== "ok") throw data(null, { status: 404 });
  const { category, data: loop } = result;
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
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData
    ? [
        { title: pageTitle(loaderData.title) },
        { name: "description", content: loaderData.description || "Shop face masks, ties and matching sets." },
        { tagName: "link", rel: "canonical", href: loaderData.canonical },
      ]
    : [];

export default function Shop({ loaderData }: Route.ComponentProps) {
  const { heading, description, listing } = loaderData;
  // Filter changes push addresses React Router did not make; on back/forward the listing is
  // rebuilt from the loader's data for the address shown (the loader re-runs when it differs).
  const [pops, setPops] = useState(0);
  useEffect(() => {
    const onPop = () => setPops((n) => n + 1);
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);
  return (
    <div className="woocommerce listing">
      <header className="woocommerce-products-header">
        <h1 className="woocommerce-products-header__title page-title">{heading}</h1>
        {description ? <div className="term-description">{description}</div> : null}
      </header>
      {/* Keyed by the address: back/forward and new searches start from the server's data. */}
      <Listing key={`${listing.loop.basePath}${listing.loop.query}|${listing.loop.page}|${pops}`} {...listing} />
    </div>
  );
}
