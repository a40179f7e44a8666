/** `product_percent` and `product_fixed`: change the shown unit price of every matched line. */
import { percentOf } from "../../money/money.ts";
import { clamp } from "../rules.ts";
import { productTag, type RuleKind } from "./kind.ts";

export const productPercentKind: RuleKind<"product_percent"> = {
  code: "product_percent",
  phase: "product",
  check: () => ({ applies: true }),
  apply({ decision, ledger, record }, args) {
    const tag = productTag(decision.rule);
    const a = record();
    for (const k of decision.lineKeys) a.discount += ledger.give(k, tag, percentOf(ledger.remaining(k), clamp(args.percent, 0, 100)));
  },
};

/** Cents off each unit. */
export const productFixedKind: RuleKind<"product_fixed"> = {
  code: "product_fixed",
  phase: "product",
  check: () => ({ applies: true }),
  apply({ decision, ledger, record }, args) {
    const tag = productTag(decision.rule);
    const a = record();
    for (const k of decision.lineKeys) a.discount += ledger.give(k, tag, Math.max(0, args.amountPerUnit) * ledger.state(k).line.quantity);
  },
};
