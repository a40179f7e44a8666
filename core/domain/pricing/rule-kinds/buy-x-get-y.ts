/**
 * `buy_x_get_y`: every `buyQuantity` matched units (or once, unless `recursive`) earn `getQuantity` of
 * `getProductId` at `discountPercent` off. `check` grants; `apply` discounts the cart's free-item lines of
 * the grant up to the granted quantity and says which to add or shrink.
 */
import { percentOf } from "../../money/money.ts";
import { clamp, effectiveProductId, freeItemUniqueId } from "../rules.ts";
import type { TierNudge } from "../types.ts";
import { productTag, type RuleKind } from "./kind.ts";

export const buyXGetYKind: RuleKind<"buy_x_get_y"> = {
  code: "buy_x_get_y",
  phase: "free_item",
  check({ rule, matched }, args) {
    const bought = matched.reduce((a, l) => a + l.quantity, 0);
    const times = args.buyQuantity <= 0 ? 0 : args.recursive ? Math.floor(bought / args.buyQuantity) : bought >= args.buyQuantity ? 1 : 0;
    const quantity = times * args.getQuantity;
    const choosable = args.choosableProductIds.length > 0 ? [...args.choosableProductIds] : [args.getProductId];
    const nudges: TierNudge[] = [];
    if (args.buyQuantity > 0 && (times === 0 || args.recursive)) {
      const add = args.buyQuantity - (bought % args.buyQuantity);
      nudges.push({
        kind: "free_item",
        ruleCode: rule.code,
        ruleTitle: rule.title,
        groupKey: "matched",
        currentQuantity: bought,
        addQuantity: add,
        targetQuantity: bought + add,
        targetLabel: rule.title,
        message: `Add ${add} more to get ${rule.title}`,
      });
    }
    if (quantity <= 0) return { applies: false, nudges };
    return {
      applies: true,
      nudges,
      freeItem: {
        ruleCode: rule.code,
        ruleTitle: rule.title,
        ruleUniqueId: freeItemUniqueId(rule.code, args.getProductId),
        parentProductId: args.getProductId,
        choosableProductIds: choosable,
        defaultProductId: args.defaultProductId !== undefined && choosable.includes(args.defaultProductId) ? args.defaultProductId : choosable[0]!,
        quantity,
        discountPercent: clamp(args.discountPercent, 0, 100),
      },
    };
  },
  apply({ decision, ledger, record, freeItems }) {
    const grant = decision.freeItem;
    if (!grant) return;
    freeItems.result.grants.push(grant);
    const a = record();
    const tag = productTag(decision.rule);
    let left = grant.quantity;
    for (const line of freeItems.freeLines) {
      if (line.freeItem!.ruleUniqueId !== grant.ruleUniqueId) continue;
      if (line.productId !== grant.parentProductId && effectiveProductId(line) !== grant.parentProductId) continue;
      if (!grant.choosableProductIds.includes(effectiveProductId(line))) continue;
      freeItems.covered.add(line.key);
      const free = Math.min(left, line.quantity);
      left -= free;
      a.discount += ledger.give(line.key, tag, percentOf(ledger.state(line.key).base * free, grant.discountPercent));
      if (line.quantity > free) freeItems.result.toRemove.push({ lineKey: line.key, ruleUniqueId: grant.ruleUniqueId, quantity: line.quantity - free });
    }
    if (left > 0)
      freeItems.result.toAdd.push({
        ruleUniqueId: grant.ruleUniqueId,
        parentProductId: grant.parentProductId,
        productId: grant.defaultProductId,
        quantity: left,
      });
  },
};
