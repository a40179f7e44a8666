/** Data and scratch schemas for the benchmarks (bench/*.ts): nothing here runs in the shop. */
import type { Db } from "../client.ts";
import { raw, sql } from "../kysely.ts";

/** A variable product with 8 colours × 25 patterns = 200 variations, written straight into the database. */
export async function createManyVariationProduct(db: Db): Promise<{ id: number; slug: string }> {
  const b = sql(db);
  const colors = (await b.selectFrom("terms").select("slug").where("taxonomy", "=", "pa_color").orderBy("menu_order").orderBy("id").execute()).map(
    (r) => r.slug,
  );
  const slug = "bench-200-variations";
  const attributes = [
    { name: "pa_color", label: "Color", options: colors, variation: true },
    { name: "pa_pattern", label: "Pattern", options: Array.from({ length: 25 }, (_, i) => `pattern-${i + 1}`), variation: true },
  ];
  const row = await b
    .insertInto("products")
    .values({
      type: "variable",
      slug,
      name: "Bench 200 Variations",
      regular_price: 500,
      price_min: 400,
      price_max: 500,
      attributes: raw`${JSON.stringify(attributes)}::jsonb`,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await b
    .insertInto("variations")
    .columns(["product_id", "sku", "attributes", "regular_price", "sale_price", "stock_quantity", "stock_status", "menu_order"])
    .expression(
      raw`SELECT ${row.id}, 'BENCH-' || c || '-' || n, jsonb_build_object('attribute_pa_color', c, 'attribute_pa_pattern', 'pattern-' || n), 500,
                 CASE WHEN n % 5 = 0 THEN 400 END, 10, 'instock', n
          FROM unnest(${colors}::text[]) AS c, generate_series(1, 25) AS n`,
    )
    .execute();
  return { id: row.id, slug };
}

/** Refreshes the planner's statistics (after bulk writes). */
export async function analyze(db: Db): Promise<void> {
  await raw`ANALYZE`.execute(sql(db));
}
