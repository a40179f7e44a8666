/**
 * A discount rule kind as a value (Vendure's `PromotionCondition` / `PromotionAction` pattern): the
 * `code` stored in `rule.action.kind`, typed arguments (the rest of the action), one pure `check` that
 * decides whether the rule applies and with what (tiers, a free-item grant, free shipping), and one pure
 * `apply` that takes the discount off the lines in the engine's ledger during its `phase`.
 */
import type { CurrencyFormat } from "../../money/money.ts";
import type { Ledger } from "../ledger.ts";
import type {
  AppliedRule,
  CartLineInput,
  DiscountRule,
  FreeItemGrant,
  FreeItemsResult,
  PricingWarning,
  RuleAction,
  RuleActionKind,
  TierNudge,
} from "../types.ts";

/** The typed arguments of a kind: its action without the `kind` tag. */
export type ActionOf<K extends RuleActionKind> = Extract<RuleAction, { kind: K }>;

export interface BulkGroupDecision {
  groupKey: string;
  /** The counted quantity that picked the tier. */
  quantity: number;
  lineKeys: string[];
  tierIndex: number | null;
}

export interface RuleDecision {
  rule: DiscountRule;
  /** Paying lines selected by the filters (quantity > 0). */
  lineKeys: string[];
  bulkGroups?: BulkGroupDecision[];
  freeShipping: boolean;
  freeItem?: FreeItemGrant;
}

export interface RuleCheckContext {
  rule: DiscountRule;
  /** Paying lines with a quantity (free-item lines are never counted or discounted by rules). */
  lines: readonly CartLineInput[];
  /** The lines the rule's filters select (never empty: a rule without lines is not checked). */
  matched: readonly CartLineInput[];
  /** Used only to word nudges and warnings. */
  format: CurrencyFormat;
}

export interface RuleCheck {
  /** Whether the rule applies (a bulk tier is reached, a free item is earned, …). */
  applies: boolean;
  freeShipping?: boolean;
  bulkGroups?: BulkGroupDecision[];
  freeItem?: FreeItemGrant;
  /** Advice shown whether or not the rule applies ("Add 1 more to get …"). */
  nudges?: TierNudge[];
  warnings?: PricingWarning[];
}

/**
 * When a kind's `apply` runs: `product` rules in priority order on what each line costs after the rules
 * before; then `free_item` grants; then `cart` rules on the amounts after product rules; `none` takes
 * nothing off lines (free shipping is read from the decision).
 */
export type ApplyPhase = "product" | "free_item" | "cart" | "none";

export interface FreeItemsState {
  result: FreeItemsResult;
  /** The cart's free-item lines. */
  freeLines: readonly CartLineInput[];
  /** Free-item lines some grant accounts for (the rest are removed). */
  covered: Set<string>;
}

export interface RuleApplyContext {
  decision: RuleDecision;
  ledger: Ledger;
  /** This rule's entry in the result's `appliedRules` (created on first use); add what was given to `discount`. */
  record(): AppliedRule;
  freeItems: FreeItemsState;
}

export interface RuleKind<K extends RuleActionKind = RuleActionKind> {
  code: K;
  phase: ApplyPhase;
  check(ctx: RuleCheckContext, args: ActionOf<K>): RuleCheck;
  apply(ctx: RuleApplyContext, args: ActionOf<K>): void;
}

/** The discount tag of a rule's product-level discount. */
export const productTag = (rule: DiscountRule) => ({ source: "rule" as const, code: rule.code, title: rule.title, level: "product" as const });
