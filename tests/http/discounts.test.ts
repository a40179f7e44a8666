import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient, pageGlobal } from "../support/client.ts";
import { SITE_CONFIG } from "../../core/config/site-config.ts";

let shop: TestShop;
let client: TestClient;
let nonce: string;
const ids: Record<string, number> = {};
const variations: Record<string, { id: number; regular: number; sale: number | null }[]> = {};

const AJAX = "/wp-admin/admin-ajax.php";
const amount = (n: string) => `<span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">$</span>${n}</bdi></span>`;

beforeAll(async () => {
  shop = await startTestShop();
  client = new TestClient(shop.url);
  const html = await (await client.get("/product/black-everyday-mask/")).text();
  nonce = String(pageGlobal(html, "awdr_params").nonce);
  const rows = await shop.services.db.query<{ id: number; slug: string }>(`SELECT id, slug FROM products`);
  for (const r of rows) ids[r.slug] = r.id;
  for (const slug of ["silk-necktie", "cotton-face-mask", "velvet-bow-tie"]) {
    variations[slug] = (
      await shop.services.db.query<{ id: number; regular_price: number; sale_price: number | null }>(
        `SELECT id, regular_price, sale_price FROM variations WHERE product_id = $1 ORDER BY menu_order, id`,
        [ids[slug]],
      )
    ).map((v) => ({ id: v.id, regular: v.regular_price, sale: v.sale_price }));
  }
});
afterAll(async () => shop?.close());

const priceHtml = (product_id: number | string, qty: number | string, extra: Record<string, string> = {}) =>
  client.post(AJAX, { action: "wdr_ajax", method: "get_price_html", product_id: String(product_id), qty: String(qty), awdr_nonce: nonce, ...extra });

describe("awdr_params in pages", () => {
  it("every page carries the add-on configuration with the spec's values and a working nonce", async () => {
    const html = await (await client.get("/product/black-everyday-mask/")).text();
    const params = pageGlobal(html, "awdr_params");
    expect(params).toMatchObject({
      ajaxurl: "/wp-admin/admin-ajax.php",
      enable_update_price_with_qty: "show_when_matched",
      refresh_order_review: "0",
      custom_target_simple_product: "div.product p.price",
      custom_target_variable_product: "div.product .woocommerce-variation-price",
      awdr_opacity_to_bulk_table: "0.5",
      awdr_dynamic_bulk_table_status: "0",
      awdr_dynamic_bulk_table_off: "on",
      custom_simple_product_id_selector: "",
      custom_variable_product_id_selector: "",
      js_init_trigger: "",
    });
    expect(params.nonce).toMatch(/^[0-9a-f]{10}$/);
    // The product page is kept by the page cache and carries the anonymous nonce; the cart page this browser's own
    // (docs/decisions/0028-page-cache.md): both work for this browser.
    const cart = await (await client.get("/cart/")).text();
    for (const awdrNonce of [params.nonce, pageGlobal(cart, "awdr_params").nonce]) {
      const res = await client.post(AJAX, {
        action: "wdr_ajax",
        method: "get_price_html",
        product_id: String(ids["black-everyday-mask"]),
        qty: "6",
        awdr_nonce: String(awdrNonce),
      });
      expect(res.status).toBe(200);
    }
  });
});

describe("wdr_ajax get_price_html", () => {
  it("answers the mask promotion's unit prices from 1 to 13 masks (show_when_matched)", async () => {
    const expected: Record<number, string | null> = {
      1: null,
      5: null,
      // $2.50 prints as the cart prints it, "$3" (0 decimals): not struck through against an identical "$3".
      6: amount("3"),
      11: amount("3"),
      12: `<del>${amount("3")}</del> <ins>${amount("2")}</ins>`,
      13: `<del>${amount("3")}</del> <ins>${amount("2")}</ins>`,
    };
    for (const [qty, html] of Object.entries(expected)) {
      const res = await priceHtml(ids["black-everyday-mask"]!, qty);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { success: boolean; data: { price_html?: string; original_price_html: string } };
      expect(body.success).toBe(true);
      expect(body.data.original_price_html).toBe(amount("3"));
      if (html === null) expect(body.data).not.toHaveProperty("price_html");
      else expect(body.data.price_html).toBe(html);
    }
  });

  it("show_dynamically always answers price_html, even when no rule matched", async () => {
    const original = shop.services.config;
    shop.services.config = { ...original, discounts: { ...original.discounts, enableUpdatePriceWithQty: "show_dynamically" } };
    try {
      const body = (await (await priceHtml(ids["black-everyday-mask"]!, 1)).json()) as { data: { price_html?: string; original_price_html: string } };
      expect(body.data.price_html).toBe(amount("3"));
      expect(body.data.original_price_html).toBe(amount("3"));
    } finally {
      shop.services.config = original;
    }
  });

  it("prices a variation from the database (tie multi-buy at 2 and 4), whatever price the browser sends", async () => {
    const v = variations["silk-necktie"]!.find((x) => x.sale === null)!;
    const one = (await (await priceHtml(v.id, 1, { price: "1", custom_price: "1" })).json()) as { data: Record<string, string> };
    expect(one.data).toEqual({ original_price_html: amount("35") });
    const two = (await (await priceHtml(v.id, 2)).json()) as { data: Record<string, string> };
    expect(two.data.price_html).toBe(`<del>${amount("35")}</del> <ins>${amount("32")}</ins>`);
    const four = (await (await priceHtml(v.id, 4)).json()) as { data: Record<string, string> };
    expect(four.data.price_html).toBe(`<del>${amount("35")}</del> <ins>${amount("28")}</ins>`);
  });

  it("a product percentage rule applies at any quantity", async () => {
    const body = (await (await priceHtml(ids["travel-tie-case"]!, 1)).json()) as { data: Record<string, string> };
    expect(body.data.price_html).toBe(`<del>${amount("19")}</del> <ins>${amount("15")}</ins>`);
  });
});

describe("the product page prices what the cart will charge", () => {
  it("masks already in the cart count toward the tier (3 in the cart + 3 more = 6 at $2.50)", async () => {
    const shopper = new TestClient(shop.url);
    const page = await (await shopper.get("/product/navy-everyday-mask/")).text();
    const shopperNonce = String(pageGlobal(page, "awdr_params").nonce);
    const price = async (qty: number) =>
      (
        (await (
          await shopper.post(AJAX, {
            action: "wdr_ajax",
            method: "get_price_html",
            product_id: String(ids["navy-everyday-mask"]),
            qty: String(qty),
            awdr_nonce: shopperNonce,
          })
        ).json()) as { data: { price_html?: string } }
      ).data;
    expect(await price(3)).not.toHaveProperty("price_html");
    const added = await shopper.post("/?wc-ajax=add_to_cart", { product_id: String(ids["black-everyday-mask"]), quantity: "3" });
    expect(added.status).toBe(200);
    expect((await price(3)).price_html).toBe(amount("3"));
    expect((await price(2)).price_html).toBeUndefined();
    const detail = (await (
      await shopper.post(AJAX, { action: "awdr_get_product_discount", product_id: String(ids["navy-everyday-mask"]), qty: "9", awdr_nonce: shopperNonce })
    ).json()) as { data: { discounted_price: number } };
    expect(detail.data.discounted_price).toBe(200);
  });
});

describe("wdr_ajax get_variable_product_bulk_table", () => {
  it("answers the tiers table of a variation, and an empty table for a product without tiers", async () => {
    const mask = variations["cotton-face-mask"]!.find((x) => x.sale === null)!;
    const res = await client.post(AJAX, { action: "wdr_ajax", method: "get_variable_product_bulk_table", product_id: String(mask.id), awdr_nonce: nonce });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; data: { bulk_table: string } };
    expect(body.success).toBe(true);
    expect(body.data.bulk_table).toContain('<table id="sort_customizable_table" class="wdr_bulk_table_msg sar-table">');
    expect(body.data.bulk_table).toContain("6 - 11");
    expect(body.data.bulk_table).toContain("12 +");
    expect(body.data.bulk_table).toContain(amount("3"));
    expect(body.data.bulk_table).not.toContain(amount("2.50"));
    const none = (await (
      await client.post(AJAX, { action: "wdr_ajax", method: "get_variable_product_bulk_table", product_id: String(ids["mask-lanyard"]), awdr_nonce: nonce })
    ).json()) as { data: { bulk_table: string } };
    expect(none.data.bulk_table).toBe("");
  });
});

describe("awdr_get_product_discount", () => {
  it("answers the documented detail in cents; custom_price only feeds the preview", async () => {
    const res = await client.post(AJAX, {
      action: "awdr_get_product_discount",
      product_id: String(ids["black-everyday-mask"]),
      qty: "6",
      custom_price: "4.00",
      awdr_nonce: nonce,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; data: Record<string, unknown> };
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({
      product_id: ids["black-everyday-mask"],
      qty: 6,
      initial_price: 300,
      discounted_price: 250,
      initial_price_total: 1800,
      discounted_price_total: 1500,
      total_discount: 300,
      has_discount: true,
      applied_rules: [{ code: "mask-multibuy", discount: 300 }],
      custom_price_preview: { custom_price: 400, discounted_price: 250, discounted_price_total: 1500, total_discount: 900 },
    });
    // The same call without custom_price is priced from the catalogue, and the preview is gone.
    const plain = (await (
      await client.post(AJAX, { action: "awdr_get_product_discount", product_id: String(ids["black-everyday-mask"]), qty: "6", awdr_nonce: nonce })
    ).json()) as { data: Record<string, unknown> };
    expect(plain.data.discounted_price_total).toBe(1500);
    expect(plain.data).not.toHaveProperty("custom_price_preview");
  });
});

describe("one money format: the discount endpoints print an amount as the cart does (issue 20)", () => {
  it('the travel tie case\'s $15.20 prints "$15" in get_price_html, awdr_get_product_discount and the cart', async () => {
    const shopper = new TestClient(shop.url);
    const page = await (await shopper.get("/product/travel-tie-case/")).text();
    const shopperNonce = String(pageGlobal(page, "awdr_params").nonce);
    const call = async (fields: Record<string, string>) =>
      (
        (await (await shopper.post(AJAX, { product_id: String(ids["travel-tie-case"]), qty: "1", awdr_nonce: shopperNonce, ...fields })).json()) as {
          data: Record<string, unknown>;
        }
      ).data;
    const price = await call({ action: "wdr_ajax", method: "get_price_html" });
    expect(price.price_html).toBe(`<del>${amount("19")}</del> <ins>${amount("15")}</ins>`);
    const detail = await call({ action: "awdr_get_product_discount" });
    expect(detail).toMatchObject({ discounted_price: 1520, discounted_price_html: amount("15"), initial_price_html: amount("19") });
    // The cart charges 1520 cents for the same unit and prints it the same way.
    expect((await shopper.post("/?wc-ajax=add_to_cart", { product_id: String(ids["travel-tie-case"]), quantity: "1" })).status).toBe(200);
    const cart = await (await shopper.get("/cart/")).text();
    const subtotal = /<td class="product-subtotal"[^>]*>([\s\S]*?)<\/td>/.exec(cart)![1]!;
    expect(subtotal).toContain(amount("15"));
    // The bulk-table endpoint prints in the same format: no amount with cents anywhere.
    const mask = variations["cotton-face-mask"]!.find((x) => x.sale === null)!;
    const table = await call({ action: "wdr_ajax", method: "get_variable_product_bulk_table", product_id: String(mask.id) });
    expect(String(table.bulk_table)).not.toMatch(/\d\.\d\d<\/bdi>/);
  });
});

describe("bad input: the admin-ajax error shape, a 4xx status, nothing changed", () => {
  const mask = () => String(ids["black-everyday-mask"]);
  const cases: [string, () => Record<string, string>, number, string][] = [
    ["missing nonce", () => ({ action: "wdr_ajax", method: "get_price_html", product_id: mask(), qty: "1" }), 403, "invalid_nonce"],
    ["bad nonce", () => ({ action: "wdr_ajax", method: "get_price_html", product_id: mask(), qty: "1", awdr_nonce: "0123456789" }), 403, "invalid_nonce"],
    ["non-numeric qty", () => ({ action: "wdr_ajax", method: "get_price_html", product_id: mask(), qty: "six", awdr_nonce: nonce }), 400, "invalid_quantity"],
    ["negative qty", () => ({ action: "wdr_ajax", method: "get_price_html", product_id: mask(), qty: "-1", awdr_nonce: nonce }), 400, "invalid_quantity"],
    ["zero qty", () => ({ action: "awdr_get_product_discount", product_id: mask(), qty: "0", awdr_nonce: nonce }), 400, "invalid_quantity"],
    ["fractional qty", () => ({ action: "wdr_ajax", method: "get_price_html", product_id: mask(), qty: "1.5", awdr_nonce: nonce }), 400, "invalid_quantity"],
    ["absurd qty", () => ({ action: "wdr_ajax", method: "get_price_html", product_id: mask(), qty: "99999999", awdr_nonce: nonce }), 400, "invalid_quantity"],
    ["missing qty", () => ({ action: "wdr_ajax", method: "get_price_html", product_id: mask(), awdr_nonce: nonce }), 400, "invalid_quantity"],
    ["unknown product", () => ({ action: "wdr_ajax", method: "get_price_html", product_id: "99999999", qty: "1", awdr_nonce: nonce }), 404, "unknown_product"],
    [
      "draft product",
      () => ({ action: "wdr_ajax", method: "get_price_html", product_id: String(ids["discontinued-mask"]), qty: "1", awdr_nonce: nonce }),
      404,
      "unknown_product",
    ],
    ["product id 0", () => ({ action: "wdr_ajax", method: "get_variable_product_bulk_table", product_id: "0", awdr_nonce: nonce }), 400, "invalid_product"],
    ["product id not a number", () => ({ action: "awdr_get_product_discount", product_id: "1 OR 1=1", qty: "1", awdr_nonce: nonce }), 400, "invalid_product"],
    [
      "a variation of another product",
      () => ({
        action: "wdr_ajax",
        method: "get_price_html",
        product_id: String(variations["silk-necktie"]![0]!.id),
        parent_id: String(ids["cotton-face-mask"]),
        qty: "1",
        awdr_nonce: nonce,
      }),
      400,
      "wrong_parent",
    ],
    [
      "a variable product without a variation",
      () => ({ action: "wdr_ajax", method: "get_price_html", product_id: String(ids["cotton-face-mask"]), qty: "1", awdr_nonce: nonce }),
      400,
      "choose_variation",
    ],
    [
      "a grouped product",
      () => ({ action: "awdr_get_product_discount", product_id: String(ids["office-essentials"]), qty: "1", awdr_nonce: nonce }),
      400,
      "not_priceable",
    ],
    [
      "bad custom_price",
      () => ({ action: "awdr_get_product_discount", product_id: mask(), qty: "1", custom_price: "-4", awdr_nonce: nonce }),
      400,
      "invalid_custom_price",
    ],
    ["unknown method", () => ({ action: "wdr_ajax", method: "drop_tables", product_id: mask(), awdr_nonce: nonce }), 400, "invalid_method"],
  ];
  for (const [name, form, status, code] of cases) {
    it(name, async () => {
      const res = await client.post(AJAX, form());
      expect(res.status).toBe(status);
      expect(res.headers.get("content-type")).toContain("application/json");
      const body = (await res.json()) as { success: boolean; data: { code: string; message: string } };
      expect(body.success).toBe(false);
      expect(body.data.code).toBe(code);
      expect(body.data.message.length).toBeGreaterThan(5);
    });
  }

  it("a nonce from another browser is refused", async () => {
    // A browser whose page is rendered for it gets its own nonces: here one with a view choice, a cookie the page
    // cache does not treat as inert. (A kept page — a cart shopper's too — carries the anonymous ones, which any
    // guest may send, like WordPress's logged-out nonces: docs/decisions/0028-page-cache.md, 0042.)
    const owner = new TestClient(shop.url);
    await owner.post("/?wc-ajax=add_to_cart", { product_id: mask(), quantity: "1" });
    owner.cookies.set("shop_view", { value: "grid", attributes: "" });
    const own = String(pageGlobal(await (await owner.get("/product/black-everyday-mask/")).text(), "awdr_params").nonce);
    expect(own).not.toBe(nonce);
    const stranger = new TestClient(shop.url);
    await stranger.get("/cart/"); // a browser key of its own
    const res = await stranger.post(AJAX, { action: "wdr_ajax", method: "get_price_html", product_id: mask(), qty: "6", awdr_nonce: own });
    expect(res.status).toBe(403);
  });

  it("the calls change nothing in the catalogue", async () => {
    const [row] = await shop.services.db.query<{ regular_price: number; sale_price: number | null }>(
      `SELECT regular_price, sale_price FROM products WHERE id = $1`,
      [ids["black-everyday-mask"]],
    );
    expect(row).toEqual({ regular_price: 300, sale_price: null });
  });
});

describe("product pages and the mask archive", () => {
  it("a tie's page server-renders its bulk-discount table", async () => {
    const html = await (await client.get("/product/wool-knit-tie/")).text();
    expect(html).toMatch(/<div class="awdr-bulk-customizable-table"[^>]*><table id="sort_customizable_table"/);
    expect(html).toContain("2 ties: 10% off");
    expect(html).toContain("4 ties: 20% off");
  });

  it("a mask's page shows the promotion text and the mask tiers; a product without tiers has an empty table", async () => {
    const html = await (await client.get("/product/black-everyday-mask/")).text();
    for (const line of SITE_CONFIG.shop.maskPromotion) expect(html).toContain(line);
    expect(html).toContain("6 - 11");
    const lanyard = await (await client.get("/product/mask-lanyard/")).text();
    expect(lanyard).toMatch(/<div class="awdr-bulk-customizable-table"[^>]*><\/div>/);
    expect(lanyard).not.toContain("awdr-promotion");
  });

  it("the Face Masks archive shows the promotion text", async () => {
    const html = await (await client.get("/product-category/face-masks/")).text();
    expect(html).toContain("6 masks for $15, 12 masks for $24, free shipping on all mask purchases.");
  });
});
