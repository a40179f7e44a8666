/**
 * The rule helpers the engine is built from: line prices, filters, conditions, schedule and priority,
 * bulk tiers. `decide.ts` uses them to decide which rules apply; `rule-kinds/` holds each action kind.
 *
 * Filters and conditions are values with a stable `type` and one pure check each (see the two tables).
 */
import { formatMoney, percentOf, allocate, type Cents, type CurrencyFormat, DEFAULT_CURRENCY_FORMAT } from "../money/money.ts";
import type { BulkCountBy, BulkTier, CartLineInput, CustomerContext, DiscountRule, LineFilter, RuleCondition, UsageCount } from "./types.ts";

// ---------------------------------------------------------------------------------------------------
// Line helpers
// ---------------------------------------------------------------------------------------------------

export function isOnSale(line: Pick<CartLineInput, "regularUnitPrice" | "saleUnitPrice">): boolean {
  return line.saleUnitPrice !== undefined && line.saleUnitPrice < line.regularUnitPrice;
}

/** The price rules start from: the sale price when the product is on sale, else the regular price. */
export function baseUnitPrice(line: Pick<CartLineInput, "regularUnitPrice" | "saleUnitPrice">): Cents {
  return isOnSale(line) ? line.saleUnitPrice! : line.regularUnitPrice;
}

/** The variation id when there is one, else the product id (WooCommerce variations are products). */
export function effectiveProductId(line: Pick<CartLineInput, "productId" | "variationId">): number {
  return line.variationId !== undefined && line.variationId !== 0 ? line.variationId : line.productId;
}

// ---------------------------------------------------------------------------------------------------
// Filters
// ---------------------------------------------------------------------------------------------------

type FilterOf<T extends LineFilter["type"]> = Extract<LineFilter, { type: T }>;

const FILTER_CHECKS: { [T in LineFilter["type"]]: (filter: FilterOf<T>, line: CartLineInput) => boolean } = {
  products: (f, line) => f.productIds.includes(line.productId) || (!!line.variationId && f.productIds.includes(line.variationId)),
  variations: (f, line) => !!line.variationId && f.variationIds.includes(line.variationId),
  categories: (f, line) =>
    (f.categorySlugs ?? []).some((s) => (line.categorySlugs ?? []).includes(s)) || (f.categoryIds ?? []).some((id) => (line.categoryIds ?? []).includes(id)),
  on_sale: (f, line) => isOnSale(line) === f.onSale,
};

export function lineMatchesFilter(filter: LineFilter, line: CartLineInput): boolean {
  const check = FILTER_CHECKS[filter.type] as (f: LineFilter, l: CartLineInput) => boolean;
  const hit = check(filter, line);
  return "exclude" in filter && filter.exclude ? !hit : hit;
}

export function lineMatchesFilters(filters: readonly LineFilter[], line: CartLineInput): boolean {
  return filters.every((f) => lineMatchesFilter(f, line));
}

// ---------------------------------------------------------------------------------------------------
// Conditions
// ---------------------------------------------------------------------------------------------------

export interface ConditionContext {
  /** Paying lines (free items excluded). */
  lines: readonly CartLineInput[];
  /** The lines this rule's filters select. */
  matched: readonly CartLineInput[];
  customer: CustomerContext;
  usage: UsageCount;
}

type ConditionOf<T extends RuleCondition["type"]> = Extract<RuleCondition, { type: T }>;

const within = (value: number, min?: number, max?: number): boolean => (min === undefined || value >= min) && (max === undefined || value <= max);

const sumQuantity = (lines: readonly CartLineInput[]): number => lines.reduce((a, l) => a + l.quantity, 0);

const CONDITION_CHECKS: { [T in RuleCondition["type"]]: (c: ConditionOf<T>, ctx: ConditionContext) => boolean } = {
  cart_subtotal: (c, ctx) =>
    within(
      ctx.lines.reduce((a, l) => a + baseUnitPrice(l) * l.quantity, 0),
      c.min,
      c.max,
    ),
  cart_quantity: (c, ctx) => within(sumQuantity(ctx.lines), c.min, c.max),
  matched_quantity: (c, ctx) => within(sumQuantity(ctx.matched), c.min, c.max),
  customer_logged_in: (c, ctx) => ctx.customer.loggedIn === c.loggedIn,
  usage_limit: (c, ctx) => ctx.usage.total < c.max,
  usage_limit_per_customer: (c, ctx) => ctx.usage.byCustomer < c.max,
};

export function conditionHolds(condition: RuleCondition, ctx: ConditionContext): boolean {
  const check = CONDITION_CHECKS[condition.type] as (c: RuleCondition, x: ConditionContext) => boolean;
  return check(condition, ctx);
}

// ---------------------------------------------------------------------------------------------------
// Schedule
// ---------------------------------------------------------------------------------------------------

/** Enabled and inside its schedule: from <= now < to. An unparsable bound never matches. */
export function ruleIsActive(rule: DiscountRule, now: Date): boolean {
  if (!rule.enabled) return false;
  const t = now.getTime();
  if (Number.isNaN(t)) return false;
  const { from, to } = rule.schedule ?? {};
  if (from !== undefined) {
    const f = Date.parse(from);
    if (Number.isNaN(f) || t < f) return false;
  }
  if (to !== undefined) {
    const e = Date.parse(to);
    if (Number.isNaN(e) || t >= e) return false;
  }
  return true;
}

/** Priority order: lower number first, then code (so the order never depends on storage order). */
export function sortRules<R extends Pick<DiscountRule, "priority" | "code">>(rules: readonly R[]): R[] {
  return [...rules].sort((a, b) => a.priority - b.priority || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

// ---------------------------------------------------------------------------------------------------
// Bulk tiers
// ---------------------------------------------------------------------------------------------------

export function tierForQuantity(tiers: readonly BulkTier[], quantity: number): number | null {
  // When ranges overlap the last matching tier wins (admins add more generous tiers below older ones).
  let found: number | null = null;
  tiers.forEach((t, i) => {
    if (quantity > 0 && within(quantity, t.min, t.max)) found = i;
  });
  return found;
}

/** The tier to nudge towards: the one with the smallest `min` above the quantity. */
export function nextTierAbove(tiers: readonly BulkTier[], quantity: number): number | null {
  let best: number | null = null;
  tiers.forEach((t, i) => {
    if (t.min > quantity && (best === null || t.min < tiers[best]!.min)) best = i;
  });
  return best;
}

export function tierLabel(tier: BulkTier, format: CurrencyFormat = DEFAULT_CURRENCY_FORMAT): string {
  if (tier.label) return tier.label;
  switch (tier.type) {
    case "fixed_unit_price":
      return `${formatMoney(tier.value, format)} each`;
    case "fixed_total":
      return `${tier.min} for ${formatMoney(tier.value, format)}`;
    case "percent":
      return `${tier.value}% off`;
    case "fixed_per_unit":
      return `${formatMoney(tier.value, format)} off each`;
  }
}

export function tierRangeLabel(tier: BulkTier): string {
  if (tier.max === undefined) return `${tier.min} +`;
  if (tier.max === tier.min) return `${tier.min}`;
  return `${tier.min} - ${tier.max}`;
}

export interface GroupMember {
  key: string;
  quantity: number;
  /** What the line costs before this tier (after higher-priority rules). */
  amount: Cents;
}

/**
 * The discount a tier gives each member of a counted group. Never more than a member's amount, never
 * negative; a fixed price never raises a price that is already lower.
 */
export function tierDiscounts(tier: BulkTier, members: readonly GroupMember[]): Map<string, Cents> {
  const out = new Map<string, Cents>();
  switch (tier.type) {
    case "fixed_unit_price":
      for (const m of members) out.set(m.key, Math.max(0, m.amount - tier.value * m.quantity));
      break;
    case "percent":
      for (const m of members) out.set(m.key, clamp(percentOf(m.amount, tier.value), 0, m.amount));
      break;
    case "fixed_per_unit":
      for (const m of members) out.set(m.key, clamp(tier.value * m.quantity, 0, m.amount));
      break;
    case "fixed_total": {
      const groupAmount = members.reduce((a, m) => a + m.amount, 0);
      const discount = Math.max(0, groupAmount - tier.value);
      const parts = allocate(
        discount,
        members.map((m) => m.amount),
      );
      members.forEach((m, i) => out.set(m.key, parts[i]!));
      break;
    }
  }
  return out;
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

export function groupKeyFor(countBy: BulkCountBy, line: CartLineInput): string {
  switch (countBy) {
    case "product":
      return `product:${line.productId}`;
    case "variation":
      return `variation:${effectiveProductId(line)}`;
    case "matched":
      return "matched";
    case "cart":
      return "cart";
  }
}

/** What the cart's "change product" request sends as `rule_unique_id` for a free item. */
export function freeItemUniqueId(ruleCode: string, parentProductId: number): string {
  return `${ruleCode}:${parentProductId}`;
}
