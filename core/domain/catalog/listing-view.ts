/** The data a listing loop renders; plain JSON so it crosses from loader to browser. Types only. */
import type { ProductSummary } from "./products.ts";

export interface ListingSwatch {
  taxonomy: string;
  slug: string;
  name: string;
  color: string | null;
}

export interface ListingVariationButton {
  id: number;
  sku: string | null;
  attributes: Record<string, string>;
  price: number;
  label: string;
}

export interface CardExtras {
  swatches: ListingSwatch[];
  variations: ListingVariationButton[];
}

export interface LoopData {
  items: ProductSummary[];
  extras: Record<number, CardExtras>;
  total: number;
  page: number;
  perPage: number;
  totalPages: number;
  basePath: string;
  query: string;
  view: "grid" | "list";
}
