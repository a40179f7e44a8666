/**
 * Catalogue endpoints: the listing refresh (POST /wp-json/elementor-pro/v1/refresh-loop,
 * docs/contract/storefront.md §7 'Listings') and the on-demand variation lookup (/?wc-ajax=get_variation) for products
 * whose variations are too many to print into the page. Both validate everything they read.
 */
import { z } from "zod";
import type { AppServices } from "../services.ts";
import { json } from "../http/dispatch.ts";
import { restError } from "../http/rest.ts";
import type { Endpoints, Feature } from "./feature.ts";
import { variationsOfProduct } from "../../core/db/repositories/catalog.ts";
import {
  TAXONOMY_PATTERN,
  WIDGET_ID_PATTERN,
  MAX_FILTER_TERMS,
  MAX_FILTER_TERM_LENGTH,
  findVariation,
  parseListingQuery,
  validateLogicalJoin,
  type ConsolidatedFilters,
} from "../../core/domain/catalog/index.ts";
import { loadListing } from "../../core/commerce/listing.ts";
// Fragment renderers (decision 0008's allowed app/ imports): a listing's loop and the variation form's JSON; and the
// listing address vocabulary the loop's page uses (app/lib/listing-params.ts: which addresses are listings, which
// taxonomies filter, the view cookie).
import { loopHtml, variationAnswers } from "../../app/components/fragments.tsx";
import { FILTER_TAXONOMIES, VIEW_COOKIE, listingOfAddress } from "../../app/lib/listing-params.ts";

const emptyArrayAsObject = (v: unknown) => (Array.isArray(v) && v.length === 0 ? {} : v);

const consolidatedSchema = z.preprocess(
  emptyArrayAsObject,
  z.record(
    z.string().min(1).max(64),
    z.preprocess(
      emptyArrayAsObject,
      z.record(
        z.string().regex(TAXONOMY_PATTERN),
        z.object({
          terms: z.array(z.string().min(1).max(MAX_FILTER_TERM_LENGTH)).max(MAX_FILTER_TERMS),
          logicalJoin: z.unknown().transform((v) => (v === "NOT" ? ("NOT" as const) : validateLogicalJoin(v))),
        }),
      ),
    ),
  ),
);

const refreshLoopSchema = z.object({
  post_id: z.coerce.number().int().min(0).max(2_147_483_647),
  widget_id: z.string().regex(WIDGET_ID_PATTERN),
  widget_filters: consolidatedSchema.optional().default({}),
  pagination_base_url: z.string().min(1).max(2000),
});

const productIdSchema = z.coerce.number().int().positive().max(2_147_483_647);

function register({ rest, wcAjax }: Endpoints, services: AppServices): void {
  rest.register("POST", "elementor-pro/v1/refresh-loop", async ({ body, req }) => {
    const parsed = refreshLoopSchema.safeParse(body && typeof body === "object" ? body : {});
    if (!parsed.success) {
      const params = Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0] ?? "body"), i.message]));
      return restError("rest_invalid_param", `Invalid parameter(s): ${Object.keys(params).join(", ")}`, 400, { params });
    }
    const listing = listingOfAddress(parsed.data.pagination_base_url);
    if (!listing)
      return restError("rest_invalid_param", "Invalid parameter(s): pagination_base_url", 400, {
        params: { pagination_base_url: "Not a product listing address." },
      });
    const q = parseListingQuery("/", listing.url.searchParams);
    const keep = new URLSearchParams(listing.url.searchParams);
    keep.delete("view");
    const query = keep.toString() ? `?${keep}` : "";
    const config = services.config;
    const result = await loadListing(
      services.db,
      config.shop.perPage,
      {
        categorySlug: listing.categorySlug,
        search: q.search,
        orderby: q.orderby,
        page: 1,
        price: q.price,
        filters: parsed.data.widget_filters as ConsolidatedFilters,
        basePath: listing.basePath,
        query,
        view: req.shop.cookies[VIEW_COOKIE] === "list" ? "list" : "grid",
      },
      FILTER_TAXONOMIES,
    );
    if (result.kind === "no-category")
      return restError("rest_invalid_param", "Invalid parameter(s): pagination_base_url", 400, { params: { pagination_base_url: "No such category." } });
    if (result.kind !== "ok") return restError("rest_invalid_param", "Invalid parameter(s): pagination_base_url", 400);
    const html = loopHtml({
      data: result.data,
      settings: {
        pagination: config.shop.pagination,
        mode: config.shop.infiniteScrollEvent,
        noMoreText: config.shop.noMorePostMessage,
        fadeUpDelayMs: config.timings.infiniteFadeUpDelayMs,
      },
    });
    return json({ data: html });
  });

  // WooCommerce answers the matching variation's data, or false when none matches.
  wcAjax.register("get_variation", async ({ params }) => {
    const id = productIdSchema.safeParse(Array.isArray(params.product_id) ? params.product_id[0] : params.product_id);
    if (!id.success) return json(false, 400);
    const chosen: Record<string, string> = {};
    for (const [key, value] of Object.entries(params)) {
      if (!key.startsWith("attribute_") || key.length > 64) continue;
      if (typeof value !== "string" || value.length > 200) return json(false, 400);
      chosen[key] = value;
    }
    const { product, variations } = await variationsOfProduct(services.db, id.data);
    if (!product || product.type !== "variable") return json(false);
    const list = variationAnswers(variations);
    const match = findVariation(
      list.map((v) => ({ ...v, max_qty: v.max_qty === "" ? null : v.max_qty })),
      chosen,
      { disableOutOfStock: services.config.swatches.disable_out_of_stock },
    );
    return json(match ? list.find((v) => v.variation_id === match.variation_id)! : false);
  });
}

export const catalogFeature: Feature = { name: "catalog", endpoints: register };
