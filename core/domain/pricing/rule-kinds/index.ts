/**
 * The registry of discount rule kinds: one value per `rule.action.kind`. The engine looks kinds up here
 * (`decideRules` calls `check`, `priceCartLines` calls `apply` phase by phase); adding a kind means adding
 * its action type in `types.ts`, its schema in `schema.ts` and its value here — the compiler refuses a
 * kind missing from any of the three.
 */
import type { RuleAction, RuleActionKind } from "../types.ts";
import { bulkKind } from "./bulk.ts";
import { buyXGetYKind } from "./buy-x-get-y.ts";
import { cartFixedKind, cartPercentKind } from "./cart.ts";
import { freeShippingKind } from "./free-shipping.ts";
import type { ApplyPhase, RuleApplyContext, RuleCheck, RuleCheckContext, RuleKind } from "./kind.ts";
import { productFixedKind, productPercentKind } from "./product.ts";

const REGISTRY: { readonly [K in RuleActionKind]: RuleKind<K> } = {
  bulk: bulkKind,
  product_percent: productPercentKind,
  product_fixed: productFixedKind,
  cart_percent: cartPercentKind,
  cart_fixed: cartFixedKind,
  free_shipping: freeShippingKind,
  buy_x_get_y: buyXGetYKind,
};

/** Every rule kind, in one list. */
export const RULE_KINDS: readonly RuleKind[] = Object.freeze(Object.values(REGISTRY) as RuleKind[]);

/** The kind of a rule's action. */
export function ruleKindOf(action: RuleAction): RuleKind {
  return REGISTRY[action.kind] as RuleKind;
}

/** The phases in the order the engine applies them. */
export const APPLY_PHASES: readonly Exclude<ApplyPhase, "none">[] = ["product", "free_item", "cart"];

/** Checks a rule's action with its kind (the action's fields are the kind's typed arguments). */
export function checkAction(ctx: RuleCheckContext, action: RuleAction): RuleCheck {
  return (ruleKindOf(action).check as (c: RuleCheckContext, a: RuleAction) => RuleCheck)(ctx, action);
}

/** Applies a decided rule with its kind. */
export function applyAction(ctx: RuleApplyContext, action: RuleAction): void {
  (ruleKindOf(action).apply as (c: RuleApplyContext, a: RuleAction) => void)(ctx, action);
}

export type { ApplyPhase, FreeItemsState, RuleApplyContext, RuleCheck, RuleCheckContext, RuleDecision, RuleKind } from "./kind.ts";
export { bulkKind, buyXGetYKind, cartFixedKind, cartPercentKind, freeShippingKind, productFixedKind, productPercentKind };
