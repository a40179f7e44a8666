/**
 * zod schemas of the variation form's data (data-product_variations). Server only: kept apart
 * from variations.ts so the browser's bundle has no zod.
 */
import { z } from "zod";
import type { Product, Variation } from "./variations.ts";

/** A positive id; WooCommerce prints ids as numbers, some themes as strings. */
const idSchema = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/**
 * One variation as printed in the form's data-product_variations JSON. WooCommerce sends
 * max_qty '' when stock is not managed; that becomes null.
 */
export const variationSchema = z.object({
  variation_id: idSchema,
  attributes: z.record(z.string(), z.string()),
  is_in_stock: z.boolean(),
  max_qty: z.union([z.number().finite().nonnegative(), z.literal(""), z.null()]).transform((v) => (v === "" ? null : v)),
  variation_stock_left: z.number().finite().catch(0),
  is_bundled: z.boolean().catch(false),
}) satisfies z.ZodType<Variation, unknown>;

/**
 * The product as read from the variation form. WooCommerce prints `false` for
 * product_variations when there are too many to embed: that means "load on demand", as [] does.
 */
export const productSchema = z.object({
  product_id: idSchema,
  product_variations: z.union([z.array(variationSchema), z.literal(false)]).transform((v) => (v === false ? [] : v)),
}) satisfies z.ZodType<Product, unknown>;
