/**
 * Shipping rates for a priced cart: which configured methods are available, what they cost, which one
 * is chosen. Free shipping granted by a rule or a coupon opens `free_shipping` methods that require it;
 * when the shop configured none, a promotion rate `FREE_SHIPPING_PROMOTION_RATE_ID` is offered so the
 * promise "free shipping on all mask purchases" never depends on shipping-zone settings.
 */
import type { Cents } from "../money/money.ts";
import type { DiscountSource, ShippingMethod, ShippingRate, ShippingResult } from "./types.ts";

export const FREE_SHIPPING_PROMOTION_RATE_ID = "free_shipping:promotion";

export interface ShippingInput {
  methods: readonly ShippingMethod[];
  chosenMethodId?: string;
  /** Units that need shipping (lines with needsShipping !== false, free items included). */
  shippedQuantity: number;
  /** Items total after all discounts. */
  itemsTotal: Cents;
  /** Items total after rule discounts, before coupon discounts. */
  itemsTotalBeforeCoupons: Cents;
  grantedBy: readonly { source: DiscountSource; code: string }[];
}

export function computeShipping(input: ShippingInput): ShippingResult {
  const grantedBy = [...input.grantedBy];
  if (input.shippedQuantity <= 0) {
    return { needsShipping: false, rates: [], chosenRateId: null, total: 0, freeShippingGrantedBy: grantedBy };
  }
  const granted = grantedBy.length > 0;
  const rates: ShippingRate[] = [];
  for (const m of input.methods) {
    switch (m.kind) {
      case "flat_rate":
        rates.push({
          id: m.id,
          kind: m.kind,
          label: m.title,
          cost: nonNegative(m.cost ?? 0) + nonNegative(m.costPerItem ?? 0) * input.shippedQuantity,
        });
        break;
      case "local_pickup":
        rates.push({ id: m.id, kind: m.kind, label: m.title, cost: nonNegative(m.cost ?? 0) });
        break;
      case "free_shipping": {
        const amount = m.ignoreCouponDiscounts ? input.itemsTotalBeforeCoupons : input.itemsTotal;
        const reachesMin = m.minAmount !== undefined && amount >= m.minAmount;
        const requires = m.requires ?? "none";
        const available =
          requires === "none" ||
          (requires === "grant" && granted) ||
          (requires === "min_amount" && reachesMin) ||
          (requires === "either" && (granted || reachesMin)) ||
          (requires === "both" && granted && reachesMin);
        if (available) rates.push({ id: m.id, kind: m.kind, label: m.title, cost: 0 });
        break;
      }
    }
  }
  // Only when no free-shipping method is configured at all: a configured one's own terms (e.g. `both`) win.
  if (granted && !input.methods.some((m) => m.kind === "free_shipping")) {
    rates.unshift({ id: FREE_SHIPPING_PROMOTION_RATE_ID, kind: "free_shipping", label: "Free shipping", cost: 0 });
  }
  const chosen = rates.find((r) => r.id === input.chosenMethodId) ?? defaultRate(rates);
  return {
    needsShipping: true,
    rates,
    chosenRateId: chosen?.id ?? null,
    total: chosen?.cost ?? 0,
    freeShippingGrantedBy: grantedBy,
  };
}

/** No (or an unavailable) choice: the cheapest delivery rate, so a granted free shipping is picked; pickup last. */
function defaultRate(rates: readonly ShippingRate[]): ShippingRate | undefined {
  const delivery = rates.filter((r) => r.kind !== "local_pickup");
  const pool = delivery.length > 0 ? delivery : rates;
  return pool.reduce<ShippingRate | undefined>((best, r) => (best === undefined || r.cost < best.cost ? r : best), undefined);
}

function nonNegative(n: number): Cents {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`shipping cost must be whole non-negative cents: ${n}`);
  return n;
}
