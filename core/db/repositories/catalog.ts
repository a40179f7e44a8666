/**
 * Catalogue reads for pages and endpoints. Listings are filtered, sorted and
 * paginated in SQL on indexed columns, never in memory.
 */
import type { Queryable } from "../client.ts";

export type ProductType = "simple" | "variable" | "grouped" | "bundle" | "external" | "downloadable";
export type ListingOrder = "menu_order" | "popularity" | "rating" | "date" | "price" | "price-desc";


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
  stockStatus: "instock" | "outofstock" | "onbackorder";
  stockQuantity: number | null;
  ratingAverage: number;
  ratingCount: number;
  imageSlugs: string[];
  imageAlts: string[];
  onSale: boolean;
  details: Record<string, unknown>;
}

export interface ListingQuery {
  categorySlug?: string;
  search?: string;
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

const ORDER_SQL: Record<ListingOrder, string> = {
  menu_order: "p.menu_order ASC, p.name ASC, p.id ASC",
  popularity: "p.total_sales DESC, p.id DESC",
  rating: "p.rating_average DESC, p.rating_count DESC, p.id DESC",
  date: "p.created_at DESC, p.id DESC",
  price: "p.price_min ASC NULLS LAST, p.id ASC",
  "price-desc": "p.price_max DESC NULLS LAST, p.id DESC",
};

const SUMMARY_COLUMNS = `p.id, p.type, p.slug, p.name, p.sku, p.short_description, p.regular_price, p.sale_price, p.price_min, p.price_max,
  p.stock_status, p.stock_quantity, p.rating_average, p.rating_count, p.details,
  (SELECT coalesce(array_agg(m.slug ORDER BY ord), '{}') FROM unnest(p.image_ids) WITH ORDINALITY AS u(mid, ord) JOIN media m ON m.id = u.mid) AS image_slugs,
  (SELECT coalesce(array_agg(m.alt ORDER BY ord), '{}') FROM unnest(p.image_ids) WITH ORDINALITY AS u(mid, ord) JOIN media m ON m.id = u.mid) AS image_alts,
  (p.sale_price IS NOT NULL AND p.sale_price < p.regular_price
    OR (p.type = 'variable' AND EXISTS (SELECT 1 FROM variations v WHERE v.product_id = p.id AND v.sale_price < v.regular_price))) AS on_sale`;

interface SummaryRow {
  id: number;
  type: ProductType;
  slug: string;
  name: string;
  sku: string | null;
  short_description: string;
  regular_price: number | null;
  sale_price: number | null;
  price_min: number | null;
  price_max: number | null;
  stock_status: ProductSummary["stockStatus"];
  stock_quantity: number | null;
  rating_average: number | string;
  rating_count: number;
  details: Record<string, unknown>;
  image_slugs: string[];
  image_alts: string[];
  on_sale: boolean;
}

const toSummary = (r: SummaryRow): ProductSummary => ({
  id: r.id,
  type: r.type,
  slug: r.slug,
  name: r.name,
  sku: r.sku,
  shortDescription: r.short_description,
  regularPrice: r.regular_price,
  salePrice: r.sale_price,
  priceMin: r.price_min,
  priceMax: r.price_max,
  stockStatus: r.stock_status,
  stockQuantity: r.stock_quantity,
  ratingAverage: Number(r.rating_average),
  ratingCount: r.rating_count,
  imageSlugs: r.image_slugs ?? [],
  imageAlts: r.image_alts ?? [],
  onSale: Boolean(r.on_sale),
  details: r.details ?? {},
});

function termCondition(args: unknown[], taxonomy: string, slugs: string[], mode: "all" | "any" | "none"): string {
  args.push(taxonomy, slugs);
  const tax = `$${args.length - 1}`;
  const list = `$${args.length}::text[]`;
  const matching = `SELECT pt.product_id FROM product_terms pt JOIN terms t ON t.id = pt.term_id WHERE t.taxonomy = ${tax} AND t.slug = ANY(${list})`;
  if (mode === "any") return `p.id IN (${matching})`;
  if (mode === "none") return `p.id NOT IN (${matching})`;
  args.push(slugs.length);
  return `p.id IN (${matching} GROUP BY pt.product_id HAVING count(DISTINCT t.slug) = $${args.length})`;
}

export async function listProducts(db: Queryable, q: ListingQuery): Promise<{ items: ProductSummary[]; total: number }> {
  const args: unknown[] = [];
  const where = ["p.status = 'publish'"];
  if (q.categorySlug) {
    args.push(q.categorySlug);
    where.push(`p.id IN (SELECT pt.product_id FROM product_terms pt JOIN terms t ON t.id = pt.term_id
      WHERE t.taxonomy = 'product_cat' AND (t.slug = $${args.length} OR t.parent_id = (SELECT id FROM terms WHERE taxonomy = 'product_cat' AND slug = $${args.length})))`);
  }
  if (q.search) {
    args.push(q.search);
    where.push(`(p.search @@ plainto_tsquery('english', $${args.length}) OR p.name ILIKE '%' || $${args.length} || '%')`);
  }
  if (q.minPrice !== undefined) {
    args.push(q.minPrice);
    where.push(`p.price_max >= $${args.length}`);
  }
  if (q.maxPrice !== undefined) {
    args.push(q.maxPrice);
    where.push(`p.price_min <= $${args.length}`);
  }
  for (const [tax, slugs] of Object.entries(q.termsAll ?? {})) if (slugs.length) where.push(termCondition(args, tax, slugs, "all"));
  for (const [tax, slugs] of Object.entries(q.termsAny ?? {})) if (slugs.length) where.push(termCondition(args, tax, slugs, "any"));
  for (const [tax, slugs] of Object.entries(q.termsNone ?? {})) if (slugs.length) where.push(termCondition(args, tax, slugs, "none"));

  const whereSql = where.join(" AND ");
  const [countRow] = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM products p WHERE ${whereSql}`, args);
  args.push(q.perPage, (q.page - 1) * q.perPage);
  // The page's ids first, on the sort index; the per-item columns (images, sale flag) only for those.
  const rows = await db.query<SummaryRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM (SELECT p.id FROM products p WHERE ${whereSql} ORDER BY ${ORDER_SQL[q.orderby]} LIMIT $${args.length - 1} OFFSET $${args.length}) AS page
     JOIN products p ON p.id = page.id ORDER BY ${ORDER_SQL[q.orderby]}`,
    args,
  );
  return { items: rows.map(toSummary), total: countRow?.total ?? 0 };
}

/** The cheapest and dearest listed prices (cents), for the price slider's bounds; both read from an index. */
export async function priceBounds(db: Queryable): Promise<{ min: number; max: number }> {
  const [row] = await db.query<{ min: number | null; max: number | null }>(
    `SELECT (SELECT price_min FROM products WHERE status = 'publish' AND price_min IS NOT NULL ORDER BY price_min ASC LIMIT 1) AS min,
            (SELECT price_max FROM products WHERE status = 'publish' AND price_max IS NOT NULL ORDER BY price_max DESC LIMIT 1) AS max`,
  );
  return { min: row?.min ?? 0, max: row?.max ?? 0 };
}

export interface ListingVariation {
  id: number;
  productId: number;
  sku: string | null;
  attributes: Record<string, string>;
  regularPrice: number;
  salePrice: number | null;
  stockStatus: "instock" | "outofstock" | "onbackorder";
}

/** The variations of the variable products on one listing page (swatches and variation buttons), one query. */
export async function variationsOfProducts(db: Queryable, productIds: number[], perProduct = 60): Promise<Map<number, ListingVariation[]>> {
  const result = new Map<number, ListingVariation[]>();
  if (!productIds.length) return result;
  const rows = await db.query<{ id: number; product_id: number; sku: string | null; attributes: Record<string, string>; regular_price: number; sale_price: number | null; stock_status: ListingVariation["stockStatus"] }>(
    `SELECT v.id, v.product_id, v.sku, v.attributes, v.regular_price, v.sale_price, v.stock_status
     FROM unnest($1::int[]) AS ids(pid)
     CROSS JOIN LATERAL (SELECT * FROM variations v WHERE v.product_id = ids.pid AND v.status = 'publish' ORDER BY v.menu_order, v.id LIMIT $2) v`,
    [productIds, perProduct],
  );
  for (const r of rows) {
    const list = result.get(r.product_id) ?? [];
    list.push({ id: r.id, productId: r.product_id, sku: r.sku, attributes: r.attributes, regularPrice: r.regular_price, salePrice: r.sale_price, stockStatus: r.stock_status });
    result.set(r.product_id, list);
  }
  return result;
}

export interface VariationDetail extends VariationRecord {
  productId: number;
}

/** A variable product's published variations, for the on-demand variation lookup. */
export async function variationsOfProduct(db: Queryable, productId: number): Promise<{ product: { id: number; type: ProductType; name: string } | null; variations: VariationDetail[] }> {
  const [product] = await db.query<{ id: number; type: ProductType; name: string }>(`SELECT id, type, name FROM products WHERE id = $1 AND status = 'publish'`, [productId]);
  if (!product) return { product: null, variations: [] };
  const rows = await db.query<{ id: number; sku: string | null; attributes: Record<string, string>; regular_price: number; sale_price: number | null; stock_quantity: number | null; stock_status: VariationRecord["stockStatus"]; image_slug: string | null; image_alt: string | null }>(
    `SELECT v.id, v.sku, v.attributes, v.regular_price, v.sale_price, v.stock_quantity, v.stock_status, m.slug AS image_slug, m.alt AS image_alt
     FROM variations v LEFT JOIN media m ON m.id = v.image_id WHERE v.product_id = $1 AND v.status = 'publish' ORDER BY v.menu_order, v.id`,
    [productId],
  );
  return {
    product,
    variations: rows.map((v) => ({
      id: v.id,
      productId,
      sku: v.sku,
      attributes: v.attributes,
      regularPrice: v.regular_price,
      salePrice: v.sale_price,
      stockQuantity: v.stock_quantity,
      stockStatus: v.stock_status,
      imageSlug: v.image_slug,
      imageAlt: v.image_alt,
    })),
  };
}

export async function productsByIds(db: Queryable, ids: number[]): Promise<ProductSummary[]> {
  if (!ids.length) return [];
  const rows = await db.query<SummaryRow>(`SELECT ${SUMMARY_COLUMNS} FROM products p WHERE p.id = ANY($1::int[]) AND p.status = 'publish'`, [ids]);
  const byId = new Map(rows.map((r) => [r.id, toSummary(r)]));
  return ids.map((id) => byId.get(id)).filter((p): p is ProductSummary => p !== undefined);
}

export async function featuredProducts(db: Queryable, limit: number): Promise<ProductSummary[]> {
  const rows = await db.query<SummaryRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM products p WHERE p.status = 'publish' ORDER BY p.featured DESC, p.total_sales DESC, p.id LIMIT $1`,
    [limit],
  );
  return rows.map(toSummary);
}

export interface Category {
  id: number;
  slug: string;
  name: string;
  description: string;
  count: number;
}

export async function listCategories(db: Queryable): Promise<Category[]> {
  // One pass over the category links; unpublished products (few) are removed by an anti-join on
  // their partial index (0006), rather than reading every product once per category.
  return db.query<Category>(
    `SELECT t.id, t.slug, t.name, t.description, coalesce(c.n, 0)::int AS count
     FROM terms t
     LEFT JOIN (
       SELECT pt.term_id, count(*) AS n FROM product_terms pt
       WHERE pt.term_id IN (SELECT id FROM terms WHERE taxonomy = 'product_cat')
         AND NOT EXISTS (SELECT 1 FROM products p WHERE p.id = pt.product_id AND p.status <> 'publish')
       GROUP BY pt.term_id
     ) c ON c.term_id = t.id
     WHERE t.taxonomy = 'product_cat' ORDER BY t.menu_order, t.name`,
  );
}

/**
 * The categories without their product counts, for navigation (the header and footer need only
 * names and links). The counts read every category link, which grows with the catalogue.
 */
export async function listCategoryLinks(db: Queryable): Promise<Pick<Category, "id" | "slug" | "name">[]> {
  return db.query<Pick<Category, "id" | "slug" | "name">>(`SELECT id, slug, name FROM terms WHERE taxonomy = 'product_cat' ORDER BY menu_order, name`);
}

export async function findCategory(db: Queryable, slug: string): Promise<Category | null> {
  const [row] = await db.query<Category>(`SELECT id, slug, name, description, 0 AS count FROM terms WHERE taxonomy = 'product_cat' AND slug = $1`, [slug]);
  return row ?? null;
}

export interface Term {
  id: number;
  taxonomy: string;
  slug: string;
  name: string;
  meta: { color?: string };
}

export async function termsOf(db: Queryable, taxonomies: string[]): Promise<Term[]> {
  return db.query<Term>(`SELECT id, taxonomy, slug, name, meta FROM terms WHERE taxonomy = ANY($1::text[]) ORDER BY taxonomy, menu_order, name`, [taxonomies]);
}

export interface VariationRecord {
  id: number;
  sku: string | null;
  attributes: Record<string, string>;
  regularPrice: number;
  salePrice: number | null;
  stockQuantity: number | null;
  stockStatus: "instock" | "outofstock" | "onbackorder";
  imageSlug: string | null;
  imageAlt: string | null;
}

export interface ProductDetail extends ProductSummary {
  description: string;
  attributes: { name: string; label: string; options: string[]; variation: boolean }[];
  variations: VariationRecord[];
  categories: { slug: string; name: string }[];
  tags: { slug: string; name: string }[];
  links: { upsell: number[]; cross_sell: number[]; grouped_child: number[]; bundled: number[] };
  reviews: { author: string; rating: number; content: string; createdAt: string }[];
  status: string;
}

export async function findProductBySlug(db: Queryable, slug: string): Promise<ProductDetail | null> {
  const [row] = await db.query<SummaryRow & { description: string; attributes: ProductDetail["attributes"]; status: string }>(
    `SELECT ${SUMMARY_COLUMNS}, p.description, p.attributes, p.status FROM products p WHERE p.slug = $1 AND p.status = 'publish'`,
    [slug],
  );
  if (!row) return null;
  return loadDetail(db, row);
}

export async function findProductById(db: Queryable, id: number): Promise<ProductDetail | null> {
  const [row] = await db.query<SummaryRow & { description: string; attributes: ProductDetail["attributes"]; status: string }>(
    `SELECT ${SUMMARY_COLUMNS}, p.description, p.attributes, p.status FROM products p WHERE p.id = $1`,
    [id],
  );
  if (!row) return null;
  return loadDetail(db, row);
}

async function loadDetail(db: Queryable, row: SummaryRow & { description: string; attributes: ProductDetail["attributes"]; status: string }): Promise<ProductDetail> {
  const [variations, terms, links, reviews] = await Promise.all([
    db.query<{ id: number; sku: string | null; attributes: Record<string, string>; regular_price: number; sale_price: number | null; stock_quantity: number | null; stock_status: VariationRecord["stockStatus"]; image_slug: string | null; image_alt: string | null }>(
      `SELECT v.id, v.sku, v.attributes, v.regular_price, v.sale_price, v.stock_quantity, v.stock_status, m.slug AS image_slug, m.alt AS image_alt
       FROM variations v LEFT JOIN media m ON m.id = v.image_id WHERE v.product_id = $1 AND v.status = 'publish' ORDER BY v.menu_order, v.id`,
      [row.id],
    ),
    db.query<{ taxonomy: string; slug: string; name: string }>(
      `SELECT t.taxonomy, t.slug, t.name FROM product_terms pt JOIN terms t ON t.id = pt.term_id WHERE pt.product_id = $1 AND t.taxonomy IN ('product_cat', 'product_tag') ORDER BY t.menu_order, t.name`,
      [row.id],
    ),
    db.query<{ kind: keyof ProductDetail["links"]; linked_id: number }>(`SELECT kind, linked_id FROM product_links WHERE product_id = $1 ORDER BY kind, position`, [row.id]),
    db.query<{ author: string; rating: number; content: string; created_at: Date }>(
      `SELECT author, rating, content, created_at FROM reviews WHERE product_id = $1 AND approved ORDER BY created_at DESC LIMIT 20`,
      [row.id],
    ),
  ]);
  const linkMap: ProductDetail["links"] = { upsell: [], cross_sell: [], grouped_child: [], bundled: [] };
  for (const l of links) linkMap[l.kind].push(l.linked_id);
  return {
    ...toSummary(row),
    description: row.description,
    attributes: row.attributes ?? [],
    status: row.status,
    variations: variations.map((v) => ({
      id: v.id,
      sku: v.sku,
      attributes: v.attributes,
      regularPrice: v.regular_price,
      salePrice: v.sale_price,
      stockQuantity: v.stock_quantity,
      stockStatus: v.stock_status,
      imageSlug: v.image_slug,
      imageAlt: v.image_alt,
    })),
    categories: terms.filter((t) => t.taxonomy === "product_cat"),
    tags: terms.filter((t) => t.taxonomy === "product_tag"),
    links: linkMap,
    reviews: reviews.map((r) => ({ author: r.author, rating: r.rating, content: r.content, createdAt: new Date(r.created_at).toISOString() })),
  };
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

export async function listPosts(db: Queryable, page: number, perPage: number): Promise<{ items: PostSummary[]; total: number }> {
  const [count] = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM posts WHERE status = 'publish'`);
  const rows = await db.query<{ id: number; slug: string; title: string; excerpt: string; author: string; published_at: Date; image_slug: string | null }>(
    `SELECT p.id, p.slug, p.title, p.excerpt, p.author, p.published_at, m.slug AS image_slug FROM posts p LEFT JOIN media m ON m.id = p.image_id
     WHERE p.status = 'publish' ORDER BY p.published_at DESC, p.id DESC LIMIT $1 OFFSET $2`,
    [perPage, (page - 1) * perPage],
  );
  return {
    total: count?.total ?? 0,
    items: rows.map((r) => ({ id: r.id, slug: r.slug, title: r.title, excerpt: r.excerpt, author: r.author, publishedAt: new Date(r.published_at).toISOString(), imageSlug: r.image_slug })),
  };
}

export async function findPost(db: Queryable, slug: string): Promise<(PostSummary & { content: string }) | null> {
  const [r] = await db.query<{ id: number; slug: string; title: string; excerpt: string; author: string; published_at: Date; image_slug: string | null; content: string }>(
    `SELECT p.id, p.slug, p.title, p.excerpt, p.author, p.published_at, p.content, m.slug AS image_slug FROM posts p LEFT JOIN media m ON m.id = p.image_id WHERE p.slug = $1 AND p.status = 'publish'`,
    [slug],
  );
  return r ? { id: r.id, slug: r.slug, title: r.title, excerpt: r.excerpt, author: r.author, publishedAt: new Date(r.published_at).toISOString(), imageSlug: r.image_slug, content: r.content } : null;
}
