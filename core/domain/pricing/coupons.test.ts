import { describe, expect, it } from "vitest";
import { validateCoupon, type CouponContext } from "./coupons.ts";
import { NOW, line } from "./test-fixtures.ts";
import type { Coupon, CouponRefusalReason } from "./types.ts";

const LINES = [
  line("mask", { productId: 501, name: "Blue mask", categorySlugs: ["face-masks"], categoryIds: [7], regularUnitPrice: 300, quantity: 4 }),
  line("tie", { productId: 700, variationId: 701, name: "Silk tie", categorySlugs: ["ties"], regularUnitPrice: 2000, saleUnitPrice: 1500 }),
];

const ctx = (coupons: Coupon[], over: Partial<CouponContext> = {}): CouponContext => ({
  coupons,
  appliedCodes: [],
  lines: LINES,
  spend: 2700,
  now: NOW,
  ...over,
});

const c = (over: Partial<Coupon> = {}): Coupon => ({ code: "X", kind: "fixed_cart", amount: 500, ...over });

describe("validateCoupon refusals", () => {
  it.each<[string, string, Coupon[], Partial<CouponContext>, CouponRefusalReason, string]>([
    ["empty code", "  ", [c()], {}, "empty_code", "Please enter a coupon code."],
    ["unknown code", "NOPE", [c()], {}, "not_found", 'Coupon "NOPE" does not exist!'],
    ["already applied (case-insensitive)", "x", [c()], { appliedCodes: ["X"] }, "already_applied", "Coupon code already applied!"],
    [
      "another coupon is individual use",
      "X",
      [c(), c({ code: "SOLO", individualUse: true })],
      { appliedCodes: ["SOLO"] },
      "individual_use_only",
      'Sorry, coupon "SOLO" has already been applied and cannot be used in conjunction with other coupons.',
    ],
    ["zero amount without free shipping", "X", [c({ amount: 0 })], {}, "invalid_amount", "Coupon is not valid."],
    ["percent above 100", "X", [c({ kind: "percent", amount: 120 })], {}, "invalid_amount", "Coupon is not valid."],
    ["usage limit", "X", [c({ usageLimit: 10 })], { usage: { total: 10, byCustomer: 0 } }, "usage_limit_reached", "Coupon usage limit has been reached."],
    [
      "usage limit per customer",
      "X",
      [c({ usageLimitPerCustomer: 1 })],
      { usage: { total: 3, byCustomer: 1 } },
      "usage_limit_per_customer_reached",
      "Coupon usage limit has been reached.",
    ],
    ["expired (at the instant)", "X", [c({ expiresAt: "2025-06-15T12:00:00Z" })], {}, "expired", "This coupon has expired."],
    ["minimum spend", "X", [c({ minimumSpend: 5000 })], {}, "minimum_spend", "The minimum spend for this coupon is $50."],
    ["maximum spend", "X", [c({ maximumSpend: 2000 })], {}, "maximum_spend", "The maximum spend for this coupon is $20."],
    [
      "product coupon with no eligible item",
      "X",
      [c({ kind: "percent", amount: 10, productIds: [999] })],
      {},
      "not_applicable_to_products",
      "Sorry, this coupon is not applicable to selected products.",
    ],
    [
      "cart coupon needing a category the cart lacks",
      "X",
      [c({ categorySlugs: ["hats"] })],
      {},
      "not_applicable_to_products",
      "Sorry, this coupon is not applicable to selected products.",
    ],
    [
      "cart coupon with an excluded product in the cart",
      "X",
      [c({ excludedProductIds: [701] })],
      {},
      "excluded_products",
      "Sorry, this coupon is not applicable to the products: Silk tie.",
    ],
    [
      "cart coupon with an excluded category in the cart",
      "X",
      [c({ excludedCategorySlugs: ["face-masks"] })],
      {},
      "excluded_categories",
      "Sorry, this coupon is not applicable to the categories: face-masks.",
    ],
    ["cart coupon and a sale item in the cart", "X", [c({ excludeSaleItems: true })], {}, "sale_items", "Sorry, this coupon is not valid for sale items."],
    [
      "product coupon when every item is on sale",
      "X",
      [c({ kind: "percent", amount: 10, excludeSaleItems: true })],
      { lines: [LINES[1]!] },
      "sale_items",
      "Sorry, this coupon is not valid for sale items.",
    ],
  ])("%s", (_name, code, coupons, over, reason, message) => {
    expect(validateCoupon(code, ctx(coupons, over))).toEqual({ ok: false, code: code.trim(), reason, message });
  });

  it("money in messages follows the currency format", () => {
    const f = { symbol: "€", position: "right_space" as const, decimals: 2, decimalSeparator: ",", thousandSeparator: "." };
    const v = validateCoupon("X", ctx([c({ minimumSpend: 5050 })], { currencyFormat: f }));
    expect(v).toMatchObject({ message: "The minimum spend for this coupon is 50,50\u00a0€." });
  });
});

describe("validateCoupon acceptance", () => {
  it("accepts inside the limits and names the eligible lines", () => {
    const v = validateCoupon(
      "x",
      ctx([c({ usageLimit: 10, minimumSpend: 2700, maximumSpend: 2700, expiresAt: "2025-06-15T12:00:01Z" })], { usage: { total: 9, byCustomer: 5 } }),
    );
    expect(v).toMatchObject({ ok: true, eligibleLineKeys: ["mask", "tie"], replacesCodes: [] });
  });

  it("product coupons: include and exclude lists pick the lines", () => {
    expect(validateCoupon("X", ctx([c({ kind: "percent", amount: 10, categoryIds: [7] })]))).toMatchObject({ ok: true, eligibleLineKeys: ["mask"] });
    expect(validateCoupon("X", ctx([c({ kind: "fixed_product", amount: 10, productIds: [701] })]))).toMatchObject({ ok: true, eligibleLineKeys: ["tie"] });
    expect(validateCoupon("X", ctx([c({ kind: "percent", amount: 10, excludedCategorySlugs: ["ties"] })]))).toMatchObject({
      ok: true,
      eligibleLineKeys: ["mask"],
    });
    expect(validateCoupon("X", ctx([c({ kind: "percent", amount: 10, excludeSaleItems: true })]))).toMatchObject({ ok: true, eligibleLineKeys: ["mask"] });
  });

  it("a free-shipping-only coupon (amount 0) is valid", () => {
    expect(validateCoupon("X", ctx([c({ amount: 0, freeShipping: true })]))).toMatchObject({ ok: true });
  });

  it("an individual-use coupon replaces the applied ones", () => {
    expect(validateCoupon("SOLO", ctx([c(), c({ code: "SOLO", individualUse: true })], { appliedCodes: ["X"] }))).toMatchObject({
      ok: true,
      replacesCodes: ["X"],
    });
  });
});
