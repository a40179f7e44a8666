/** The catalogue as the discount engine prices it: a product or variation's prices and its category ids and slugs. */
import type { Queryable } from "../client.ts";
import { raw, sql, type Sql } from "../kysely.ts";

export interface PricingTargetRecord {
  isVariation: boolean;
  id: number;
  parentId: number;
  type: string;
  name: string;
  regularPrice: number | null;
  salePrice: number | null;
  details: Record<string, unknown> | null;
  categoryIds: number[];
  categorySlugs: string[];
}

/** The categories of the product in `parent_id` as one array of ids or slugs (empty when none). */
const categoryArray = (b: Sql, column: "t.id" | "t.slug") =>
  b
    .selectFrom("product_terms as pt")
    .innerJoin("terms as t", "t.id", "pt.term_id")
    .select(raw<unknown[]>`coalesce(array_agg(${raw.ref(column)} ORDER BY t.id), '{}')`.as("agg"))
    .whereRef("pt.product_id", "=", raw.ref("target.parent_id"))
    .where("t.taxonomy", "=", "product_cat");

/**
 * One round trip: the id as a published variation (with its parent) or as a published product, with the
 * parent's categories. Null when it is neither.
 */
export async function findPricingTarget(db: Queryable, id: number): Promise<PricingTargetRecord | null> {
  const b = sql(db);
  const row = await b
    .with("target", (w) =>
      w
        .selectFrom("variations as v")
        .innerJoin("products as p", "p.id", "v.product_id")
        .select((eb) => [
          raw<boolean>`true`.as("is_variation"),
          "v.id",
          "v.product_id as parent_id",
          "p.type",
          "p.name",
          eb.ref("v.regular_price").$castTo<number | null>().as("regular_price"),
          "v.sale_price",
          "p.details",
        ])
        .where("v.id", "=", id)
        .where("v.status", "=", "publish")
        .where("p.status", "=", "publish")
        .unionAll(
          w
            .selectFrom("products as p")
            .select([raw<boolean>`false`.as("is_variation"), "p.id", "p.id as parent_id", "p.type", "p.name", "p.regular_price", "p.sale_price", "p.details"])
            .where("p.id", "=", id)
            .where("p.status", "=", "publish"),
        ),
    )
    .selectFrom("target")
    .selectAll("target")
    .select([categoryArray(b, "t.id").as("category_ids"), categoryArray(b, "t.slug").as("category_slugs")])
    .executeTakeFirst();
  if (!row) return null;
  return {
    isVariation: row.is_variation,
    id: row.id,
    parentId: row.parent_id,
    type: row.type,
    name: row.name,
    regularPrice: row.regular_price,
    salePrice: row.sale_price,
    details: (row.details as Record<string, unknown> | null) ?? null,
    categoryIds: (row.category_ids ?? []) as number[],
    categorySlugs: (row.category_slugs ?? []) as string[],
  };
}

/** The cheapest published variation's prices (what a variable product's bulk table shows before a choice). */
export async function cheapestVariationPrices(db: Queryable, productId: number): Promise<{ regularPrice: number; salePrice: number | null } | null> {
  const row = await sql(db)
    .selectFrom("variations")
    .select(["regular_price", "sale_price"])
    .where("product_id", "=", productId)
    .where("status", "=", "publish")
    .orderBy(raw`least(regular_price, coalesce(sale_price, regular_price))`)
    .orderBy("menu_order")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  return row ? { regularPrice: row.regular_price, salePrice: row.sale_price } : null;
}

/** Product id → its category ids and slugs (products without categories are absent). */
export async function productCategories(db: Queryable, productIds: number[]): Promise<Map<number, { ids: number[]; slugs: string[] }>> {
  if (productIds.length === 0) return new Map();
  const rows = await sql(db)
    .selectFrom("product_terms as pt")
    .innerJoin("terms as t", "t.id", "pt.term_id")
    .select(["pt.product_id", raw<number[]>`array_agg(t.id ORDER BY t.id)`.as("ids"), raw<string[]>`array_agg(t.slug ORDER BY t.id)`.as("slugs")])
    .where("pt.product_id", "=", raw<number>`ANY(${productIds}::int[])`)
    .where("t.taxonomy", "=", "product_cat")
    .groupBy("pt.product_id")
    .execute();
  return new Map(rows.map((r) => [r.product_id, { ids: r.ids, slugs: r.slugs }]));
}
