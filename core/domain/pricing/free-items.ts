/**
 * The cart's "change product" action for a free item (docs/contract/storefront.md §3 "Discount product change request":
 * product_id, rule_unique_id, parent_id). Pure check of the request against the current grants; the
 * server then swaps the product of the free line and re-evaluates the cart.
 */
import type { FreeItemGrant } from "./types.ts";

export interface FreeItemChangeRequest {
  product_id: number;
  rule_unique_id: string;
  parent_id: number;
}

export type FreeItemChange =
  | { ok: true; ruleUniqueId: string; parentProductId: number; productId: number; quantity: number }
  | { ok: false; reason: "unknown_rule" | "wrong_parent" | "not_choosable"; message: string };

export function validateFreeItemChange(grants: readonly FreeItemGrant[], req: FreeItemChangeRequest): FreeItemChange {
  const grant = grants.find((g) => g.ruleUniqueId === req.rule_unique_id);
  if (!grant) return { ok: false, reason: "unknown_rule", message: "This free product offer is no longer available." };
  // parent_id may be 0 for a simple product given free; otherwise it must be the granted product.
  if (req.parent_id !== 0 && req.parent_id !== grant.parentProductId)
    return { ok: false, reason: "wrong_parent", message: "This product does not belong to the free product offer." };
  if (!grant.choosableProductIds.includes(req.product_id))
    return { ok: false, reason: "not_choosable", message: "This product cannot be chosen as the free product." };
  return {
    ok: true,
    ruleUniqueId: grant.ruleUniqueId,
    parentProductId: grant.parentProductId,
    productId: req.product_id,
    quantity: grant.quantity,
  };
}
