/**
 * The *decide* half of the engine (Medusa's `computeActions`, Vendure's `check`): which rules apply, to
 * which lines, with which tier. No amounts are applied here; `engine.ts` applies the decisions.
 *
 * Each rule: active (enabled, in its schedule), its filters select lines, its conditions hold, no
 * exclusive rule before it applied, and its kind's `check` (rule-kinds/) says it applies.
 */
import { DEFAULT_CURRENCY_FORMAT, type CurrencyFormat } from "../money/money.ts";
import { checkAction, type RuleDecision } from "./rule-kinds/index.ts";
import { conditionHolds, lineMatchesFilters, ruleIsActive, sortRules, type ConditionContext } from "./rules.ts";
import type { CartLineInput, CustomerContext, DiscountRule, PricingWarning, TierNudge, UsageCount } from "./types.ts";

export type { RuleDecision } from "./rule-kinds/index.ts";

export interface DecideInput {
  /** Paying lines only (free-item lines are never counted or discounted by other rules). */
  lines: readonly CartLineInput[];
  rules: readonly DiscountRule[];
  now: Date;
  customer?: CustomerContext;
  ruleUsage?: Readonly<Record<string, UsageCount>>;
  currencyFormat?: CurrencyFormat;
}

export interface DecideResult {
  /** Applying rules, in priority order. */
  decisions: RuleDecision[];
  /** Rules that were active and held their conditions but were cut off by an exclusive rule. */
  blockedBy: { code: string; by: string }[];
  nudges: TierNudge[];
  warnings: PricingWarning[];
}

export function decideRules(input: DecideInput): DecideResult {
  const format = input.currencyFormat ?? DEFAULT_CURRENCY_FORMAT;
  const lines = input.lines.filter((l) => l.quantity > 0);
  const customer = input.customer ?? { loggedIn: false };
  const decisions: RuleDecision[] = [];
  const blockedBy: { code: string; by: string }[] = [];
  const nudges: TierNudge[] = [];
  const warnings: PricingWarning[] = [];
  let exclusiveBy: string | null = null;

  for (const rule of sortRules(input.rules)) {
    if (!ruleIsActive(rule, input.now)) continue;
    const matched = lines.filter((l) => lineMatchesFilters(rule.filters, l));
    const ctx: ConditionContext = {
      lines,
      matched,
      customer,
      usage: input.ruleUsage?.[rule.code] ?? { total: 0, byCustomer: 0 },
    };
    if (!rule.conditions.every((c) => conditionHolds(c, ctx))) continue;
    if (matched.length === 0) continue;
    if (exclusiveBy !== null) {
      blockedBy.push({ code: rule.code, by: exclusiveBy });
      continue;
    }

    const check = checkAction({ rule, lines, matched, format }, rule.action);
    if (check.nudges) nudges.push(...check.nudges);
    if (check.warnings) warnings.push(...check.warnings);
    if (!check.applies) continue;
    decisions.push({
      rule,
      lineKeys: matched.map((l) => l.key),
      freeShipping: check.freeShipping === true,
      ...(check.bulkGroups ? { bulkGroups: check.bulkGroups } : {}),
      ...(check.freeItem ? { freeItem: check.freeItem } : {}),
    });
    if (rule.stacking === "exclusive") exclusiveBy = rule.code;
  }
  return { decisions, blockedBy, nudges, warnings };
}
