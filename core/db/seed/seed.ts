/**
 * Seeds the demo catalogue once, on the first start of an empty database, in one
 * transaction: a crash half-way leaves nothing and the next start tries again.
 */
import type { Db, Queryable } from "../client.ts";
import { renderProductSvg, PRODUCT_IMAGE_SIZE } from "../../domain/media/product-image.ts";
import { demoCatalogue, demoTerms, type DemoImage, type DemoProduct } from "./demo-catalogue.ts";
import { saveCoupon, saveRule, saveShippingMethod } from "../repositories/discounts.ts";
import { DEMO_COUPONS, DEMO_SHIPPING_METHODS, demoDiscountRules } from "./demo-discounts.ts";

const SEEDED_KEY = "demo_seeded";

export async function seedDemoData(db: Db, now = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    // Whoever inserts the marker first seeds; a second process sees it and skips.
    const claimed = await tx.query(
      `INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING key`,
      [SEEDED_KEY, JSON.stringify({ at: now.toISOString() })],
    );
    if (claimed.length === 0) return false;
    await insertCatalogue(tx, now);
    await insertDiscounts(tx);
    return true;
  });
}

async function insertImage(tx: Queryable, img: DemoImage): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO media (slug, mime, body, alt, width, height) VALUES ($1, 'image/svg+xml', $2, $3, $4, $4)
     ON CONFLICT (slug) DO UPDATE SET alt = EXCLUDED.alt RETURNING id`,
    [img.slug, renderProductSvg({ shape: img.shape, color: img.color, view: img.view }), img.alt, PRODUCT_IMAGE_SIZE],
  );
  return row!.id;
}

function effective(regular?: number, sale?: number): number | undefined {
  return sale !== undefined && regular !== undefined && sale < regular ? sale : regular;
}

function priceRange(p: DemoProduct, bySlug: Map<string, DemoProduct>): [number | null, number | null] {
  const prices: number[] = [];
  if (p.type === "variable") {
    for (const v of p.variations) prices.push(effective(v.regularPrice, v.salePrice)!);
  } else if (p.type === "grouped") {
    for (const slug of p.groupedChildren) {
      const child = bySlug.get(slug);
      const price = child && effective(child.regularPrice, child.salePrice);
      if (price !== undefined) prices.push(price);
    }
  } else if (p.type === "downloadable" && p.details.priceMode === "multi") {
    for (const option of p.details.prices as { amount: number }[]) prices.push(option.amount);
  } else if (p.type === "bundle") {
    let required = p.regularPrice ?? 0;
    for (const item of p.details.bundledItems as { product: string; quantity: number; optional: boolean; discountPercent: number }[]) {
      const child = bySlug.get(item.product);
      const unit = (child && effective(child.regularPrice, child.salePrice)) ?? 0;
      if (!item.optional) required += Math.round((unit * (100 - item.discountPercent)) / 100) * item.quantity;
    }
    prices.push(required);
  } else {
    const price = effective(p.regularPrice, p.salePrice);
    if (price !== undefined) prices.push(price);
  }
  return prices.length ? [Math.min(...prices), Math.max(...prices)] : [null, null];
}

async function insertCatalogue(tx: Queryable, now: Date): Promise<void> {
  const termIds = new Map<string, number>();
  for (const term of demoTerms()) {
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO terms (taxonomy, slug, name, description, menu_order, meta) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [term.taxonomy, term.slug, term.name, term.description ?? "", term.menuOrder ?? 0, JSON.stringify(term.color ? { color: term.color } : {})],
    );
    termIds.set(`${term.taxonomy}:${term.slug}`, row!.id);
  }

  const { products, posts } = demoCatalogue();
  const bySlug = new Map(products.map((p) => [p.slug, p]));
  const productIds = new Map<string, number>();
  const day = 86_400_000;

  for (const p of products) {
    const imageIds: number[] = [];
    for (const img of p.images) imageIds.push(await insertImage(tx, img));
    const [min, max] = priceRange(p, bySlug);
    const variationStock = p.variations.some((v) => v.stock === null || v.stock > 0);
    const inStock = p.type === "variable" ? variationStock : p.stock === null || p.stock > 0;
    const ratings = p.reviews.map((r) => r.rating);
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO products (type, slug, name, sku, status, short_description, description, regular_price, sale_price,
         price_min, price_max, stock_quantity, stock_status, menu_order, featured, image_ids, attributes, details,
         total_sales, rating_average, rating_count, created_at)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22) RETURNING id`,
      [
        p.type, p.slug, p.name, p.sku, (p.details.status as string) ?? "publish", p.shortDescription, p.description,
        p.regularPrice ?? null, p.salePrice ?? null, min, max, p.type === "variable" ? null : p.stock,
        inStock ? "instock" : "outofstock", p.menuOrder, p.featured, imageIds, JSON.stringify(p.attributes),
        JSON.stringify(p.details), p.totalSales,
        ratings.length ? ratings.reduce((a, b) => a + b, 0) / ratings.length : 0, ratings.length,
        new Date(now.getTime() - p.daysOld * day),
      ],
    );
    const id = row!.id;
    productIds.set(p.slug, id);

    const terms = [
      ...p.categories.map((c) => `product_cat:${c}`),
      ...p.tags.map((t) => `product_tag:${t}`),
      ...p.attributes.flatMap((a) => a.options.map((o) => `${a.name}:${o}`)),
    ];
    for (const key of terms) {
      const termId = termIds.get(key);
      if (termId === undefined) throw new Error(`demo data names an unknown term ${key}`);
      await tx.query(`INSERT INTO product_terms (product_id, term_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [id, termId]);
    }
    for (const [k, v] of p.variations.entries()) {
      const imageId = await insertImage(tx, v.image);
      await tx.query(
        `INSERT INTO variations (product_id, sku, attributes, regular_price, sale_price, stock_quantity, stock_status, image_id, menu_order)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)`,
        [id, v.sku, JSON.stringify(v.attributes), v.regularPrice, v.salePrice ?? null, v.stock, v.stock === 0 ? "outofstock" : "instock", imageId, k],
      );
    }
    for (const r of p.reviews) {
      await tx.query(`INSERT INTO reviews (product_id, author, rating, content) VALUES ($1,$2,$3,$4)`, [id, r.author, r.rating, r.content]);
    }
  }

  // Links need every product id first.
  for (const p of products) {
    const id = productIds.get(p.slug)!;
    const links: [string[], string][] = [
      [p.upsells, "upsell"],
      [p.crossSells, "cross_sell"],
      [p.groupedChildren, "grouped_child"],
      [((p.details.bundledItems as { product: string }[] | undefined) ?? []).map((b) => b.product), "bundled"],
    ];
    for (const [slugs, kind] of links) {
      for (const [position, slug] of slugs.entries()) {
        const linked = productIds.get(slug);
        if (linked === undefined) throw new Error(`demo data links ${p.slug} to unknown ${slug}`);
        await tx.query(`INSERT INTO product_links (product_id, linked_id, kind, position) VALUES ($1,$2,$3,$4) ON CONFLICT DO NOTHING`, [id, linked, kind, position]);
      }
    }
  }

  for (const post of posts) {
    const imageId = await insertImage(tx, post.image);
    await tx.query(
      `INSERT INTO posts (slug, title, excerpt, content, author, image_id, published_at) VALUES ($1,$2,$3,$4,$5,$6,$7)`,
      [post.slug, post.title, post.excerpt, post.content, post.author, imageId, new Date(now.getTime() - post.daysOld * day)],
    );
  }
}

/** The spec's mask promotion and one demo rule of each other kind, a few demo coupons and the shipping methods. */
async function insertDiscounts(tx: Queryable): Promise<void> {
  const products = await tx.query<{ id: number; slug: string }>(`SELECT id, slug FROM products`);
  const idBySlug = new Map(products.map((p) => [p.slug, p.id]));
  const productId = (slug: string): number => {
    const id = idBySlug.get(slug);
    if (id === undefined) throw new Error(`demo discount rules name an unknown product ${slug}`);
    return id;
  };
  const variations = await tx.query<{ id: number; product_id: number }>(
    `SELECT id, product_id FROM variations WHERE stock_status = 'instock' AND status = 'publish' ORDER BY product_id, menu_order, id`,
  );
  const inStockVariationIds = (slug: string): number[] => {
    const parent = productId(slug);
    return variations.filter((v) => v.product_id === parent).map((v) => v.id);
  };
  for (const rule of demoDiscountRules({ productId, inStockVariationIds })) await saveRule(tx, rule);
  for (const coupon of DEMO_COUPONS) await saveCoupon(tx, coupon);
  for (const [i, method] of DEMO_SHIPPING_METHODS.entries()) await saveShippingMethod(tx, method, i);
}

/**
 * Adds `count` generated simple products (for benchmarks and load tests), in SQL,
 * so 50,000 products take seconds, not minutes. Idempotent per count.
 */
export async function seedBulkProducts(db: Db, count: number): Promise<number> {
  const [existing] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM products WHERE slug LIKE 'bulk-%'`);
  const have = existing?.n ?? 0;
  if (have >= count) return 0;
  await db.transaction(async (tx) => {
    const [img] = await tx.query<{ id: number }>(`SELECT id FROM media ORDER BY id LIMIT 1`);
    await tx.query(
      `INSERT INTO products (type, slug, name, sku, short_description, regular_price, sale_price, price_min, price_max,
         stock_quantity, stock_status, menu_order, image_ids, total_sales, rating_average, rating_count, created_at)
       SELECT 'simple', 'bulk-' || g, 'Bulk Product ' || g, 'BULK-' || g, 'Generated product number ' || g,
         (100 + (g * 37) % 9900), CASE WHEN g % 5 = 0 THEN (100 + (g * 37) % 9900) - 50 END,
         (100 + (g * 37) % 9900) - CASE WHEN g % 5 = 0 THEN 50 ELSE 0 END,
         (100 + (g * 37) % 9900) - CASE WHEN g % 5 = 0 THEN 50 ELSE 0 END,
         (g * 13) % 50, CASE WHEN (g * 13) % 50 = 0 THEN 'outofstock' ELSE 'instock' END,
         1000 + g, ARRAY[$3::int], (g * 7) % 1000, ((g * 11) % 50) / 10.0, (g * 3) % 20, now() - (g || ' minutes')::interval
       FROM generate_series($1::int, $2::int) AS g`,
      [have + 1, count, img?.id ?? 1],
    );
    // Spread them over the categories and colours so filters and archives have work to do.
    await tx.query(
      `INSERT INTO product_terms (product_id, term_id)
       SELECT p.id, t.id FROM products p
       JOIN LATERAL (SELECT id FROM terms WHERE taxonomy = 'product_cat' ORDER BY id OFFSET (p.id % 7) LIMIT 1) t ON true
       WHERE p.slug LIKE 'bulk-%' AND NOT EXISTS (SELECT 1 FROM product_terms pt WHERE pt.product_id = p.id)`,
    );
    await tx.query(
      `INSERT INTO product_terms (product_id, term_id)
       SELECT p.id, t.id FROM products p
       JOIN LATERAL (SELECT id FROM terms WHERE taxonomy = 'pa_color' ORDER BY id OFFSET (p.id % 8) LIMIT 1) t ON true
       WHERE p.slug LIKE 'bulk-%' ON CONFLICT DO NOTHING`,
    );
  });
  await db.exec("ANALYZE");
  return count - have;
}
