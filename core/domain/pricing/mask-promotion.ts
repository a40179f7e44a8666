/**
 * The shop's mask promotion (docs/contract/storefront.md §9 "Mask category promotion text"), as seeded rule data:
 *   6 masks for $15; 12 masks for $24; free shipping on all mask purchases.
 *
 * Decision — tiers by quantity range, all masks in the category counted together:
 *   1–5 masks   the masks' own prices
 *   6–11 masks  $2.50 each  (6 × $2.50 = $15, the advertised price)
 *   12+ masks   $2.00 each  (12 × $2.00 = $24, the advertised price)
 * So 13 masks cost 13 × $2 = $26, not "$24 + one at full price". A shopper sees one unit price that only
 * ever goes down as the quantity goes up, mixed mask designs count together, and the result is never more
 * than pricing by packs (12-packs, then 6-packs, then full price). Where the range pricing still costs
 * more than the next tier (10 or 11 masks cost more than 12 for $24) the engine emits a
 * `pays_more_than_next_tier` warning, and below a tier a `next_tier` nudge ("Add 1 more to get 12 masks
 * for $24"). A mask already cheaper than the tier price keeps its own price.
 */
import type { DiscountRule } from "./types.ts";

export const MASK_CATEGORY_SLUG = "face-masks";

export const MASK_PROMOTION_RULES: readonly DiscountRule[] = Object.freeze([
  {
    code: "mask-multibuy",
    title: "Mask multi-buy: 6 masks for $15, 12 masks for $24",
    priority: 10,
    enabled: true,
    filters: [{ type: "categories", categorySlugs: [MASK_CATEGORY_SLUG] }],
    conditions: [],
    action: {
      kind: "bulk",
      countBy: "matched",
      tiers: [
        { min: 6, max: 11, type: "fixed_unit_price", value: 250, label: "6 masks for $15" },
        { min: 12, type: "fixed_unit_price", value: 200, label: "12 masks for $24" },
      ],
    },
    stacking: "combinable",
  },
  {
    code: "mask-free-shipping",
    title: "Free shipping on all mask purchases",
    priority: 20,
    enabled: true,
    filters: [{ type: "categories", categorySlugs: [MASK_CATEGORY_SLUG] }],
    conditions: [],
    action: { kind: "free_shipping" },
    stacking: "combinable",
  },
] satisfies DiscountRule[]);
