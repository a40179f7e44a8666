/**
 * What a product page needs from the discount engine, rendered on the server so the bulk-discount table
 * and the promotion text are there without JavaScript: the tiers table of every bulk rule selecting the
 * product (a variable product is shown at its cheapest variation until one is chosen) and, on mask
 * products, the spec's mask promotion text.
 */
import type { Storefront } from "../../../core/commerce/storefront.server.ts";
import { bulkTableHtml, bulkTableModel, MASK_CATEGORY_SLUG } from "../../../core/domain/pricing/index.ts";
import type { DiscountPageData } from "./awdr-params.ts";

export type { DiscountPageData };

export async function discountPageData(storefront: Storefront, product: { id: number; categories: { slug: string }[] }): Promise<DiscountPageData> {
  const { pricing, services } = storefront;
  const [lookup, rules] = await Promise.all([pricing.product(product.id, { cheapestVariation: true }), pricing.rules()]);
  const format = services.config.currency.format;
  const rows = lookup.kind === "ok" ? bulkTableModel({ product: lookup.product, rules, ...pricing.context(), currencyFormat: format }) : [];
  const isMask = product.categories.some((c) => c.slug === MASK_CATEGORY_SLUG);
  return {
    productId: product.id,
    bulkTableHtml: bulkTableHtml(rows, format),
    promotion: isMask ? [...services.config.shop.maskPromotion] : [],
  };
}
