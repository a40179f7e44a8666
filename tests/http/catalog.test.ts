import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";

let shop: TestShop;
let client: TestClient;
let manyId: number;
let manySlug: string;
const REFRESH = "/wp-json/elementor-pro/v1/refresh-loop";

const totalOf = (html: string): number => {
  if (html.includes("No products were found matching your selection.")) return 0;
  const m = /Showing (?:1–\d+ of (\d+) results|all (\d+) results|the single (result))/.exec(html);
  if (!m) throw new Error("no result count");
  return m[3] ? 1 : Number(m[1] ?? m[2]);
};
const idsOf = (html: string) => [...html.matchAll(/<li class="product type-product post-(\d+)/g)].map((m) => Number(m[1]));

/** A variable product with 8 colours × 25 patterns = 200 variations; every 7th pattern sold out. */
async function createManyVariationProduct(): Promise<{ id: number; slug: string }> {
  const db = shop.services.db;
  const colors = (await db.query<{ slug: string }>(`SELECT slug FROM terms WHERE taxonomy = 'pa_color' ORDER BY menu_order, id`)).map((r) => r.slug);
  const patterns = Array.from({ length: 25 }, (_, i) => `pattern-${i + 1}`);
  const slug = "many-variations-mask";
  const attributes = [
    { name: "pa_color", label: "Color", options: colors, variation: true },
    { name: "pa_pattern", label: "Pattern", options: patterns, variation: true },
  ];
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO products (type, slug, name, regular_price, price_min, price_max, attributes) VALUES ('variable', $1, 'Many Variations Mask', 500, 400, 500, $2::jsonb) RETURNING id`,
    [slug, JSON.stringify(attributes)],
  );
  await db.query(
    `INSERT INTO variations (product_id, sku, attributes, regular_price, sale_price, stock_quantity, stock_status, menu_order)
     SELECT $1, 'MANY-' || c || '-' || n, jsonb_build_object('attribute_pa_color', c, 'attribute_pa_pattern', 'pattern-' || n), 500,
            CASE WHEN n % 5 = 0 THEN 400 END, CASE WHEN n % 7 = 0 THEN 0 ELSE 10 END, CASE WHEN n % 7 = 0 THEN 'outofstock' ELSE 'instock' END, n
     FROM unnest($2::text[]) AS c, generate_series(1, 25) AS n`,
    [row!.id, colors],
  );
  return { id: row!.id, slug };
}

beforeAll(async () => {
  shop = await startTestShop();
  client = new TestClient(shop.url);
  ({ id: manyId, slug: manySlug } = await createManyVariationProduct());
});
afterAll(async () => shop?.close());

describe("listing: sorting, paging and 404s", () => {
  it("sorts by price both ways and falls back to the default for an unknown sort", async () => {
    const ids = async (q: string) => idsOf(await (await client.get(`/shop/${q}`)).text());
    const asc = await ids("?orderby=price");
    const desc = await ids("?orderby=price-desc");
    expect(asc).not.toEqual(desc);
    const [low] = await shop.services.db.query<{ id: number }>(
      `SELECT id FROM products WHERE status = 'publish' ORDER BY price_min ASC NULLS LAST, id LIMIT 1`,
    );
    expect(asc[0]).toBe(low!.id);
    const unknown = await client.get("/shop/?orderby=drop-table");
    expect(unknown.status).toBe(200);
    expect(idsOf(await unknown.text())).toEqual(await ids(""));
  });

  it("pages through /page/N/ and answers 404 past the end, for bad pages and unknown categories", async () => {
    const total = totalOf(await (await client.get("/shop/")).text());
    const last = Math.ceil(total / 12);
    const lastPage = await client.get(`/shop/page/${last}/`);
    expect(lastPage.status).toBe(200);
    expect(idsOf(await lastPage.text())).toHaveLength(total - (last - 1) * 12);
    for (const path of [
      `/shop/page/${last + 1}/`,
      "/shop/page/0/",
      "/shop/page/-1/",
      "/shop/page/1e3/",
      "/product-category/no-such-thing/",
      "/product-category/face-masks/page/99/",
    ]) {
      expect((await client.get(path)).status, path).toBe(404);
    }
    expect((await client.get("/shop/?paged=abc")).status).toBe(200);
  });

  it("pages are disjoint: page 2 continues page 1", async () => {
    const one = idsOf(await (await client.get("/shop/")).text());
    const two = idsOf(await (await client.get("/shop/page/2/")).text());
    expect(one).toHaveLength(12);
    expect(two.some((id) => one.includes(id))).toBe(false);
  });

  it("infinite pagination links to the next page and names the total", async () => {
    const html = await (await client.get("/shop/")).text();
    expect(html).toMatch(/class="ast-load-more next page-numbers" href="\/shop\/page\/2\/"/);
    expect(html).toMatch(/data-shop-infinite-total="\d+"/);
  });

  it("category archives are titled '{Category} Archives' and offer variation add-to-cart buttons", async () => {
    const html = await (await client.get("/product-category/face-masks/")).text();
    expect(html).toContain("<title>Face Masks Archives");
    const button = /<a[^>]*class="button product_type_variation add_to_cart_button jck_wssv_add_to_cart"[^>]*>/.exec(html)?.[0];
    expect(button).toBeDefined();
    expect(button).toMatch(/data-variation_id="\d+"/);
    expect(button).toMatch(/data-product_id="\d+"/);
    expect(button).toMatch(/data-attribute_pa_color="[a-z-]+"/);
    expect(button).toMatch(/data-quantity="1"/);
    // The plain shop keeps one button per product.
    expect(await (await client.get("/shop/")).text()).not.toContain("jck_wssv_add_to_cart");
  });

  it("search results list only matching products", async () => {
    const html = await (await client.get("/shop/?s=silk")).text();
    expect(html).toContain("Search results: “silk”");
    const titles = [...html.matchAll(/woocommerce-loop-product__title">([^<]+)</g)].map((m) => m[1]!);
    expect(titles.length).toBeGreaterThan(0);
    // Search covers descriptions, tags and attribute values too, title matches first (docs/contract/storefront-search.md).
    expect(titles[0]!.toLowerCase()).toContain("silk");
    const text = await shop.services.db.query<{ text: string }>(
      `SELECT p.name || ' ' || p.short_description || ' ' || p.description || ' ' || coalesce(string_agg(t.name, ' '), '') AS text
       FROM products p LEFT JOIN product_terms pt ON pt.product_id = p.id LEFT JOIN terms t ON t.id = pt.term_id
       WHERE p.id = ANY($1) GROUP BY p.id`,
      [idsOf(html)],
    );
    expect(text.length).toBe(titles.length);
    for (const { text: t } of text) expect(t.toLowerCase()).toContain("silk");
  });

  it("remembers the grid/list view in a cookie the server reads", async () => {
    const c = new TestClient(shop.url);
    expect(await (await c.get("/shop/")).text()).toContain("products columns-4 view-grid");
    await c.get("/shop/?view=list");
    expect(c.cookie("shop_view")).toBe("list");
    expect(await (await c.get("/product-category/ties/")).text()).toContain("products columns-4 view-list");
    expect((await c.get("/shop/?view=bogus")).status).toBe(200);
  });
});

describe("listing filters in the address are rendered on the server", () => {
  const count = async (q: string) => totalOf(await (await client.get(`/shop/${q}`)).text());

  it("OR unites, AND intersects and NOT excludes, as docs/contract/storefront.md §4 encodes them", async () => {
    const all = await count("");
    const red = await count("?e-filter-shop-pa_color=red");
    const navy = await count("?e-filter-shop-pa_color=navy");
    const either = await count("?e-filter-shop-pa_color=red~navy");
    const both = await count("?e-filter-shop-pa_color=red%2Bnavy");
    const notRed = await count("?e-filter-shop-pa_color=!red");
    expect(red).toBeGreaterThan(0);
    expect(red).toBeLessThan(all);
    expect(either).toBeGreaterThanOrEqual(Math.max(red, navy));
    expect(both).toBeLessThanOrEqual(Math.min(red, navy));
    expect(notRed + red).toBe(all);
  });

  it("marks the chosen terms and keeps filters in page links", async () => {
    const html = await (await client.get("/shop/?e-filter-shop-pa_color=red~navy&orderby=price")).text();
    expect(html).toMatch(/role="checkbox" aria-checked="true" data-filter="red"/);
    expect(html).toMatch(/role="checkbox" aria-checked="false" data-filter="green"/);
  });

  it("unknown taxonomies, terms and widgets never fail", async () => {
    const all = await count("");
    expect(await count("?e-filter-shop-not_a_tax=x")).toBe(all);
    expect(await count("?e-filter-otherwidget-pa_color=red")).toBe(all);
    expect(await count("?e-filter-shop-pa_color=%E0%A4%A")).toBe(all); // bad escape: ignored
    expect(await count("?e-filter-shop-pa_color=no-such-colour")).toBe(0);
    expect((await client.get("/shop/?e-filter-shop-pa_color=" + "x~".repeat(300))).status).toBe(200);
  });

  it("a price range typed backwards is swapped, and junk prices are ignored", async () => {
    expect(await count("?min_price=10&max_price=2")).toBe(await count("?min_price=2&max_price=10"));
    expect(await count("?min_price=abc&max_price=-4")).toBe(await count(""));
    expect(await count("?min_price=1000000")).toBe(0);
  });
});

describe("POST refresh-loop", () => {
  it("answers {data: listing html} for the filters, matching the server-rendered filtered page", async () => {
    const res = await client.request(REFRESH, {
      method: "POST",
      json: {
        post_id: 0,
        widget_id: "shop",
        widget_filters: { taxonomy: { pa_color: { terms: ["red", "navy"], logicalJoin: "OR" } } },
        pagination_base_url: `${shop.url}/shop/?orderby=price`,
      },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: string };
    const page = await (await client.get("/shop/?e-filter-shop-pa_color=red~navy&orderby=price")).text();
    expect(idsOf(body.data)).toEqual(idsOf(page));
    expect(Number(/data-total="(\d+)"/.exec(body.data)?.[1])).toBe(totalOf(page));
  });

  it("renders a category archive from its pagination base address, page and paged stripped", async () => {
    const res = await client.request(REFRESH, {
      method: "POST",
      json: { post_id: 1, widget_id: "shop", widget_filters: [], pagination_base_url: "/product-category/ties/page/2/?paged=3" },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: string };
    expect(idsOf(body.data)).toEqual(idsOf(await (await client.get("/product-category/ties/")).text()));
  });

  it("rejects malformed bodies with a 400 REST error and never a 500", async () => {
    const bad: unknown[] = [
      {},
      { post_id: "x", widget_id: "shop", widget_filters: {}, pagination_base_url: "/shop/" },
      { post_id: 0, widget_id: "bad-id!", widget_filters: {}, pagination_base_url: "/shop/" },
      { post_id: 0, widget_id: "shop", widget_filters: { taxonomy: { pa_color: { terms: "red" } } }, pagination_base_url: "/shop/" },
      { post_id: 0, widget_id: "shop", widget_filters: { taxonomy: { pa_color: { terms: Array(101).fill("x") } } }, pagination_base_url: "/shop/" },
      { post_id: 0, widget_id: "shop", widget_filters: {}, pagination_base_url: "/cart/" },
      { post_id: 0, widget_id: "shop", widget_filters: {}, pagination_base_url: "/product-category/nope/" },
      { post_id: 0, widget_id: "shop", widget_filters: "x", pagination_base_url: "/shop/" },
      [1, 2, 3],
      null,
    ];
    for (const json of bad) {
      const res = await client.request(REFRESH, { method: "POST", json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      const body = (await res.json()) as { code: string; data: { status: number } };
      expect(body.data.status).toBe(400);
      expect(typeof body.code).toBe("string");
    }
    const broken = await client.request(REFRESH, { method: "POST", body: "{not json", headers: { "content-type": "application/json" } });
    expect(broken.status).toBe(400);
  });

  it("an unknown taxonomy or operator does not fail: DISABLED is treated as IN", async () => {
    const res = await client.request(REFRESH, {
      method: "POST",
      json: {
        post_id: 0,
        widget_id: "shop",
        widget_filters: { taxonomy: { pa_color: { terms: ["red"], logicalJoin: "XOR" }, zzz: { terms: ["a"], logicalJoin: "AND" } } },
        pagination_base_url: "/shop/",
      },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: string };
    expect(Number(/data-total="(\d+)"/.exec(body.data)?.[1])).toBe(totalOf(await (await client.get("/shop/?e-filter-shop-pa_color=red")).text()));
  });
});

describe("variations loaded on demand", () => {
  it("a product with 200 variations prints none and the form is marked for loading on demand", async () => {
    const res = await client.get(`/product/${manySlug}/`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('data-product_variations="false"');
    expect(html).toContain('name="attribute_pa_pattern"');
  });

  it("get_variation answers the matching variation, false when none or the choice is incomplete", async () => {
    const get = (form: Record<string, string>) => client.post("/?wc-ajax=get_variation", form);
    const hit = await get({ product_id: String(manyId), attribute_pa_color: "red", attribute_pa_pattern: "pattern-5" });
    expect(hit.status).toBe(200);
    const v = (await hit.json()) as { variation_id: number; attributes: Record<string, string>; display_price: number; is_in_stock: boolean };
    expect(v.attributes).toEqual({ attribute_pa_color: "red", attribute_pa_pattern: "pattern-5" });
    expect(v.display_price).toBe(4);
    expect(v.is_in_stock).toBe(true);
    const [row] = await shop.services.db.query<{ id: number }>(
      `SELECT id FROM variations WHERE product_id = $1 AND attributes->>'attribute_pa_color' = 'red' AND attributes->>'attribute_pa_pattern' = 'pattern-5'`,
      [manyId],
    );
    expect(v.variation_id).toBe(row!.id);
    expect(await (await get({ product_id: String(manyId), attribute_pa_color: "red" })).json()).toBe(false);
    // Sold out: with disable_out_of_stock on, not available.
    expect(await (await get({ product_id: String(manyId), attribute_pa_color: "red", attribute_pa_pattern: "pattern-7" })).json()).toBe(false);
    expect(await (await get({ product_id: String(manyId), attribute_pa_color: "nope", attribute_pa_pattern: "pattern-1" })).json()).toBe(false);
  });

  it("bad input is a 400 or false, never a 500", async () => {
    for (const form of [{}, { product_id: "abc" }, { product_id: "-1" }, { product_id: "1e99" }] as Record<string, string>[]) {
      const res = await client.post("/?wc-ajax=get_variation", form);
      expect(res.status, JSON.stringify(form)).toBe(400);
      expect(await res.json()).toBe(false);
    }
    const notVariable = await shop.services.db.query<{ id: number }>(`SELECT id FROM products WHERE type = 'simple' LIMIT 1`);
    const res = await client.post("/?wc-ajax=get_variation", { product_id: String(notVariable[0]!.id), attribute_pa_color: "red" });
    expect(res.status).toBe(200);
    expect(await res.json()).toBe(false);
    const huge = await client.post("/?wc-ajax=get_variation", { product_id: String(manyId), attribute_pa_color: "x".repeat(500) });
    expect(huge.status).toBe(400);
  });
});

describe("single product page", () => {
  it("prints small variation lists into the form, with swatch selects that post without JavaScript", async () => {
    const html = await (await client.get("/product/pleated-face-mask/")).text();
    const data = /data-product_variations="([^"]+)"/.exec(html)?.[1];
    const variations = JSON.parse(data!.replace(/&quot;/g, '"')) as { variation_id: number; attributes: Record<string, string> }[];
    expect(variations.length).toBeGreaterThan(4);
    expect(variations.length).toBeLessThanOrEqual(40);
    const color = variations[0]!.attributes.attribute_pa_color!;
    const chosen = await (await client.get(`/product/pleated-face-mask/?attribute_pa_color=${color}`)).text();
    expect(chosen).toMatch(/<select[^>]*id="attribute_pa_color"[^>]*name="attribute_pa_color"/);
    expect(chosen).toMatch(new RegExp(`<option value="${color}" selected="">`));
    expect(chosen).toContain('name="variation_id"');
    // The cotton mask's 32 variations are under the threshold: printed in full.
    expect(await (await client.get("/product/cotton-face-mask/")).text()).not.toContain('data-product_variations="false"');
  });

  it("keeps structured data and a canonical address", async () => {
    const html = await (await client.get("/product/cotton-face-mask/")).text();
    expect(html).toContain('"@type":"Product"');
    expect(html).toMatch(/"offers":\{"@type":"AggregateOffer"/);
    expect(html).toMatch(/<link rel="canonical" href="http:\/\/127\.0\.0\.1:\d+\/product\/cotton-face-mask\/"/);
  });
});
