/**
 * Catalogue reads for pages and endpoints. Listings are filtered, sorted and
 * paginated in SQL on indexed columns, never in memory.
 * The view types are core/domain/catalog/products.ts. Fixed values that partial indexes name (`status = 'publish'`,
 * 0006_catalog.sql) are written as SQL literals, not parameters, so the planner can match those indexes.
 */
import type { Expression, ExpressionBuilder, RawBuilder, SelectQueryBuilder, SqlBool } from "kysely";
import type { Queryable } from "../client.ts";
import { raw, sql, type DB } from "../kysely.ts";
import type { UploadedImage } from "../../domain/media/sizes.ts";
import { MIN_SUBSTRING_LENGTH, likeContains, prefixTsquery, searchWords } from "../../domain/catalog/search.ts";
import type {
  Category,
  ListingVariation,
  PostSummary,
  ProductDetail,
  ProductSummary,
  ProductType,
  StockStatus,
  Term,
  VariationDetail,
  VariationRecord,
} from "../../domain/catalog/products.ts";

export type ListingOrder = "menu_order" | "popularity" | "rating" | "date" | "price" | "price-desc";

export interface ListingQuery {
  categorySlug?: string;
  search?: string;
  /** With a search: order by relevance (ts_rank) instead of `orderby` (WooCommerce's default order for a search). */
  relevance?: boolean;
  orderby: ListingOrder;
  page: number;
  perPage: number;
  minPrice?: number;
  maxPrice?: number;
  /** taxonomy → term slugs (AND within a taxonomy: "every term") */
  termsAll?: Record<string, string[]>;
  /** taxonomy → term slugs (OR: "any of") */
  termsAny?: Record<string, string[]>;
  /** taxonomy → term slugs to exclude */
  termsNone?: Record<string, string[]>;
}

const PUBLISH = raw.lit("publish");
const PRODUCT_CAT = raw.lit("product_cat");

/**
 * Where a published product is listed, by its catalog_visibility (migration 0031, docs/decisions/0031-catalog-visibility.md):
 * the one place the storefront's queries read it. "catalog": the shop, category archives and the lists that browse
 * the catalogue (featured, best sellers, up-sells, cross-sells, price bounds); "search": search results. A product's
 * own page, a grouped product's children and a bundle's items show whatever their visibility (WooCommerce's way:
 * a grouped product's children are often hidden). The counts of migrations 0029/0031 count the "catalog" set.
 */
export type Listing = "catalog" | "search";
const LISTED_IN: Record<Listing, RawBuilder<string>[]> = {
  catalog: [raw.lit("visible"), raw.lit("catalog")],
  search: [raw.lit("visible"), raw.lit("search")],
};
/** Published and listed in `where` (a condition on `products AS p`). */
export const listedIn = (eb: P, where: Listing): Expression<SqlBool> =>
  eb.and([eb("p.status", "=", PUBLISH), eb("p.catalog_visibility", "in", LISTED_IN[where])]);

/** Queries over `products AS p`. */
type P = ExpressionBuilder<DB & { p: DB["products"] }, "p">;

type OrderColumn =
  "p.menu_order" | "p.name" | "p.id" | "p.total_sales" | "p.rating_average" | "p.rating_count" | "p.created_at" | "p.price_min" | "p.price_max";
type OrderDirection = "asc" | "desc" | "asc nulls last" | "desc nulls last";

/** Each order matches one of the products_*_idx indexes (0001_foundation.sql). */
const ORDER: Record<ListingOrder, [OrderColumn, OrderDirection][]> = {
  menu_order: [
    ["p.menu_order", "asc"],
    ["p.name", "asc"],
    ["p.id", "asc"],
  ],
  popularity: [
    ["p.total_sales", "desc"],
    ["p.id", "desc"],
  ],
  rating: [
    ["p.rating_average", "desc"],
    ["p.rating_count", "desc"],
    ["p.id", "desc"],
  ],
  date: [
    ["p.created_at", "desc"],
    ["p.id", "desc"],
  ],
  price: [
    ["p.price_min", "asc nulls last"],
    ["p.id", "asc"],
  ],
  "price-desc": [
    ["p.price_max", "desc nulls last"],
    ["p.id", "desc"],
  ],
};

/** Sorts a query over `products AS p` (and perhaps more tables) in a listing's order. */
function orderListing<Q extends SelectQueryBuilder<DB & { p: DB["products"] }, "p", unknown>>(query: Q, order: ListingOrder): Q {
  let sorted: SelectQueryBuilder<DB & { p: DB["products"] }, "p", unknown> = query;
  for (const [column, direction] of ORDER[order]) {
    sorted =
      direction === "asc nulls last"
        ? sorted.orderBy(column, (ob) => ob.asc().nullsLast())
        : direction === "desc nulls last"
          ? sorted.orderBy(column, (ob) => ob.desc().nullsLast())
          : sorted.orderBy(column, direction);
  }
  return sorted as Q;
}

/** The columns of a ProductSummary: the images' slugs and alts in image order, and whether anything is on sale. */
const summaryColumns = (eb: P) =>
  [
    "p.id",
    "p.type",
    "p.slug",
    "p.name",
    "p.sku",
    "p.short_description",
    "p.regular_price",
    "p.sale_price",
    "p.price_min",
    "p.price_max",
    "p.stock_status",
    "p.stock_quantity",
    "p.rating_average",
    "p.rating_count",
    "p.details",
    raw<
      string[]
    >`(SELECT coalesce(array_agg(m.slug ORDER BY ord), '{}') FROM unnest(p.image_ids) WITH ORDINALITY AS u(mid, ord) JOIN media m ON m.id = u.mid)`.as(
      "image_slugs",
    ),
    raw<
      string[]
    >`(SELECT coalesce(array_agg(m.alt ORDER BY ord), '{}') FROM unnest(p.image_ids) WITH ORDINALITY AS u(mid, ord) JOIN media m ON m.id = u.mid)`.as(
      "image_alts",
    ),
    // Uploaded images' files and sizes (migration 0026), null for a generated one: the storefront's srcset.
    raw<
      unknown[]
    >`(SELECT coalesce(jsonb_agg(CASE WHEN m.file IS NULL THEN NULL ELSE jsonb_build_object('file', m.file, 'width', m.width, 'height', m.height, 'mime', m.mime, 'sizes', m.sizes) END ORDER BY ord), '[]'::jsonb) FROM unnest(p.image_ids) WITH ORDINALITY AS u(mid, ord) JOIN media m ON m.id = u.mid)`.as(
      "image_uploads",
    ),
    eb
      .or([
        eb.and([eb("p.sale_price", "is not", null), eb("p.sale_price", "<", eb.ref("p.regular_price"))]),
        eb.and([
          eb("p.type", "=", raw.lit("variable")),
          eb.exists(
            eb.selectFrom("variations as v").select(eb.lit(1).as("one")).whereRef("v.product_id", "=", "p.id").whereRef("v.sale_price", "<", "v.regular_price"),
          ),
        ]),
      ])
      .as("on_sale"),
  ] as const;

interface SummaryRow {
  id: number;
  type: string;
  slug: string;
  name: string;
  sku: string | null;
  short_description: string;
  regular_price: number | null;
  sale_price: number | null;
  price_min: number | null;
  price_max: number | null;
  stock_status: string;
  stock_quantity: number | null;
  rating_average: number | string;
  rating_count: number;
  details: unknown;
  image_slugs: string[];
  image_alts: string[];
  image_uploads: unknown;
  on_sale: SqlBool;
}

const toSummary = (r: SummaryRow): ProductSummary => ({
  id: r.id,
  type: r.type as ProductType,
  slug: r.slug,
  name: r.name,
  sku: r.sku,
  shortDescription: r.short_description,
  regularPrice: r.regular_price,
  salePrice: r.sale_price,
  priceMin: r.price_min,
  priceMax: r.price_max,
  stockStatus: r.stock_status as StockStatus,
  stockQuantity: r.stock_quantity,
  ratingAverage: Number(r.rating_average),
  ratingCount: r.rating_count,
  imageSlugs: r.image_slugs ?? [],
  imageAlts: r.image_alts ?? [],
  ...imageUploads(r.image_uploads),
  onSale: Boolean(r.on_sale),
  details: (r.details as Record<string, unknown> | null) ?? {},
});

/** Only when the product has an uploaded image: the demo catalogue's summaries stay as they were. */
function imageUploads(raw: unknown): { imageUploads?: (UploadedImage | null)[] } {
  const list = (typeof raw === "string" ? JSON.parse(raw) : raw) as (UploadedImage | null)[] | null;
  return list && list.some((i) => i !== null) ? { imageUploads: list } : {};
}

/** Products with a term of `taxonomy` among `slugs`; "all": only those with every one of them. */
function termCondition(eb: P, taxonomy: string, slugs: string[], mode: "all" | "any" | "none"): Expression<SqlBool> {
  const matching = eb
    .selectFrom("product_terms as pt")
    .innerJoin("terms as t", "t.id", "pt.term_id")
    .select("pt.product_id")
    .where("t.taxonomy", "=", taxonomy)
    .where("t.slug", "=", raw<string>`ANY(${slugs}::text[])`);
  if (mode === "any") return eb("p.id", "in", matching);
  if (mode === "none") return eb("p.id", "not in", matching);
  return eb(
    "p.id",
    "in",
    matching.groupBy("pt.product_id").having((h) => h.fn.count("t.slug").distinct(), "=", slugs.length),
  );
}

/** The listing's filters as one condition on `p`. */
const listingFilter =
  (q: ListingQuery) =>
  (eb: P): Expression<SqlBool> => {
    // A search lists what search results may show; a listing without one, what the catalogue lists (WooCommerce's
    // exclude-from-search / exclude-from-catalog, decided by is_search()).
    const where: Expression<SqlBool>[] = [listedIn(eb, q.search !== undefined ? "search" : "catalog")];
    if (q.categorySlug) {
      const slug = q.categorySlug;
      where.push(
        eb(
          "p.id",
          "in",
          eb
            .selectFrom("product_terms as pt")
            .innerJoin("terms as t", "t.id", "pt.term_id")
            .select("pt.product_id")
            .where("t.taxonomy", "=", PRODUCT_CAT)
            .where((w) =>
              w.or([
                w("t.slug", "=", slug),
                w("t.parent_id", "=", w.selectFrom("terms").select("id").where("taxonomy", "=", PRODUCT_CAT).where("slug", "=", slug)),
              ]),
            ),
        ),
      );
    }
    if (q.search !== undefined) where.push(searchCondition(eb, q.search));
    if (q.minPrice !== undefined) where.push(eb("p.price_max", ">=", q.minPrice));
    if (q.maxPrice !== undefined) where.push(eb("p.price_min", "<=", q.maxPrice));
    for (const [tax, slugs] of Object.entries(q.termsAll ?? {})) if (slugs.length) where.push(termCondition(eb, tax, slugs, "all"));
    for (const [tax, slugs] of Object.entries(q.termsAny ?? {})) if (slugs.length) where.push(termCondition(eb, tax, slugs, "any"));
    for (const [tax, slugs] of Object.entries(q.termsNone ?? {})) if (slugs.length) where.push(termCondition(eb, tax, slugs, "none"));
    return eb.and(where);
  };

/**
 * A search term's condition (docs/contract/storefront-search.md 'Matching'): the weighted document matches every
 * word, the last as a prefix, or the title contains the whole term. A term without words matches nothing.
 */
function searchCondition(eb: P, term: string): Expression<SqlBool> {
  const tsquery = prefixTsquery(searchWords(term));
  const conditions: Expression<SqlBool>[] = [];
  if (tsquery !== null) conditions.push(eb("p.search", "@@", raw<string>`to_tsquery('english', ${tsquery})`));
  // Only a term without words (punctuation, symbols) falls back to the title's substring: OR-ing it onto the
  // full-text match cost a third of the search at 50,000 products (bench/search.ts) for little.
  else if (Array.from(term).length >= MIN_SUBSTRING_LENGTH) conditions.push(eb("p.name", "ilike", likeContains(term)));
  return conditions.length ? eb.or(conditions) : raw<SqlBool>`false`;
}

/** A search's relevance: ts_rank over the weighted document (title A … descriptions D), then the id. */
function orderByRelevance<Q extends SelectQueryBuilder<DB & { p: DB["products"] }, "p", unknown>>(query: Q, term: string): Q {
  const tsquery = prefixTsquery(searchWords(term));
  const ranked = tsquery === null ? query : query.orderBy(raw`ts_rank(p.search, to_tsquery('english', ${tsquery}))`, "desc");
  return ranked.orderBy("p.total_sales", "desc").orderBy("p.id", "asc") as Q;
}

function orderFor<Q extends SelectQueryBuilder<DB & { p: DB["products"] }, "p", unknown>>(query: Q, q: ListingQuery): Q {
  return q.relevance && q.search !== undefined ? orderByRelevance(query, q.search) : orderListing(query, q.orderby);
}

/**
 * The listing's count, one page, and one page carrying the number of all matches (`total`), as queries (for tests
 * comparing query shapes and plans).
 */
export function listingQueries(db: Queryable, q: ListingQuery) {
  const b = sql(db);
  const filter = listingFilter(q);
  const count = b
    .selectFrom("products as p")
    .select(raw<number>`count(*)::int`.as("total"))
    .where(filter);
  // The page's ids first, on the sort index; the per-item columns (images, sale flag) only for those.
  const pageIds = orderFor(b.selectFrom("products as p").select("p.id").where(filter), q)
    .limit(q.perPage)
    .offset((q.page - 1) * q.perPage);
  const page = orderFor(b.selectFrom(pageIds.as("page")).innerJoin("products as p", "p.id", "page.id").select(summaryColumns), q);
  // A search ranks every match to find its page, so the same pass counts them (a window over the matches, before the
  // LIMIT) instead of a second scan of every match for the count.
  const countedIds = orderFor(
    b
      .selectFrom("products as p")
      .select(["p.id", raw<number>`(count(*) OVER ())::int`.as("total")])
      .where(filter),
    q,
  )
    .limit(q.perPage)
    .offset((q.page - 1) * q.perPage);
  const countedPage = orderFor(
    b.selectFrom(countedIds.as("page")).innerJoin("products as p", "p.id", "page.id").select(summaryColumns).select("page.total"),
    q,
  );
  return { count, page, countedPage };
}

/**
 * The number of matches when the triggers of 0029_catalog_counts.sql keep it: the whole shop, or a category without
 * subcategories, unfiltered. One row is read instead of every matching product; null when it must be counted.
 */
async function keptTotal(db: Queryable, q: ListingQuery): Promise<number | null> {
  const filtered =
    q.search !== undefined ||
    q.minPrice !== undefined ||
    q.maxPrice !== undefined ||
    [q.termsAll, q.termsAny, q.termsNone].some((terms) => Object.values(terms ?? {}).some((slugs) => slugs.length));
  if (filtered) return null;
  const b = sql(db);
  if (q.categorySlug === undefined) {
    const row = await b.selectFrom("catalog_counts").select("listed_products").executeTakeFirst();
    return row?.listed_products ?? null;
  }
  const row = await b
    .selectFrom("terms as t")
    .select((eb) => [
      "t.product_count",
      eb.exists(eb.selectFrom("terms as c").select(eb.lit(1).as("one")).whereRef("c.parent_id", "=", "t.id")).as("has_children"),
    ])
    .where("t.taxonomy", "=", PRODUCT_CAT)
    .where("t.slug", "=", q.categorySlug)
    .executeTakeFirst();
  if (!row) return 0;
  // An archive lists its subcategories' products too; a product in both would be counted twice by a sum.
  return row.has_children ? null : row.product_count;
}

/** One page of the listing and the number of all matches; `count: false` skips counting (total is then -1). */
export async function listProducts(db: Queryable, q: ListingQuery, opts: { count?: boolean } = {}): Promise<{ items: ProductSummary[]; total: number }> {
  const { count, page, countedPage } = listingQueries(db, q);
  if (opts.count === false) return { items: (await page.execute()).map(toSummary), total: -1 };
  if (q.relevance && q.search !== undefined) {
    const rows = await countedPage.execute();
    // A page past the end has no row to carry the total: count it then.
    const total = rows.length ? rows[0]!.total : ((await count.executeTakeFirst())?.total ?? 0);
    return { items: rows.map(toSummary), total };
  }
  const total = (await keptTotal(db, q)) ?? (await count.executeTakeFirst())?.total ?? 0;
  const rows = await page.execute();
  return { items: rows.map(toSummary), total };
}

/** The cheapest and dearest listed prices (cents), for the price slider's bounds; both read from an index. */
export async function priceBounds(db: Queryable): Promise<{ min: number; max: number }> {
  const row = await sql(db)
    .selectNoFrom((eb) => [
      eb
        .selectFrom("products as p")
        .select("p.price_min")
        .where((w) => listedIn(w, "catalog"))
        .where("p.price_min", "is not", null)
        .orderBy("p.price_min", "asc")
        .limit(raw.lit(1))
        .as("min"),
      eb
        .selectFrom("products as p")
        .select("p.price_max")
        .where((w) => listedIn(w, "catalog"))
        .where("p.price_max", "is not", null)
        .orderBy("p.price_max", "desc")
        .limit(raw.lit(1))
        .as("max"),
    ])
    .executeTakeFirst();
  return { min: row?.min ?? 0, max: row?.max ?? 0 };
}

/** The variations of the variable products on one listing page (swatches and variation buttons), one query. */
export async function variationsOfProducts(db: Queryable, productIds: number[], perProduct = 60): Promise<Map<number, ListingVariation[]>> {
  const result = new Map<number, ListingVariation[]>();
  if (!productIds.length) return result;
  const rows = await sql(db)
    .selectFrom(raw<{ pid: number }>`unnest(${productIds}::int[])`.as<"ids">(raw`ids(pid)`))
    .crossJoinLateral((eb) =>
      eb
        .selectFrom("variations as v")
        .selectAll("v")
        .whereRef("v.product_id", "=", "ids.pid")
        .where("v.status", "=", PUBLISH)
        .orderBy("v.menu_order")
        .orderBy("v.id")
        .limit(perProduct)
        .as("v"),
    )
    .select(["v.id", "v.product_id", "v.sku", "v.attributes", "v.regular_price", "v.sale_price", "v.stock_status"])
    .execute();
  for (const r of rows) {
    const list = result.get(r.product_id) ?? [];
    list.push({
      id: r.id,
      productId: r.product_id,
      sku: r.sku,
      attributes: r.attributes as Record<string, string>,
      regularPrice: r.regular_price,
      salePrice: r.sale_price,
      stockStatus: r.stock_status as StockStatus,
    });
    result.set(r.product_id, list);
  }
  return result;
}

/** A product's published variations with their images, in menu order. */
async function publishedVariations(db: Queryable, productId: number): Promise<VariationRecord[]> {
  const rows = await sql(db)
    .selectFrom("variations as v")
    .leftJoin("media as m", "m.id", "v.image_id")
    .select([
      "v.id",
      "v.sku",
      "v.attributes",
      "v.regular_price",
      "v.sale_price",
      "v.stock_quantity",
      "v.stock_status",
      "m.slug as image_slug",
      "m.alt as image_alt",
    ])
    .where("v.product_id", "=", productId)
    .where("v.status", "=", PUBLISH)
    .orderBy("v.menu_order")
    .orderBy("v.id")
    .execute();
  return rows.map((v) => ({
    id: v.id,
    sku: v.sku,
    attributes: v.attributes as Record<string, string>,
    regularPrice: v.regular_price,
    salePrice: v.sale_price,
    stockQuantity: v.stock_quantity,
    stockStatus: v.stock_status as StockStatus,
    imageSlug: v.image_slug,
    imageAlt: v.image_alt,
  }));
}

/** A variable product's published variations, for the on-demand variation lookup. */
export async function variationsOfProduct(
  db: Queryable,
  productId: number,
): Promise<{ product: { id: number; type: ProductType; name: string } | null; variations: VariationDetail[] }> {
  const product = await sql(db)
    .selectFrom("products")
    .select(["id", "type", "name"])
    .where("id", "=", productId)
    .where("status", "=", PUBLISH)
    .executeTakeFirst();
  if (!product) return { product: null, variations: [] };
  const variations = await publishedVariations(db, productId);
  return {
    product: { id: product.id, type: product.type as ProductType, name: product.name },
    variations: variations.map((v) => ({ ...v, productId })),
  };
}

/**
 * The published products among `ids`, in that order. `listed: "catalog"` keeps only those the catalogue lists (up-sells
 * and cross-sells, as WooCommerce filters them by visibility); without it, any published one (a grouped product's
 * children, a bundle's items, a product named by id: WooCommerce shows hidden children in their group).
 */
export async function productsByIds(db: Queryable, ids: number[], opts: { listed?: Listing } = {}): Promise<ProductSummary[]> {
  if (!ids.length) return [];
  const rows = await sql(db)
    .selectFrom("products as p")
    .select(summaryColumns)
    .where("p.id", "=", raw<number>`ANY(${ids}::int[])`)
    .where((eb) => (opts.listed ? listedIn(eb, opts.listed) : eb("p.status", "=", PUBLISH)))
    .execute();
  const byId = new Map(rows.map((r) => [r.id, toSummary(r)]));
  return ids.map((id) => byId.get(id)).filter((p): p is ProductSummary => p !== undefined);
}

export async function featuredProducts(db: Queryable, limit: number): Promise<ProductSummary[]> {
  const rows = await sql(db)
    .selectFrom("products as p")
    .select(summaryColumns)
    .where((eb) => listedIn(eb, "catalog"))
    .orderBy("p.featured", "desc")
    .orderBy("p.total_sales", "desc")
    .orderBy("p.id")
    .limit(limit)
    .execute();
  return rows.map(toSummary);
}

export async function listCategories(db: Queryable): Promise<Category[]> {
  // The listed products of each category, kept by triggers (0029_catalog_counts.sql, 0031): no product is read.
  return sql(db)
    .selectFrom("terms as t")
    .select(["t.id", "t.slug", "t.name", "t.description", "t.product_count as count"])
    .where("t.taxonomy", "=", PRODUCT_CAT)
    .orderBy("t.menu_order")
    .orderBy("t.name")
    .execute();
}

/** Each product's terms of one taxonomy (categories, tags), in menu order; for the Store API's product shape. */
export async function termsOfProducts(
  db: Queryable,
  taxonomy: "product_cat" | "product_tag",
  productIds: number[],
): Promise<Map<number, { id: number; name: string; slug: string }[]>> {
  const out = new Map<number, { id: number; name: string; slug: string }[]>();
  if (!productIds.length) return out;
  const rows = await sql(db)
    .selectFrom("product_terms as pt")
    .innerJoin("terms as t", "t.id", "pt.term_id")
    .select(["pt.product_id", "t.id", "t.name", "t.slug"])
    .where("pt.product_id", "=", raw<number>`ANY(${productIds}::int[])`)
    .where("t.taxonomy", "=", taxonomy)
    .orderBy("t.menu_order")
    .orderBy("t.name")
    .execute();
  for (const r of rows) (out.get(r.product_id) ?? out.set(r.product_id, []).get(r.product_id)!).push({ id: r.id, name: r.name, slug: r.slug });
  return out;
}

export async function findCategory(db: Queryable, slug: string): Promise<Category | null> {
  const row = await sql(db)
    .selectFrom("terms")
    .select(["id", "slug", "name", "description", raw<number>`0`.as("count")])
    .where("taxonomy", "=", PRODUCT_CAT)
    .where("slug", "=", slug)
    .executeTakeFirst();
  return row ?? null;
}

export async function termsOf(db: Queryable, taxonomies: string[]): Promise<Term[]> {
  const rows = await sql(db)
    .selectFrom("terms")
    .select(["id", "taxonomy", "slug", "name", "meta"])
    .where("taxonomy", "=", raw<string>`ANY(${taxonomies}::text[])`)
    .orderBy("taxonomy")
    .orderBy("menu_order")
    .orderBy("name")
    .execute();
  return rows.map((r) => ({ ...r, meta: r.meta as Term["meta"] }));
}

type DetailRow = SummaryRow & { description: string; attributes: unknown; status: string };

export async function findProductBySlug(db: Queryable, slug: string): Promise<ProductDetail | null> {
  const row = await sql(db)
    .selectFrom("products as p")
    .select(summaryColumns)
    .select(["p.description", "p.attributes", "p.status"])
    .where("p.slug", "=", slug)
    .where("p.status", "=", PUBLISH)
    .executeTakeFirst();
  if (!row) return null;
  return loadDetail(db, row);
}

async function loadDetail(db: Queryable, row: DetailRow): Promise<ProductDetail> {
  const b = sql(db);
  const [variations, terms, links] = await Promise.all([
    publishedVariations(db, row.id),
    b
      .selectFrom("product_terms as pt")
      .innerJoin("terms as t", "t.id", "pt.term_id")
      .select(["t.taxonomy", "t.slug", "t.name"])
      .where("pt.product_id", "=", row.id)
      .where("t.taxonomy", "in", [raw.lit("product_cat"), raw.lit("product_tag")])
      .orderBy("t.menu_order")
      .orderBy("t.name")
      .execute(),
    b.selectFrom("product_links").select(["kind", "linked_id"]).where("product_id", "=", row.id).orderBy("kind").orderBy("position").execute(),
  ]);
  const linkMap: ProductDetail["links"] = { upsell: [], cross_sell: [], grouped_child: [], bundled: [] };
  for (const l of links) linkMap[l.kind as keyof ProductDetail["links"]].push(l.linked_id);
  return {
    ...toSummary(row),
    description: row.description,
    attributes: (row.attributes as ProductDetail["attributes"] | null) ?? [],
    status: row.status,
    variations,
    categories: terms.filter((t) => t.taxonomy === "product_cat"),
    tags: terms.filter((t) => t.taxonomy === "product_tag"),
    links: linkMap,
  };
}

/** Published blog posts (not pages, migration 0021) joined to their image's slug. */
const publishedPosts = (db: Queryable) =>
  sql(db)
    .selectFrom("posts as p")
    .leftJoin("media as m", "m.id", "p.image_id")
    .select(["p.id", "p.slug", "p.title", "p.excerpt", "p.author", "p.published_at", "m.slug as image_slug"])
    .where("p.status", "=", PUBLISH)
    .where("p.type", "=", "post");

const toPost = (r: {
  id: number;
  slug: string;
  title: string;
  excerpt: string;
  author: string;
  published_at: Date;
  image_slug: string | null;
}): PostSummary => ({
  id: r.id,
  slug: r.slug,
  title: r.title,
  excerpt: r.excerpt,
  author: r.author,
  publishedAt: new Date(r.published_at).toISOString(),
  imageSlug: r.image_slug,
});

export async function listPosts(db: Queryable, page: number, perPage: number): Promise<{ items: PostSummary[]; total: number }> {
  const count = await sql(db)
    .selectFrom("posts")
    .select(raw<number>`count(*)::int`.as("total"))
    .where("status", "=", PUBLISH)
    .where("type", "=", "post")
    .executeTakeFirst();
  const rows = await publishedPosts(db)
    .orderBy("p.published_at", "desc")
    .orderBy("p.id", "desc")
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  return { total: count?.total ?? 0, items: rows.map(toPost) };
}

export async function findPost(db: Queryable, slug: string): Promise<(PostSummary & { content: string }) | null> {
  const r = await publishedPosts(db).select("p.content").where("p.slug", "=", slug).executeTakeFirst();
  return r ? { ...toPost(r), content: r.content } : null;
}

/** The best sellers (total_sales) the catalogue lists, what a search without results offers instead (docs/contract/storefront-search.md). */
export async function popularProducts(db: Queryable, limit: number): Promise<ProductSummary[]> {
  const rows = await sql(db)
    .selectFrom("products as p")
    .select(summaryColumns)
    .where((eb) => listedIn(eb, "catalog"))
    .orderBy("p.total_sales", "desc")
    .orderBy("p.id")
    .limit(limit)
    .execute();
  return rows.map(toSummary);
}
