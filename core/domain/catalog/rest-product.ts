/**
 * Pure rules of the products REST API (docs/contract/rest/products.md): WooCommerce's decimal price strings against
 * the shop's cents, the price range the listing shows and sorts by, and the stock status a managed stock implies.
 */
import { bundleModel, bundlePrice, shopPrice, type StoredBundledItem } from "./product-kinds.ts";
import type { Cents } from "../money/money.ts";

/** WooCommerce's price strings: "12", "12.5", "12.50"; "" clears the price. At most 2 decimals (the shop counts cents). */
export const DECIMAL_PRICE = /^\d{1,9}(\.\d{1,2})?$/;

/** "12.50" → 1250; "" → null. Callers validate with DECIMAL_PRICE first. */
export function decimalToCents(text: string): Cents | null {
  if (text === "") return null;
  const [whole, frac = ""] = text.split(".");
  return Number(whole) * 100 + Number(frac.padEnd(2, "0"));
}

/** 1250 → "12.50"; null → "" (WooCommerce answers an unset price as an empty string). */
export function centsToDecimal(cents: Cents | null | undefined): string {
  if (cents === null || cents === undefined) return "";
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** What a managed stock means for the storefront: none left is out of stock (the shop takes no backorders). */
export function managedStockStatus(quantity: number): "instock" | "outofstock" {
  return quantity > 0 ? "instock" : "outofstock";
}

export interface PriceRangeInput {
  type: string;
  regular: Cents | null;
  sale: Cents | null;
  details: Readonly<Record<string, unknown>>;
  /** Published variations (variable products). */
  variations: readonly { regular: Cents; sale: Cents | null }[];
  /** Grouped children and bundled products: their own shop price, by id and slug. */
  children: readonly { id: number; slug: string; price: Cents | null }[];
}

/**
 * The product's price_min / price_max, as the seed computes them (core/db/seed/seed.ts): a variable product's
 * cheapest and dearest variation, a grouped product's children, a multi-price download's options, a bundle's box
 * with its mandatory items (the one bundle price rule), else its own shop price. [null, null] when it has none.
 */
export function priceRange(p: PriceRangeInput, groupedChildIds: readonly number[]): [Cents | null, Cents | null] {
  const prices: Cents[] = [];
  if (p.type === "variable") {
    for (const v of p.variations) prices.push(shopPrice(v.regular, v.sale));
  } else if (p.type === "grouped") {
    for (const id of groupedChildIds) {
      const c = p.children.find((x) => x.id === id);
      if (c && c.price !== null) prices.push(c.price);
    }
  } else if (p.type === "downloadable" && p.details.priceMode === "multi" && Array.isArray(p.details.prices)) {
    for (const option of p.details.prices as { amount: number }[]) prices.push(option.amount);
  } else if (p.type === "bundle") {
    const items = Array.isArray(p.details.bundledItems) ? (p.details.bundledItems as StoredBundledItem[]) : [];
    const model = bundleModel(0, p.regular ?? 0, items, (slug) => {
      const c = p.children.find((x) => x.slug === slug);
      return c && c.price !== null ? { id: c.id, price: c.price } : undefined;
    });
    prices.push(bundlePrice(model, { ticked: [] }));
  } else if (p.regular !== null || p.sale !== null) {
    prices.push(p.regular === null ? p.sale! : shopPrice(p.regular, p.sale));
  }
  return prices.length ? [Math.min(...prices), Math.max(...prices)] : [null, null];
}

/** WordPress's sanitize_title for a slug: lower case, accents dropped, runs of anything else as one hyphen. */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 190);
}
