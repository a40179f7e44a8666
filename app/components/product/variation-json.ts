/**
 * A variation as WooCommerce's variation form reads it (data-product_variations and the
 * get_variation answer), built in one place for the page and the endpoint.
 */
import type { VariationRecord } from "../../../core/domain/catalog/products.ts";
import { formatMoney } from "../../../core/domain/money/money.ts";
import { mediaUrl } from "../../lib/format.ts";

export interface VariationJson {
  variation_id: number;
  attributes: Record<string, string>;
  is_in_stock: boolean;
  max_qty: number | "";
  min_qty: number;
  variation_stock_left: number;
  is_bundled: boolean;
  is_purchasable: boolean;
  variation_is_active: boolean;
  variation_is_visible: boolean;
  display_price: number;
  display_regular_price: number;
  price_cents: number;
  regular_price_cents: number;
  price_html: string;
  availability_html: string;
  sku: string;
  image: { src: string; alt: string } | null;
}

export function variationJson(v: VariationRecord): VariationJson {
  const price = v.salePrice ?? v.regularPrice;
  const inStock = v.stockStatus !== "outofstock";
  const onSale = v.salePrice !== null && v.salePrice < v.regularPrice;
  return {
    variation_id: v.id,
    attributes: v.attributes,
    is_in_stock: inStock,
    max_qty: v.stockQuantity ?? "",
    min_qty: 1,
    variation_stock_left: v.stockQuantity ?? 0,
    is_bundled: false,
    is_purchasable: true,
    variation_is_active: true,
    variation_is_visible: true,
    display_price: price / 100,
    display_regular_price: v.regularPrice / 100,
    price_cents: price,
    regular_price_cents: v.regularPrice,
    price_html: onSale ? `<del>${formatMoney(v.regularPrice)}</del> <ins>${formatMoney(price)}</ins>` : formatMoney(price),
    availability_html: !inStock ? "Out of stock" : v.stockQuantity !== null ? `${v.stockQuantity} in stock` : "",
    sku: v.sku ?? "",
    image: v.imageSlug ? { src: mediaUrl(v.imageSlug), alt: v.imageAlt ?? "" } : null,
  };
}
