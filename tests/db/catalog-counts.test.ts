// The catalogue counts kept by triggers (0029_catalog_counts.sql, docs/decisions/0026-catalog-counts.md) against a real
// database: after every kind of write — a product added, unpublished, republished, its stock taken, its catalog
// visibility changed (0031: only 'visible' and 'catalog' products are listed and counted), its categories replaced,
// deleted; a category deleted — the listing's total, each category's count and the REST terms' count equal what
// counting the rows says, and recount_catalog() finds nothing to correct.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, openPostgres, type Db } from "../../core/db/client.ts";
import { migrate } from "../../core/db/migrate.ts";
import { copyTemplateDatabase, tempDir, type TestDatabase } from "../support/database.ts";
import { listCategories, listProducts } from "../../core/db/repositories/catalog.ts";
import { listTerms } from "../../core/db/repositories/taxonomies.ts";
import { deleteProduct, replaceProductTerms, updateProduct } from "../../core/db/repositories/products-admin.ts";
import { takeUnits } from "../../core/db/repositories/stock.ts";

let folder: ReturnType<typeof tempDir>;
let copy: TestDatabase;
let db: Db;
let masks: number;
let ties: number;

const listing = { orderby: "menu_order" as const, page: 1, perPage: 12 };

/** What counting the rows says: listed products (published, visible in the catalogue), and each category's. */
async function counted(): Promise<{ published: number; categories: Record<string, number> }> {
  const [{ n }] = (await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM products WHERE status = 'publish' AND catalog_visibility IN ('visible', 'catalog')`,
  )) as [{ n: number }];
  const rows = await db.query<{ slug: string; n: number }>(
    `SELECT t.slug, (SELECT count(*)::int FROM product_terms pt JOIN products p ON p.id = pt.product_id
                      WHERE pt.term_id = t.id AND p.status = 'publish' AND p.catalog_visibility IN ('visible', 'catalog')) AS n
       FROM terms t WHERE t.taxonomy = 'product_cat'`,
  );
  return { published: n, categories: Object.fromEntries(rows.map((r) => [r.slug, r.n])) };
}

/** The counts as the storefront and the REST API read them equal the rows' own, and a recount changes nothing. */
async function expectCountsTrue(): Promise<void> {
  const truth = await counted();
  expect((await listProducts(db, listing)).total).toBe(truth.published);
  const categories = await listCategories(db);
  expect(Object.fromEntries(categories.map((c) => [c.slug, c.count]))).toEqual(truth.categories);
  for (const slug of ["count-masks", "count-ties"]) {
    if (truth.categories[slug] === undefined) continue;
    expect((await listProducts(db, { ...listing, categorySlug: slug })).total, slug).toBe(truth.categories[slug]);
  }
  const rest = await listTerms(db, { taxonomy: "product_cat", orderby: "name", order: "asc", limit: 100, offset: 0 });
  expect(Object.fromEntries(rest.rows.map((t) => [t.slug, t.count]))).toEqual(truth.categories);
  const before = await db.query(`SELECT id, product_count FROM terms ORDER BY id`);
  const [totalBefore] = await db.query(`SELECT listed_products FROM catalog_counts`);
  await db.query(`SELECT recount_catalog()`);
  expect(await db.query(`SELECT id, product_count FROM terms ORDER BY id`)).toEqual(before);
  expect((await db.query(`SELECT listed_products FROM catalog_counts`))[0]).toEqual(totalBefore);
}

async function addProduct(slug: string, status = "publish"): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO products (type, slug, name, regular_price, price_min, price_max, stock_quantity, status)
     VALUES ('simple', $1, $1, 1000, 1000, 1000, 5, $2) RETURNING id`,
    [slug, status],
  );
  return row!.id;
}

async function addCategory(slug: string, parentId: number | null = null): Promise<number> {
  const [row] = await db.query<{ id: number }>(`INSERT INTO terms (taxonomy, slug, name, parent_id) VALUES ('product_cat', $1, $1, $2) RETURNING id`, [
    slug,
    parentId,
  ]);
  return row!.id;
}

const link = (productId: number, termId: number) => db.query(`INSERT INTO product_terms (product_id, term_id) VALUES ($1, $2)`, [productId, termId]);

beforeAll(async () => {
  folder = tempDir("catalog-counts-test-");
  copy = await copyTemplateDatabase(path.join(folder.dir, "pglite"));
  db = copy.databaseUrl ? await openPostgres(copy.databaseUrl, 4) : await openDatabase({ dataDir: copy.pgliteDir });
  await migrate(db);
  masks = await addCategory("count-masks");
  ties = await addCategory("count-ties");
}, 60_000);
afterAll(async () => {
  await db?.close();
  await copy?.drop();
  folder?.remove();
});

describe("catalogue counts kept by triggers", () => {
  let a: number;
  let b: number;
  let c: number;

  it("count products as they are added and linked, published or not", async () => {
    a = await addProduct("count-a");
    b = await addProduct("count-b");
    c = await addProduct("count-c", "draft");
    await db.query(`INSERT INTO product_terms (product_id, term_id) VALUES ($1, $4), ($2, $4), ($3, $4), ($1, $5)`, [a, b, c, masks, ties]);
    const truth = await counted();
    expect(truth.categories["count-masks"]).toBe(2);
    expect(truth.categories["count-ties"]).toBe(1);
    await expectCountsTrue();
  });

  it("follow a product unpublished, republished, and published from draft (one statement changing several)", async () => {
    await updateProduct(db, a, { status: "draft" });
    await expectCountsTrue();
    expect((await listProducts(db, { ...listing, categorySlug: "count-ties" })).total).toBe(0);
    await db.query(`UPDATE products SET status = CASE WHEN id = $1 THEN 'publish' ELSE 'private' END WHERE id IN ($1, $2)`, [a, b]);
    await expectCountsTrue();
    await updateProduct(db, c, { status: "publish" });
    await updateProduct(db, b, { status: "publish" });
    await expectCountsTrue();
    expect((await listProducts(db, { ...listing, categorySlug: "count-masks" })).total).toBe(3);
  });

  it("do not move when stock is taken or a product is edited without changing its status", async () => {
    const before = await counted();
    expect(await takeUnits(db, { table: "products", id: a, name: "count-a", quantity: 5 })).toBe(true);
    await db.query(`UPDATE products SET stock_status = 'outofstock', name = 'Renamed' WHERE id = $1`, [a]);
    await updateProduct(db, b, { status: "publish" });
    expect(await counted()).toEqual(before);
    await expectCountsTrue();
  });

  it("follow the catalog visibility: search-only and hidden products leave the counts, 'catalog' ones stay", async () => {
    const before = await counted();
    await updateProduct(db, a, { catalog_visibility: "search" });
    await expectCountsTrue();
    expect((await counted()).published).toBe(before.published - 1);
    expect((await listProducts(db, { ...listing, categorySlug: "count-ties" })).total).toBe(0);
    // One statement changing several: a to 'catalog' (listed again), b to 'hidden' (unlisted), c its status too.
    await db.query(
      `UPDATE products SET catalog_visibility = CASE WHEN id = $1 THEN 'catalog' ELSE 'hidden' END,
                           status = CASE WHEN id = $3 THEN 'draft' ELSE status END
        WHERE id IN ($1, $2, $3)`,
      [a, b, c],
    );
    await expectCountsTrue();
    // Hidden and unpublished at once, then published again while still hidden: never counted.
    await updateProduct(db, c, { status: "publish" });
    await expectCountsTrue();
    expect((await counted()).categories["count-masks"]).toBe(1);
    await db.query(`UPDATE products SET catalog_visibility = 'visible' WHERE id IN ($1, $2, $3)`, [a, b, c]);
    await expectCountsTrue();
    expect(await counted()).toEqual(before);
  });

  it("follow categories replaced, a product deleted, a draft deleted and a category deleted", async () => {
    await replaceProductTerms(db, a, ["product_cat"], [ties]);
    await expectCountsTrue();
    expect((await counted()).categories["count-masks"]).toBe(2);
    await deleteProduct(db, b);
    await expectCountsTrue();
    await updateProduct(db, c, { status: "draft" });
    await deleteProduct(db, c);
    await expectCountsTrue();
    await db.query(`DELETE FROM product_terms WHERE product_id = $1 AND term_id = $2`, [a, ties]);
    await expectCountsTrue();
    await link(a, ties);
    await db.query(`DELETE FROM terms WHERE id = $1`, [masks]);
    await expectCountsTrue();
  });

  it("a category with subcategories counts a product in both once (counted, not kept)", async () => {
    const parent = await addCategory("count-parent");
    const child = await addCategory("count-child", parent);
    const p = await addProduct("count-in-both");
    await link(p, parent);
    await link(p, child);
    const q = await addProduct("count-in-child");
    await link(q, child);
    expect((await listProducts(db, { ...listing, categorySlug: "count-parent" })).total).toBe(2);
    await expectCountsTrue();
  });
});
