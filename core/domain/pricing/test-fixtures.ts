/** Small builders shared by the pricing tests (not used by production code). */
import type { CartLineInput, DiscountRule, RuleAction, ShippingMethod } from "./types.ts";

export const NOW = new Date("2025-06-15T12:00:00Z");

export function line(key: string, over: Partial<CartLineInput> = {}): CartLineInput {
  return { key, productId: 1, quantity: 1, regularUnitPrice: 1000, ...over };
}

export function rule(code: string, action: RuleAction, over: Partial<DiscountRule> = {}): DiscountRule {
  return { code, title: code, priority: 10, enabled: true, filters: [], conditions: [], action, stacking: "combinable", ...over };
}

export const SHIPPING: ShippingMethod[] = [
  { id: "flat_rate:1", kind: "flat_rate", title: "Flat rate", cost: 500 },
  { id: "free_shipping:1", kind: "free_shipping", title: "Free shipping", requires: "grant" },
  { id: "local_pickup:1", kind: "local_pickup", title: "Local pickup", cost: 0 },
];
