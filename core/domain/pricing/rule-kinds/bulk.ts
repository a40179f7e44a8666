/** `bulk`: tiers over a counted quantity (per product, per variation, the matched lines, or the cart). */
import { formatMoney, type Cents, type CurrencyFormat } from "../../money/money.ts";
import { baseUnitPrice, groupKeyFor, nextTierAbove, tierDiscounts, tierForQuantity, tierLabel, type GroupMember } from "../rules.ts";
import type { BulkCountBy, BulkTier, CartLineInput, DiscountRule, PricingWarning, TierNudge } from "../types.ts";
import { productTag, type BulkGroupDecision, type RuleKind } from "./kind.ts";

const sumQuantity = (lines: readonly CartLineInput[]): number => lines.reduce((a, l) => a + l.quantity, 0);

export const bulkKind: RuleKind<"bulk"> = {
  code: "bulk",
  phase: "product",
  check({ rule, lines, matched, format }, args) {
    const groups = bulkGroups(args.countBy, lines, matched, args.tiers);
    const nudges: TierNudge[] = [];
    const warnings: PricingWarning[] = [];
    for (const g of groups) {
      const members = g.lineKeys.map((k) => lines.find((l) => l.key === k)!);
      const advice = tierAdvice(rule, args.countBy, args.tiers, g, members, format);
      if (advice.nudge) nudges.push(advice.nudge);
      if (advice.warning) warnings.push(advice.warning);
    }
    return { applies: groups.some((g) => g.tierIndex !== null), bulkGroups: groups, nudges, warnings };
  },
  apply({ decision, ledger, record }, args) {
    const tag = productTag(decision.rule);
    const a = record();
    a.tiers = [];
    for (const g of decision.bulkGroups ?? []) {
      if (g.tierIndex === null) continue;
      a.tiers.push({ groupKey: g.groupKey, quantity: g.quantity, tierIndex: g.tierIndex });
      const members = g.lineKeys.map((k) => ({ key: k, quantity: ledger.state(k).line.quantity, amount: ledger.remaining(k) }));
      const parts = tierDiscounts(args.tiers[g.tierIndex]!, members);
      for (const [k, amount] of parts) a.discount += ledger.give(k, tag, amount);
    }
  },
};

function bulkGroups(countBy: BulkCountBy, lines: readonly CartLineInput[], matched: readonly CartLineInput[], tiers: readonly BulkTier[]): BulkGroupDecision[] {
  const groups = new Map<string, BulkGroupDecision>();
  for (const line of matched) {
    const key = groupKeyFor(countBy, line);
    const g = groups.get(key) ?? { groupKey: key, quantity: 0, lineKeys: [], tierIndex: null };
    g.lineKeys.push(line.key);
    g.quantity += line.quantity;
    groups.set(key, g);
  }
  for (const g of groups.values()) {
    if (countBy === "cart") g.quantity = sumQuantity(lines);
    g.tierIndex = tierForQuantity(tiers, g.quantity);
  }
  return [...groups.values()];
}

/** What the group costs under this rule alone, starting from the lines' own prices. */
function groupTotalUnder(tier: BulkTier | undefined, members: readonly GroupMember[]): Cents {
  const base = members.reduce((a, m) => a + m.amount, 0);
  if (!tier) return base;
  const d = tierDiscounts(tier, members);
  return base - [...d.values()].reduce((a, b) => a + b, 0);
}

function tierAdvice(
  rule: DiscountRule,
  countBy: BulkCountBy,
  tiers: readonly BulkTier[],
  group: BulkGroupDecision,
  lines: readonly CartLineInput[],
  format: CurrencyFormat,
): { nudge?: TierNudge; warning?: PricingWarning } {
  const next = nextTierAbove(tiers, group.quantity);
  if (next === null || group.quantity <= 0) return {};
  const nextTier = tiers[next]!;
  const add = nextTier.min - group.quantity;
  const members: GroupMember[] = lines.map((l) => ({
    key: l.key,
    quantity: l.quantity,
    amount: baseUnitPrice(l) * l.quantity,
  }));
  const current = group.tierIndex === null ? undefined : tiers[group.tierIndex];
  const currentTotal = groupTotalUnder(current, members);
  // The added units are priced at the dearest unit in the group, so "you would pay less" is never overstated.
  const dearest = Math.max(...lines.map((l) => baseUnitPrice(l)));
  const countedLines = countBy === "cart" ? 0 : add;
  const extra: GroupMember = { key: "\u0000extra", quantity: countedLines, amount: dearest * countedLines };
  const targetTotal = groupTotalUnder(nextTier, countedLines > 0 ? [...members, extra] : members);
  const label = tierLabel(nextTier, format);
  const nudge: TierNudge = {
    kind: "next_tier",
    ruleCode: rule.code,
    ruleTitle: rule.title,
    groupKey: group.groupKey,
    currentQuantity: group.quantity,
    addQuantity: add,
    targetQuantity: nextTier.min,
    targetLabel: label,
    targetTotal,
    currentTotal,
    message: `Add ${add} more to get ${label}`,
  };
  if (currentTotal <= targetTotal) return { nudge };
  return {
    nudge,
    warning: {
      kind: "pays_more_than_next_tier",
      ruleCode: rule.code,
      groupKey: group.groupKey,
      currentQuantity: group.quantity,
      currentTotal,
      nextTierQuantity: nextTier.min,
      nextTierTotal: targetTotal,
      overpay: currentTotal - targetTotal,
      message:
        `${group.quantity} cost ${formatMoney(currentTotal, format)}, but ${nextTier.min} cost ` +
        `${formatMoney(targetTotal, format)}: add ${add} more and pay ${formatMoney(currentTotal - targetTotal, format)} less.`,
    },
  };
}
