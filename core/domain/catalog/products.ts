/**
 * The catalogue as pages show it: products, variations, categories, terms and posts, read by
 * core/db/repositories/catalog.ts and drawn by the app's components. Types only (safe in the browser bundle).
 */

import type { UploadedImage } from "../media/sizes.ts";
export type ProductType = "simple" | "variable" | "grouped" | "bundle" | "external" | "downloadable";
export type StockStatus = "instock" | "outofstock" | "onbackorder";

export interface ProductSummary {
  id: number;
  type: ProductType;
  slug: string;
  name: string;
  sku: string | null;
  shortDescription: string;
  regularPrice: number | null;
  salePrice: number | null;
  priceMin: number | null;
  priceMax: number | null;
  stockStatus: StockStatus;
  stockQuantity: number | null;
  ratingAverage: number;
  ratingCount: number;
  imageSlugs: string[];
  imageAlts: string[];
  /** Per image: its uploaded files and sizes (core/domain/media/sizes.ts), null for a generated one; absent when none is uploaded. */
  imageUploads?: (UploadedImage | null)[];
  onSale: boolean;
  details: Record<string, unknown>;
}

/** A variation as a listing's swatches and variation buttons need it. */
export interface ListingVariation {
  id: number;
  productId: number;
  sku: string | null;
  attributes: Record<string, string>;
  regularPrice: number;
  salePrice: number | null;
  stockStatus: StockStatus;
}

export interface VariationRecord {
  id: number;
  sku: string | null;
  attributes: Record<string, string>;
  regularPrice: number;
  salePrice: number | null;
  stockQuantity: number | null;
  stockStatus: StockStatus;
  imageSlug: string | null;
  imageAlt: string | null;
}

export interface VariationDetail extends VariationRecord {
  productId: number;
}

export interface ProductDetail extends ProductSummary {
  description: string;
  attributes: { name: string; label: string; options: string[]; variation: boolean }[];
  variations: VariationRecord[];
  categories: { slug: string; name: string }[];
  tags: { slug: string; name: string }[];
  links: { upsell: number[]; cross_sell: number[]; grouped_child: number[]; bundled: number[] };
  status: string;
}

export interface Category {
  id: number;
  slug: string;
  name: string;
  description: string;
  count: number;
}

export interface Term {
  id: number;
  taxonomy: string;
  slug: string;
  name: string;
  /** Swatch settings (docs/contract/rest/taxonomies.md): colour, picture (a media id), short label. */
  meta: { color?: string; image_id?: number; label?: string };
}

export interface PostSummary {
  id: number;
  slug: string;
  title: string;
  excerpt: string;
  author: string;
  publishedAt: string;
  imageSlug: string | null;
}
