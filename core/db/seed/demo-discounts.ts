/** Demo coupons and shipping methods (the mask promotion rules come from the pricing engine itself). */
import type { Coupon, ShippingMethod } from "../../domain/pricing/index.ts";

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
