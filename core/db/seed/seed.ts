/**
 * Seeds the demo catalogue once, on the first start of an empty database, in one
 * transaction: a crash half-way leaves nothing and the next start tries again.
 */
import type { Db, Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";
import { bundleModel, bundlePrice, storedBundledItems } from "../../domain/catalog/product-kinds.ts";
import { renderProductSvg, PRODUCT_IMAGE_SIZE } from "../../domain/media/product-image.ts";
import { DEMO_ATTRIBUTES, demoCatalogue, demoTerms, type DemoImage, type DemoProduct } from "./demo-catalogue.ts";
import { saveCoupon, saveRule, saveShippingMethod } from "../repositories/discounts.ts";
import { demoPopups } from "./demo-popups.ts";
import { insertPopup, categoryIdBySlug } from "../repositories/popups.ts";
import { parsePopupSettings } from "../../domain/popups/settings.ts";
import { DEMO_COUPONS, DEMO_SHIPPING_METHODS, demoDiscountRules } from "./demo-discounts.ts";
import { demoFooterMenu, demoMenus } from "./demo-menus.ts";
import { DEMO_PAGES } from "./demo-pages.ts";
import { menuSchema } from "../../domain/menus/menus.ts";
import { insertMenu, menuSlugTaken, replaceMenuItems } from "../repositories/menus.ts";

const SEEDED_KEY = "demo_seeded";
const MENUS_SEEDED_KEY = "demo_menus_seeded";
const PAGES_SEEDED_KEY = "demo_pages_seeded";

export async function seedDemoData(db: Db, now = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    // Whoever inserts the marker first seeds; a second process sees it and skips.
    const claimed = await sql(tx)
      .insertInto("settings")
      .values({ key: SEEDED_KEY, value: JSON.stringify({ at: now.toISOString() }) })
      .onConflict((oc) => oc.column("key").doNothing())
      .returning("key")
      .execute();
    if (claimed.length === 0) return false;
    await insertCatalogue(tx, now);
    await insertDiscounts(tx);
    await insertPopups(tx);
    await claimMarker(tx, PAGES_SEEDED_KEY, now);
    await insertPages(tx, now);
    await claimMarker(tx, MENUS_SEEDED_KEY, now);
    await insertMenus(tx);
    return true;
  });
}

async function claimMarker(tx: Queryable, key: string, now: Date): Promise<boolean> {
  const claimed = await sql(tx)
    .insertInto("settings")
    .values({ key, value: JSON.stringify({ at: now.toISOString() }) })
    .onConflict((oc) => oc.column("key").doNothing())
    .returning("key")
    .execute();
  return claimed.length > 0;
}

/**
 * The demo menus for a database whose demo catalogue was seeded before menus existed (migration 0027): once, and
 * only where the demo catalogue is.
 */
export async function seedDemoMenus(db: Db, now = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const demo = await sql(tx).selectFrom("settings").select("key").where("key", "=", SEEDED_KEY).executeTakeFirst();
    if (!demo || !(await claimMarker(tx, MENUS_SEEDED_KEY, now))) return false;
    await insertMenus(tx);
    return true;
  });
}

/**
 * The demo pages and the footer menu that links them (issue 14) for a demo database seeded before they existed:
 * once, and only where the demo catalogue is. A page whose slug is taken (the owner wrote one) is not added, and
 * the footer menu is added only when no menu has the `footer` location or the slug.
 */
export async function seedDemoPages(db: Db, now = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const demo = await sql(tx).selectFrom("settings").select("key").where("key", "=", SEEDED_KEY).executeTakeFirst();
    if (!demo || !(await claimMarker(tx, PAGES_SEEDED_KEY, now))) return false;
    await insertPages(tx, now);
    const footer = await sql(tx)
      .selectFrom("menus")
      .select("id")
      .where((eb) => eb.or([eb("location", "=", "footer"), eb("slug", "=", "footer-menu")]))
      .executeTakeFirst();
    if (!footer) {
      const pages = await sql(tx).selectFrom("posts").select(["id", "slug"]).where("type", "=", "page").execute();
      const menu = menuSchema.parse(demoFooterMenu(lookupBySlug(pages, "page")));
      const id = await insertMenu(tx, { name: menu.name, slug: menu.slug ?? "footer-menu", location: menu.location ?? null });
      await replaceMenuItems(tx, id, menu.items);
    }
    return true;
  });
}

/** The shop's own pages (demo-pages.ts), published; a slug already taken is left as it is. */
async function insertPages(tx: Queryable, now: Date): Promise<void> {
  for (const page of DEMO_PAGES) {
    await sql(tx)
      .insertInto("posts")
      .values({
        type: "page",
        slug: page.slug,
        title: page.title,
        excerpt: page.excerpt,
        content: page.content,
        author: "Maskerade",
        status: "publish",
        comment_status: "closed",
        published_at: now,
        modified_at: now,
      })
      .onConflict((oc) => oc.column("slug").doNothing())
      .execute();
  }
}

function lookupBySlug(rows: { id: number; slug: string }[], what: string) {
  return (slug: string) => {
    const row = rows.find((r) => r.slug === slug);
    if (!row) throw new Error(`demo menus name an unknown ${what} ${slug}`);
    return row.id;
  };
}

/** The demo navigation, through the same schema as the REST API (core/domain/menus). */
async function insertMenus(tx: Queryable): Promise<void> {
  const [terms, products, pages, sizeGuide] = await Promise.all([
    sql(tx).selectFrom("terms").select(["id", "slug"]).where("taxonomy", "=", "product_cat").execute(),
    sql(tx).selectFrom("products").select(["id", "slug"]).execute(),
    sql(tx).selectFrom("posts").select(["id", "slug"]).where("type", "=", "page").execute(),
    sql(tx)
      .selectFrom("popups")
      .select("id")
      .where(raw`settings->>'title'`, "=", "Size guide")
      .orderBy("id")
      .executeTakeFirst(),
  ]);
  const lookup = lookupBySlug;
  for (const input of demoMenus({
    category: lookup(terms, "category"),
    product: lookup(products, "product"),
    page: lookup(pages, "page"),
    sizeGuidePopup: sizeGuide?.id ?? null,
  })) {
    const menu = menuSchema.parse(input);
    if (menu.slug && (await menuSlugTaken(tx, menu.slug))) continue; // seedDemoPages added the footer's already
    const id = await insertMenu(tx, { name: menu.name, slug: menu.slug ?? "menu", location: menu.location ?? null });
    await replaceMenuItems(tx, id, menu.items);
  }
}

async function insertImage(tx: Queryable, img: DemoImage): Promise<number> {
  const row = await sql(tx)
    .insertInto("media")
    .values({
      slug: img.slug,
      mime: "image/svg+xml",
      body: renderProductSvg({ shape: img.shape, color: img.color, view: img.view }),
      alt: img.alt,
      width: PRODUCT_IMAGE_SIZE,
      height: PRODUCT_IMAGE_SIZE,
    })
    .onConflict((oc) => oc.column("slug").doUpdateSet((eb) => ({ alt: eb.ref("excluded.alt") })))
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
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
    // The price the page shows and the shop sorts by: the box with its mandatory items (the domain's one bundle rule).
    const model = bundleModel(0, p.regularPrice ?? 0, storedBundledItems(p.details), (slug) => {
      const child = bySlug.get(slug);
      const price = child && effective(child.regularPrice, child.salePrice);
      return price === undefined ? undefined : { id: 0, price };
    });
    prices.push(bundlePrice(model, { ticked: [] }));
  } else {
    const price = effective(p.regularPrice, p.salePrice);
    if (price !== undefined) prices.push(price);
  }
  return prices.length ? [Math.min(...prices), Math.max(...prices)] : [null, null];
}

async function insertCatalogue(tx: Queryable, now: Date): Promise<void> {
  const termIds = new Map<string, number>();
  for (const term of demoTerms()) {
    const row = await sql(tx)
      .insertInto("terms")
      .values({
        taxonomy: term.taxonomy,
        slug: term.slug,
        name: term.name,
        description: term.description ?? "",
        menu_order: term.menuOrder ?? 0,
        meta: JSON.stringify(term.color ? { color: term.color } : {}),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    termIds.set(`${term.taxonomy}:${term.slug}`, row.id);
  }
  // The global attributes the pa_* terms belong to (migration 0024), labelled as the products label them.
  for (const a of DEMO_ATTRIBUTES)
    await sql(tx)
      .insertInto("product_attributes")
      .values(a)
      .onConflict((oc) => oc.column("slug").doNothing())
      .execute();

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
    const row = await sql(tx)
      .insertInto("products")
      .values({
        type: p.type,
        slug: p.slug,
        name: p.name,
        sku: p.sku,
        status: (p.details.status as string) ?? "publish",
        short_description: p.shortDescription,
        description: p.description,
        regular_price: p.regularPrice ?? null,
        sale_price: p.salePrice ?? null,
        price_min: min,
        price_max: max,
        stock_quantity: p.type === "variable" ? null : p.stock,
        stock_status: inStock ? "instock" : "outofstock",
        menu_order: p.menuOrder,
        featured: p.featured,
        image_ids: imageIds,
        attributes: JSON.stringify(p.attributes),
        details: JSON.stringify(p.details),
        total_sales: p.totalSales,
        rating_average: ratings.length ? ratings.reduce((a, b) => a + b, 0) / ratings.length : 0,
        rating_count: ratings.length,
        created_at: new Date(now.getTime() - p.daysOld * day),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const id = row.id;
    productIds.set(p.slug, id);

    const terms = [
      ...p.categories.map((c) => `product_cat:${c}`),
      ...p.tags.map((t) => `product_tag:${t}`),
      ...p.attributes.flatMap((a) => a.options.map((o) => `${a.name}:${o}`)),
    ];
    for (const key of terms) {
      const termId = termIds.get(key);
      if (termId === undefined) throw new Error(`demo data names an unknown term ${key}`);
      await sql(tx)
        .insertInto("product_terms")
        .values({ product_id: id, term_id: termId })
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    for (const [k, v] of p.variations.entries()) {
      const imageId = await insertImage(tx, v.image);
      await sql(tx)
        .insertInto("variations")
        .values({
          product_id: id,
          sku: v.sku,
          attributes: JSON.stringify(v.attributes),
          regular_price: v.regularPrice,
          sale_price: v.salePrice ?? null,
          stock_quantity: v.stock,
          stock_status: v.stock === 0 ? "outofstock" : "instock",
          image_id: imageId,
          menu_order: k,
        })
        .execute();
    }
    for (const r of p.reviews) {
      await sql(tx)
        .insertInto("comments")
        .values({ type: "review", product_id: id, author: r.author, rating: r.rating, content: r.content, status: "approved" })
        .execute();
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
        await sql(tx)
          .insertInto("product_links")
          .values({ product_id: id, linked_id: linked, kind, position })
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
    }
  }

  // A few approved comments, fixed (not drawn from the demo's random stream, which would change every other value).
  const postComments = [
    { author: "Grace", content: "Thanks for the care tips, my masks look new again." },
    { author: "Hiro", content: "Would love a post on matching ties for a wedding party!" },
  ];
  // Every post is in WordPress's default category (migration 0021), as WordPress files a post with none.
  const uncategorized = await sql(tx)
    .selectFrom("terms")
    .select("id")
    .where("taxonomy", "=", "category")
    .where("slug", "=", "uncategorized")
    .executeTakeFirst();
  for (const [i, post] of posts.entries()) {
    const imageId = await insertImage(tx, post.image);
    const inserted = await sql(tx)
      .insertInto("posts")
      .values({
        slug: post.slug,
        title: post.title,
        excerpt: post.excerpt,
        content: post.content,
        author: post.author,
        image_id: imageId,
        published_at: new Date(now.getTime() - post.daysOld * day),
        modified_at: new Date(now.getTime() - post.daysOld * day),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (uncategorized) await sql(tx).insertInto("post_terms").values({ post_id: inserted.id, term_id: uncategorized.id }).execute();
    const comment = i < postComments.length ? postComments[i]! : null;
    if (comment)
      await sql(tx)
        .insertInto("comments")
        .values({ type: "comment", post_id: inserted.id, author: comment.author, content: comment.content, status: "approved" })
        .execute();
  }
}

/** The spec's mask promotion and one demo rule of each other kind, a few demo coupons and the shipping methods. */
/** The demo popups, through the same schema as the REST API (docs/contract/storefront.md §4 'Popups'). */
async function insertPopups(tx: Queryable): Promise<void> {
  const faceMasks = await categoryIdBySlug(tx, "face-masks");
  if (faceMasks === null) throw new Error("demo popups need the face-masks category");
  for (const input of demoPopups({ faceMasks })) {
    const parsed = parsePopupSettings(input);
    if (!parsed.ok) throw new Error(`demo popup ${input.title}: ${parsed.message}`);
    await insertPopup(tx, parsed.value);
  }
}

async function insertDiscounts(tx: Queryable): Promise<void> {
  const products = await sql(tx).selectFrom("products").select(["id", "slug"]).execute();
  const idBySlug = new Map(products.map((p) => [p.slug, p.id]));
  const productId = (slug: string): number => {
    const id = idBySlug.get(slug);
    if (id === undefined) throw new Error(`demo discount rules name an unknown product ${slug}`);
    return id;
  };
  const variations = await sql(tx)
    .selectFrom("variations")
    .select(["id", "product_id"])
    .where("stock_status", "=", "instock")
    .where("status", "=", "publish")
    .orderBy("product_id")
    .orderBy("menu_order")
    .orderBy("id")
    .execute();
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
  const existing = await sql(db)
    .selectFrom("products")
    .select(raw<number>`count(*)::int`.as("n"))
    .where("slug", "like", raw.lit("bulk-%"))
    .executeTakeFirst();
  const have = existing?.n ?? 0;
  if (have >= count) return 0;
  await db.transaction(async (tx) => {
    const b = sql(tx);
    const img = await b.selectFrom("media").select("id").orderBy("id").limit(1).executeTakeFirst();
    await b
      .insertInto("products")
      .columns([
        "type",
        "slug",
        "name",
        "sku",
        "short_description",
        "regular_price",
        "sale_price",
        "price_min",
        "price_max",
        "stock_quantity",
        "stock_status",
        "menu_order",
        "image_ids",
        "total_sales",
        "rating_average",
        "rating_count",
        "created_at",
      ])
      .expression(
        raw`SELECT 'simple', 'bulk-' || g, 'Bulk Product ' || g, 'BULK-' || g, 'Generated product number ' || g,
         (100 + (g * 37) % 9900), CASE WHEN g % 5 = 0 THEN (100 + (g * 37) % 9900) - 50 END,
         (100 + (g * 37) % 9900) - CASE WHEN g % 5 = 0 THEN 50 ELSE 0 END,
         (100 + (g * 37) % 9900) - CASE WHEN g % 5 = 0 THEN 50 ELSE 0 END,
         (g * 13) % 50, CASE WHEN (g * 13) % 50 = 0 THEN 'outofstock' ELSE 'instock' END,
         1000 + g, ARRAY[${img?.id ?? 1}::int], (g * 7) % 1000, ((g * 11) % 50) / 10.0, (g * 3) % 20, now() - (g || ' minutes')::interval
       FROM generate_series(${have + 1}::int, ${count}::int) AS g`,
      )
      .execute();
    // The catalogue counts (0029_catalog_counts.sql) are recounted once at the end instead of kept link by link:
    // kept through these two bulk inserts, linking made seeding many times slower on PGlite (decision 0026).
    await raw`ALTER TABLE product_terms DISABLE TRIGGER product_terms_count_insert`.execute(b);
    // Spread them over the categories and colours so filters and archives have work to do.
    const spread = (taxonomy: "product_cat" | "pa_color", over: number) =>
      b
        .selectFrom("products as p")
        .innerJoinLateral(
          (eb) =>
            eb
              .selectFrom("terms")
              .select("id")
              .where("taxonomy", "=", raw.lit(taxonomy))
              .orderBy("id")
              .offset(raw<number>`(p.id % ${raw.lit(over)})`)
              .limit(raw.lit(1))
              .as("t"),
          (join) => join.onTrue(),
        )
        .select(["p.id", "t.id as term_id"])
        .where("p.slug", "like", raw.lit("bulk-%"));
    await b
      .insertInto("product_terms")
      .columns(["product_id", "term_id"])
      .expression(
        spread("product_cat", 7).where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom("product_terms as pt").select(raw.lit(1).as("one")).whereRef("pt.product_id", "=", "p.id"))),
        ),
      )
      .execute();
    await b
      .insertInto("product_terms")
      .columns(["product_id", "term_id"])
      .expression(spread("pa_color", 8))
      .onConflict((oc) => oc.doNothing())
      .execute();
    await raw`ALTER TABLE product_terms ENABLE TRIGGER product_terms_count_insert`.execute(b);
    await raw`SELECT recount_catalog()`.execute(b);
  });
  await raw`ANALYZE`.execute(sql(db));
  return count - have;
}
