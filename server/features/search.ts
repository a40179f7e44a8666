/**
 * As-you-type product suggestions for the header's search box (docs/contract/storefront-search.md 'Suggestions'):
 * `GET /wp-json/shop/v1/search/suggest?q=…&limit=8` → [{id, name, permalink, price_html, image}]. Public, cheap
 * (one indexed search, a handful of rows, the search's time budget) and cacheable for a minute: every shopper
 * typing the same prefix gets the same answer.
 */
import { z } from "zod";
import { json } from "../http/dispatch.ts";
import { restError } from "../http/rest.ts";
import { requestOrigin } from "../http/pages.ts";
import type { Feature } from "./feature.ts";
import { suggestProducts } from "../../core/commerce/search.ts";
import { normalizeSearch } from "../../core/domain/catalog/listing-query.ts";
import { priceAmountHtml, salePriceHtml } from "../../core/domain/pricing/display.ts";
import type { ProductSummary } from "../../core/domain/catalog/products.ts";
import type { CurrencyFormat } from "../../core/domain/money/money.ts";

const MAX_LIMIT = 20;
const DEFAULT_LIMIT = 8;
const CACHE = { "Cache-Control": "public, max-age=60" };

const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);
const suggestArgs = z.object({
  // Any text: normalizeSearch cleans it and caps it at 200 characters, so no term is a client error.
  q: z.preprocess(first, z.string().optional()).catch(undefined),
  limit: z.preprocess(first, z.coerce.number().int().min(1).max(MAX_LIMIT).optional()),
});

function priceHtml(p: ProductSummary, format: CurrencyFormat): string {
  if (p.priceMin === null) return "";
  if (p.type === "variable" || p.type === "grouped") {
    return p.priceMin === p.priceMax || p.priceMax === null
      ? priceAmountHtml(p.priceMin, format)
      : `${priceAmountHtml(p.priceMin, format)} &ndash; ${priceAmountHtml(p.priceMax, format)}`;
  }
  return p.onSale && p.regularPrice !== null && p.regularPrice > p.priceMin
    ? salePriceHtml(p.regularPrice, p.priceMin, format)
    : priceAmountHtml(p.priceMin, format);
}

export const searchFeature: Feature = {
  name: "search",
  endpoints({ rest }) {
    rest.register("GET", "shop/v1/search/suggest", async ({ query, req, services }) => {
      const args = suggestArgs.safeParse(query);
      if (!args.success)
        return restError("rest_invalid_param", "Invalid parameter(s): limit", 400, { params: { limit: `limit must be between 1 and ${MAX_LIMIT}.` } });
      const term = normalizeSearch(args.data.q);
      if (term === null) return json([], 200, CACHE);
      const items = await suggestProducts(services.db, term, args.data.limit ?? DEFAULT_LIMIT);
      const origin = requestOrigin(req);
      const format = services.config.currency.format;
      return json(
        items.map((p) => ({
          id: p.id,
          name: p.name,
          permalink: `${origin}/product/${p.slug}/`,
          price_html: priceHtml(p, format),
          image: p.imageSlugs[0] ? { src: `${origin}/media/${p.imageSlugs[0]}.svg`, alt: p.imageAlts[0] ?? "" } : null,
        })),
        200,
        CACHE,
      );
    });
  },
};
