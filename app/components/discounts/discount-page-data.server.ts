/**
 * What a product page needs from the discount engine, rendered on the server so the bulk-discount table
 * and the promotion text are there without JavaScript: the tiers table of every bulk rule selecting the
 * product (a variable product is shown at its cheapest variation until one is chosen) and, on mask
 * products, the spec's mask promotion text.
 */
import type { AppServices } from "../../../server/services.ts";
import type { RequestContext } from "../../../server/http/request-context.ts";
import { cachedPricingSetup } from "../../../core/db/repositories/discounts.ts";
import { bulkTableHtml, bulkTableModel, exactCurrencyFormat, MASK_CATEGORY_SLUG } from "../../../core/domain/pricing/index.ts";
import { loadPricingProduct } from "../../../server/features/discounts.ts";
import type { DiscountPageData } from "./awdr-params.ts";

export type { DiscountPageData };

export async function discountPageData(services: AppServices, shop: RequestContext, product: { id: number; categories: { slug: string }[] }): Promise<DiscountPageData> {
  const [lookup, rules] = await Promise.all([loadPricingProduct(services.db, product.id, { cheapestVariation: true }), cachedPricingSetup(services.db, services.db).then((setup) => setup.rules)]);
  const format = services.config.currency.format;
  const rows =
    lookup.kind === "ok"
      ? bulkTableModel({ product: lookup.product, rules, now: services.now(), customer: { loggedIn: shop.customerId() > 0 }, currencyFormat: format })
      : [];
  const isMask = product.categories.some((c) => c.slug === MASK_CATEGORY_SLUG);
  return { productId: product.id, bulkTableHtml: bulkTableHtml(rows, exactCurrencyFormat(rows.map((r) => r.unitPrice), format)), promotion: isMask ? [...services.config.shop.maskPromotion] : [] };
}
