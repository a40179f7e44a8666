import { describe, expect, it } from "vitest";
import { DEFAULT_CURRENCY_FORMAT } from "../../money/money.ts";
import { createLedger, type Ledger } from "../ledger.ts";
import { line, rule } from "../test-fixtures.ts";
import type { AppliedRule, CartLineInput, RuleAction } from "../types.ts";
import { discountRuleSchema, ruleKindArgsSchemas } from "../schema.ts";
import { RULE_KINDS, applyAction, checkAction, ruleKindOf, type FreeItemsState, type RuleDecision } from "./index.ts";

/** Checks `action` as the only rule over `lines` (every line matched unless `matched` says otherwise). */
function check(action: RuleAction, lines: CartLineInput[], matched = lines) {
  return checkAction({ rule: rule("r", action), lines, matched, format: DEFAULT_CURRENCY_FORMAT }, action);
}

/** Checks, then applies on a fresh ledger; what the rule gave and the ledger after. */
function run(action: RuleAction, lines: CartLineInput[], opts: { matched?: CartLineInput[]; ledger?: Ledger } = {}) {
  const paying = lines.filter((l) => !l.freeItem);
  const matched = opts.matched ?? paying;
  const r = rule("r", action);
  const c = checkAction({ rule: r, lines: paying, matched, format: DEFAULT_CURRENCY_FORMAT }, action);
  const decision: RuleDecision = {
    rule: r,
    lineKeys: matched.map((l) => l.key),
    freeShipping: c.freeShipping === true,
    ...(c.bulkGroups ? { bulkGroups: c.bulkGroups } : {}),
    ...(c.freeItem ? { freeItem: c.freeItem } : {}),
  };
  const ledger = opts.ledger ?? createLedger(lines);
  let record: AppliedRule | undefined;
  const freeItems: FreeItemsState = { result: { grants: [], toAdd: [], toRemove: [] }, freeLines: lines.filter((l) => l.freeItem), covered: new Set() };
  applyAction(
    { decision, ledger, freeItems, record: () => (record ??= { code: "r", title: "r", kind: action.kind, discount: 0, lineKeys: decision.lineKeys }) },
    action,
  );
  return { check: c, ledger, record, freeItems };
}

describe("the rule kind registry", () => {
  it("has one kind per action code, each with a schema for its arguments", () => {
    const codes = RULE_KINDS.map((k) => k.code).sort();
    expect(codes).toEqual(["bulk", "buy_x_get_y", "cart_fixed", "cart_percent", "free_shipping", "product_fixed", "product_percent"]);
    expect(Object.keys(ruleKindArgsSchemas).sort()).toEqual(codes);
    for (const k of RULE_KINDS) expect(ruleKindOf({ kind: k.code } as RuleAction)).toBe(k);
  });

  it("a stored rule's action is parsed by its kind's argument schema", () => {
    const stored = rule("x", { kind: "cart_percent", percent: 10, maxDiscount: 500 });
    expect(discountRuleSchema.parse(stored).action).toEqual(ruleKindArgsSchemas.cart_percent.parse(stored.action));
    expect(discountRuleSchema.safeParse({ ...stored, action: { kind: "cart_percent", percent: 120 } }).success).toBe(false);
    expect(discountRuleSchema.safeParse({ ...stored, action: { kind: "nope" } }).success).toBe(false);
  });
});

describe("bulk", () => {
  const tiers = [
    { min: 6, max: 11, type: "fixed_unit_price" as const, value: 250, label: "6 for $15" },
    { min: 12, type: "fixed_unit_price" as const, value: 200, label: "12 for $24" },
  ];
  it("check: applies once a group reaches a tier, counting matched lines together; nudges towards the next tier", () => {
    const below = check({ kind: "bulk", countBy: "matched", tiers }, [line("a", { quantity: 3 }), line("b", { quantity: 2 })]);
    expect(below.applies).toBe(false);
    expect(below.nudges?.[0]).toMatchObject({ kind: "next_tier", addQuantity: 1, targetQuantity: 6, message: "Add 1 more to get 6 for $15" });
    const reached = check({ kind: "bulk", countBy: "matched", tiers }, [line("a", { quantity: 4 }), line("b", { quantity: 2 })]);
    expect(reached.applies).toBe(true);
    expect(reached.bulkGroups).toEqual([{ groupKey: "matched", quantity: 6, lineKeys: ["a", "b"], tierIndex: 0 }]);
  });
  it("check: per product, each product counts alone", () => {
    const c = check({ kind: "bulk", countBy: "product", tiers }, [line("a", { quantity: 6 }), line("b", { productId: 2, quantity: 5 })]);
    expect(c.bulkGroups?.map((g) => [g.groupKey, g.tierIndex])).toEqual([
      ["product:1", 0],
      ["product:2", null],
    ]);
  });
  it("check: warns when the current quantity costs more than the next tier", () => {
    const c = check({ kind: "bulk", countBy: "matched", tiers }, [line("a", { quantity: 11 })]);
    expect(c.warnings?.[0]).toMatchObject({ kind: "pays_more_than_next_tier", currentTotal: 2750, nextTierTotal: 2400, overpay: 350 });
  });
  it("apply: takes the tier's price off each line of the group and records the tier", () => {
    const { ledger, record } = run({ kind: "bulk", countBy: "matched", tiers }, [line("a", { quantity: 4 }), line("b", { quantity: 2 })]);
    expect(ledger.remaining("a")).toBe(1000);
    expect(ledger.remaining("b")).toBe(500);
    expect(record).toMatchObject({ discount: 4500, tiers: [{ groupKey: "matched", quantity: 6, tierIndex: 0 }] });
  });
});

describe("product_percent and product_fixed", () => {
  it("check: always applies to the matched lines", () => {
    expect(check({ kind: "product_percent", percent: 10 }, [line("a")]).applies).toBe(true);
    expect(check({ kind: "product_fixed", amountPerUnit: 100 }, [line("a")]).applies).toBe(true);
  });
  it("apply percent: off what each matched line still costs, clamped to 0–100 %", () => {
    const lines = [line("a", { quantity: 3 }), line("b")];
    const { ledger, record } = run({ kind: "product_percent", percent: 15 }, lines, { matched: [lines[0]!] });
    expect(ledger.remaining("a")).toBe(2550);
    expect(ledger.remaining("b")).toBe(1000);
    expect(record?.discount).toBe(450);
    expect(ledger.state("a").discounts).toEqual([{ source: "rule", code: "r", title: "r", level: "product", amount: 450 }]);
    expect(run({ kind: "product_percent", percent: 150 }, [line("a")]).ledger.remaining("a")).toBe(0);
  });
  it("apply fixed: cents off each unit, never below zero", () => {
    expect(run({ kind: "product_fixed", amountPerUnit: 300 }, [line("a", { quantity: 2 })]).ledger.remaining("a")).toBe(1400);
    const over = run({ kind: "product_fixed", amountPerUnit: 5000 }, [line("a", { quantity: 2 })]);
    expect(over.ledger.remaining("a")).toBe(0);
    expect(over.record?.discount).toBe(2000);
  });
});

describe("cart_percent and cart_fixed", () => {
  it("apply percent: a cart-level discount on the matched lines' amount, capped by maxDiscount, allocated exactly", () => {
    const lines = [line("a", { regularUnitPrice: 1000 }), line("b", { regularUnitPrice: 2000 })];
    const { ledger, record } = run({ kind: "cart_percent", percent: 10 }, lines);
    expect(record?.discount).toBe(300);
    expect(ledger.cartDiscounts).toEqual([
      {
        source: "rule",
        code: "r",
        title: "r",
        amount: 300,
        allocations: [
          { lineKey: "a", amount: 100 },
          { lineKey: "b", amount: 200 },
        ],
      },
    ]);
    expect(ledger.state("a").discounts[0]?.level).toBe("cart");
    expect(run({ kind: "cart_percent", percent: 50, maxDiscount: 250 }, lines).record?.discount).toBe(250);
  });
  it("apply fixed: never more than the matched lines still cost; nothing recorded when nothing is left", () => {
    const lines = [line("a", { regularUnitPrice: 700 })];
    expect(run({ kind: "cart_fixed", amount: 1000 }, lines).record?.discount).toBe(700);
    const ledger = createLedger(lines);
    ledger.give("a", { source: "rule", code: "p", title: "p", level: "product" }, 700);
    const none = run({ kind: "cart_fixed", amount: 100 }, lines, { ledger });
    expect(none.record?.discount).toBe(0);
    expect(none.ledger.cartDiscounts).toEqual([]);
  });
});

describe("free_shipping", () => {
  it("check: applies and grants free shipping; apply takes nothing off the lines", () => {
    const { check: c, ledger, record } = run({ kind: "free_shipping" }, [line("a")]);
    expect(c).toEqual({ applies: true, freeShipping: true });
    expect(ledger.remaining("a")).toBe(1000);
    expect(record).toBeUndefined();
    expect(ruleKindOf({ kind: "free_shipping" }).phase).toBe("none");
  });
});

describe("buy_x_get_y", () => {
  const action = {
    kind: "buy_x_get_y" as const,
    buyQuantity: 2,
    getProductId: 9,
    choosableProductIds: [9, 10],
    getQuantity: 1,
    recursive: true,
    discountPercent: 100,
  };
  it("check: every buyQuantity earns getQuantity when recursive; a nudge to the next grant", () => {
    const c = check(action, [line("a", { quantity: 5 })]);
    expect(c.applies).toBe(true);
    expect(c.freeItem).toMatchObject({ ruleUniqueId: "r:9", parentProductId: 9, quantity: 2, defaultProductId: 9, choosableProductIds: [9, 10] });
    expect(c.nudges?.[0]).toMatchObject({ kind: "free_item", addQuantity: 1, targetQuantity: 6 });
    expect(check({ ...action, recursive: false }, [line("a", { quantity: 5 })]).freeItem?.quantity).toBe(1);
    expect(check(action, [line("a", { quantity: 1 })])).toMatchObject({ applies: false, nudges: [{ addQuantity: 1 }] });
  });
  it("apply: discounts the granted quantity of the free line, shrinks an excess, and asks to add what is missing", () => {
    const lines = [line("a", { quantity: 4 }), line("f", { productId: 9, quantity: 3, regularUnitPrice: 500, freeItem: { ruleUniqueId: "r:9" } })];
    const { ledger, record, freeItems } = run(action, lines);
    expect(ledger.remaining("f")).toBe(500);
    expect(record?.discount).toBe(1000);
    expect(freeItems.result.grants).toHaveLength(1);
    expect(freeItems.result.toRemove).toEqual([{ lineKey: "f", ruleUniqueId: "r:9", quantity: 1 }]);
    expect([...freeItems.covered]).toEqual(["f"]);
    const missing = run(action, [line("a", { quantity: 4 })]);
    expect(missing.freeItems.result.toAdd).toEqual([{ ruleUniqueId: "r:9", parentProductId: 9, productId: 9, quantity: 2 }]);
  });
  it("apply: a free line of another product is not covered by the grant", () => {
    const lines = [line("a", { quantity: 2 }), line("f", { productId: 7, quantity: 1, freeItem: { ruleUniqueId: "r:9" } })];
    const { freeItems, ledger } = run(action, lines);
    expect(freeItems.covered.size).toBe(0);
    expect(ledger.remaining("f")).toBe(1000);
  });
});
