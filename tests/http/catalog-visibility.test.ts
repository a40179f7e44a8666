/**
 * Catalog visibility (migration 0031, docs/decisions/0031-catalog-visibility.md, docs/contract/rest/products.md):
 * wc/v3/products accepts and validates WooCommerce's four values on create, update and batch, and the CSV import's
 * "Visibility in catalog" column; the storefront lists "visible" and "catalog" products in the shop and a category,
 * "visible" and "search" ones in search results (the results page, the suggestions, the Store API), "hidden" ones
 * nowhere, while every product's own page opens by its address; the kept counts ("N results", the category's count)
 * follow, and a cached page shows a change at once. Also the external and grouped kinds as the admin writes them:
 * the Store API refuses an external product in WooCommerce's shape, and a grouped product's page lists its children.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- WooCommerce's loose JSON in assertions

let shop: TestShop;
let admin: SignedIn;
let guest: TestClient;
let categoryId: number;
const ids: Record<string, number> = {};
const VISIBILITIES = ["visible", "catalog", "search", "hidden"] as const;

const api = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
  const res = await admin.client.request(`/wp-json/wc/v3/${path}`, { method, headers: { "X-WP-Nonce": admin.nonce }, json: body });
  return { status: res.status, body: (await res.json()) as Json };
};
const html = async (path: string) => {
  const res = await guest.get(path);
  expect(res.status, path).toBe(200);
  return res.text();
};
const idsOf = (page: string) => [...page.matchAll(/<li class="product type-product post-(\d+)/g)].map((m) => Number(m[1]));
const totalOf = (page: string): number => {
  if (page.includes("No products were found matching your selection.")) return 0;
  const m = /Showing (?:1–\d+ of (\d+) results|all (\d+) results|the single (result))/.exec(page);
  if (!m) throw new Error("no result count");
  return m[3] ? 1 : Number(m[1] ?? m[2]);
};
/** The search results' products (not the popular products a search without results suggests). */
const searched = async (term: string) => idsOf((await html(`/?s=${encodeURIComponent(term)}&post_type=product`)).split("search-suggestions")[0]!);
const mine = (list: number[]) => list.filter((id) => Object.values(ids).includes(id)).sort((a, b) => a - b);
const idsFor = (...names: string[]) => names.map((n) => ids[n]!).sort((a, b) => a - b);
const one = async <T>(text: string, params: unknown[] = []) => (await shop.services.db.query<T>(text, params))[0]!;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "visibility-admin@example.com", "administrator");
  guest = new TestClient(shop.url);
  ({ id: categoryId } = await one<{ id: number }>(
    `INSERT INTO terms (taxonomy, slug, name) VALUES ('product_cat', 'zephyr-wear', 'Zephyr Wear') RETURNING id`,
  ));
});
afterAll(async () => shop?.close());

describe("wc/v3/products: catalog_visibility", () => {
  it("creates with each of the four values, answers them back and stores them", async () => {
    for (const visibility of VISIBILITIES) {
      const res = await api("POST", "products", {
        name: `Zephyrine ${visibility} scarf`,
        type: "simple",
        status: "publish",
        regular_price: "12.00",
        categories: [{ id: categoryId }],
        catalog_visibility: visibility,
      });
      expect(res.status, visibility).toBe(201);
      expect(res.body.catalog_visibility).toBe(visibility);
      ids[visibility] = res.body.id as number;
      expect((await api("GET", `products/${res.body.id}`)).body.catalog_visibility).toBe(visibility);
    }
    expect(await one<{ v: string }>(`SELECT catalog_visibility AS v FROM products WHERE id = $1`, [ids.search])).toEqual({ v: "search" });
  });

  it("refuses any other value on create, update and batch, naming the field, and writes nothing", async () => {
    const created = await api("POST", "products", { name: "Zephyrine refused", regular_price: "1.00", catalog_visibility: "secret" });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ code: "rest_invalid_param", data: { status: 400 } });
    expect(Object.keys(created.body.data.params)).toEqual(["catalog_visibility"]);
    expect(created.body.data.params.catalog_visibility).toMatch(/visible, catalog, search, hidden/);
    expect(await one<{ n: number }>(`SELECT count(*)::int AS n FROM products WHERE name = 'Zephyrine refused'`)).toEqual({ n: 0 });

    for (const bad of ["", "Hidden", 1, null]) {
      const updated = await api("PUT", `products/${ids.visible}`, { catalog_visibility: bad });
      expect(updated.status, JSON.stringify(bad)).toBe(400);
      expect(Object.keys(updated.body.data.params)).toEqual(["catalog_visibility"]);
    }
    expect((await api("GET", `products/${ids.visible}`)).body.catalog_visibility).toBe("visible");

    const batch = await api("POST", "products/batch", {
      update: [
        { id: ids.catalog, catalog_visibility: "nowhere" },
        { id: ids.hidden, catalog_visibility: "catalog" },
      ],
    });
    expect(batch.status).toBe(200);
    expect(batch.body.update[0]).toMatchObject({
      id: ids.catalog,
      error: { code: "rest_invalid_param", data: { params: { catalog_visibility: expect.any(String) } } },
    });
    expect(batch.body.update[1]).toMatchObject({ id: ids.hidden, catalog_visibility: "catalog" });
    const back = await api("POST", "products/batch", { update: [{ id: ids.hidden, catalog_visibility: "hidden" }] });
    expect(back.body.update[0].catalog_visibility).toBe("hidden");
    expect((await api("GET", `products/${ids.catalog}`)).body.catalog_visibility).toBe("catalog");
  });
});

describe("the storefront honours it", () => {
  it("the shop and a category list visible and catalog products, with counts that match the rows", async () => {
    const category = await html("/product-category/zephyr-wear/");
    expect(mine(idsOf(category))).toEqual(idsFor("visible", "catalog"));
    expect(totalOf(category)).toBe(2);
    const cats = await api("GET", `products/categories/${categoryId}`);
    expect(cats.body.count).toBe(2);

    const listed = await one<{ n: number }>(
      `SELECT count(*)::int AS n FROM products WHERE status = 'publish' AND catalog_visibility IN ('visible', 'catalog')`,
    );
    const shopPage = await html("/shop/?orderby=date");
    expect(totalOf(shopPage)).toBe(listed.n);
    // Newest first: the four are the newest products; the listed two are there, the other two nowhere.
    expect(mine(idsOf(shopPage))).toEqual(idsFor("visible", "catalog"));
    // recount_catalog() finds nothing to correct after the API's writes.
    const before = await shop.services.db.query(`SELECT id, product_count FROM terms ORDER BY id`);
    const [total] = await shop.services.db.query(`SELECT listed_products FROM catalog_counts`);
    await shop.services.db.query(`SELECT recount_catalog()`);
    expect(await shop.services.db.query(`SELECT id, product_count FROM terms ORDER BY id`)).toEqual(before);
    expect((await shop.services.db.query(`SELECT listed_products FROM catalog_counts`))[0]).toEqual(total);
  });

  it("search results, the suggestions and the Store API's search list visible and search products", async () => {
    expect(mine(await searched("zephyrine"))).toEqual(idsFor("visible", "search"));
    const suggest = (await (await guest.get("/wp-json/shop/v1/search/suggest?q=zephyrine")).json()) as Json;
    expect(JSON.stringify(suggest)).toContain("Zephyrine visible scarf");
    expect(JSON.stringify(suggest)).toContain("Zephyrine search scarf");
    expect(JSON.stringify(suggest)).not.toContain("Zephyrine catalog scarf");
    expect(JSON.stringify(suggest)).not.toContain("Zephyrine hidden scarf");

    const storeSearch = (await (await guest.get("/wp-json/wc/store/v1/products?search=zephyrine&per_page=100")).json()) as Json[];
    expect(mine(storeSearch.map((p) => p.id as number))).toEqual(idsFor("visible", "search"));
    const storeCategory = (await (await guest.get(`/wp-json/wc/store/v1/products?category=${categoryId}&per_page=100`)).json()) as Json[];
    expect(mine(storeCategory.map((p) => p.id as number))).toEqual(idsFor("visible", "catalog"));
  });

  it("every product's own page opens by its address, the hidden one too", async () => {
    for (const visibility of VISIBILITIES) {
      const page = await html(`/product/zephyrine-${visibility}-scarf/`);
      expect(page).toContain(`Zephyrine ${visibility} scarf`);
    }
    const storeOne = await guest.get(`/wp-json/wc/store/v1/products/${ids.hidden}`);
    expect(storeOne.status).toBe(200);
  });

  it("a change shows at once, on cached pages too", async () => {
    const path = "/product-category/zephyr-wear/";
    expect(mine(idsOf(await html(path)))).toEqual(idsFor("visible", "catalog"));
    expect(mine(idsOf(await html(path)))).toEqual(idsFor("visible", "catalog")); // the second answer comes from the page cache
    expect((await api("PUT", `products/${ids.hidden}`, { catalog_visibility: "catalog" })).status).toBe(200);
    expect((await api("PUT", `products/${ids.catalog}`, { catalog_visibility: "hidden" })).status).toBe(200);
    const after = await html(path);
    expect(mine(idsOf(after))).toEqual(idsFor("visible", "hidden"));
    expect(totalOf(after)).toBe(2);
    expect(mine(await searched("zephyrine"))).toEqual(idsFor("visible", "search"));
    expect((await api("PUT", `products/${ids.hidden}`, { catalog_visibility: "hidden" })).status).toBe(200);
    expect((await api("PUT", `products/${ids.catalog}`, { catalog_visibility: "catalog" })).status).toBe(200);
    expect(totalOf(await html(path))).toBe(2);
  });

  it("up-sells leave out a product the catalogue does not list; a grouped product shows a hidden child", async () => {
    const withUpsells = await api("POST", "products", {
      name: "Zephyrine up-sell host",
      status: "publish",
      regular_price: "5.00",
      upsell_ids: [ids.visible, ids.hidden],
    });
    expect(withUpsells.status).toBe(201);
    const page = await html("/product/zephyrine-up-sell-host/");
    expect(page).toContain('class="up-sells upsells products"');
    const upsells = page.slice(page.indexOf('class="up-sells upsells products"'));
    expect(upsells).toContain("Zephyrine visible scarf");
    expect(upsells).not.toContain("Zephyrine hidden scarf");

    const group = await api("POST", "products", {
      name: "Zephyrine set",
      type: "grouped",
      status: "publish",
      grouped_products: [ids.visible, ids.hidden],
    });
    expect(group.status).toBe(201);
    expect(group.body.grouped_products).toEqual([ids.visible, ids.hidden]);
    const set = await html("/product/zephyrine-set/");
    expect(set).toContain(`name="quantity[${ids.visible}]"`);
    expect(set).toContain(`name="quantity[${ids.hidden}]"`);
  });
});

describe("CSV import: Visibility in catalog", () => {
  const HEADER = 'Type,SKU,Name,Published,"Visibility in catalog","Regular price"';
  const importCsv = async (csv: string) => {
    const res = await admin.client.request("/wp-json/shop/v1/product-import", {
      method: "POST",
      headers: { "X-WP-Nonce": admin.nonce },
      json: { csv, mode: "import" },
    });
    return (await res.json()) as Json;
  };

  it("stores each of WooCommerce's values and refuses another, naming the column", async () => {
    const result = await importCsv(
      [
        HEADER,
        "simple,VIS-CAT,Imported catalog scarf,1,catalog,3",
        "simple,VIS-SEARCH,Imported search scarf,1,search,3",
        "simple,VIS-HIDDEN,Imported hidden scarf,1,hidden,3",
        "simple,VIS-BAD,Imported odd scarf,1,secret,3",
      ].join("\n"),
    );
    expect(result.summary).toEqual({ rows: 4, create: 3, update: 0, refused: 1 });
    expect(result.rows[3]).toMatchObject({ action: "refused", message: expect.stringMatching(/^Visibility in catalog: /) });
    const rows = await shop.services.db.query<{ sku: string; v: string }>(
      `SELECT sku, catalog_visibility AS v FROM products WHERE sku LIKE 'VIS-%' ORDER BY sku`,
    );
    expect(rows).toEqual([
      { sku: "VIS-CAT", v: "catalog" },
      { sku: "VIS-HIDDEN", v: "hidden" },
      { sku: "VIS-SEARCH", v: "search" },
    ]);
    // The export writes the column back as it was imported.
    const exported = await (await admin.client.request("/wp-json/shop/v1/exports/products", { headers: { "X-WP-Nonce": admin.nonce } })).text();
    expect(exported).toMatch(/VIS-HIDDEN[^\n]*,hidden,/);
  });
});

describe("external products in the cart", () => {
  it("the Store API refuses adding one with WooCommerce's not-purchasable error; the product page links out", async () => {
    const created = await api("POST", "products", {
      name: "Zephyrine partner coat",
      type: "external",
      status: "publish",
      regular_price: "80.00",
      external_url: "https://partner.example/coat",
      button_text: "Buy at our partner",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      type: "external",
      external_url: "https://partner.example/coat",
      button_text: "Buy at our partner",
      purchasable: false,
    });
    const page = await html("/product/zephyrine-partner-coat/");
    expect(page).toMatch(/<a class="single_add_to_cart_button button alt" href="https:\/\/partner.example\/coat"[^>]*>Buy at our partner<\/a>/);

    const store = new TestClient(shop.url);
    const cart = await store.get("/wp-json/wc/store/v1/cart");
    const nonce = cart.headers.get("nonce") ?? "";
    const add = await store.request("/wp-json/wc/store/v1/cart/add-item", {
      method: "POST",
      headers: { Nonce: nonce },
      json: { id: created.body.id, quantity: 1 },
    });
    expect(add.status).toBe(400);
    expect(await add.json()).toEqual({
      code: "woocommerce_rest_product_not_purchasable",
      message: "Sorry, “Zephyrine partner coat” cannot be purchased.",
      data: { status: 400 },
    });
    const after = (await (await store.get("/wp-json/wc/store/v1/cart")).json()) as Json;
    expect(after.items).toEqual([]);
  });
});
