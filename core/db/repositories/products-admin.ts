/**
 * The catalogue as the staff REST API reads and writes it (wc/v3/products, docs/contract/rest/products.md): every
 * status, the rows with their terms, images, links and variations in a few batched queries per page, and the
 * writes. Stock is set under the row lock the checkout's conditional UPDATE waits on (core/db/repositories/stock.ts).
 */
import type { Expression, ExpressionBuilder, SqlBool } from "kysely";
import type { Queryable } from "../client.ts";
import { raw, sql, type DB } from "../kysely.ts";

export interface AdminProductRow {
  id: number;
  type: string;
  slug: string;
  name: string;
  sku: string | null;
  status: string;
  short_description: string;
  description: string;
  regular_price: number | null;
  sale_price: number | null;
  price_min: number | null;
  price_max: number | null;
  stock_quantity: number | null;
  stock_status: string;
  menu_order: number;
  featured: boolean;
  /** visible | catalog | search | hidden (migration 0031). */
  catalog_visibility: string;
  image_ids: number[];
  attributes: unknown;
  details: unknown;
  total_sales: number;
  rating_average: string | number;
  rating_count: number;
  comment_status: string;
  created_at: Date;
  modified_at: Date;
  rest_fields: unknown;
}

const PRODUCT_COLUMNS = [
  "id",
  "type",
  "slug",
  "name",
  "sku",
  "status",
  "short_description",
  "description",
  "regular_price",
  "sale_price",
  "price_min",
  "price_max",
  "stock_quantity",
  "stock_status",
  "menu_order",
  "featured",
  "catalog_visibility",
  "image_ids",
  "attributes",
  "details",
  "total_sales",
  "rating_average",
  "rating_count",
  "comment_status",
  "created_at",
  "modified_at",
  "rest_fields",
] as const;

export type ProductOrderBy = "date" | "modified" | "id" | "include" | "title" | "slug" | "price" | "popularity" | "rating" | "menu_order";

export interface AdminProductFilter {
  search?: string;
  /** "any" = every status but trash, as WordPress's post_status=any. */
  status: string;
  /** Stored kinds (wire "simple" covers simple and downloadable). */
  types?: string[];
  skus?: string[];
  featured?: boolean;
  categoryIds?: number[];
  tagIds?: number[];
  onSale?: boolean;
  minPrice?: number;
  maxPrice?: number;
  stockStatus?: string;
  include?: number[];
  exclude?: number[];
  orderby: ProductOrderBy;
  order: "asc" | "desc";
  limit: number;
  offset: number;
}

type P = ExpressionBuilder<DB & { p: DB["products"] }, "p">;

const likeEscape = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function filterOf(f: AdminProductFilter) {
  return (eb: P): Expression<SqlBool> => {
    const where: Expression<SqlBool>[] = [];
    if (f.status === "any") where.push(eb("p.status", "<>", "trash"));
    else where.push(eb("p.status", "=", f.status));
    if (f.search) {
      const like = likeEscape(f.search);
      where.push(
        eb.or([eb("p.name", "ilike", like), eb("p.short_description", "ilike", like), eb("p.description", "ilike", like), eb("p.sku", "ilike", like)]),
      );
    }
    if (f.types?.length) where.push(eb("p.type", "in", f.types));
    if (f.skus?.length) where.push(eb("p.sku", "in", f.skus));
    if (f.featured !== undefined) where.push(eb("p.featured", "=", f.featured));
    for (const ids of [f.categoryIds, f.tagIds]) {
      if (ids?.length) where.push(eb("p.id", "in", eb.selectFrom("product_terms as pt").select("pt.product_id").where("pt.term_id", "in", ids)));
    }
    if (f.onSale !== undefined) {
      const onSale = eb.or([
        eb.and([eb("p.sale_price", "is not", null), eb("p.sale_price", "<", eb.ref("p.regular_price"))]),
        eb.exists(
          eb.selectFrom("variations as v").select(eb.lit(1).as("one")).whereRef("v.product_id", "=", "p.id").whereRef("v.sale_price", "<", "v.regular_price"),
        ),
      ]);
      where.push(f.onSale ? onSale : eb.not(onSale));
    }
    if (f.minPrice !== undefined) where.push(eb("p.price_max", ">=", f.minPrice));
    if (f.maxPrice !== undefined) where.push(eb("p.price_min", "<=", f.maxPrice));
    if (f.stockStatus) where.push(eb("p.stock_status", "=", f.stockStatus));
    if (f.include?.length) where.push(eb("p.id", "in", f.include));
    if (f.exclude?.length) where.push(eb("p.id", "not in", f.exclude));
    return eb.and(where);
  };
}

const ORDER_COLUMN: Record<
  Exclude<ProductOrderBy, "include">,
  "p.created_at" | "p.modified_at" | "p.id" | "p.name" | "p.slug" | "p.price_min" | "p.total_sales" | "p.rating_average" | "p.menu_order"
> = {
  date: "p.created_at",
  modified: "p.modified_at",
  id: "p.id",
  title: "p.name",
  slug: "p.slug",
  price: "p.price_min",
  popularity: "p.total_sales",
  rating: "p.rating_average",
  menu_order: "p.menu_order",
};

/** One page of product ids in the asked order, and how many match. */
export async function listAdminProductIds(db: Queryable, f: AdminProductFilter): Promise<{ ids: number[]; total: number }> {
  const base = sql(db).selectFrom("products as p").where(filterOf(f));
  let page = base.select("p.id");
  if (f.orderby === "include" && f.include?.length) {
    page = page.orderBy(raw`array_position(${f.include}::int[], p.id)`, f.order);
  } else {
    const column = ORDER_COLUMN[f.orderby === "include" ? "date" : f.orderby];
    page = page.orderBy(column, (ob) => (f.order === "asc" ? ob.asc().nullsLast() : ob.desc().nullsLast()));
    // WordPress's "menu_order" sorts by title next.
    if (f.orderby === "menu_order") page = page.orderBy("p.name", f.order);
  }
  page = page.orderBy("p.id", f.order);
  const [rows, count] = await Promise.all([
    page.limit(f.limit).offset(f.offset).execute(),
    base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { ids: rows.map((r) => r.id), total: Number(count.n) };
}

export interface AdminProductBundle {
  row: AdminProductRow;
  terms: { id: number; taxonomy: string; slug: string; name: string }[];
  images: { id: number; slug: string; alt: string }[];
  links: { kind: string; linkedId: number }[];
  variationIds: number[];
  relatedIds: number[];
}

/** The products with everything their REST shape shows, in the order of `ids` (unknown ids are left out). */
export async function loadAdminProducts(db: Queryable, ids: number[]): Promise<AdminProductBundle[]> {
  if (ids.length === 0) return [];
  const b = sql(db);
  const [rows, terms, links, variations, related] = await Promise.all([
    b.selectFrom("products").select(PRODUCT_COLUMNS).where("id", "in", ids).execute(),
    b
      .selectFrom("product_terms as pt")
      .innerJoin("terms as t", "t.id", "pt.term_id")
      .select(["pt.product_id", "t.id", "t.taxonomy", "t.slug", "t.name"])
      .where("pt.product_id", "in", ids)
      .orderBy("t.taxonomy")
      .orderBy("t.menu_order")
      .orderBy("t.id")
      .execute(),
    b.selectFrom("product_links").select(["product_id", "kind", "linked_id"]).where("product_id", "in", ids).orderBy("position").orderBy("linked_id").execute(),
    b.selectFrom("variations").select(["id", "product_id"]).where("product_id", "in", ids).orderBy("menu_order").orderBy("id").execute(),
    // WooCommerce's related products: others in the same category (its own pick is random; ours is the newest five
    // of the product's first category). The newest six of each category on the page are read once, from
    // product_terms_term_idx, so the cost grows with the categories on the page, not the products or the catalogue.
    raw<{ pid: number; rid: number }>`
      WITH firsts AS (
        SELECT pt.product_id AS pid, min(pt.term_id) AS term_id
        FROM product_terms pt
        JOIN terms t ON t.id = pt.term_id AND t.taxonomy = 'product_cat'
        WHERE pt.product_id = ANY(${ids}::int[])
        GROUP BY pt.product_id
      ),
      tops AS (
        SELECT f.term_id, c.rid
        FROM (SELECT DISTINCT term_id FROM firsts) f
        CROSS JOIN LATERAL (
          SELECT o.product_id AS rid
          FROM product_terms o
          JOIN products op ON op.id = o.product_id AND op.status = 'publish'
          WHERE o.term_id = f.term_id
          ORDER BY o.product_id DESC
          LIMIT 6
        ) c
      )
      SELECT firsts.pid, tops.rid FROM firsts JOIN tops USING (term_id) WHERE tops.rid <> firsts.pid ORDER BY firsts.pid, tops.rid DESC`
      .execute(b)
      .then((r) => r.rows),
  ]);
  const imageIds = [...new Set(rows.flatMap((r) => r.image_ids))];
  const media = imageIds.length ? await b.selectFrom("media").select(["id", "slug", "alt"]).where("id", "in", imageIds).execute() : [];
  const mediaById = new Map(media.map((m) => [m.id, m]));
  const byId = new Map(rows.map((r) => [r.id, r as unknown as AdminProductRow]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    return [
      {
        row,
        terms: terms.filter((t) => t.product_id === id).map(({ id: tid, taxonomy, slug, name }) => ({ id: tid, taxonomy, slug, name })),
        images: row.image_ids.flatMap((mid) => {
          const m = mediaById.get(mid);
          return m ? [m] : [];
        }),
        links: links.filter((l) => l.product_id === id).map((l) => ({ kind: l.kind, linkedId: l.linked_id })),
        variationIds: variations.filter((v) => v.product_id === id).map((v) => v.id),
        relatedIds: related
          .filter((r) => r.pid === id)
          .slice(0, 5)
          .map((r) => r.rid),
      },
    ];
  });
}

/** The product row, locked until the transaction ends (a checkout taking its stock waits, and re-reads after). */
export async function lockProduct(tx: Queryable, id: number): Promise<AdminProductRow | null> {
  const row = await sql(tx).selectFrom("products").select(PRODUCT_COLUMNS).where("id", "=", id).forUpdate().executeTakeFirst();
  return (row as unknown as AdminProductRow | undefined) ?? null;
}

/** The product row, not locked. */
export async function findProductRow(db: Queryable, id: number): Promise<AdminProductRow | null> {
  const row = await sql(db).selectFrom("products").select(PRODUCT_COLUMNS).where("id", "=", id).executeTakeFirst();
  return (row as unknown as AdminProductRow | undefined) ?? null;
}

/**
 * Locks these product rows in ascending id order, the order the checkout takes stock rows in (stockNeeds), so an
 * API write that touches a bundle or grouped product besides its own row cannot deadlock with a checkout.
 */
export async function lockProductRows(tx: Queryable, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await sql(tx).selectFrom("products").select("id").where("id", "in", ids).orderBy("id").forUpdate().execute();
}

export type ProductValues = Partial<{
  type: string;
  slug: string;
  name: string;
  sku: string | null;
  status: string;
  short_description: string;
  description: string;
  regular_price: number | null;
  sale_price: number | null;
  stock_quantity: number | null;
  stock_status: string;
  menu_order: number;
  featured: boolean;
  catalog_visibility: string;
  image_ids: number[];
  attributes: unknown;
  details: unknown;
  comment_status: string;
  rest_fields: unknown;
}>;

const jsonColumns = (v: ProductValues) => ({
  ...v,
  ...(v.attributes !== undefined ? { attributes: JSON.stringify(v.attributes) } : {}),
  ...(v.details !== undefined ? { details: JSON.stringify(v.details) } : {}),
  ...(v.rest_fields !== undefined ? { rest_fields: JSON.stringify(v.rest_fields) } : {}),
});

export async function insertProduct(tx: Queryable, v: ProductValues & { type: string; slug: string; name: string }): Promise<number> {
  const row = await sql(tx)
    .insertInto("products")
    .values(jsonColumns(v) as never)
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Writes the changed columns in one statement. A stock quantity is set in the same statement as the stock status it
 * implies, under the row lock `lockProduct` took, so a concurrent checkout's conditional UPDATE (stock.ts) runs
 * wholly before or wholly after it.
 */
export async function updateProduct(tx: Queryable, id: number, v: ProductValues): Promise<void> {
  await sql(tx)
    .updateTable("products")
    .set({ ...(jsonColumns(v) as object), modified_at: raw`now()` } as never)
    .where("id", "=", id)
    .execute();
}

export async function deleteProduct(tx: Queryable, id: number): Promise<void> {
  await sql(tx).deleteFrom("products").where("id", "=", id).execute();
}

/** Replaces the product's terms of these taxonomies by `termIds`. */
export async function replaceProductTerms(tx: Queryable, productId: number, taxonomies: string[], termIds: number[]): Promise<void> {
  const b = sql(tx);
  await b
    .deleteFrom("product_terms")
    .where("product_id", "=", productId)
    .where("term_id", "in", b.selectFrom("terms").select("id").where("taxonomy", "in", taxonomies))
    .execute();
  if (termIds.length)
    await b
      .insertInto("product_terms")
      .values([...new Set(termIds)].map((term_id) => ({ product_id: productId, term_id })))
      .onConflict((oc) => oc.doNothing())
      .execute();
}

export async function replaceLinks(tx: Queryable, productId: number, kind: string, linkedIds: number[]): Promise<void> {
  const b = sql(tx);
  await b.deleteFrom("product_links").where("product_id", "=", productId).where("kind", "=", kind).execute();
  const unique = [...new Set(linkedIds)];
  if (unique.length)
    await b
      .insertInto("product_links")
      .values(unique.map((linked_id, position) => ({ product_id: productId, linked_id, kind, position })))
      .execute();
}

/** Terms of a taxonomy by id: the ones that exist. */
export async function termsByIds(db: Queryable, taxonomy: string, ids: number[]): Promise<{ id: number; slug: string; name: string }[]> {
  if (!ids.length) return [];
  return sql(db).selectFrom("terms").select(["id", "slug", "name"]).where("taxonomy", "=", taxonomy).where("id", "in", ids).execute();
}

/** Every term of the attribute taxonomies (pa_*), with each taxonomy's REST attribute id. */
export async function attributeTerms(db: Queryable): Promise<{ id: number; taxonomy: string; slug: string; name: string; menu_order: number }[]> {
  return sql(db)
    .selectFrom("terms")
    .select(["id", "taxonomy", "slug", "name", "menu_order"])
    .where("taxonomy", "like", raw.lit("pa\\_%"))
    .orderBy("id")
    .execute();
}

export async function existingMediaIds(db: Queryable, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await sql(db).selectFrom("media").select("id").where("id", "in", ids).execute();
  return new Set(rows.map((r) => r.id));
}

export async function productsByIds(db: Queryable, ids: number[]): Promise<{ id: number; slug: string; type: string; status: string }[]> {
  if (!ids.length) return [];
  return sql(db).selectFrom("products").select(["id", "slug", "type", "status"]).where("id", "in", ids).execute();
}

/** Who holds a SKU (products and variations share WooCommerce's one SKU space), other than `exceptId`. */
export async function skuOwner(db: Queryable, sku: string, exceptId: number): Promise<number | null> {
  const b = sql(db);
  const row = await b
    .selectFrom("products")
    .select("id")
    .where("sku", "=", sku)
    .where("id", "<>", exceptId)
    .unionAll(b.selectFrom("variations").select("id").where("sku", "=", sku).where("id", "<>", exceptId))
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** The slugs taken among `slug`, `slug-2`, `slug-3` …, other than by `exceptId`. */
export async function takenSlugs(db: Queryable, slug: string, exceptId: number): Promise<Set<string>> {
  const rows = await sql(db)
    .selectFrom("products")
    .select("slug")
    .where((eb) => eb.or([eb("slug", "=", slug), eb("slug", "like", `${slug.replace(/[\\%_]/g, (c) => `\\${c}`)}-%`)]))
    .where("id", "<>", exceptId)
    .execute();
  return new Set(rows.map((r) => r.slug));
}

/** Products whose price range depends on these: grouped products listing them and bundles containing them. */
export async function dependentProductIds(db: Queryable, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await sql(db)
    .selectFrom("product_links")
    .select("product_id")
    .distinct()
    .where("linked_id", "in", ids)
    .where("kind", "in", ["grouped_child", "bundled"])
    .execute();
  return rows.map((r) => r.product_id);
}

/** What a product's price range is computed from: itself, its published variations and its linked children. */
export async function priceRangeInputs(db: Queryable, id: number) {
  const b = sql(db);
  const product = await b.selectFrom("products").select(["id", "type", "regular_price", "sale_price", "details"]).where("id", "=", id).executeTakeFirst();
  if (!product) return null;
  const [variations, children] = await Promise.all([
    b.selectFrom("variations").select(["regular_price", "sale_price"]).where("product_id", "=", id).where("status", "=", raw.lit("publish")).execute(),
    b
      .selectFrom("product_links as l")
      .innerJoin("products as c", "c.id", "l.linked_id")
      .select(["l.kind", "c.id", "c.slug", "c.regular_price", "c.sale_price", "c.price_min"])
      .where("l.product_id", "=", id)
      .orderBy("l.position")
      .execute(),
  ]);
  return { product, variations, children };
}

export async function setPriceRange(tx: Queryable, id: number, min: number | null, max: number | null): Promise<void> {
  await sql(tx).updateTable("products").set({ price_min: min, price_max: max }).where("id", "=", id).execute();
}

/** A variable product is in stock while one of its published variations is (as the seed sets it). */
export async function refreshVariableStockStatus(tx: Queryable, productId: number): Promise<void> {
  await sql(tx)
    .updateTable("products as p")
    .set((eb) => ({
      stock_status: eb
        .case()
        .when(
          eb.exists(
            eb
              .selectFrom("variations as v")
              .select(eb.lit(1).as("one"))
              .whereRef("v.product_id", "=", "p.id")
              .where("v.status", "=", raw.lit("publish"))
              .where("v.stock_status", "=", raw.lit("instock")),
          ),
        )
        .then("instock")
        .else("outofstock")
        .end(),
    }))
    .where("p.id", "=", productId)
    .where("p.type", "=", raw.lit("variable"))
    .execute();
}

// ---------------------------------------------------------------------------------------------------
// Variations
// ---------------------------------------------------------------------------------------------------

export interface AdminVariationRow {
  id: number;
  product_id: number;
  sku: string | null;
  attributes: unknown;
  regular_price: number;
  sale_price: number | null;
  stock_quantity: number | null;
  stock_status: string;
  image_id: number | null;
  menu_order: number;
  status: string;
  created_at: Date;
  modified_at: Date;
  description: string;
  rest_fields: unknown;
  image_slug: string | null;
  image_alt: string | null;
}

const variationQuery = (db: Queryable) =>
  sql(db)
    .selectFrom("variations as v")
    .leftJoin("media as m", "m.id", "v.image_id")
    .select([
      "v.id",
      "v.product_id",
      "v.sku",
      "v.attributes",
      "v.regular_price",
      "v.sale_price",
      "v.stock_quantity",
      "v.stock_status",
      "v.image_id",
      "v.menu_order",
      "v.status",
      "v.created_at",
      "v.modified_at",
      "v.description",
      "v.rest_fields",
      "m.slug as image_slug",
      "m.alt as image_alt",
    ]);

export async function listAdminVariations(
  db: Queryable,
  productId: number,
  f: { limit: number; offset: number; order: "asc" | "desc"; orderby: "menu_order" | "id" | "date"; include?: number[]; exclude?: number[]; sku?: string },
): Promise<{ rows: AdminVariationRow[]; total: number }> {
  let q = variationQuery(db).where("v.product_id", "=", productId);
  if (f.include?.length) q = q.where("v.id", "in", f.include);
  if (f.exclude?.length) q = q.where("v.id", "not in", f.exclude);
  if (f.sku) q = q.where("v.sku", "=", f.sku);
  const column = f.orderby === "id" ? "v.id" : f.orderby === "date" ? "v.created_at" : "v.menu_order";
  const [rows, count] = await Promise.all([
    q.orderBy(column, f.order).orderBy("v.id", f.order).limit(f.limit).offset(f.offset).execute(),
    q
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as AdminVariationRow[], total: Number(count.n) };
}

export async function findAdminVariation(db: Queryable, id: number, lock = false): Promise<AdminVariationRow | null> {
  if (lock) await sql(db).selectFrom("variations").select("id").where("id", "=", id).forUpdate().execute();
  const row = await variationQuery(db).where("v.id", "=", id).executeTakeFirst();
  return (row as AdminVariationRow | undefined) ?? null;
}

export type VariationValues = Partial<{
  sku: string | null;
  attributes: Record<string, string>;
  regular_price: number;
  sale_price: number | null;
  stock_quantity: number | null;
  stock_status: string;
  image_id: number | null;
  menu_order: number;
  status: string;
  description: string;
  rest_fields: unknown;
}>;

const variationJson = (v: VariationValues) => ({
  ...v,
  ...(v.attributes !== undefined ? { attributes: JSON.stringify(v.attributes) } : {}),
  ...(v.rest_fields !== undefined ? { rest_fields: JSON.stringify(v.rest_fields) } : {}),
});

export async function insertVariation(
  tx: Queryable,
  productId: number,
  v: VariationValues & { attributes: Record<string, string>; regular_price: number },
): Promise<number> {
  const row = await sql(tx)
    .insertInto("variations")
    .values({ ...(variationJson(v) as object), product_id: productId } as never)
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** One statement, under the lock `findAdminVariation(…, true)` took (see updateProduct). */
export async function updateVariation(tx: Queryable, id: number, v: VariationValues): Promise<void> {
  await sql(tx)
    .updateTable("variations")
    .set({ ...(variationJson(v) as object), modified_at: raw`now()` } as never)
    .where("id", "=", id)
    .execute();
}

export async function deleteVariation(tx: Queryable, id: number): Promise<void> {
  await sql(tx).deleteFrom("variations").where("id", "=", id).execute();
}

/** Which of these (variable) products have a variation on sale. */
export async function productsWithSaleVariations(db: Queryable, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await sql(db)
    .selectFrom("variations")
    .select("product_id")
    .distinct()
    .where("product_id", "in", ids)
    .whereRef("sale_price", "<", "regular_price")
    .execute();
  return rows.map((r) => r.product_id);
}

export async function productIdsBySlug(db: Queryable, slugs: string[]): Promise<{ id: number; slug: string }[]> {
  if (!slugs.length) return [];
  return sql(db)
    .selectFrom("products")
    .select(["id", "slug"])
    .where("slug", "in", [...new Set(slugs)])
    .execute();
}
