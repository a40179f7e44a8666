import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { priceProduct } from "./display.ts";
import { evaluateCart } from "./engine.ts";
import { MASK_PROMOTION_RULES } from "./mask-promotion.ts";
import type { BulkTier, CartInput, CartLineInput, Coupon, DiscountRule, LineFilter, RuleAction, RuleCondition, ShippingMethod } from "./types.ts";

const NOW = new Date("2025-06-15T12:00:00Z");
const cents = (max = 50_000) => fc.integer({ min: 0, max });
const productId = fc.integer({ min: 1, max: 6 });
const slug = fc.constantFrom("face-masks", "ties", "hats");

const lineArb = (key: string): fc.Arbitrary<CartLineInput> =>
  fc
    .record({
      productId,
      variationId: fc.option(fc.integer({ min: 10, max: 14 }), { nil: undefined }),
      categorySlugs: fc.uniqueArray(slug, { maxLength: 2 }),
      quantity: fc.integer({ min: 0, max: 30 }),
      regularUnitPrice: cents(20_000),
      saleUnitPrice: fc.option(cents(20_000), { nil: undefined }),
      needsShipping: fc.option(fc.boolean(), { nil: undefined }),
      free: fc.option(fc.constantFrom("bxgy-0:9", "bxgy-1:9", "gone:1"), { nil: undefined }),
    })
    .map(({ free, variationId, saleUnitPrice, needsShipping, ...rest }) => ({
      key,
      ...rest,
      ...(variationId !== undefined ? { variationId } : {}),
      ...(saleUnitPrice !== undefined ? { saleUnitPrice } : {}),
      ...(needsShipping !== undefined ? { needsShipping } : {}),
      ...(free !== undefined ? { productId: 9, freeItem: { ruleUniqueId: free } } : {}),
    }));

const linesArb = fc.integer({ min: 0, max: 7 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => lineArb(`l${i}`))));

const filterArb: fc.Arbitrary<LineFilter> = fc.oneof(
  fc.record({ type: fc.constant("products" as const), productIds: fc.uniqueArray(productId, { maxLength: 3 }), exclude: fc.boolean() }),
  fc.record({ type: fc.constant("categories" as const), categorySlugs: fc.uniqueArray(slug, { maxLength: 2 }), exclude: fc.boolean() }),
  fc.record({ type: fc.constant("on_sale" as const), onSale: fc.boolean() }),
);

const tierArb: fc.Arbitrary<BulkTier> = fc
  .record({
    min: fc.integer({ min: 1, max: 12 }),
    span: fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
    type: fc.constantFrom("fixed_unit_price", "fixed_total", "percent", "fixed_per_unit" as const),
    value: fc.integer({ min: 0, max: 10_000 }),
  })
  .map(({ span, type, value, min }) => ({
    min,
    ...(span !== undefined ? { max: min + span } : {}),
    type,
    value: type === "percent" ? value % 101 : value,
  }));

const actionArb: fc.Arbitrary<RuleAction> = fc.oneof(
  fc.record({
    kind: fc.constant("bulk" as const),
    countBy: fc.constantFrom("product", "variation", "matched", "cart" as const),
    tiers: fc.array(tierArb, { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ kind: fc.constant("product_percent" as const), percent: fc.integer({ min: 0, max: 120 }) }),
  fc.record({ kind: fc.constant("product_fixed" as const), amountPerUnit: cents(5_000) }),
  fc.record({ kind: fc.constant("cart_percent" as const), percent: fc.integer({ min: 0, max: 100 }), maxDiscount: cents(20_000) }),
  fc.record({ kind: fc.constant("cart_fixed" as const), amount: cents(100_000) }),
  fc.constant({ kind: "free_shipping" as const }),
  fc.record({
    kind: fc.constant("buy_x_get_y" as const),
    buyQuantity: fc.integer({ min: 1, max: 5 }),
    getProductId: fc.constant(9),
    choosableProductIds: fc.constant([9]),
    getQuantity: fc.integer({ min: 1, max: 2 }),
    recursive: fc.boolean(),
    discountPercent: fc.integer({ min: 0, max: 100 }),
  }),
);

const conditionArb: fc.Arbitrary<RuleCondition> = fc.oneof(
  fc.record({ type: fc.constant("cart_subtotal" as const), min: cents(100_000) }),
  fc.record({ type: fc.constant("matched_quantity" as const), min: fc.integer({ min: 0, max: 10 }) }),
  fc.record({ type: fc.constant("customer_logged_in" as const), loggedIn: fc.boolean() }),
);

const rulesArb: fc.Arbitrary<DiscountRule[]> = fc
  .array(
    fc.record({
      priority: fc.integer({ min: 1, max: 5 }),
      enabled: fc.constantFrom(true, true, true, false),
      filters: fc.array(filterArb, { maxLength: 1 }),
      conditions: fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, fc.array(conditionArb, { maxLength: 1 })),
      action: actionArb,
      stacking: fc.constantFrom("exclusive", "combinable" as const),
    }),
    { minLength: 1, maxLength: 6 },
  )
  .map((rs) => rs.map((r, i) => ({ code: `bxgy-${i}`, title: `Rule ${i}`, ...r })));

const couponArb: fc.Arbitrary<Coupon> = fc
  .record({
    code: fc.constantFrom("A", "B", "C", "D"),
    kind: fc.constantFrom("percent", "fixed_cart", "fixed_product" as const),
    amount: fc.integer({ min: 0, max: 20_000 }),
    minimumSpend: fc.option(cents(30_000), { nil: undefined, freq: 3 }),
    individualUse: fc.boolean(),
    freeShipping: fc.boolean(),
    excludeSaleItems: fc.boolean(),
    categorySlugs: fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, fc.uniqueArray(slug, { maxLength: 1 })),
  })
  .map(({ minimumSpend, kind, amount, ...c }) => ({
    ...c,
    kind,
    amount: kind === "percent" ? amount % 101 : amount,
    ...(minimumSpend !== undefined ? { minimumSpend } : {}),
  }));

const shippingArb: fc.Arbitrary<ShippingMethod[]> = fc.subarray([
  { id: "flat_rate:1", kind: "flat_rate", title: "Flat rate", cost: 500, costPerItem: 25 },
  { id: "free_shipping:1", kind: "free_shipping", title: "Free shipping", requires: "either", minAmount: 10_000 },
  { id: "local_pickup:1", kind: "local_pickup", title: "Local pickup", cost: 0 },
] satisfies ShippingMethod[]);

const cartArb: fc.Arbitrary<CartInput> = fc
  .record({
    lines: linesArb,
    rules: fc.oneof(
      rulesArb,
      rulesArb.map((r) => [...MASK_PROMOTION_RULES, ...r]),
    ),
    coupons: fc.uniqueArray(couponArb, { selector: (c) => c.code, maxLength: 4 }),
    appliedCoupons: fc.array(fc.constantFrom("A", "b", "C", "D", "E"), { maxLength: 3 }),
    shippingMethods: shippingArb,
    chosen: fc.constantFrom("flat_rate:1", "free_shipping:1", "local_pickup:1", "nope"),
    loggedIn: fc.boolean(),
  })
  .map(({ chosen, loggedIn, ...x }) => ({ ...x, chosenShippingMethodId: chosen, customer: { loggedIn }, now: NOW }));

const isCents = (n: number) => Number.isSafeInteger(n) && n >= 0;

describe("pricing invariants (property)", () => {
  it("line totals + shipping = grand total; nothing negative; all integers; allocations exact", () => {
    fc.assert(
      fc.property(cartArb, (input) => {
        const r = evaluateCart(input);
        const sumLines = r.lines.reduce((a, l) => a + l.total, 0);
        expect(sumLines + r.shipping.total).toBe(r.totals.grandTotal);
        expect(r.totals.itemsTotal).toBe(sumLines);
        for (const l of r.lines) {
          for (const v of [l.total, l.subtotal, l.unitPrice, l.productDiscount, l.cartDiscount, l.discountedSubtotal]) expect(isCents(v)).toBe(true);
          expect(l.total).toBeLessThanOrEqual(l.subtotal);
          expect(l.subtotal - l.discounts.reduce((a, d) => a + d.amount, 0)).toBe(l.total);
          for (const d of l.discounts) expect(d.amount > 0 && Number.isSafeInteger(d.amount)).toBe(true);
        }
        for (const d of r.cartDiscounts) expect(d.allocations.reduce((a, x) => a + x.amount, 0)).toBe(d.amount);
        expect(r.totals.subtotal - r.totals.discountTotal).toBe(r.totals.itemsTotal);
        expect(r.totals.couponDiscount).toBe(r.coupons.applied.reduce((a, c) => a + c.discount, 0));
        for (const v of Object.values(r.totals)) expect(isCents(v)).toBe(true);
        expect(isCents(r.shipping.total)).toBe(true);
        if (r.shipping.chosenRateId !== null) expect(r.shipping.rates.some((x) => x.id === r.shipping.chosenRateId)).toBe(true);
        for (const w of r.warnings) expect(w.overpay).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });

  it("the product page price equals what a cart holding only that line pays before cart discounts", () => {
    fc.assert(
      fc.property(lineArb("p"), rulesArb, fc.integer({ min: 1, max: 30 }), (l, rules, quantity) => {
        const { freeItem: _f, key: _k, ...product } = l;
        const shown = priceProduct({ product, quantity, rules, now: NOW });
        const cart = evaluateCart({ lines: [{ ...product, key: "x", quantity }], rules, now: NOW });
        expect(shown.lineTotal).toBe(cart.lines[0]!.discountedSubtotal);
        expect(shown.unitPrice).toBe(cart.lines[0]!.unitPrice);
      }),
      { numRuns: 500 },
    );
  });
});
