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
import { baseUnitPrice, clamp, decideRules, effectiveProductId, tierDiscounts, type RuleDecision } from "./rules.ts";
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
  CouponRefusal,
  DiscountSource,
  FreeItemsResult,
  LineDiscount,
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

interface LineState {
  line: CartLineInput;
  base: Cents;
  subtotal: Cents;
  discounts: LineDiscount[];
  /** Sum of `discounts` so far, kept as they are given (summing on every look-up made big carts quadratic). */
  taken: Cents;
}

const remaining = (s: LineState): Cents => s.subtotal - s.taken;

function assertLine(line: CartLineInput): void {
  const whole = (n: number, what: string) => {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`line ${line.key}: ${what} must be a whole number >= 0, got ${n}`);
  };
  whole(line.quantity, "quantity");
  whole(line.regularUnitPrice, "regularUnitPrice");
  if (line.saleUnitPrice !== undefined) whole(line.saleUnitPrice, "saleUnitPrice");
}

/** Prices every line: rule discounts, free items, cart discounts and coupons, allocated onto lines. */
export function priceCartLines(input: CartInput): LinePricing {
  const seen = new Set<string>();
  for (const line of input.lines) {
    assertLine(line);
    if (seen.has(line.key)) throw new RangeError(`duplicate line key: ${line.key}`);
    seen.add(line.key);
  }
  const states = new Map<string, LineState>();
  for (const line of input.lines) {
    const base = baseUnitPrice(line);
    states.set(line.key, { line, base, subtotal: base * line.quantity, discounts: [], taken: 0 });
  }
  const paying = input.lines.filter((l) => !l.freeItem);
  const decided = decideRules({
    lines: paying,
    rules: input.rules,
    now: input.now,
    ...(input.customer ? { customer: input.customer } : {}),
    ...(input.ruleUsage ? { ruleUsage: input.ruleUsage } : {}),
    ...(input.currencyFormat ? { currencyFormat: input.currencyFormat } : {}),
  });

  const applied = new Map<string, AppliedRule>();
  const appliedRule = (d: RuleDecision): AppliedRule => {
    let a = applied.get(d.rule.code);
    if (!a) {
      a = { code: d.rule.code, title: d.rule.title, kind: d.rule.action.kind, discount: 0, lineKeys: [...d.lineKeys] };
      applied.set(d.rule.code, a);
    }
    return a;
  };
  const give = (s: LineState, d: Omit<LineDiscount, "amount">, amount: Cents): Cents => {
    const amt = clamp(amount, 0, remaining(s));
    if (amt > 0) {
      s.discounts.push({ ...d, amount: amt });
      s.taken += amt;
    }
    return amt;
  };
  const st = (key: string): LineState => states.get(key)!;

  // Phase 1: product-level rules, in priority order, each on what the line costs after the ones before.
  for (const d of decided.decisions) {
    const action = d.rule.action;
    const tag = { source: "rule" as const, code: d.rule.code, title: d.rule.title, level: "product" as const };
    if (action.kind === "bulk") {
      const a = appliedRule(d);
      a.tiers = [];
      for (const g of d.bulkGroups ?? []) {
        if (g.tierIndex === null) continue;
        a.tiers.push({ groupKey: g.groupKey, quantity: g.quantity, tierIndex: g.tierIndex });
        const members = g.lineKeys.map((k) => ({ key: k, quantity: st(k).line.quantity, amount: remaining(st(k)) }));
        const parts = tierDiscounts(action.tiers[g.tierIndex]!, members);
        for (const [k, amount] of parts) a.discount += give(st(k), tag, amount);
      }
    } else if (action.kind === "product_percent") {
      const a = appliedRule(d);
      for (const k of d.lineKeys) a.discount += give(st(k), tag, percentOf(remaining(st(k)), clamp(action.percent, 0, 100)));
    } else if (action.kind === "product_fixed") {
      const a = appliedRule(d);
      for (const k of d.lineKeys) a.discount += give(st(k), tag, Math.max(0, action.amountPerUnit) * st(k).line.quantity);
    }
  }

  // Free items (buy X get Y): the grant discounts the marked lines, up to the granted quantity.
  const freeItems: FreeItemsResult = { grants: [], toAdd: [], toRemove: [] };
  const freeLines = input.lines.filter((l) => l.freeItem);
  const covered = new Set<string>();
  for (const d of decided.decisions) {
    const grant = d.freeItem;
    if (!grant) continue;
    freeItems.grants.push(grant);
    const a = appliedRule(d);
    let left = grant.quantity;
    for (const line of freeLines) {
      if (line.freeItem!.ruleUniqueId !== grant.ruleUniqueId) continue;
      if (line.productId !== grant.parentProductId && effectiveProductId(line) !== grant.parentProductId) continue;
      if (!grant.choosableProductIds.includes(effectiveProductId(line))) continue;
      covered.add(line.key);
      const free = Math.min(left, line.quantity);
      left -= free;
      const s = st(line.key);
      const tag = { source: "rule" as const, code: d.rule.code, title: d.rule.title, level: "product" as const };
      a.discount += give(s, tag, percentOf(s.base * free, grant.discountPercent));
      if (line.quantity > free) freeItems.toRemove.push({ lineKey: line.key, ruleUniqueId: grant.ruleUniqueId, quantity: line.quantity - free });
    }
    if (left > 0)
      freeItems.toAdd.push({
        ruleUniqueId: grant.ruleUniqueId,
        parentProductId: grant.parentProductId,
        productId: grant.defaultProductId,
        quantity: left,
      });
  }
  for (const line of freeLines)
    if (!covered.has(line.key)) freeItems.toRemove.push({ lineKey: line.key, ruleUniqueId: line.freeItem!.ruleUniqueId, quantity: line.quantity });

  // Phase 2: cart-level rules on the matched lines' amounts after product rules.
  const cartDiscounts: CartLevelDiscount[] = [];
  const spread = (source: DiscountSource, code: string, title: string, keys: readonly string[], wanted: Cents): Cents => {
    const targets = keys.map(st).filter((s) => remaining(s) > 0);
    const room = targets.reduce((a, s) => a + remaining(s), 0);
    const amount = clamp(wanted, 0, room);
    if (amount === 0) return 0;
    const parts = allocate(amount, targets.map(remaining));
    const allocations: { lineKey: string; amount: Cents }[] = [];
    let given = 0;
    targets.forEach((s, i) => {
      const g = give(s, { source, code, title, level: "cart" }, parts[i]!);
      given += g;
      if (g > 0) allocations.push({ lineKey: s.line.key, amount: g });
    });
    cartDiscounts.push({ source, code, title, amount: given, allocations });
    return given;
  };
  for (const d of decided.decisions) {
    const action = d.rule.action;
    if (action.kind !== "cart_percent" && action.kind !== "cart_fixed") continue;
    const a = appliedRule(d);
    const base = d.lineKeys.reduce((sum, k) => sum + remaining(st(k)), 0);
    let wanted =
      action.kind === "cart_percent" ? percentOf(base, clamp(action.percent, 0, 100)) : Math.max(0, action.amount);
    if (action.kind === "cart_percent" && action.maxDiscount !== undefined) wanted = Math.min(wanted, action.maxDiscount);
    a.discount += spread("rule", d.rule.code, d.rule.title, d.lineKeys, wanted);
  }

  // Phase 3: coupons, validated in the order applied, against what the items cost after the rules.
  const refused: CouponRefusal[] = [];
  let accepted: { coupon: Coupon; eligible: string[] }[] = [];
  const spend = paying.reduce((a, l) => a + remaining(st(l.key)), 0);
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
  const beforeCoupons = new Map([...states].map(([k, s]) => [k, remaining(s)]));
  const appliedCoupons: AppliedCoupon[] = [];
  const freeShippingGrantedBy: { source: DiscountSource; code: string }[] = decided.decisions
    .filter((d) => d.freeShipping)
    .map((d) => ({ source: "rule" as const, code: d.rule.code }));
  for (const { coupon, eligible } of accepted) {
    let discount = 0;
    const title = `Coupon: ${coupon.code}`;
    if (coupon.kind === "fixed_cart") {
      discount = spread("coupon", coupon.code, title, eligible, coupon.amount);
    } else if (coupon.kind === "percent") {
      // WooCommerce computes percent coupons on the price before coupons (not sequentially).
      const base = eligible.reduce((a, k) => a + beforeCoupons.get(k)!, 0);
      const wanted = percentOf(base, clamp(coupon.amount, 0, 100));
      const parts = allocate(wanted, eligible.map((k) => beforeCoupons.get(k)!));
      const allocations: { lineKey: string; amount: Cents }[] = [];
      eligible.forEach((k, i) => {
        const g = give(st(k), { source: "coupon", code: coupon.code, title, level: "cart" }, parts[i]!);
        discount += g;
        if (g > 0) allocations.push({ lineKey: k, amount: g });
      });
      cartDiscounts.push({ source: "coupon", code: coupon.code, title, amount: discount, allocations });
    } else {
      const allocations: { lineKey: string; amount: Cents }[] = [];
      for (const k of eligible) {
        const g = give(st(k), { source: "coupon", code: coupon.code, title, level: "cart" }, coupon.amount * st(k).line.quantity);
        discount += g;
        if (g > 0) allocations.push({ lineKey: k, amount: g });
      }
      cartDiscounts.push({ source: "coupon", code: coupon.code, title, amount: discount, allocations });
    }
    appliedCoupons.push({ code: coupon.code, kind: coupon.kind, discount, freeShipping: coupon.freeShipping === true });
    if (coupon.freeShipping) freeShippingGrantedBy.push({ source: "coupon", code: coupon.code });
  }

  const lines: PricedLine[] = input.lines.map((line) => {
    const s = st(line.key);
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
  });

  return {
    lines,
    appliedRules: decided.decisions.map((d) => applied.get(d.rule.code) ?? appliedRule(d)),
    cartDiscounts,
    coupons: { applied: appliedCoupons, refused },
    freeItems,
    nudges: decided.nudges,
    warnings: decided.warnings,
    freeShippingGrantedBy,
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
