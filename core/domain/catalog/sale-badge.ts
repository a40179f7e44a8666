/**
 * The sale badge of a variable product (docs/contract/storefront.md §3 'Sale badge'): the percentage off for the chosen
 * variation, written into a text template at '[value]'.
 */
import type { Cents } from "../money/money.ts";
import { SALE_BADGE } from "./settings.ts";

export interface VariationPrices {
  readonly variation_id: number;
  readonly regularCents: Cents;
  /** Null when the variation is not on sale. */
  readonly saleCents: Cents | null;
}

/** Variation id → whole percentage off. */
export type SalePercentages = Readonly<Record<number, number>>;

/**
 * Percentage off as themes compute it: Math.round((regular − sale) / regular × 100).
 * Null when there is no real discount (no sale price, sale ≥ regular, regular ≤ 0, bad numbers).
 */
export function salePercentage(regularCents: Cents, saleCents: Cents | null): number | null {
  if (saleCents === null || !Number.isFinite(regularCents) || !Number.isFinite(saleCents)) return null;
  if (regularCents <= 0 || saleCents < 0 || saleCents >= regularCents) return null;
  return Math.round(((regularCents - saleCents) / regularCents) * 100);
}

/** The badge's map: only variations on sale appear. */
export function salePercentagesByVariation(variations: readonly VariationPrices[]): SalePercentages {
  const map: Record<number, number> = {};
  for (const v of variations) {
    const percentage = salePercentage(v.regularCents, v.saleCents);
    if (percentage !== null) map[v.variation_id] = percentage;
  }
  return map;
}

/** Every '[value]' in the template replaced by the percentage. */
export function saleBadgeText(template: string, percentage: number): string {
  return template.split(SALE_BADGE.placeholder).join(String(percentage));
}

/** The badge text for a chosen variation, or null when it has no sale (hide the badge). */
export function saleBadgeForVariation(percentages: SalePercentages, variationId: number | null | undefined, template: string): string | null {
  if (variationId === null || variationId === undefined || !Object.hasOwn(percentages, variationId)) return null;
  const percentage = percentages[variationId];
  return percentage === undefined ? null : saleBadgeText(template, percentage);
}
