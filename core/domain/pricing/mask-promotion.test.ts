import { describe, expect, it } from "vitest";
import { evaluateCart } from "./engine.ts";
import { MASK_PROMOTION_RULES } from "./mask-promotion.ts";
import { bulkTableModel } from "./display.ts";
import { NOW, SHIPPING, line } from "./test-fixtures.ts";

const mask = (key: string, quantity: number, over = {}) =>
  line(key, { productId: 501, categorySlugs: ["face-masks"], quantity, regularUnitPrice: 300, ...over });

// Masks at $3.00 each. Written out by hand from the rule: 1–5 own price, 6–11 $2.50 each, 12+ $2.00 each.
const TABLE: { qty: number; total: number; nudge: string | null; overpay: number | null }[] = [
  { qty: 1, total: 300, nudge: "Add 5 more to get 6 masks for $15", overpay: null },
  { qty: 2, total: 600, nudge: "Add 4 more to get 6 masks for $15", overpay: null },
  { qty: 3, total: 900, nudge: "Add 3 more to get 6 masks for $15", overpay: null },
  { qty: 4, total: 1200, nudge: "Add 2 more to get 6 masks for $15", overpay: null },
  { qty: 5, total: 1500, nudge: "Add 1 more to get 6 masks for $15", overpay: null }, // $15 either way: no warning
  { qty: 6, total: 1500, nudge: "Add 6 more to get 12 masks for $24", overpay: null },
  { qty: 7, total: 1750, nudge: "Add 5 more to get 12 masks for $24", overpay: null },
  { qty: 8, total: 2000, nudge: "Add 4 more to get 12 masks for $24", overpay: null },
  { qty: 9, total: 2250, nudge: "Add 3 more to get 12 masks for $24", overpay: null },
  { qty: 10, total: 2500, nudge: "Add 2 more to get 12 masks for $24", overpay: 100 },
  { qty: 11, total: 2750, nudge: "Add 1 more to get 12 masks for $24", overpay: 350 },
  { qty: 12, total: 2400, nudge: null, overpay: null },
  { qty: 13, total: 2600, nudge: null, overpay: null },
];

describe("mask promotion: 6 for $15, 12 for $24, free shipping", () => {
  it.each(TABLE)("$qty masks cost $total cents with free shipping", ({ qty, total, nudge, overpay }) => {
    const r = evaluateCart({ lines: [mask("m", qty)], rules: MASK_PROMOTION_RULES, shippingMethods: SHIPPING, now: NOW });
    expect(r.lines[0]!.total).toBe(total);
    expect(r.totals.itemsTotal).toBe(total);
    expect(r.shipping.chosenRateId).toBe("free_shipping:1");
    expect(r.totals.shipping).toBe(0);
    expect(r.totals.grandTotal).toBe(total);
    expect(r.nudges.map((n) => n.message)).toEqual(nudge ? [nudge] : []);
    if (overpay === null) expect(r.warnings).toEqual([]);
    else {
      expect(r.warnings).toHaveLength(1);
      expect(r.warnings[0]).toMatchObject({ kind: "pays_more_than_next_tier", overpay, nextTierQuantity: 12, nextTierTotal: 2400 });
    }
  });

  it("nudge is structured data the UI can render", () => {
    const r = evaluateCart({ lines: [mask("m", 11)], rules: MASK_PROMOTION_RULES, now: NOW });
    expect(r.nudges[0]).toEqual({
      kind: "next_tier",
      ruleCode: "mask-multibuy",
      ruleTitle: "Mask multi-buy: 6 masks for $15, 12 masks for $24",
      groupKey: "matched",
      currentQuantity: 11,
      addQuantity: 1,
      targetQuantity: 12,
      targetLabel: "12 masks for $24",
      targetTotal: 2400,
      currentTotal: 2750,
      message: "Add 1 more to get 12 masks for $24",
    });
    expect(r.warnings[0]!.message).toBe("11 cost $28, but 12 cost $24: add 1 more and pay $4 less.");
  });

  it("different mask designs count together; other products keep their price but shipping is free", () => {
    const r = evaluateCart({
      lines: [mask("a", 4), mask("b", 3, { productId: 502 }), line("tie", { productId: 700, categorySlugs: ["ties"], regularUnitPrice: 2000 })],
      rules: MASK_PROMOTION_RULES,
      shippingMethods: SHIPPING,
      now: NOW,
    });
    expect(r.lines.map((l) => l.total)).toEqual([1000, 750, 2000]);
    expect(r.totals.grandTotal).toBe(3750);
    expect(r.shipping.freeShippingGrantedBy).toEqual([{ source: "rule", code: "mask-free-shipping" }]);
  });

  it("no masks: no free shipping, no nudge", () => {
    const r = evaluateCart({
      lines: [line("tie", { categorySlugs: ["ties"] })],
      rules: MASK_PROMOTION_RULES,
      shippingMethods: SHIPPING,
      now: NOW,
    });
    expect(r.shipping.rates.map((x) => x.id)).toEqual(["flat_rate:1", "local_pickup:1"]);
    expect(r.shipping.chosenRateId).toBe("flat_rate:1");
    expect(r.totals.grandTotal).toBe(1500);
    expect(r.nudges).toEqual([]);
  });

  it("warns below the first tier when the masks' own price makes 5 dearer than 6", () => {
    const r = evaluateCart({ lines: [mask("m", 5, { regularUnitPrice: 350 })], rules: MASK_PROMOTION_RULES, now: NOW });
    expect(r.totals.itemsTotal).toBe(1750);
    expect(r.warnings[0]).toMatchObject({ currentTotal: 1750, nextTierTotal: 1500, overpay: 250, nextTierQuantity: 6 });
  });

  it("a mask already cheaper than the tier price keeps its own price", () => {
    const r = evaluateCart({ lines: [mask("m", 6, { saleUnitPrice: 200 })], rules: MASK_PROMOTION_RULES, now: NOW });
    expect(r.totals.itemsTotal).toBe(1200);
  });

  it("bulk table rows for a mask", () => {
    const rows = bulkTableModel({
      product: { productId: 501, categorySlugs: ["face-masks"], regularUnitPrice: 300 },
      rules: MASK_PROMOTION_RULES,
      now: NOW,
    });
    expect(rows.map((r) => [r.range, r.discountLabel, r.unitPrice])).toEqual([
      ["6 - 11", "6 masks for $15", 250],
      ["12 +", "12 masks for $24", 200],
    ]);
  });
});
