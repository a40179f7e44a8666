/**
 * Demo discount rules, coupons and shipping methods. The mask promotion comes from the pricing engine
 * itself (MASK_PROMOTION_RULES); the other demo rules name products, whose ids only exist once the
 * catalogue is inserted, so they are built from an id lookup by slug.
 */
import type { Coupon, DiscountRule, ShippingMethod } from "../../domain/pricing/index.ts";
import { MASK_PROMOTION_RULES } from "../../domain/pricing/index.ts";

export const DEMO_COUPONS: Coupon[] = [
  { code: "welcome10", kind: "percent", amount: 10, usageLimitPerCustomer: 1 },
  { code: "take5", kind: "fixed_cart", amount: 500, minimumSpend: 3000 },
  { code: "ties20", kind: "percent", amount: 20, categorySlugs: ["ties", "bow-ties"], individualUse: true },
  { code: "onlyonce", kind: "fixed_cart", amount: 1000, usageLimit: 1 },
  { code: "expired", kind: "percent", amount: 50, expiresAt: "2020-01-01T00:00:00.000Z" },
];

export const DEMO_SHIPPING_METHODS: ShippingMethod[] = [
  { id: "flat_rate:1", kind: "flat_rate", title: "Flat rate", cost: 500 },
  { id: "free_shipping:1", kind: "free_shipping", title: "Free shipping", requires: "either", minAmount: 7500 },
  { id: "local_pickup:1", kind: "local_pickup", title: "Local pickup", cost: 0 },
];

/** The products the demo rules name, by slug (see demo-catalogue.ts). */
export const DEMO_RULE_PRODUCTS = {
  /** Excluded from the tie multi-buy: sold by a partner store (an external product). */
  partnerTie: "designer-silk-tie-partner",
  discountedProduct: "travel-tie-case",
  buyProduct: "silk-necktie",
  /** A variable product: the shopper chooses the free bow tie's colour. */
  freeProduct: "velvet-bow-tie",
} as const;

export interface DemoRuleIds {
  productId(slug: string): number;
  /** The variation ids of a variable product that are in stock, in menu order. */
  inStockVariationIds(slug: string): number[];
}

/** Codes of the demo rules, for tests and the docs. */
export const DEMO_RULE_CODES = {
  tieMultibuy: "tie-multibuy",
  productPercent: "travel-case-20",
  buyXGetY: "necktie-free-bow-tie",
  cartPercent: "cart-5-over-150",
} as const;

/** Every demo rule: the mask promotion plus one rule of each other kind. All combinable. */
export function demoDiscountRules(ids: DemoRuleIds): DiscountRule[] {
  const freeChoices = ids.inStockVariationIds(DEMO_RULE_PRODUCTS.freeProduct);
  return [
    ...MASK_PROMOTION_RULES,
    {
      code: DEMO_RULE_CODES.tieMultibuy,
      title: "Tie multi-buy: 2 ties 10% off, 4 or more 20% off",
      priority: 30,
      enabled: true,
      filters: [
        { type: "categories", categorySlugs: ["ties"] },
        { type: "products", productIds: [ids.productId(DEMO_RULE_PRODUCTS.partnerTie)], exclude: true },
      ],
      conditions: [],
      action: {
        kind: "bulk",
        countBy: "matched",
        tiers: [
          { min: 2, max: 3, type: "percent", value: 10, label: "2 ties: 10% off" },
          { min: 4, type: "percent", value: 20, label: "4 ties: 20% off" },
        ],
      },
      stacking: "combinable",
    },
    {
      code: DEMO_RULE_CODES.productPercent,
      title: "Travel Tie Case: 20% off",
      priority: 40,
      enabled: true,
      filters: [{ type: "products", productIds: [ids.productId(DEMO_RULE_PRODUCTS.discountedProduct)] }],
      conditions: [],
      action: { kind: "product_percent", percent: 20 },
      stacking: "combinable",
    },
    {
      code: DEMO_RULE_CODES.buyXGetY,
      title: "Buy a Silk Necktie, get a Velvet Bow Tie free (choose the colour)",
      priority: 50,
      enabled: true,
      filters: [{ type: "products", productIds: [ids.productId(DEMO_RULE_PRODUCTS.buyProduct)] }],
      conditions: [],
      action: {
        kind: "buy_x_get_y",
        buyQuantity: 1,
        getProductId: ids.productId(DEMO_RULE_PRODUCTS.freeProduct),
        choosableProductIds: freeChoices,
        ...(freeChoices[0] !== undefined ? { defaultProductId: freeChoices[0] } : {}),
        getQuantity: 1,
        recursive: false,
        discountPercent: 100,
      },
      stacking: "combinable",
    },
    {
      code: DEMO_RULE_CODES.cartPercent,
      title: "5% off orders over $150",
      priority: 60,
      enabled: true,
      filters: [],
      conditions: [{ type: "cart_subtotal", min: 15000 }],
      action: { kind: "cart_percent", percent: 5 },
      stacking: "combinable",
    },
  ];
}
