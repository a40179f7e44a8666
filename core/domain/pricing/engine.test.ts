import { describe, expect, it } from "vitest";
import { evaluateCart } from "./engine.ts";
import { validateFreeItemChange } from "./free-items.ts";
import { FREE_SHIPPING_PROMOTION_RATE_ID } from "./shipping.ts";
import { NOW, SHIPPING, line, rule } from "./test-fixtures.ts";
import type { CartInput, CartLineInput, CartResult, DiscountRule, RuleCondition } from "./types.ts";

const run = (lines: CartLineInput[], rules: DiscountRule[], extra: Partial<CartInput> = {}): CartResult => evaluateCart({ lines, rules, now: NOW, ...extra });

function expectBalanced(r: CartResult) {
  expect(r.lines.reduce((a, l) => a + l.total, 0) + r.totals.shipping).toBe(r.totals.grandTotal);
}

describe("product-level rule kinds", () => {
  it.each([
    // [name, action, line, expected line total]
    ["percent, rounded half away from zero", { kind: "product_percent", percent: 10 } as const, line("a", { quantity: 3, regularUnitPrice: 999 }), 2697],
    ["percent on a 1.5-cent discount rounds up", { kind: "product_percent", percent: 5 } as const, line("a", { regularUnitPrice: 30 }), 28],
    ["fixed per unit", { kind: "product_fixed", amountPerUnit: 150 } as const, line("a", { quantity: 2 }), 1700],
    ["fixed per unit never below zero", { kind: "product_fixed", amountPerUnit: 1500 } as const, line("a", { quantity: 2 }), 0],
    ["percent over 100 is capped", { kind: "product_percent", percent: 150 } as const, line("a"), 0],
  ])("%s", (_name, action, l, total) => {
    const r = run([l], [rule("r", action)]);
    expect(r.lines[0]!.total).toBe(total);
    expect(r.lines[0]!.matchedRule).toBe(total !== l.regularUnitPrice * l.quantity);
    expectBalanced(r);
  });

  it("shows the unit price after product rules, rounded for display only", () => {
    const r = run([line("a", { quantity: 3, regularUnitPrice: 999 })], [rule("r", { kind: "product_percent", percent: 10 })]);
    expect(r.lines[0]).toMatchObject({ subtotal: 2997, productDiscount: 300, discountedSubtotal: 2697, unitPrice: 899, total: 2697 });
    expect(r.lines[0]!.discounts).toEqual([{ source: "rule", code: "r", title: "r", level: "product", amount: 300 }]);
  });

  it("starts from the sale price when the product is on sale", () => {
    const r = run([line("a", { saleUnitPrice: 800 })], [rule("r", { kind: "product_percent", percent: 50 })]);
    expect(r.lines[0]).toMatchObject({ baseUnitPrice: 800, regularSubtotal: 1000, subtotal: 800, total: 400 });
  });

  it("filters select lines: products (incl. variation ids), variations, categories, exclusions, on-sale", () => {
    const lines = [
      line("a", { productId: 1 }),
      line("b", { productId: 2, variationId: 21 }),
      line("c", { productId: 3, categorySlugs: ["hats"], categoryIds: [30] }),
      line("d", { productId: 4, saleUnitPrice: 900 }),
    ];
    const keysFor = (filters: DiscountRule["filters"]) =>
      run(lines, [rule("r", { kind: "product_percent", percent: 10 }, { filters })])
        .lines.filter((l) => l.matchedRule)
        .map((l) => l.key);
    expect(keysFor([{ type: "products", productIds: [1, 21] }])).toEqual(["a", "b"]);
    expect(keysFor([{ type: "variations", variationIds: [21] }])).toEqual(["b"]);
    expect(keysFor([{ type: "categories", categorySlugs: ["hats"] }])).toEqual(["c"]);
    expect(keysFor([{ type: "categories", categoryIds: [30] }])).toEqual(["c"]);
    expect(keysFor([{ type: "categories", categorySlugs: ["hats"], exclude: true }])).toEqual(["a", "b", "d"]);
    expect(keysFor([{ type: "on_sale", onSale: true }])).toEqual(["d"]);
    expect(keysFor([])).toEqual(["a", "b", "c", "d"]);
  });
});

describe("bulk tiers", () => {
  const tiers = [
    { min: 2, max: 3, type: "percent", value: 10 },
    { min: 4, type: "percent", value: 20 },
  ] as const;

  it.each([
    ["product: variations of one product pooled", "product", [2000 * 0.8, 2000 * 0.8]],
    ["variation: each variation on its own", "variation", [1800, 1800]],
    ["matched: every selected line together", "matched", [1600, 1600]],
  ] as const)("count by %s", (_n, countBy, totals) => {
    const lines = [line("a", { productId: 1, variationId: 11, quantity: 2 }), line("b", { productId: 1, variationId: 12, quantity: 2 })];
    const r = run(lines, [rule("bulk", { kind: "bulk", countBy, tiers })]);
    expect(r.lines.map((l) => l.total)).toEqual(totals);
  });

  it("count by cart: other products count, only matched lines are discounted", () => {
    const lines = [line("hat", { categorySlugs: ["hats"], quantity: 1 }), line("sock", { productId: 2, quantity: 3 })];
    const r = run(lines, [rule("bulk", { kind: "bulk", countBy: "cart", tiers }, { filters: [{ type: "categories", categorySlugs: ["hats"] }] })]);
    expect(r.lines.map((l) => l.total)).toEqual([800, 3000]);
    expect(r.appliedRules[0]!.tiers).toEqual([{ groupKey: "cart", quantity: 4, tierIndex: 1 }]);
  });

  it.each([
    ["fixed unit price", { min: 3, type: "fixed_unit_price", value: 700 }, [1400, 700]],
    ["fixed total for the group (3 for $20), allocated exactly", { min: 3, max: 3, type: "fixed_total", value: 2000 }, [1333, 667]],
    ["fixed amount off per unit", { min: 3, type: "fixed_per_unit", value: 100 }, [1800, 900]],
    ["percent off", { min: 3, type: "percent", value: 15 }, [1700, 850]],
  ] as const)("tier type: %s", (_n, tier, totals) => {
    const lines = [line("a", { quantity: 2 }), line("b", { productId: 2, quantity: 1 })];
    const r = run(lines, [rule("bulk", { kind: "bulk", countBy: "matched", tiers: [tier] })]);
    expect(r.lines.map((l) => l.total)).toEqual(totals);
    expectBalanced(r);
  });

  it("below the first tier the rule does not apply, and a nudge says how many to add", () => {
    const r = run([line("a")], [rule("bulk", { kind: "bulk", countBy: "matched", tiers })]);
    expect(r.appliedRules).toEqual([]);
    expect(r.nudges[0]).toMatchObject({ addQuantity: 1, targetQuantity: 2, targetLabel: "10% off", message: "Add 1 more to get 10% off", targetTotal: 1800 });
  });
});

describe("cart-level rules", () => {
  it("percent of the cart is allocated onto lines so they add up exactly", () => {
    const lines = [line("a", { regularUnitPrice: 1000 }), line("b", { regularUnitPrice: 2000 }), line("c", { regularUnitPrice: 333 })];
    const r = run(lines, [rule("c10", { kind: "cart_percent", percent: 10 })]);
    expect(r.cartDiscounts[0]!.amount).toBe(333);
    expect(r.cartDiscounts[0]!.allocations.reduce((a, x) => a + x.amount, 0)).toBe(333);
    expect(r.totals).toMatchObject({ subtotal: 3333, cartRuleDiscount: 333, itemsTotal: 3000, grandTotal: 3000 });
    expect(r.lines.every((l) => l.unitPrice === l.baseUnitPrice)).toBe(true); // cart discounts do not change the shown price
  });

  it("percent with a maximum", () => {
    const r = run([line("a", { regularUnitPrice: 10000 })], [rule("c", { kind: "cart_percent", percent: 50, maxDiscount: 1000 })]);
    expect(r.totals.itemsTotal).toBe(9000);
  });

  it("fixed cart discount larger than the cart stops at zero", () => {
    const r = run([line("a"), line("b", { productId: 2 })], [rule("c", { kind: "cart_fixed", amount: 5000 })]);
    expect(r.lines.map((l) => l.total)).toEqual([0, 0]);
    expect(r.cartDiscounts[0]!.amount).toBe(2000);
  });

  it("applies after product rules even when it has the higher priority", () => {
    const r = run(
      [line("a", { regularUnitPrice: 1000 })],
      [rule("cart", { kind: "cart_fixed", amount: 100 }, { priority: 1 }), rule("prod", { kind: "product_percent", percent: 50 }, { priority: 5 })],
    );
    expect(r.lines[0]).toMatchObject({ discountedSubtotal: 500, cartDiscount: 100, total: 400 });
  });
});

describe("priority and stacking", () => {
  const p10 = (code: string, priority: number, stacking: "exclusive" | "combinable" = "combinable") =>
    rule(code, { kind: "product_percent", percent: 10 }, { priority, stacking });

  it("combinable rules stack in priority order, each on the price the previous left", () => {
    const r = run([line("a")], [p10("b", 2), p10("a", 1)]);
    expect(r.lines[0]!.total).toBe(810);
    expect(r.appliedRules.map((x) => [x.code, x.discount])).toEqual([
      ["a", 100],
      ["b", 90],
    ]);
  });

  it("an exclusive rule that applies stops lower-priority rules", () => {
    const r = run([line("a")], [p10("low", 5), p10("top", 1, "exclusive"), rule("ship", { kind: "free_shipping" }, { priority: 9 })]);
    expect(r.appliedRules.map((x) => x.code)).toEqual(["top"]);
    expect(r.lines[0]!.total).toBe(900);
    expect(r.shipping.freeShippingGrantedBy).toEqual([]);
  });

  it("an exclusive rule that does not apply (no matched line / no tier) blocks nothing", () => {
    const excl = rule(
      "excl",
      { kind: "product_percent", percent: 50 },
      { priority: 1, stacking: "exclusive", filters: [{ type: "products", productIds: [99] }] },
    );
    const bulkExcl = rule(
      "bulkx",
      { kind: "bulk", countBy: "matched", tiers: [{ min: 5, type: "percent", value: 50 }] },
      { priority: 2, stacking: "exclusive" },
    );
    const r = run([line("a")], [excl, bulkExcl, p10("p", 3)]);
    expect(r.appliedRules.map((x) => x.code)).toEqual(["p"]);
  });

  it("an exclusive rule below combinable ones still applies with them", () => {
    const r = run([line("a")], [p10("first", 1), p10("second", 2, "exclusive"), p10("third", 3)]);
    expect(r.appliedRules.map((x) => x.code)).toEqual(["first", "second"]);
  });

  it("equal priorities are ordered by code", () => {
    const r = run(
      [line("a")],
      [
        rule("b", { kind: "product_fixed", amountPerUnit: 100 }, { stacking: "exclusive" }),
        rule("a", { kind: "product_percent", percent: 10 }, { stacking: "exclusive" }),
      ],
    );
    expect(r.appliedRules.map((x) => x.code)).toEqual(["a"]);
  });
});

describe("activity: enabled, schedule, conditions", () => {
  const percent = { kind: "product_percent", percent: 10 } as const;
  const applies = (over: Partial<DiscountRule>, extra: Partial<CartInput> = {}, lines = [line("a", { quantity: 2 })]) =>
    run(lines, [rule("r", percent, over)], extra).appliedRules.length === 1;

  it("disabled rules never apply", () => expect(applies({ enabled: false })).toBe(false));

  it.each([
    [{ from: "2025-06-15T12:00:00Z" }, true],
    [{ from: "2025-06-15T12:00:01Z" }, false],
    [{ to: "2025-06-15T12:00:00Z" }, false],
    [{ to: "2025-06-15T12:00:01Z" }, true],
    [{ from: "2025-01-01T00:00:00Z", to: "2025-12-31T00:00:00Z" }, true],
    [{ from: "not a date" }, false],
  ])("schedule %j active: %s", (schedule, expected) => expect(applies({ schedule })).toBe(expected));

  it.each<[RuleCondition, Partial<CartInput>, boolean]>([
    [{ type: "cart_subtotal", min: 2000 }, {}, true],
    [{ type: "cart_subtotal", min: 2001 }, {}, false],
    [{ type: "cart_subtotal", max: 1999 }, {}, false],
    [{ type: "cart_quantity", min: 2, max: 2 }, {}, true],
    [{ type: "cart_quantity", min: 3 }, {}, false],
    [{ type: "matched_quantity", min: 3 }, {}, false],
    [{ type: "customer_logged_in", loggedIn: true }, {}, false],
    [{ type: "customer_logged_in", loggedIn: true }, { customer: { loggedIn: true } }, true],
    [{ type: "customer_logged_in", loggedIn: false }, {}, true],
    [{ type: "usage_limit", max: 5 }, { ruleUsage: { r: { total: 4, byCustomer: 0 } } }, true],
    [{ type: "usage_limit", max: 5 }, { ruleUsage: { r: { total: 5, byCustomer: 0 } } }, false],
    [{ type: "usage_limit_per_customer", max: 1 }, { ruleUsage: { r: { total: 9, byCustomer: 1 } } }, false],
    [{ type: "usage_limit_per_customer", max: 1 }, {}, true],
  ])("condition %j with %j → %s", (condition, extra, expected) => {
    expect(applies({ conditions: [condition] }, extra)).toBe(expected);
  });
});

describe("buy X get Y", () => {
  const bxgy = rule(
    "bogo",
    {
      kind: "buy_x_get_y",
      buyQuantity: 2,
      getProductId: 9,
      choosableProductIds: [91, 92],
      defaultProductId: 92,
      getQuantity: 1,
      recursive: true,
      discountPercent: 100,
    },
    { filters: [{ type: "products", productIds: [5] }] },
  );
  const buy = (q: number) => line("buy", { productId: 5, quantity: q, regularUnitPrice: 1000 });
  const free = (productId: number, quantity = 1, uid = "bogo:9") =>
    line(`free-${productId}`, { productId: 9, variationId: productId, quantity, regularUnitPrice: 700, freeItem: { ruleUniqueId: uid } });

  it("grants the free item and asks to add it when it is missing", () => {
    const r = run([buy(4)], [bxgy]);
    expect(r.freeItems.grants).toEqual([
      {
        ruleCode: "bogo",
        ruleTitle: "bogo",
        ruleUniqueId: "bogo:9",
        parentProductId: 9,
        choosableProductIds: [91, 92],
        defaultProductId: 92,
        quantity: 2,
        discountPercent: 100,
      },
    ]);
    expect(r.freeItems.toAdd).toEqual([{ ruleUniqueId: "bogo:9", parentProductId: 9, productId: 92, quantity: 2 }]);
  });

  it("prices the chosen variant at zero and asks for the rest", () => {
    const r = run([buy(4), free(91)], [bxgy]);
    expect(r.lines[1]).toMatchObject({ subtotal: 700, total: 0, freeItem: { ruleUniqueId: "bogo:9" } });
    expect(r.freeItems.toAdd).toEqual([{ ruleUniqueId: "bogo:9", parentProductId: 9, productId: 92, quantity: 1 }]);
    expect(r.totals.itemsTotal).toBe(4000);
  });

  it("a free line whose grant is gone is charged and flagged for removal; excess quantity too", () => {
    const gone = run([buy(1), free(91)], [bxgy]);
    expect(gone.lines[1]!.total).toBe(700);
    expect(gone.freeItems.toRemove).toEqual([{ lineKey: "free-91", ruleUniqueId: "bogo:9", quantity: 1 }]);
    expect(gone.nudges[0]).toMatchObject({ kind: "free_item", addQuantity: 1, message: "Add 1 more to get bogo" });
    const excess = run([buy(2), free(91, 3)], [bxgy]);
    expect(excess.lines[1]!.total).toBe(1400);
    expect(excess.freeItems.toRemove).toEqual([{ lineKey: "free-91", ruleUniqueId: "bogo:9", quantity: 2 }]);
  });

  it("a variant outside the allowed set is not free", () => {
    const r = run([buy(2), free(93)], [bxgy]);
    expect(r.lines[1]!.total).toBe(700);
    expect(r.freeItems.toRemove[0]!.lineKey).toBe("free-93");
  });

  it("free items are not counted by other rules", () => {
    const r = run([buy(2), free(91)], [bxgy, rule("c", { kind: "cart_fixed", amount: 100000 })]);
    expect(r.lines.map((l) => l.total)).toEqual([0, 0]);
    expect(r.cartDiscounts[0]!.allocations.map((a) => a.lineKey)).toEqual(["buy"]);
  });

  it("non-recursive grants once; a partial discount percent", () => {
    const once = rule("once", {
      kind: "buy_x_get_y",
      buyQuantity: 2,
      getProductId: 9,
      choosableProductIds: [],
      getQuantity: 1,
      recursive: false,
      discountPercent: 50,
    });
    const r = run([buy(6), line("f", { productId: 9, regularUnitPrice: 701, freeItem: { ruleUniqueId: "once:9" } })], [once]);
    expect(r.freeItems.grants[0]!.quantity).toBe(1);
    expect(r.freeItems.grants[0]!.choosableProductIds).toEqual([9]);
    expect(r.lines[1]!.total).toBe(350); // 701 − 351 (350.5 rounded half away from zero)
  });

  it("validates the 'change product' request against the grant", () => {
    const { freeItems } = run([buy(2)], [bxgy]);
    expect(validateFreeItemChange(freeItems.grants, { product_id: 91, rule_unique_id: "bogo:9", parent_id: 9 })).toEqual({
      ok: true,
      ruleUniqueId: "bogo:9",
      parentProductId: 9,
      productId: 91,
      quantity: 1,
    });
    expect(validateFreeItemChange(freeItems.grants, { product_id: 93, rule_unique_id: "bogo:9", parent_id: 9 })).toMatchObject({
      ok: false,
      reason: "not_choosable",
    });
    expect(validateFreeItemChange(freeItems.grants, { product_id: 91, rule_unique_id: "bogo:9", parent_id: 8 })).toMatchObject({
      ok: false,
      reason: "wrong_parent",
    });
    expect(validateFreeItemChange(freeItems.grants, { product_id: 91, rule_unique_id: "x:9", parent_id: 9 })).toMatchObject({
      ok: false,
      reason: "unknown_rule",
    });
  });
});

describe("shipping", () => {
  const lines = [line("a", { quantity: 2, regularUnitPrice: 2500 })];

  it("defaults to the cheapest delivery rate; pickup only when chosen", () => {
    const r = run(lines, [], { shippingMethods: SHIPPING });
    expect(r.shipping).toMatchObject({ chosenRateId: "flat_rate:1", total: 500 });
    expect(r.totals.grandTotal).toBe(5500);
    const p = run(lines, [], { shippingMethods: SHIPPING, chosenShippingMethodId: "local_pickup:1" });
    expect(p.totals.grandTotal).toBe(5000);
  });

  it("an unavailable choice falls back to the default", () => {
    const r = run(lines, [], { shippingMethods: SHIPPING, chosenShippingMethodId: "free_shipping:1" });
    expect(r.shipping.chosenRateId).toBe("flat_rate:1");
  });

  it.each([
    ["min_amount reached", { requires: "min_amount", minAmount: 5000 } as const, [], true],
    ["min_amount missed", { requires: "min_amount", minAmount: 5001 } as const, [], false],
    ["either via a rule", { requires: "either", minAmount: 99999 } as const, [rule("fs", { kind: "free_shipping" })], true],
    ["both needs the amount too", { requires: "both", minAmount: 99999 } as const, [rule("fs", { kind: "free_shipping" })], false],
    ["none: always", { requires: "none" } as const, [], true],
  ])("free shipping %s", (_n, req, rules, available) => {
    const methods = [SHIPPING[0]!, { id: "free_shipping:2", kind: "free_shipping" as const, title: "Free", ...req }];
    const r = run(lines, rules, { shippingMethods: methods });
    expect(r.shipping.rates.some((x) => x.id === "free_shipping:2")).toBe(available);
    expect(r.shipping.chosenRateId).toBe(available ? "free_shipping:2" : "flat_rate:1");
  });

  it("minimum amount is measured after coupons unless told to ignore them", () => {
    const methods = [{ id: "free_shipping:1", kind: "free_shipping" as const, title: "Free", requires: "min_amount" as const, minAmount: 5000 }];
    const coupons = [{ code: "TEN", kind: "fixed_cart" as const, amount: 1000 }];
    const after = run(lines, [], { shippingMethods: methods, coupons, appliedCoupons: ["TEN"] });
    expect(after.shipping.rates).toEqual([]);
    const ignoring = run(lines, [], { shippingMethods: [{ ...methods[0]!, ignoreCouponDiscounts: true }], coupons, appliedCoupons: ["TEN"] });
    expect(ignoring.shipping.chosenRateId).toBe("free_shipping:1");
  });

  it("a grant with no free-shipping method configured offers the promotion rate", () => {
    const r = run(lines, [rule("fs", { kind: "free_shipping" })], { shippingMethods: [SHIPPING[0]!] });
    expect(r.shipping.rates[0]).toEqual({ id: FREE_SHIPPING_PROMOTION_RATE_ID, kind: "free_shipping", label: "Free shipping", cost: 0 });
    expect(r.shipping.chosenRateId).toBe(FREE_SHIPPING_PROMOTION_RATE_ID);
  });

  it("per-item flat rate cost; nothing to ship means no shipping", () => {
    const methods = [{ id: "flat_rate:3", kind: "flat_rate" as const, title: "Flat", cost: 200, costPerItem: 150 }];
    expect(run(lines, [], { shippingMethods: methods }).totals.shipping).toBe(500);
    const virtual = run([line("d", { needsShipping: false })], [], { shippingMethods: methods });
    expect(virtual.shipping).toMatchObject({ needsShipping: false, rates: [], chosenRateId: null, total: 0 });
  });
});

describe("coupons inside the cart", () => {
  const lines = [line("a", { quantity: 2, regularUnitPrice: 1000 }), line("b", { productId: 2, categorySlugs: ["hats"], regularUnitPrice: 3000 })];

  it("percent coupon is computed on prices after the rules", () => {
    const r = run(lines, [rule("r", { kind: "product_percent", percent: 50 })], {
      coupons: [{ code: "Save10", kind: "percent", amount: 10 }],
      appliedCoupons: ["save10"],
    });
    expect(r.coupons.applied).toEqual([{ code: "Save10", kind: "percent", discount: 250, freeShipping: false }]);
    expect(r.totals).toMatchObject({ subtotal: 5000, productDiscount: 2500, couponDiscount: 250, itemsTotal: 2250, grandTotal: 2250 });
  });

  it("fixed product coupon is per unit of eligible items only", () => {
    const r = run(lines, [], { coupons: [{ code: "HAT", kind: "fixed_product", amount: 500, categorySlugs: ["hats"] }], appliedCoupons: ["HAT"] });
    expect(r.lines.map((l) => l.total)).toEqual([2000, 2500]);
  });

  it("an individual-use coupon replaces earlier coupons, and refuses later ones", () => {
    const coupons = [
      { code: "A", kind: "fixed_cart" as const, amount: 100 },
      { code: "SOLO", kind: "fixed_cart" as const, amount: 300, individualUse: true },
      { code: "B", kind: "fixed_cart" as const, amount: 100 },
    ];
    const r = run(lines, [], { coupons, appliedCoupons: ["A", "SOLO", "B"] });
    expect(r.coupons.applied.map((c) => c.code)).toEqual(["SOLO"]);
    expect(r.coupons.refused.map((c) => [c.code, c.reason])).toEqual([
      ["A", "individual_use_only"],
      ["B", "individual_use_only"],
    ]);
    expect(r.coupons.refused[1]!.message).toBe('Sorry, coupon "SOLO" has already been applied and cannot be used in conjunction with other coupons.');
    expect(r.totals.couponDiscount).toBe(300);
  });

  it("a refused coupon changes nothing and says why", () => {
    const r = run(lines, [], { coupons: [], appliedCoupons: ["NOPE"] });
    expect(r.coupons.refused).toEqual([{ code: "NOPE", reason: "not_found", message: 'Coupon "NOPE" does not exist!' }]);
    expect(r.totals.grandTotal).toBe(5000);
  });

  it("a free-shipping coupon opens the free shipping method", () => {
    const r = run(lines, [], {
      coupons: [{ code: "SHIP", kind: "fixed_cart", amount: 0, freeShipping: true }],
      appliedCoupons: ["SHIP"],
      shippingMethods: SHIPPING,
    });
    expect(r.shipping.chosenRateId).toBe("free_shipping:1");
    expect(r.shipping.freeShippingGrantedBy).toEqual([{ source: "coupon", code: "SHIP" }]);
  });

  it("minimum spend is checked against the price after rules", () => {
    const r = run(lines, [rule("r", { kind: "product_percent", percent: 50 })], {
      coupons: [{ code: "MIN", kind: "fixed_cart", amount: 100, minimumSpend: 5000 }],
      appliedCoupons: ["MIN"],
    });
    expect(r.coupons.refused[0]!.message).toBe("The minimum spend for this coupon is $50.");
  });
});

describe("input checks", () => {
  it.each([[{ quantity: 1.5 }], [{ quantity: -1 }], [{ regularUnitPrice: 10.5 }], [{ saleUnitPrice: -1 }]])("rejects %j", (over) => {
    expect(() => run([line("a", over)], [])).toThrow(RangeError);
  });
  it("rejects duplicate keys", () => expect(() => run([line("a"), line("a")], [])).toThrow(/duplicate/));
  it("an empty cart costs nothing", () => {
    const r = run([], [rule("c", { kind: "cart_fixed", amount: 100 })], { shippingMethods: SHIPPING });
    expect(r.totals.grandTotal).toBe(0);
    expect(r.shipping.needsShipping).toBe(false);
  });
});
