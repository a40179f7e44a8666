/**
 * Product search (docs/contract/storefront-search.md): full-text matching over the weighted document (stemming,
 * prefixes, SKU, category, attribute value, ranking), typo correction, the results pages (/?s=…&post_type=product
 * and plain /?s=… with posts), no-results suggestions, the suggestions endpoint, bad input, and REST writes seen by
 * search at once. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";

let shop: TestShop;
let client: TestClient;
let admin: SignedIn;
const ids: Record<string, number> = {};

const idsOf = (html: string) => [...html.matchAll(/<li class="product type-product post-(\d+)/g)].map((m) => Number(m[1]));
const page = async (path: string) => {
  const res = await client.get(path);
  return { status: res.status, html: await res.text() };
};
/** The listing's products (not the popular products a search without results suggests). */
const found = async (term: string) => idsOf((await page(`/?s=${encodeURIComponent(term)}&post_type=product`)).html.split("search-suggestions")[0]!);

async function product(slug: string, name: string, extra: { sku?: string; description?: string; attributes?: unknown[]; sales?: number } = {}) {
  const [row] = await shop.services.db.query<{ id: number }>(
    `INSERT INTO products (type, slug, name, sku, description, regular_price, price_min, price_max, attributes, total_sales)
     VALUES ('simple', $1, $2, $3, $4, 1000, 1000, 1000, $5::jsonb, $6) RETURNING id`,
    [slug, name, extra.sku ?? null, extra.description ?? "", JSON.stringify(extra.attributes ?? []), extra.sales ?? 0],
  );
  ids[slug] = row!.id;
  return row!.id;
}

beforeAll(async () => {
  shop = await startTestShop();
  client = new TestClient(shop.url);
  admin = await signInAs(shop, "search-admin@example.com", "administrator");
  const db = shop.services.db;
  await product("quokkaberry-mask", "Quokkaberry Mask", { sku: "QKB-777" });
  await product("plain-thing", "Plain Thing");
  const [cat] = await db.query<{ id: number }>(
    `INSERT INTO terms (taxonomy, slug, name) VALUES ('product_cat', 'zanzibarian-wear', 'Zanzibarian Wear') RETURNING id`,
  );
  await db.query(`INSERT INTO product_terms (product_id, term_id) VALUES ($1, $2)`, [ids["plain-thing"], cat!.id]);
  await db.query(`INSERT INTO terms (taxonomy, slug, name) VALUES ('pa_color', 'vermilionesque', 'Vermilionesque')`);
  await product("colourful-thing", "Colourful Thing", { attributes: [{ name: "pa_color", label: "Color", options: ["vermilionesque"], variation: false }] });
  await product("plain-scarf", "Plain Scarf", { description: "Printed with hollyhock flowers.", sales: 1000 });
  await product("hollyhock-scarf", "Hollyhock Scarf");
  await db.query(
    `INSERT INTO posts (slug, title, excerpt, content, author) VALUES ('quokkaberry-journal', 'Quokkaberry care journal', 'How to wash it.', 'x', 'Staff')`,
  );
});
afterAll(async () => shop?.close());

describe("matching", () => {
  it("stems ('masks' finds masks), matches a word being typed as a prefix, and finds SKUs", async () => {
    expect(await found("quokkaberry masks")).toEqual([ids["quokkaberry-mask"]]);
    expect((await found("masks")).length).toBeGreaterThan(0);
    expect(await found("quokkab")).toEqual([ids["quokkaberry-mask"]]);
    expect((await found("mas")).length).toBeGreaterThan(0);
    expect(await found("QKB-777")).toEqual([ids["quokkaberry-mask"]]);
  });

  it("finds a product by its category name and by an attribute value's name", async () => {
    expect(await found("zanzibarian")).toEqual([ids["plain-thing"]]);
    expect(await found("vermilionesque")).toEqual([ids["colourful-thing"]]);
  });

  it("ranks a title match above a description match (though the description's product sells more)", async () => {
    expect(await found("hollyhock")).toEqual([ids["hollyhock-scarf"], ids["plain-scarf"]]);
  });

  it("corrects typos against the catalogue's words: 'msak' finds masks, 'quokkabery' the quokkaberry mask", async () => {
    const msak = await page("/?s=msak&post_type=product");
    expect(msak.status).toBe(200);
    expect(msak.html).toContain("Showing results for <strong>mask</strong>");
    const direct = await found("mask");
    expect(idsOf(msak.html)).toEqual(direct);
    expect(direct.length).toBeGreaterThan(0);
    expect(await found("quokkabery")).toEqual([ids["quokkaberry-mask"]]);
  });
});

describe("results pages", () => {
  it("/?s=…&post_type=product is the listing: heading, sort, pagination links under /page/{n}/", async () => {
    const first = await page("/?s=mask&post_type=product");
    expect(first.status).toBe(200);
    expect(first.html).toContain("Search results: “mask”");
    expect(first.html).not.toContain("post-results-heading");
    expect(first.html).toContain('href="/page/2/?s=mask&amp;post_type=product"');
    const second = await page("/page/2/?s=mask&post_type=product");
    expect(second.status).toBe(200);
    expect(idsOf(second.html).length).toBeGreaterThan(0);
    expect(idsOf(second.html).some((id) => idsOf(first.html).includes(id))).toBe(false);
    // Sorted by price: the ids come back in price order.
    const sorted = idsOf((await page("/?s=mask&post_type=product&orderby=price")).html);
    const prices = await shop.services.db.query<{ id: number; price_min: number }>(`SELECT id, price_min FROM products WHERE id = ANY($1)`, [sorted]);
    const byId = new Map(prices.map((p) => [p.id, p.price_min]));
    const list = sorted.map((id) => byId.get(id)!);
    expect([...list].sort((a, b) => a - b)).toEqual(list);
    expect(await page("/page/2/")).toMatchObject({ status: 404 });
  });

  it("plain /?s=… searches products and posts (posts below products)", async () => {
    const { status, html } = await page("/?s=quokkaberry");
    expect(status).toBe(200);
    expect(idsOf(html)).toEqual([ids["quokkaberry-mask"]]);
    const posts = html.indexOf("post-results-heading");
    expect(posts).toBeGreaterThan(html.indexOf(`post-${ids["quokkaberry-mask"]}`));
    expect(html).toContain('href="/blog/quokkaberry-journal/"');
  });

  it("no results: the listing's message, the nearest title ('Did you mean') and popular products", async () => {
    const { status, html } = await page("/?s=quokkaberrymask&post_type=product");
    expect(status).toBe(200);
    expect(html).toContain("No products were found matching your selection.");
    expect(html).toMatch(/Did you mean <a href="\/product\/quokkaberry-mask\/">Quokkaberry Mask<\/a>\?/);
    expect(html).toContain("Popular products");
    const nothing = await page("/?s=zzzzqqqqxxxx&post_type=product");
    expect(nothing.html).toContain("No products were found matching your selection.");
    expect(nothing.html).not.toContain("Did you mean");
    expect(nothing.html).toContain("Popular products");
  });
});

describe("bad input", () => {
  const terms = [
    "x".repeat(5000),
    "مرحبا بالعالم",
    "口罩",
    "маска",
    "😷😷",
    "' OR 1=1 --",
    '"',
    "\\",
    "%",
    "_",
    "*",
    "(",
    ")",
    ":",
    "&",
    "|",
    "!",
    "<",
    "<script>alert(1)</script>",
    "mask:* & !(",
    "a'b\"c\\d%e_f*g(h)i:j&k|l!m<n",
    "",
    "   ",
    "!!!???...",
    "\u0000mask",
    "the",
    "a b c d e f g h i j k l m n o p q r s t u v w x y z",
  ];
  it("gives a normal results page for any term, on both results pages and the shop", async () => {
    for (const term of terms) {
      for (const path of [`/?s=${encodeURIComponent(term)}&post_type=product`, `/?s=${encodeURIComponent(term)}`, `/shop/?s=${encodeURIComponent(term)}`]) {
        const res = await page(path);
        expect(res.status, `${path}`).toBe(200);
        expect(res.html).not.toContain("<script>alert(1)</script>");
      }
    }
  });

  it("huge or malformed page numbers are the listing's 404, never a 5xx", async () => {
    for (const path of [
      "/page/99999999999999999999/?s=mask&post_type=product",
      "/page/500/?s=mask&post_type=product",
      "/page/abc/?s=mask",
      "/?s=mask&paged=99999999999",
    ]) {
      const res = await page(path);
      expect([200, 404], path).toContain(res.status);
    }
    expect((await page("/page/500/?s=mask&post_type=product")).status).toBe(404);
  });

  it("the suggestions endpoint answers any term with a bounded list", async () => {
    for (const term of terms) {
      const res = await client.get(`/wp-json/shop/v1/search/suggest?q=${encodeURIComponent(term)}`);
      expect(res.status, term).toBe(200);
      const body = (await res.json()) as unknown[];
      expect(body.length).toBeLessThanOrEqual(8);
    }
    expect((await client.get("/wp-json/shop/v1/search/suggest?q=mask&limit=999")).status).toBe(400);
    expect((await client.get("/wp-json/shop/v1/search/suggest?q=mask&limit=abc")).status).toBe(400);
  });
});

describe("GET /wp-json/shop/v1/search/suggest", () => {
  it("returns the most relevant products as you type, with price HTML, image and permalink, cacheable", async () => {
    const res = await client.get("/wp-json/shop/v1/search/suggest?q=quok");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    const body = (await res.json()) as { id: number; name: string; permalink: string; price_html: string; image: unknown }[];
    expect(body[0]).toMatchObject({ id: ids["quokkaberry-mask"], name: "Quokkaberry Mask" });
    expect(body[0]!.permalink).toMatch(/\/product\/quokkaberry-mask\/$/);
    expect(body[0]!.price_html).toContain("woocommerce-Price-amount");
    const typo = (await (await client.get("/wp-json/shop/v1/search/suggest?q=msak&limit=3")).json()) as unknown[];
    expect(typo.length).toBe(3);
    expect((await (await client.get("/wp-json/shop/v1/search/suggest?q=")).json()) as unknown[]).toEqual([]);
  });
});

describe("writes through the REST API", () => {
  it("a product renamed, a category renamed and an attribute term renamed are found by their new names at once", async () => {
    const call = (method: string, path: string, body: unknown) =>
      admin.client.request(`/wp-json/wc/v3/${path}`, { method, headers: { "X-WP-Nonce": admin.nonce }, json: body });
    expect((await call("PUT", `products/${ids["plain-scarf"]}`, { name: "Wombatronic Scarf" })).status).toBe(200);
    expect(await found("wombatronic")).toEqual([ids["plain-scarf"]]);
    expect(await found("wombatronc")).toEqual([ids["plain-scarf"]]);
    const [cat] = await shop.services.db.query<{ id: number }>(`SELECT id FROM terms WHERE slug = 'zanzibarian-wear'`);
    expect((await call("PUT", `products/categories/${cat!.id}`, { name: "Pangolinesque Wear" })).status).toBe(200);
    expect(await found("pangolinesque")).toEqual([ids["plain-thing"]]);
    expect(await found("zanzibarian")).toEqual([]);
    const [attr] = await shop.services.db.query<{ id: number }>(`SELECT id FROM product_attributes WHERE slug = 'color'`);
    const [term] = await shop.services.db.query<{ id: number }>(`SELECT id FROM terms WHERE taxonomy = 'pa_color' AND slug = 'vermilionesque'`);
    expect((await call("PUT", `products/attributes/${attr!.id}/terms/${term!.id}`, { name: "Ceruleanish" })).status).toBe(200);
    expect(await found("cerulean")).toEqual([ids["colourful-thing"]]);
    const created = await call("POST", "products", { name: "Axolotlish Bag", regular_price: "12.50" });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    expect(await found("axolotlish")).toEqual([id]);
  });
});
