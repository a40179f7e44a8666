import { describe, expect, it } from "vitest";
import { MASK_PROMOTION_RULES } from "./mask-promotion.ts";
import { couponSchema, discountRulesSchema, shippingMethodSchema } from "./schema.ts";
import { SHIPPING } from "./test-fixtures.ts";

describe("stored-data schemas", () => {
  it("accept the seeded mask promotion and the test shipping methods", () => {
    expect(discountRulesSchema.parse(MASK_PROMOTION_RULES)).toEqual(MASK_PROMOTION_RULES);
    for (const m of SHIPPING) expect(shippingMethodSchema.parse(m)).toEqual(m);
  });
  it("refuse bad rules", () => {
    const ok = MASK_PROMOTION_RULES[0]!;
    expect(discountRulesSchema.safeParse([ok, ok]).success).toBe(false);
    expect(discountRulesSchema.safeParse([{ ...ok, code: "Bad Code" }]).success).toBe(false);
    expect(discountRulesSchema.safeParse([{ ...ok, schedule: { from: "soon" } }]).success).toBe(false);
    expect(
      discountRulesSchema.safeParse([{ ...ok, action: { kind: "bulk", countBy: "matched", tiers: [{ min: 6, max: 3, type: "percent", value: 10 }] } }]).success,
    ).toBe(false);
    expect(discountRulesSchema.safeParse([{ ...ok, action: { kind: "product_fixed", amountPerUnit: 1.5 } }]).success).toBe(false);
  });
  it("coupons: percent up to 100, amounts in whole cents", () => {
    expect(couponSchema.safeParse({ code: "A", kind: "percent", amount: 12.5 }).success).toBe(true);
    expect(couponSchema.safeParse({ code: "A", kind: "percent", amount: 101 }).success).toBe(false);
    expect(couponSchema.safeParse({ code: "A", kind: "fixed_cart", amount: 10.5 }).success).toBe(false);
    expect(couponSchema.safeParse({ code: " ", kind: "fixed_cart", amount: 10 }).success).toBe(false);
  });
});
