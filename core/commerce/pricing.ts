/**
 * Pricing lookups shared by the discount endpoints (admin-ajax wdr_ajax / awdr_get_product_discount) and the
 * product page's loader: the product as the engine prices it, and the shopper's cart as engine lines.
 */
import type { Queryable } from "../db/client.ts";
import { cheapestVariationPrices, findPricingTarget, productCategories } from "../db/repositories/pricing.ts";
import type { CartLineInput, ProductForPricing } from "../domain/pricing/index.ts";
import type { PricedCart } from "./cart.ts";
import { productPricesBySlug } from "../db/repositories/cart.ts";
import { bundleModel, bundlePrice, storedBundledItems } from "../domain/catalog/product-kinds.ts";

export type PricingProductLookup =
  | { kind: "ok"; product: ProductForPricing; parentId: number; isVariation: boolean }
  | { kind: "unknown" }
  | { kind: "wrong_parent" }
  | { kind: "choose_variation"; parentId: number }
  | { kind: "not_priceable" }
  | { kind: "invalid_bundle_items" };

/**
 * A product or variation id → the engine's `ProductForPricing` (prices, category ids and slugs), from
 * published rows only. A variable product itself has no price: `choose_variation`, unless
 * `cheapestVariation` (the bulk table of a variable product before a variation is chosen).
 */
export async function loadPricingProduct(
  db: Queryable,
  id: number,
  opts: { parentId?: number; cheapestVariation?: boolean; bundleOptional?: readonly number[] } = {},
): Promise<PricingProductLookup> {
  const row = await findPricingTarget(db, id);
  if (!row) return { kind: "unknown" };
  if (opts.parentId !== undefined && opts.parentId !== row.parentId) return { kind: "wrong_parent" };
  const product = (p: { regularPrice: number; salePrice: number | null }): ProductForPricing => ({
    productId: row.parentId,
    ...(row.isVariation ? { variationId: row.id } : {}),
    name: row.name,
    categoryIds: row.categoryIds,
    categorySlugs: row.categorySlugs,
    regularUnitPrice: p.regularPrice,
    ...(p.salePrice !== null ? { saleUnitPrice: p.salePrice } : {}),
  });
  if (row.isVariation)
    return { kind: "ok", parentId: row.parentId, isVariation: true, product: product({ regularPrice: row.regularPrice!, salePrice: row.salePrice }) };
  if (row.type === "variable") {
    if (!opts.cheapestVariation) return { kind: "choose_variation", parentId: row.id };
    const cheapest = await cheapestVariationPrices(db, row.id);
    if (!cheapest) return { kind: "not_priceable" };
    return { kind: "ok", parentId: row.id, isVariation: false, product: product(cheapest) };
  }
  if (row.type === "bundle") {
    // A bundle is priced as the cart prices its line: the box, its mandatory items and the optional ones ticked.
    const items = storedBundledItems(row.details ?? {});
    const ticked = opts.bundleOptional ?? [];
    if (!ticked.every((id) => items.some((b) => b.optional && b.bundledItemId === id))) return { kind: "invalid_bundle_items" };
    const prices = await productPricesBySlug(
      db,
      items.map((b) => b.product),
    );
    const regularPrice = bundlePrice(
      bundleModel(row.id, row.regularPrice ?? 0, items, (slug) => prices.get(slug)),
      { ticked },
    );
    return { kind: "ok", parentId: row.id, isVariation: false, product: product({ regularPrice, salePrice: null }) };
  }
  // Grouped products have no price of their own and a multi-price download's depends on the options
  // chosen: neither has one unit price for the rules to act on.
  const multiPrice = row.type === "downloadable" && row.details?.priceMode === "multi";
  if (row.regularPrice === null || row.type === "grouped" || multiPrice) return { kind: "not_priceable" };
  return { kind: "ok", parentId: row.id, isVariation: false, product: product({ regularPrice: row.regularPrice, salePrice: row.salePrice }) };
}

/**
 * A priced cart as engine lines, so the product page prices `qty` more units the way the cart will
 * (6 masks in the cart + 1 on the page = the 7-mask tier). Free items are left out, as the engine does.
 */
export async function cartLinesForPricing(db: Queryable, cart: PricedCart): Promise<CartLineInput[]> {
  const paying = cart.result.lines.filter((l) => !l.freeItem);
  if (paying.length === 0) return [];
  const byProduct = await productCategories(db, [...new Set(paying.map((l) => l.productId))]);
  return paying.map((l) => ({
    key: `cart:${l.key}`,
    productId: l.productId,
    ...(l.variationId ? { variationId: l.variationId } : {}),
    categoryIds: byProduct.get(l.productId)?.ids ?? [],
    categorySlugs: byProduct.get(l.productId)?.slugs ?? [],
    quantity: l.quantity,
    regularUnitPrice: l.regularUnitPrice,
    ...(l.baseUnitPrice < l.regularUnitPrice ? { saleUnitPrice: l.baseUnitPrice } : {}),
  }));
}
