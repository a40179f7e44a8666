/** Reads a listing's address (path params and query) into a safe, normalised query. */
import type { ListingOrder } from "../../core/db/repositories/catalog.ts";

export const ORDER_OPTIONS: { value: ListingOrder; label: string }[] = [
  { value: "menu_order", label: "Default sorting" },
  { value: "popularity", label: "Sort by popularity" },
  { value: "rating", label: "Sort by average rating" },
  { value: "date", label: "Sort by latest" },
  { value: "price", label: "Sort by price: low to high" },
  { value: "price-desc", label: "Sort by price: high to low" },
];

export function parseOrder(value: string | null): ListingOrder {
  return ORDER_OPTIONS.some((o) => o.value === value) ? (value as ListingOrder) : "menu_order";
}

/** A page number from `/page/{n}`: a positive whole number, else null (the caller answers 404). */
export function parsePage(value: string | undefined): number | null {
  if (value === undefined) return 1;
  return /^[1-9]\d{0,5}$/.test(value) ? Number(value) : null;
}

/** A price filter value in whole currency units, as WooCommerce's min_price/max_price; else undefined. */
export function parsePriceFilter(value: string | null): number | undefined {
  if (value === null || !/^\d{1,7}(\.\d{1,2})?$/.test(value.trim())) return undefined;
  return Math.round(Number(value) * 100);
}

export function pageTitle(...parts: string[]): string {
  return [...parts, "Maskerade"].filter(Boolean).join(" – ");
}
