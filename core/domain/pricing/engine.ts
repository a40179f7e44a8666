/**
 * The *apply* half of the engine and the totals. `evaluateCart` = `priceCartLines` (decide with
 * `decideRules`, then apply product rules → free items → cart rules → coupons, all on line amounts in
 * cents) followed by `computeCartTotals` (shipping and the grand total).
 *
 * Invariants (checked by the property test): every amount is a whole number of cents, no line total is
 * negative, and the sum of line totals plus shipping is the grand total exactly.
 */
import { allocate, percentOf, roundCents, type Cents } from "../money/money.ts";
import { validateCoupon } from "./coupons.ts";
import { decideRules } from "./decide.ts";
import { createLedger, type Ledger, type LineState } from "./ledger.ts";
import { APPLY_PHASES, applyAction, ruleKindOf, type FreeItemsState, type RuleDecision } from "./rule-kinds/index.ts";
import { clamp } from "./rules.ts";
import { computeShipping } from "./shipping.ts";
import type {
  AppliedCoupon,
  AppliedRule,
  CartInput,
  CartLevelDiscount,
  CartLineInput,
  CartResult,
  CartTotals,
  Coupon,
  CouponKind,
  CouponRefusal,
  DiscountSource,
  FreeItemsResult,
  PricedLine,
  PricingWarning,
  TierNudge,
} from "./types.ts";

export interface LinePricing {
  lines: PricedLine[];
  appliedRules: AppliedRule[];
  cartDiscounts: CartLevelDiscount[];
  coupons: { applied: AppliedCoupon[]; refused: CouponRefusal[] };
  freeItems: FreeItemsResult;
  nudges: TierNudge[];
  warnings: PricingWarning[];
  freeShippingGrantedBy: { source: DiscountSource; code: string }[];
}

/**
 * Prices every line: rule discounts, free items, cart discounts and coupons, allocated onto lines.
 * The steps: check the lines, decide which rules apply, apply them phase by phase, pick the coupons,
 * apply them, then read the priced lines off the ledger.
 */
export function priceCartLines(input: CartInput): LinePricing {
  assertLines(input.lines);
  const ledger = createLedger(input.lines);
  const paying = input.lines.filter((l) => !l.freeItem);
  const decided = decideRules({
    lines: paying,
    rules: input.rules,
    now: input.now,
    ...(input.customer ? { customer: input.customer } : {}),
    ...(input.ruleUsage ? { ruleUsage: input.ruleUsage } : {}),
    ...(input.currencyFormat ? { currencyFormat: input.currencyFormat } : {}),
  });
  const rules = applyRules(
    decided.decisions,
    ledger,
    input.lines.filter((l) => l.freeItem),
  );
  const coupons = selectCoupons(input, paying, ledger);
  const freeShippingGrantedBy: { source: DiscountSource; code: string }[] = decided.decisions
    .filter((d) => d.freeShipping)
    .map((d) => ({ source: "rule" as const, code: d.rule.code }));
  const appliedCoupons = applyCoupons(coupons.accepted, ledger);
  for (const c of appliedCoupons) if (c.freeShipping) freeShippingGrantedBy.push({ source: "coupon", code: c.code });
  return {
    lines: input.lines.map((line) => pricedLine(line, ledger.state(line.key))),
    appliedRules: rules.appliedRules,
    cartDiscounts: ledger.cartDiscounts,
    coupons: { applied: appliedCoupons, refused: coupons.refused },
    freeItems: rules.freeItems,
    nudges: decided.nudges,
    warnings: decided.warnings,
    freeShippingGrantedBy,
  };
}

function assertLine(line: CartLineInput): void {
  const whole = (n: number, what: string) => {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`line ${line.key}: ${what} must be a whole number >= 0, got ${n}`);
  };
  whole(line.quantity, "quantity");
  whole(line.regularUnitPrice, "regularUnitPrice");
  if (line.saleUnitPrice !== undefined) whole(line.saleUnitPrice, "saleUnitPrice");
}

/** Whole, non-negative amounts and unique keys, or a RangeError. */
export function assertLines(lines: readonly CartLineInput[]): void {
  const seen = new Set<string>();
  for (const line of lines) {
    assertLine(line);
    if (seen.has(line.key)) throw new RangeError(`duplicate line key: ${line.key}`);
    seen.add(line.key);
  }
}

/**
 * Applies the decided rules with their kinds, phase by phase (product rules in priority order, each on
 * what the line costs after the ones before; free items; cart rules on the amounts after product rules).
 */
export function applyRules(
  decisions: readonly RuleDecision[],
  ledger: Ledger,
  freeLines: readonly CartLineInput[],
): { appliedRules: AppliedRule[]; freeItems: FreeItemsResult } {
  const applied = new Map<string, AppliedRule>();
  const record = (d: RuleDecision) => (): AppliedRule => {
    let a = applied.get(d.rule.code);
    if (!a) {
      a = { code: d.rule.code, title: d.rule.title, kind: d.rule.action.kind, discount: 0, lineKeys: [...d.lineKeys] };
      applied.set(d.rule.code, a);
    }
    return a;
  };
  const freeItems: FreeItemsState = { result: { grants: [], toAdd: [], toRemove: [] }, freeLines, covered: new Set() };
  for (const phase of APPLY_PHASES)
    for (const d of decisions) if (ruleKindOf(d.rule.action).phase === phase) applyAction({ decision: d, ledger, record: record(d), freeItems }, d.rule.action);
  // A free-item line no grant accounts for leaves the cart.
  for (const line of freeLines)
    if (!freeItems.covered.has(line.key))
      freeItems.result.toRemove.push({ lineKey: line.key, ruleUniqueId: line.freeItem!.ruleUniqueId, quantity: line.quantity });
  return { appliedRules: decisions.map((d) => record(d)()), freeItems: freeItems.result };
}

/**
 * The applied coupon codes validated in the order applied, against what the items cost after the rules;
 * an individual-use coupon replaces those before it.
 */
export function selectCoupons(
  input: CartInput,
  paying: readonly CartLineInput[],
  ledger: Ledger,
): { accepted: { coupon: Coupon; eligible: string[] }[]; refused: CouponRefusal[] } {
  const refused: CouponRefusal[] = [];
  let accepted: { coupon: Coupon; eligible: string[] }[] = [];
  const spend = paying.reduce((a, l) => a + ledger.remaining(l.key), 0);
  for (const code of input.appliedCoupons ?? []) {
    const v = validateCoupon(code, {
      coupons: input.coupons ?? [],
      appliedCodes: accepted.map((c) => c.coupon.code),
      lines: paying,
      spend,
      now: input.now,
      ...(input.couponUsage ? { usage: usageFor(input.couponUsage, code) } : {}),
      ...(input.currencyFormat ? { currencyFormat: input.currencyFormat } : {}),
    });
    if (!v.ok) {
      refused.push({ code: v.code, reason: v.reason, message: v.message });
      continue;
    }
    for (const gone of v.replacesCodes)
      refused.push({
        code: gone,
        reason: "individual_use_only",
        message: `Sorry, coupon "${v.coupon.code}" has already been applied and cannot be used in conjunction with other coupons.`,
      });
    if (v.replacesCodes.length > 0) accepted = [];
    accepted.push({ coupon: v.coupon, eligible: v.eligibleLineKeys });
  }
  return { accepted, refused };
}

type CouponApply = (ledger: Ledger, coupon: Coupon, eligible: readonly string[], title: string, beforeCoupons: ReadonlyMap<string, Cents>) => Cents;

/** One pure apply per coupon kind. */
const COUPON_APPLY: { readonly [K in CouponKind]: CouponApply } = {
  fixed_cart: (ledger, coupon, eligible, title) => ledger.spread("coupon", coupon.code, title, eligible, coupon.amount),
  // WooCommerce computes percent coupons on the price before coupons (not sequentially).
  percent: (ledger, coupon, eligible, title, beforeCoupons) => {
    const base = eligible.reduce((a, k) => a + beforeCoupons.get(k)!, 0);
    const wanted = percentOf(base, clamp(coupon.amount, 0, 100));
    const parts = allocate(
      wanted,
      eligible.map((k) => beforeCoupons.get(k)!),
    );
    return ledger.giveEach(
      "coupon",
      coupon.code,
      title,
      eligible.map((key, i) => ({ key, amount: parts[i]! })),
    );
  },
  fixed_product: (ledger, coupon, eligible, title) =>
    ledger.giveEach(
      "coupon",
      coupon.code,
      title,
      eligible.map((key) => ({ key, amount: coupon.amount * ledger.state(key).line.quantity })),
    ),
};

/** Applies the accepted coupons in order; what each gave. */
export function applyCoupons(accepted: readonly { coupon: Coupon; eligible: readonly string[] }[], ledger: Ledger): AppliedCoupon[] {
  const beforeCoupons = new Map<string, Cents>();
  for (const { coupon, eligible } of accepted)
    if (coupon.kind === "percent") for (const k of eligible) if (!beforeCoupons.has(k)) beforeCoupons.set(k, ledger.remaining(k));
  return accepted.map(({ coupon, eligible }) => {
    const discount = COUPON_APPLY[coupon.kind](ledger, coupon, eligible, `Coupon: ${coupon.code}`, beforeCoupons);
    return { code: coupon.code, kind: coupon.kind, discount, freeShipping: coupon.freeShipping === true };
  });
}

/** A line's prices read off its ledger state. */
export function pricedLine(line: CartLineInput, s: LineState): PricedLine {
  const productDiscount = s.discounts.filter((d) => d.level === "product").reduce((a, d) => a + d.amount, 0);
  const cartDiscount = s.discounts.filter((d) => d.level === "cart").reduce((a, d) => a + d.amount, 0);
  const discountedSubtotal = s.subtotal - productDiscount;
  const total = s.subtotal - productDiscount - cartDiscount;
  if (total < 0) throw new Error(`pricing invariant broken: line ${line.key} below zero`);
  return {
    key: line.key,
    productId: line.productId,
    ...(line.variationId ? { variationId: line.variationId } : {}),
    quantity: line.quantity,
    regularUnitPrice: line.regularUnitPrice,
    baseUnitPrice: s.base,
    regularSubtotal: line.regularUnitPrice * line.quantity,
    subtotal: s.subtotal,
    productDiscount,
    discountedSubtotal,
    unitPrice: line.quantity > 0 ? roundCents(discountedSubtotal / line.quantity) : s.base,
    cartDiscount,
    discounts: s.discounts,
    total,
    matchedRule: productDiscount > 0,
    ...(line.freeItem ? { freeItem: { ruleUniqueId: line.freeItem.ruleUniqueId } } : {}),
  };
}

function usageFor(usage: Readonly<Record<string, { total: number; byCustomer: number }>>, code: string) {
  const wanted = code.trim().toLowerCase();
  const hit = Object.entries(usage).find(([k]) => k.trim().toLowerCase() === wanted);
  return hit?.[1] ?? { total: 0, byCustomer: 0 };
}

/** Shipping and totals for priced lines. The grand total is the sum of line totals plus shipping. */
export function computeCartTotals(
  pricing: LinePricing,
  input: Pick<CartInput, "lines" | "shippingMethods" | "chosenShippingMethodId">,
): Pick<CartResult, "shipping" | "totals"> {
  const sum = (f: (l: PricedLine) => number) => pricing.lines.reduce((a, l) => a + f(l), 0);
  const couponDiscount = pricing.coupons.applied.reduce((a, c) => a + c.discount, 0);
  const cartRuleDiscount = pricing.cartDiscounts.filter((d) => d.source === "rule").reduce((a, d) => a + d.amount, 0);
  const itemsTotal = sum((l) => l.total);
  const shippedQuantity = input.lines.filter((l) => l.needsShipping !== false).reduce((a, l) => a + l.quantity, 0);
  const shipping = computeShipping({
    methods: input.shippingMethods ?? [],
    ...(input.chosenShippingMethodId !== undefined ? { chosenMethodId: input.chosenShippingMethodId } : {}),
    shippedQuantity,
    itemsTotal,
    itemsTotalBeforeCoupons: itemsTotal + couponDiscount,
    grantedBy: pricing.freeShippingGrantedBy,
  });
  const totals: CartTotals = {
    regularSubtotal: sum((l) => l.regularSubtotal),
    subtotal: sum((l) => l.subtotal),
    productDiscount: sum((l) => l.productDiscount),
    cartRuleDiscount,
    couponDiscount,
    discountTotal: sum((l) => l.productDiscount + l.cartDiscount),
    itemsTotal,
    shipping: shipping.total,
    grandTotal: itemsTotal + shipping.total,
  };
  return { shipping, totals };
}

/** The one cart evaluation: what the cart page shows and what checkout charges. */
export function evaluateCart(input: CartInput): CartResult {
  const pricing = priceCartLines(input);
  const { shipping, totals } = computeCartTotals(pricing, input);
  return {
    lines: pricing.lines,
    appliedRules: pricing.appliedRules,
    cartDiscounts: pricing.cartDiscounts,
    coupons: pricing.coupons,
    shipping,
    freeItems: pricing.freeItems,
    nudges: pricing.nudges,
    warnings: pricing.warnings,
    totals,
  };
}
