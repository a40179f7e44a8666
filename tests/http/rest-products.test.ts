/**
 * wc/v3/products and wc/v3/products/{id}/variations (docs/contract/rest/products.md): every product kind read and
 * created in WooCommerce's shape, list filters and paging, permissions (guest 401, customer 403), refused input
 * that changes nothing, the audit line of each write, and a price change shown by the storefront at once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";

let shop: TestShop;
let admin: SignedIn;
let manager: SignedIn;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "products-admin@example.com", "administrator");
  manager = await signInAs(shop, "products-manager@example.com", "shop_manager");
});
afterAll(async () => shop?.close());

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- WooCommerce's loose JSON in assertions

const api = async (who: SignedIn, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json; headers: Headers }> => {
  const res = await who.client.request(`/wp-json/wc/v3/${path}`, { method, headers: { "X-WP-Nonce": who.nonce }, json: body });
  return { status: res.status, body: (await res.json()) as Json, headers: res.headers };
};

const one = async <T>(sql: string, params: unknown[] = []) => (await shop.services.db.query<T>(sql, params))[0]!;
const idOf = (slug: string) => one<{ id: number }>(`SELECT id FROM products WHERE slug = $1`, [slug]).then((r) => r.id);
const termId = (taxonomy: string, slug: string) =>
  one<{ id: number }>(`SELECT id FROM terms WHERE taxonomy = $1 AND slug = $2`, [taxonomy, slug]).then((r) => r.id);
const mediaId = (slug: string) => one<{ id: number }>(`SELECT id FROM media WHERE slug = $1`, [slug]).then((r) => r.id);

describe("permissions", () => {
  it("a guest gets 401 and a customer 403, with WooCommerce's codes, on every route", async () => {
    const guest = new TestClient(shop.url);
    const list = await guest.get("/wp-json/wc/v3/products");
    expect(list.status).toBe(401);
    expect(await list.json()).toEqual({ code: "woocommerce_rest_cannot_view", message: "Sorry, you cannot list resources.", data: { status: 401 } });
    const create = await guest.request("/wp-json/wc/v3/products", { method: "POST", json: { name: "Nope" } });
    expect(create.status).toBe(401);
    expect(((await create.json()) as Json).code).toBe("woocommerce_rest_cannot_create");

    const customer = await signInAs(shop, "products-customer@example.com", "customer");
    const id = await idOf("silk-necktie");
    for (const [method, path, code] of [
      ["GET", "products", "woocommerce_rest_cannot_view"],
      ["GET", `products/${id}`, "woocommerce_rest_cannot_view"],
      ["POST", "products", "woocommerce_rest_cannot_create"],
      ["PUT", `products/${id}`, "woocommerce_rest_cannot_edit"],
      ["DELETE", `products/${id}`, "woocommerce_rest_cannot_delete"],
      ["GET", `products/${id}/variations`, "woocommerce_rest_cannot_view"],
      ["POST", "products/batch", "woocommerce_rest_cannot_batch"],
    ] as const) {
      const res = await api(customer, method, path, method === "GET" ? undefined : { regular_price: "1.00" });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe(code);
      expect(JSON.stringify(res.body)).not.toContain("Silk Necktie");
    }
    const { price } = await one<{ price: number }>(`SELECT regular_price AS price FROM products WHERE id = $1`, [id]);
    expect(price).not.toBe(100);
  });

  it("a shop manager may read and write (edit_products)", async () => {
    const res = await api(manager, "GET", "products?per_page=1");
    expect(res.status).toBe(200);
  });
});

describe("reading", () => {
  it("lists with paging headers and WooCommerce's full shape", async () => {
    const res = await api(admin, "GET", "products?per_page=5&orderby=id&order=asc");
    expect(res.status).toBe(200);
    const total = Number(res.headers.get("x-wp-total"));
    expect(total).toBeGreaterThan(30);
    expect(res.headers.get("x-wp-totalpages")).toBe(String(Math.ceil(total / 5)));
    expect(res.headers.get("link")).toMatch(/rel="next"/);
    expect(res.body).toHaveLength(5);
    const p = res.body[0] as Json;
    for (const key of [
      "id",
      "name",
      "slug",
      "permalink",
      "date_created",
      "date_created_gmt",
      "date_modified",
      "date_modified_gmt",
      "type",
      "status",
      "featured",
      "catalog_visibility",
      "description",
      "short_description",
      "sku",
      "price",
      "regular_price",
      "sale_price",
      "date_on_sale_from",
      "date_on_sale_to",
      "price_html",
      "on_sale",
      "purchasable",
      "total_sales",
      "virtual",
      "downloadable",
      "downloads",
      "external_url",
      "button_text",
      "manage_stock",
      "stock_quantity",
      "stock_status",
      "backorders",
      "sold_individually",
      "weight",
      "dimensions",
      "reviews_allowed",
      "average_rating",
      "rating_count",
      "related_ids",
      "upsell_ids",
      "cross_sell_ids",
      "parent_id",
      "categories",
      "tags",
      "images",
      "attributes",
      "default_attributes",
      "variations",
      "grouped_products",
      "menu_order",
      "meta_data",
    ])
      expect(p, key).toHaveProperty(key);
    expect(p.date_created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  });

  it("reads a variable product: attributes by term name, variation ids, on sale, a price range", async () => {
    const id = await idOf("cotton-face-mask");
    const res = await api(admin, "GET", `products/${id}`);
    expect(res.status).toBe(200);
    const p = res.body;
    expect(p.type).toBe("variable");
    expect(p.variations.length).toBe(32);
    expect(p.attributes[0]).toMatchObject({ name: "Color", variation: true, visible: true, position: 0 });
    expect(p.attributes[0].id).toBeGreaterThan(0);
    expect(p.attributes[0].options).toContain("Black");
    expect(p.categories).toEqual([{ id: await termId("product_cat", "face-masks"), name: "Face Masks", slug: "face-masks" }]);
    expect(p.images[0]).toMatchObject({ id: await mediaId("cotton-face-mask-front"), name: "cotton-face-mask-front" });
    expect(p.images[0].src).toMatch(/\/media\/cotton-face-mask-front\.svg$/);
    expect(p.price).toMatch(/^\d+\.\d{2}$/);
    expect(p.price_html).toContain("woocommerce-Price-amount");
    expect(p.cross_sell_ids).toEqual([await idOf("mask-filter-inserts"), await idOf("mask-care-kit")]);

    const variations = await api(admin, "GET", `products/${id}/variations?per_page=100&orderby=menu_order&order=asc`);
    expect(variations.status).toBe(200);
    expect(variations.headers.get("x-wp-total")).toBe("32");
    const v = variations.body[0] as Json;
    expect(v).toMatchObject({ type: "variation", parent_id: id, status: "publish", manage_stock: true });
    expect(v.attributes).toEqual([
      { id: p.attributes[0].id, name: "Color", option: expect.any(String) },
      { id: p.attributes[1].id, name: "Size", option: expect.any(String) },
    ]);
    expect(v.image.src).toMatch(/\.svg$/);
    expect(v.permalink).toMatch(/\/product\/cotton-face-mask\/\?attribute_pa_color=/);
  });

  it("reads grouped, bundle, external and downloadable products", async () => {
    const grouped = (await api(admin, "GET", `products/${await idOf("office-essentials")}`)).body;
    expect(grouped.type).toBe("grouped");
    expect(grouped.grouped_products).toEqual([await idOf("silk-necktie"), await idOf("black-everyday-mask"), await idOf("silk-pocket-square")]);

    const bundle = (await api(admin, "GET", `products/${await idOf("groomsmen-gift-box")}`)).body;
    expect(bundle.type).toBe("bundle");
    expect(bundle.bundled_items[0]).toEqual({
      bundled_item_id: 1,
      product_id: await idOf("skinny-cotton-tie"),
      quantity_default: 1,
      optional: false,
      discount: 10,
    });
    expect(bundle.regular_price).toBe("20.00");

    const external = (await api(admin, "GET", `products/${await idOf("designer-silk-tie-partner")}`)).body;
    expect(external).toMatchObject({
      type: "external",
      external_url: "https://atelier.example.com/designer-silk-tie",
      button_text: "Buy at the atelier",
      purchasable: false,
    });

    const download = (await api(admin, "GET", `products/${await idOf("face-mask-sewing-pattern")}`)).body;
    expect(download).toMatchObject({ type: "simple", downloadable: true, virtual: true, regular_price: "4.00", price: "4.00", shipping_required: false });
    expect(download.downloads[0]).toMatchObject({ name: "mask-pattern.pdf" });
  });

  it("filters: type, status, sku, search, category, on_sale, price, stock_status, include with its order", async () => {
    const ids = async (query: string) => ((await api(admin, "GET", `products?per_page=100&${query}`)).body as Json[]).map((p) => p.id as number);
    const variable = await api(admin, "GET", "products?per_page=100&type=variable");
    expect((variable.body as Json[]).every((p) => p.type === "variable")).toBe(true);
    const { n } = await one<{ n: number }>(`SELECT count(*)::int AS n FROM products WHERE type = 'variable' AND status <> 'trash'`);
    expect(variable.body.length).toBe(n);
    expect(await ids("status=draft")).toEqual([await idOf("discontinued-mask")]);
    expect(await ids("sku=SKU-SILK-NECKTIE")).toEqual([await idOf("silk-necktie")]);
    expect(await ids("search=necktie")).toContain(await idOf("silk-necktie"));
    const ties = await ids(`category=${await termId("product_cat", "ties")}`);
    expect(ties).toContain(await idOf("silk-necktie"));
    expect(ties).not.toContain(await idOf("cotton-face-mask"));
    const onSale = (await api(admin, "GET", "products?per_page=100&on_sale=true")).body as Json[];
    expect(onSale.length).toBeGreaterThan(0);
    expect(onSale.every((p) => p.on_sale)).toBe(true);
    const cheap = (await api(admin, "GET", "products?per_page=100&max_price=3.00&orderby=price&order=asc")).body as Json[];
    expect(cheap.length).toBeGreaterThan(0);
    const prices = cheap.map((p) => Number(p.price));
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const out = (await api(admin, "GET", "products?per_page=100&stock_status=outofstock")).body as Json[];
    expect(out.every((p) => p.stock_status === "outofstock")).toBe(true);
    const a = await idOf("silk-necktie");
    const b = await idOf("tie-clip");
    expect(await ids(`include=${b},${a}&orderby=include&order=asc`)).toEqual([b, a]);
    expect(await ids(`include=${b},${a}&exclude=${a}`)).toEqual([b]);
  });

  it("an unknown id is woocommerce_rest_product_invalid_id, a bad parameter rest_invalid_param naming it", async () => {
    const missing = await api(admin, "GET", "products/99999999");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: "woocommerce_rest_product_invalid_id", message: "Invalid ID.", data: { status: 404 } });
    for (const bad of ["per_page=0", "orderby=colour", "status=gone", "min_price=abc", "category=x", "type=mystery", "on_sale=maybe"]) {
      const res = await api(admin, "GET", `products?${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.code).toBe("rest_invalid_param");
      expect(Object.keys(res.body.data.params)).toEqual([bad.split("=")[0]]);
    }
  });
});

describe("writing every kind", () => {
  it("creates a simple product with categories, tags, images and attributes; the storefront shows it at once", async () => {
    const body = {
      name: "API Paisley Tie",
      type: "simple",
      regular_price: "31.50",
      sale_price: "29.00",
      sku: "API-PAISLEY",
      manage_stock: true,
      stock_quantity: 7,
      description: "Made through the API.",
      short_description: "A tie.",
      categories: [{ id: await termId("product_cat", "ties") }],
      tags: [{ id: await termId("product_tag", "silk") }],
      images: [{ id: await mediaId("silk-necktie-front") }],
      attributes: [{ name: "Color", options: ["Red", "navy"], visible: true, variation: false }],
      weight: "0.2",
      dimensions: { length: "150", width: "8", height: "" },
      meta_data: [{ key: "supplier", value: "Atelier" }],
    };
    const res = await api(admin, "POST", "products", body);
    expect(res.status).toBe(201);
    const p = res.body;
    expect(p).toMatchObject({
      name: "API Paisley Tie",
      slug: "api-paisley-tie",
      type: "simple",
      status: "publish",
      price: "29.00",
      regular_price: "31.50",
      sale_price: "29.00",
      on_sale: true,
      sku: "API-PAISLEY",
      manage_stock: true,
      stock_quantity: 7,
      stock_status: "instock",
      weight: "0.2",
      dimensions: { length: "150", width: "8", height: "" },
      meta_data: [{ id: 1, key: "supplier", value: "Atelier" }],
    });
    expect(p.attributes[0]).toMatchObject({ name: "Color", options: ["Red", "Navy"], variation: false });
    expect(p.images.map((i: Json) => i.id)).toEqual([await mediaId("silk-necktie-front")]);
    const page = await new TestClient(shop.url).get("/product/api-paisley-tie/");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("API Paisley Tie");
    expect(html).toContain("29.00");
    // The same slug again is made unique, as WordPress does.
    const again = await api(admin, "POST", "products", { name: "API Paisley Tie", regular_price: "1.00" });
    expect(again.body.slug).toBe("api-paisley-tie-2");
  });

  it("creates a variable product and its variations; a variation of another product is refused", async () => {
    const created = await api(admin, "POST", "products", {
      name: "API Variable Mask",
      type: "variable",
      categories: [{ id: await termId("product_cat", "face-masks") }],
      attributes: [
        { id: 1, options: ["Black", "Red"], variation: true },
        { name: "Size", options: ["S", "M"], variation: true },
      ],
    });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    const v1 = await api(admin, "POST", `products/${id}/variations`, {
      regular_price: "5.00",
      sku: "API-VAR-BLACK-S",
      manage_stock: true,
      stock_quantity: 4,
      attributes: [
        { id: 1, option: "Black" },
        { name: "Size", option: "S" },
      ],
      image: { id: await mediaId("silk-necktie-front") },
    });
    expect(v1.status).toBe(201);
    expect(v1.body).toMatchObject({
      regular_price: "5.00",
      price: "5.00",
      stock_quantity: 4,
      attributes: [
        { name: "Color", option: "Black" },
        { name: "Size", option: "S" },
      ],
    });
    const v2 = await api(admin, "POST", `products/${id}/variations`, { regular_price: "6.00", sale_price: "4.50", attributes: [{ id: 1, option: "Red" }] });
    expect(v2.status).toBe(201);
    expect(v2.body.on_sale).toBe(true);
    const parent = (await api(admin, "GET", `products/${id}`)).body;
    expect(parent.variations).toEqual([v1.body.id, v2.body.id]);
    expect(parent.price).toBe("4.50");
    expect(parent.on_sale).toBe(true);
    expect(parent.price_html).toContain("&ndash;");

    const update = await api(admin, "PUT", `products/${id}/variations/${v1.body.id}`, { regular_price: "3.00" });
    expect(update.status).toBe(200);
    expect((await api(admin, "GET", `products/${id}`)).body.price).toBe("3.00");

    const other = await idOf("silk-face-mask");
    for (const [method, body] of [
      ["GET", undefined],
      ["PUT", { regular_price: "1.00" }],
      ["DELETE", undefined],
    ] as const) {
      const res = await api(admin, method, `products/${other}/variations/${v1.body.id}${method === "DELETE" ? "?force=true" : ""}`, body);
      expect(res.status, method).toBe(404);
      expect(res.body.code).toBe("woocommerce_rest_product_variation_invalid_id");
    }
    const priceless = await api(admin, "POST", `products/${id}/variations`, { attributes: [{ id: 1, option: "Red" }] });
    expect(priceless.status).toBe(400);
    expect(Object.keys(priceless.body.data.params)).toEqual(["regular_price"]);
    const badOption = await api(admin, "POST", `products/${id}/variations`, { regular_price: "1.00", attributes: [{ id: 1, option: "Plaid" }] });
    expect(badOption.status).toBe(400);
    expect(badOption.body.data.params).toHaveProperty("attributes");

    const noTrash = await api(admin, "DELETE", `products/${id}/variations/${v2.body.id}`);
    expect(noTrash.status).toBe(501);
    expect(noTrash.body.code).toBe("woocommerce_rest_trash_not_supported");
    const gone = await api(admin, "DELETE", `products/${id}/variations/${v2.body.id}?force=true`);
    expect(gone.status).toBe(200);
    expect(gone.body.id).toBe(v2.body.id);
    expect((await api(admin, "GET", `products/${id}/variations/${v2.body.id}`)).status).toBe(404);

    const page = await new TestClient(shop.url).get("/product/api-variable-mask/");
    expect(page.status).toBe(200);
  });

  it("creates grouped, external, bundle and downloadable products", async () => {
    const tie = await idOf("skinny-cotton-tie");
    const clip = await idOf("tie-clip");
    const grouped = await api(admin, "POST", "products", { name: "API Group", type: "grouped", grouped_products: [tie, clip] });
    expect(grouped.status).toBe(201);
    expect(grouped.body.grouped_products).toEqual([tie, clip]);
    expect(grouped.body.price).not.toBe("");

    const external = await api(admin, "POST", "products", {
      name: "API Partner Tie",
      type: "external",
      regular_price: "99.00",
      external_url: "https://partner.example.com/tie",
      button_text: "Buy there",
    });
    expect(external.status).toBe(201);
    expect(external.body).toMatchObject({ type: "external", external_url: "https://partner.example.com/tie", button_text: "Buy there", price: "99.00" });
    const noUrl = await api(admin, "POST", "products", { name: "API Partner", type: "external" });
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.data.params).toHaveProperty("external_url");

    const bundle = await api(admin, "POST", "products", {
      name: "API Box",
      type: "bundle",
      regular_price: "10.00",
      manage_stock: true,
      stock_quantity: 3,
      bundled_items: [
        { product_id: tie, quantity_default: 1, discount: 0 },
        { product_id: clip, optional: true },
      ],
    });
    expect(bundle.status).toBe(201);
    expect(bundle.body.bundled_items).toEqual([
      { bundled_item_id: 1, product_id: tie, quantity_default: 1, optional: false, discount: 0 },
      { bundled_item_id: 2, product_id: clip, quantity_default: 1, optional: true, discount: 0 },
    ]);
    const tiePrice = Number((await api(admin, "GET", `products/${tie}`)).body.price);
    // The box plus its mandatory item: the listing's price (docs/contract/storefront.md §3 'Product kinds').
    expect(Number(bundle.body.price)).toBeCloseTo(10 + tiePrice, 2);
    expect((await new TestClient(shop.url).get("/product/api-box/")).status).toBe(200);

    const download = await api(admin, "POST", "products", {
      name: "API Pattern",
      type: "simple",
      downloadable: true,
      regular_price: "2.50",
      downloads: [{ name: "pattern.pdf", file: "https://files.example.com/pattern.pdf" }],
    });
    expect(download.status).toBe(201);
    expect(download.body).toMatchObject({
      type: "simple",
      downloadable: true,
      price: "2.50",
      // A new file gets a fresh random id (decision 0041: a removed file's permissions never open another).
      downloads: [{ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: "pattern.pdf", file: "https://files.example.com/pattern.pdf" }],
    });
    const { type } = await one<{ type: string }>(`SELECT type FROM products WHERE id = $1`, [download.body.id]);
    expect(type).toBe("downloadable");
    expect((await new TestClient(shop.url).get("/product/api-pattern/")).status).toBe(200);
  });

  it("products created at the same moment with one name each get their own slug", async () => {
    const made = await Promise.all(Array.from({ length: 6 }, () => api(admin, "POST", "products", { name: "Same Moment Tie", regular_price: "9.00" })));
    expect(made.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    const slugs = made.map((r) => r.body.slug as string);
    expect(new Set(slugs).size).toBe(6);
    expect(slugs).toContain("same-moment-tie");
  });

  it("a published product needs a price (the cart would charge none); a draft may wait for one", async () => {
    const published = await api(admin, "POST", "products", { name: "API Priceless" });
    expect(published.status).toBe(400);
    expect(Object.keys(published.body.data.params)).toEqual(["regular_price"]);
    const draft = await api(admin, "POST", "products", { name: "API Priceless", status: "draft" });
    expect(draft.status).toBe(201);
    expect(draft.body).toMatchObject({ status: "draft", price: "", regular_price: "", purchasable: false, price_html: "" });
    const publish = await api(admin, "PUT", `products/${draft.body.id}`, { status: "publish" });
    expect(publish.status).toBe(400);
    const priced = await api(admin, "PUT", `products/${draft.body.id}`, { status: "publish", regular_price: "8.00" });
    expect(priced.body).toMatchObject({ status: "publish", price: "8.00", purchasable: true });
  });

  it("deletes: to the trash, then 410, then for good with force=true", async () => {
    const made = await api(admin, "POST", "products", { name: "API Doomed", regular_price: "1.00" });
    const id = made.body.id as number;
    const trashed = await api(admin, "DELETE", `products/${id}`);
    expect(trashed.status).toBe(200);
    expect(trashed.body.status).toBe("trash");
    expect((await new TestClient(shop.url).get("/product/api-doomed/")).status).toBe(404);
    const twice = await api(admin, "DELETE", `products/${id}`);
    expect(twice.status).toBe(410);
    expect(twice.body.code).toBe("woocommerce_rest_already_trashed");
    const forced = await api(admin, "DELETE", `products/${id}?force=true`);
    expect(forced.status).toBe(200);
    expect(forced.body.id).toBe(id);
    expect((await api(admin, "GET", `products/${id}`)).status).toBe(404);
  });

  it("a batch creates, updates and deletes, with an error per refused item", async () => {
    const made = await api(admin, "POST", "products", { name: "API Batch Old", regular_price: "1.00" });
    const res = await api(admin, "POST", "products/batch", {
      create: [
        { name: "API Batch New", regular_price: "2.00" },
        { name: "API Batch Bad", regular_price: "x" },
      ],
      update: [{ id: made.body.id, regular_price: "3.00" }],
      delete: [made.body.id],
    });
    expect(res.status).toBe(200);
    expect(res.body.create[0].name).toBe("API Batch New");
    expect(res.body.create[1].error.code).toBe("rest_invalid_param");
    expect(res.body.update[0].price).toBe("3.00");
    expect(res.body.delete[0].id).toBe(made.body.id);
  });
});

describe("refused input changes nothing", () => {
  it("names the field: prices, sale above regular, sale dates, stock, unknown categories, SKU, images", async () => {
    const id = await idOf("wool-knit-tie");
    const before = (await api(admin, "GET", `products/${id}`)).body;
    const auditCount = () => one<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE object_type = 'product' AND object_id = $1`, [String(id)]);
    const auditBefore = await auditCount();
    const taken = await idOf("silk-necktie");
    const cases: [Json, string, string][] = [
      [{ regular_price: "abc" }, "rest_invalid_param", "regular_price"],
      [{ regular_price: "-1.00" }, "rest_invalid_param", "regular_price"],
      [{ regular_price: 12 }, "rest_invalid_param", "regular_price"],
      [{ regular_price: "1.999" }, "rest_invalid_param", "regular_price"],
      [{ regular_price: "10.00", sale_price: "12.00" }, "rest_invalid_param", "sale_price"],
      [{ sale_price: "999.00" }, "rest_invalid_param", "sale_price"],
      [{ date_on_sale_from: "2027-02-01T00:00:00", date_on_sale_to: "2027-01-01T00:00:00" }, "rest_invalid_param", "date_on_sale_to"],
      [{ date_on_sale_from: "tomorrow" }, "rest_invalid_param", "date_on_sale_from"],
      [{ stock_quantity: 1.5 }, "rest_invalid_param", "stock_quantity"],
      [{ stock_quantity: "many" }, "rest_invalid_param", "stock_quantity"],
      [{ status: "gone" }, "rest_invalid_param", "status"],
      [{ categories: [{ id: 99999999 }] }, "rest_invalid_param", "categories"],
      [{ tags: [{ id: await termId("product_cat", "ties") }] }, "rest_invalid_param", "tags"],
      [{ upsell_ids: [99999999] }, "rest_invalid_param", "upsell_ids"],
      [{ backorders: "notify" }, "rest_invalid_param", "backorders"],
      [{ catalog_visibility: "invisible" }, "rest_invalid_param", "catalog_visibility"],
      [{ type: "variable" }, "rest_invalid_param", "type"],
      [{ name: "x".repeat(201) }, "rest_invalid_param", "name"],
    ];
    for (const [body, code, field] of cases) {
      const res = await api(admin, "PUT", `products/${id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code, JSON.stringify(body)).toBe(code);
      expect(Object.keys(res.body.data.params), JSON.stringify(body)).toEqual([field]);
    }
    const sku = await api(admin, "PUT", `products/${id}`, { sku: "SKU-SILK-NECKTIE", regular_price: "1.00" });
    expect(sku.status).toBe(400);
    expect(sku.body).toMatchObject({ code: "product_invalid_sku", message: "Invalid or duplicated SKU.", data: { status: 400, resource_id: taken } });
    const variationSku = await api(admin, "PUT", `products/${id}`, { sku: "COTTON-FACE-MASK-BLACK-S" });
    expect(variationSku.body.code).toBe("product_invalid_sku");
    const url = await api(admin, "PUT", `products/${id}`, { images: [{ src: "https://example.com/tie.jpg" }] });
    expect(url.status).toBe(400);
    expect(url.body.code).toBe("woocommerce_product_image_upload_error");
    const unknownImage = await api(admin, "PUT", `products/${id}`, { images: [{ id: 99999999 }] });
    expect(unknownImage.status).toBe(400);
    expect(unknownImage.body).toMatchObject({ code: "woocommerce_product_invalid_image_id", message: "#99999999 is an invalid image ID." });
    const bad = await api(admin, "PUT", "products/99999999", { regular_price: "1.00" });
    expect(bad.status).toBe(404);
    expect(bad.body.code).toBe("woocommerce_rest_product_invalid_id");
    const after = (await api(admin, "GET", `products/${id}`)).body;
    expect(after).toEqual(before);
    // Nothing was written, so nothing was audited (the audit line is in the write's transaction).
    expect(await auditCount()).toEqual(auditBefore);
  });
});

describe("the storefront and the audit log", () => {
  it("a price change shows on the product page and /shop/ right after, and the audit log has before and after", async () => {
    const id = await idOf("striped-club-tie");
    // First in the shop's default order, so it is on /shop/'s first page.
    const first = await api(admin, "PUT", `products/${id}`, { menu_order: -1000 });
    expect(first.status).toBe(200);
    const shopper = new TestClient(shop.url);
    expect(await (await shopper.get("/product/striped-club-tie/")).text()).not.toContain("17.77");
    const res = await api(admin, "PATCH", `products/${id}`, { regular_price: "17.77" });
    expect(res.status).toBe(200);
    expect(res.body.price).toBe("17.77");
    expect(await (await shopper.get("/product/striped-club-tie/")).text()).toContain("17.77");
    const listing = await (await shopper.get("/shop/")).text();
    expect(listing).toContain("Striped Club Tie");
    expect(listing).toContain("17.77");

    const log = await admin.client.get(`/wp-json/shop/v1/audit-log?object_type=product&object_id=${id}`, { headers: { "X-WP-Nonce": admin.nonce } });
    const entries = (await log.json()) as Json[];
    expect(entries[0]).toMatchObject({ action: "update", actor: { id: admin.id, via: "cookie" }, object: { type: "product", id: String(id) } });
    expect(entries[0]!.changes.regular_price).toEqual({ before: "27.00", after: "17.77" });
    expect(entries[0]!.changes.price).toEqual({ before: "27.00", after: "17.77" });
    expect(Object.keys(entries[0]!.changes).sort()).toEqual(["price", "price_html", "regular_price"]);
  });

  it("a product put in draft leaves the storefront at once", async () => {
    const id = await idOf("linen-summer-tie");
    expect((await new TestClient(shop.url).get("/product/linen-summer-tie/")).status).toBe(200);
    expect((await api(admin, "PUT", `products/${id}`, { status: "draft" })).body.status).toBe("draft");
    expect((await new TestClient(shop.url).get("/product/linen-summer-tie/")).status).toBe(404);
  });
});
