/**
 * `cart_percent` and `cart_fixed`: a cart-level discount on the matched lines' amounts after product
 * rules, allocated onto those lines.
 */
import { percentOf, type Cents } from "../../money/money.ts";
import { clamp } from "../rules.ts";
import type { RuleApplyContext, RuleKind } from "./kind.ts";

const spreadOverMatched = ({ decision, ledger, record }: RuleApplyContext, wanted: Cents): void => {
  record().discount += ledger.spread("rule", decision.rule.code, decision.rule.title, decision.lineKeys, wanted);
};

/** What the matched lines still cost. */
const matchedAmount = ({ decision, ledger }: RuleApplyContext): Cents => decision.lineKeys.reduce((sum, k) => sum + ledger.remaining(k), 0);

export const cartPercentKind: RuleKind<"cart_percent"> = {
  code: "cart_percent",
  phase: "cart",
  check: () => ({ applies: true }),
  apply(ctx, args) {
    const wanted = percentOf(matchedAmount(ctx), clamp(args.percent, 0, 100));
    spreadOverMatched(ctx, args.maxDiscount !== undefined ? Math.min(wanted, args.maxDiscount) : wanted);
  },
};

export const cartFixedKind: RuleKind<"cart_fixed"> = {
  code: "cart_fixed",
  phase: "cart",
  check: () => ({ applies: true }),
  apply(ctx, args) {
    spreadOverMatched(ctx, Math.max(0, args.amount));
  },
};
