/**
 * WooCommerce's Store API (docs/contract/wire.md §8): products, the cart, the checkout, the Nonce and Cart-Token
 * rules, and one headless checkout done the way a cookie-less client does it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { CARD, billing, cardFields, counts, openCheckout, productWithStock, shopperWithCart, submitCheckout } from "./checkout-support.ts";

let shop: TestShop;
let productId: number;
let scarceId: number;

const API = "/wp-json/wc/store/v1";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire shapes read loosely in tests
type Json = any;

/** A headless client: no cookies at all, only the Cart-Token it was given last. */
class Headless {
  token: string | null = null;
  constructor(readonly base: string) {}
  async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ res: Response; body: Json }> {
    const h: Record<string, string> = { Accept: "application/json", ...headers };
    if (this.token) h["Cart-Token"] = this.token;
    if (body !== undefined) h["Content-Type"] = "application/json";
    const res = await fetch(this.base + API + path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
    const token = res.headers.get("Cart-Token");
    if (token) this.token = token;
    const text = await res.text();
    return { res, body: text ? JSON.parse(text) : null };
  }
}

const ADDRESS = {
  first_name: "Ada",
  last_name: "Lovelace",
  company: "",
  address_1: "1 Analytical Way",
  address_2: "",
  city: "Springfield",
  state: "IL",
  postcode: "62701",
  country: "US",
  phone: "555 123 4567",
  email: "ada.headless@example.com",
};

const ATTRIBUTION = {
  source_type: "utm",
  referrer: "https://news.example/",
  utm_campaign: "winter",
  utm_source: "newsletter",
  utm_medium: "email",
  utm_content: "(none)",
  session_entry: "https://shop.example/?utm_source=newsletter",
  session_start_time: "2026-11-25 08:00:00",
  session_pages: "4",
  session_count: "2",
  user_agent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64)",
};

const card = (number = "4242424242424242") => ({
  payment_method: "sandbox_credit_card",
  payment_data: [
    { key: `${CARD}-account-number`, value: number },
    { key: `${CARD}-expiry`, value: "12 / 34" },
    { key: `${CARD}-csc`, value: "123" },
  ],
});

beforeAll(async () => {
  shop = await startTestShop();
  productId = await productWithStock(shop, "silk-pocket-square", 1000, 1500);
  const [row] = await shop.services.db.query<{ slug: string }>(
    `SELECT slug FROM products WHERE type = 'simple' AND status = 'publish' AND slug <> 'silk-pocket-square' ORDER BY id LIMIT 1`,
  );
  scarceId = await productWithStock(shop, row!.slug, 1, 2000);
});
afterAll(async () => shop?.close());

describe("REST index and products", () => {
  it("lists the Store API namespaces; products page with X-WP-Total, X-WP-TotalPages, Link and minor-unit prices", async () => {
    const index = (await (await fetch(`${shop.url}/wp-json/`)).json()) as Json;
    expect(index.namespaces).toEqual(expect.arrayContaining(["wc/store/v1", "wc/store"]));

    const res = await fetch(`${shop.url}${API}/products?per_page=2&orderby=price&order=desc`);
    expect(res.status).toBe(200);
    const total = Number(res.headers.get("X-WP-Total"));
    expect(total).toBeGreaterThan(2);
    expect(Number(res.headers.get("X-WP-TotalPages"))).toBe(Math.ceil(total / 2));
    expect(res.headers.get("Link")).toMatch(/page=2>; rel="next"/);
    // A catalogue read sets no cookie and starts no session.
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(res.headers.get("Cart-Token")).toBeNull();
    const list = (await res.json()) as Json[];
    expect(list).toHaveLength(2);
    expect(Number(list[0].prices.price)).toBeGreaterThanOrEqual(Number(list[1].prices.price));
    expect(list[0].prices).toMatchObject({ currency_code: "USD", currency_minor_unit: 2, currency_symbol: "$" });
    expect(list[0].prices.price).toMatch(/^\d+$/);
    expect(list[0]).toHaveProperty("add_to_cart.maximum");

    const one = (await (await fetch(`${shop.url}/wp-json/wc/store/products/${productId}`)).json()) as Json;
    expect(one).toMatchObject({ id: productId, slug: "silk-pocket-square", is_purchasable: true, is_in_stock: true });
    expect(one.prices.price).toBe("1500");

    const searched = (await (await fetch(`${shop.url}${API}/products?search=pocket%20square`)).json()) as Json[];
    expect(searched.map((p) => p.id)).toContain(productId);

    // Categories: the product shows its own, and the filter takes the slug or the id.
    expect(one.categories.length).toBeGreaterThan(0);
    const cat = one.categories[0] as Json;
    expect(cat.link).toContain(`/product-category/${cat.slug}/`);
    for (const value of [cat.slug, String(cat.id)]) {
      const inCat = (await (await fetch(`${shop.url}${API}/products?per_page=100&category=${encodeURIComponent(value)}`)).json()) as Json[];
      expect(inCat.map((p) => p.id)).toContain(productId);
      expect(inCat.every((p) => p.categories.some((c: Json) => c.id === cat.id))).toBe(true);
    }
    expect((await (await fetch(`${shop.url}${API}/products?category=no-such-category`)).json()).code).toBe("rest_invalid_param");
    const [tagged] = await shop.services.db.query<{ product_id: number; slug: string }>(
      `SELECT pt.product_id, t.slug FROM product_terms pt JOIN terms t ON t.id = pt.term_id WHERE t.taxonomy = 'product_tag' ORDER BY pt.product_id LIMIT 1`,
    );
    if (tagged) {
      const withTag = (await (await fetch(`${shop.url}${API}/products/${tagged.product_id}`)).json()) as Json;
      expect(withTag.tags.map((t: Json) => t.slug)).toContain(tagged.slug);
    }
    const pastEnd = await fetch(`${shop.url}${API}/products?page=9999`);
    expect(pastEnd.status).toBe(400);
    expect(((await pastEnd.json()) as Json).code).toBe("rest_post_invalid_page_number");

    const tooMany = await fetch(`${shop.url}${API}/products?per_page=101`);
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as Json).code).toBe("rest_invalid_param");
    const badOrder = (await (await fetch(`${shop.url}${API}/products?orderby=nonsense`)).json()) as Json;
    expect(badOrder.data).toMatchObject({ status: 400, params: { orderby: expect.any(String) } });
    const missing = await fetch(`${shop.url}${API}/products/999999`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as Json).code).toBe("woocommerce_rest_product_invalid_id");
  });
});

describe("Nonce and Cart-Token", () => {
  it("a browser with cookies needs the Nonce on writes: missing 401, wrong 403, nothing changes; the right one adds", async () => {
    const browser = new TestClient(shop.url);
    const read = await browser.get(`${API}/cart`);
    expect(read.status).toBe(200);
    const nonce = read.headers.get("Nonce")!;
    expect(nonce).toBeTruthy();
    expect(read.headers.get("Cart-Token")).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);

    const noNonce = await browser.request(`${API}/cart/add-item`, { method: "POST", json: { id: productId, quantity: 1 } });
    expect(noNonce.status).toBe(401);
    expect(((await noNonce.json()) as Json).code).toBe("woocommerce_rest_missing_nonce");
    const forged = await browser.request(`${API}/cart/add-item`, { method: "POST", json: { id: productId }, headers: { Nonce: "0123456789" } });
    expect(forged.status).toBe(403);
    expect(((await forged.json()) as Json).code).toBe("woocommerce_rest_invalid_nonce");
    // A forged Cart-Token is no token at all: the nonce is still required.
    const fakeToken = await browser.request(`${API}/cart/add-item`, { method: "POST", json: { id: productId }, headers: { "Cart-Token": "a.b.c" } });
    expect(fakeToken.status).toBe(401);
    expect(((await (await browser.get(`${API}/cart`)).json()) as Json).items_count).toBe(0);

    const ok = await browser.request(`${API}/cart/add-item`, { method: "POST", json: { id: productId, quantity: 2 }, headers: { Nonce: nonce } });
    expect(ok.status).toBe(201);
    const cart = (await ok.json()) as Json;
    expect(cart.items_count).toBe(2);
    // The same cart as the classic pages see: the cart cookies follow.
    expect(browser.cookie("woocommerce_items_in_cart")).toBe("1");
  });

  it("a Cart-Token alone carries the cart (no cookies, no nonce), and a token is not a browser's cookie", async () => {
    const client = new Headless(shop.url);
    await client.call("GET", "/cart");
    expect(client.token).toBeTruthy();
    const added = await client.call("POST", "/cart/add-item", { id: productId, quantity: 3 });
    expect(added.res.status).toBe(201);
    expect(added.body.items_count).toBe(3);
    const again = await client.call("GET", "/cart");
    expect(again.body.items[0]).toMatchObject({ id: productId, quantity: 3, prices: { price: "1500" }, totals: { line_subtotal: "4500" } });
    // Another client without the token sees its own, empty cart.
    expect((await new Headless(shop.url).call("GET", "/cart")).body.items_count).toBe(0);
    // A token is a guest's: once its session belongs to a customer, the token alone reaches nothing.
    const sessionId = JSON.parse(Buffer.from(client.token!.split(".")[1]!, "base64url").toString()).user_id as string;
    const [customer] = await shop.services.db.query<{ id: number }>(
      `INSERT INTO customers (email, password_hash) VALUES ('token.owner@example.com', NULL) RETURNING id`,
    );
    await shop.services.db.query(`UPDATE sessions SET customer_id = $2 WHERE id = $1`, [sessionId, customer!.id]);
    const refused = await client.call("GET", "/cart");
    expect(refused.res.status).toBe(403);
    expect(refused.body.code).toBe("woocommerce_rest_invalid_cart_token");
    expect(refused.res.headers.get("Cart-Token")).toBeNull();
  });
});

describe("cart routes", () => {
  it("add, update, remove, coupons, shipping rate and cart/items, with WooCommerce's refusals", async () => {
    const c = new Headless(shop.url);
    await c.call("GET", "/cart");
    const unknown = await c.call("POST", "/cart/add-item", { id: 999999, quantity: 1 });
    expect(unknown.res.status).toBe(400);
    expect(unknown.body.code).toBe("woocommerce_rest_cart_invalid_product");
    const badQty = await c.call("POST", "/cart/add-item", { id: productId, quantity: 0 });
    expect(badQty.body.code).toBe("rest_invalid_param");
    const tooMany = await c.call("POST", "/cart/add-item", { id: scarceId, quantity: 2 });
    expect(tooMany.body.code).toBe("woocommerce_rest_product_partially_out_of_stock");

    const added = await c.call("POST", "/cart/add-item", { id: productId, quantity: 1 });
    const key = added.body.items[0].key as string;
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    const updated = await c.call("POST", "/cart/update-item", { key, quantity: 4 });
    expect(updated.body.items[0].quantity).toBe(4);
    expect(updated.body.totals.total_items).toBe("6000");

    const badCoupon = await c.call("POST", "/cart/apply-coupon", { code: "nope-not-a-coupon" });
    expect(badCoupon.res.status).toBe(400);
    expect(badCoupon.body.code).toBe("woocommerce_rest_cart_coupon_error");
    const coupon = await c.call("POST", "/cart/apply-coupon", { code: "WELCOME10" });
    expect(coupon.res.status).toBe(200);
    expect(coupon.body.coupons[0].code).toBe("welcome10");
    expect(Number(coupon.body.totals.total_discount)).toBeGreaterThan(0);
    const t = coupon.body.totals;
    expect(Number(t.total_items) - Number(t.total_discount) + Number(t.total_shipping)).toBe(Number(t.total_price));
    const removed = await c.call("POST", "/cart/remove-coupon", { code: "WELCOME10" });
    expect(removed.body.coupons).toEqual([]);
    expect((await c.call("POST", "/cart/remove-coupon", { code: "WELCOME10" })).body.code).toBe("woocommerce_rest_cart_coupon_invalid_code");

    const rates = removed.body.shipping_rates[0].shipping_rates as Json[];
    expect(rates.length).toBeGreaterThan(0);
    const other = rates.find((r) => !r.selected) ?? rates[0];
    const chosen = await c.call("POST", "/cart/select-shipping-rate", { package_id: 0, rate_id: other.rate_id });
    expect(chosen.body.shipping_rates[0].shipping_rates.find((r: Json) => r.selected).rate_id).toBe(other.rate_id);
    expect((await c.call("POST", "/cart/select-shipping-rate", { package_id: 0, rate_id: "nope:9" })).body.code).toBe("woocommerce_rest_cart_invalid_rate");

    expect((await c.call("GET", `/cart/items/${key}`)).body.quantity).toBe(4);
    expect((await c.call("PUT", `/cart/items/${key}`, { quantity: 2 })).body.quantity).toBe(2);
    const badKey = await c.call("POST", "/cart/remove-item", { key: "0".repeat(32) });
    expect(badKey.res.status).toBe(409);
    expect(badKey.body.code).toBe("woocommerce_rest_cart_invalid_key");
    expect((await c.call("DELETE", `/cart/items/${key}`)).res.status).toBe(204);
    expect((await c.call("GET", "/cart/items")).body).toEqual([]);
    await c.call("POST", "/cart/items", { id: productId, quantity: 1 });
    expect((await c.call("DELETE", "/cart/items")).body).toEqual([]);
    expect((await c.call("GET", "/cart")).body.items_count).toBe(0);
  });

  it("variations: by the variation's own id, or by the parent and its attributes; a parent alone needs options", async () => {
    const [v] = await shop.services.db.query<{ id: number; product_id: number; attributes: Record<string, string> }>(
      `SELECT v.id, v.product_id, v.attributes FROM variations v JOIN products p ON p.id = v.product_id
        WHERE p.slug = 'cotton-face-mask' AND v.stock_status = 'instock' ORDER BY v.id LIMIT 1`,
    );
    await shop.services.db.query(`UPDATE variations SET stock_quantity = 50 WHERE id = $1`, [v!.id]);
    const c = new Headless(shop.url);
    await c.call("GET", "/cart");
    const byId = await c.call("POST", "/cart/add-item", { id: v!.id, quantity: 1 });
    expect(byId.res.status).toBe(201);
    expect(byId.body.items[0]).toMatchObject({ id: v!.id, type: "variation" });
    expect(byId.body.items[0].variation.length).toBeGreaterThan(0);
    const variation = Object.entries(v!.attributes).map(([attribute, value]) => ({ attribute: attribute.replace(/^attribute_/, ""), value }));
    const byAttributes = await c.call("POST", "/cart/add-item", { id: v!.product_id, quantity: 1, variation });
    expect(byAttributes.res.status).toBe(201);
    expect(byAttributes.body.items).toHaveLength(1);
    expect(byAttributes.body.items[0].quantity).toBe(2);
    // As WooCommerce's blocks send it: the variation's id and its attributes.
    const both = await c.call("POST", "/cart/add-item", { id: v!.id, quantity: 1, variation });
    expect(both.body.items[0]?.quantity).toBe(3);
    const parentOnly = await c.call("POST", "/cart/add-item", { id: v!.product_id, quantity: 1 });
    expect(parentOnly.res.status).toBe(400);
    expect(parentOnly.body.code).toBe("woocommerce_rest_invalid_variation_data");
    const product = (await (await fetch(`${shop.url}${API}/products/${v!.product_id}`)).json()) as Json;
    expect(product.type).toBe("variable");
    expect(product.variations.map((x: Json) => x.id)).toContain(v!.id);
    expect(product.add_to_cart.text).toBe("Select options");
  });
});

describe("headless checkout", () => {
  it("a cookie-less client buys with Cart-Token only: refusals change nothing, one order, one charge, attribution stored", async () => {
    const c = new Headless(shop.url);
    await c.call("GET", "/cart");
    const empty = await c.call("POST", "/checkout", { billing_address: ADDRESS, ...card() });
    expect(empty.res.status).toBe(400);
    expect(empty.body.code).toBe("woocommerce_rest_cart_empty");

    await c.call("POST", "/cart/add-item", { id: productId, quantity: 2 });
    const before = await counts(shop);
    const badAddress = await c.call("POST", "/checkout", { billing_address: { ...ADDRESS, postcode: "", email: "not-an-email" }, ...card() });
    expect(badAddress.res.status).toBe(400);
    expect(badAddress.body.code).toBe("rest_invalid_param");
    expect(badAddress.body.data.params.billing_address).toMatch(/ZIP Code|email/i);
    const longNote = await c.call("POST", "/checkout", { billing_address: ADDRESS, customer_note: "x".repeat(2001), ...card() });
    expect(longNote.body.data.params).toHaveProperty("customer_note");
    const taken = await c.call("POST", "/checkout", { billing_address: ADDRESS, create_account: true, customer_password: "short", ...card() });
    expect(taken.body.code).toBe("woocommerce_rest_checkout_invalid_account");
    const badMethod = await c.call("POST", "/checkout", { billing_address: ADDRESS, payment_method: "cheque" });
    expect(badMethod.body.code).toBe("woocommerce_rest_checkout_payment_method_disabled");
    const badCard = await c.call("POST", "/checkout", { billing_address: ADDRESS, ...card("4242424242424241") });
    expect(badCard.body.code).toBe("woocommerce_rest_checkout_process_payment_error");
    expect(await counts(shop)).toEqual(before);

    const declined = await c.call("POST", "/checkout", { billing_address: ADDRESS, ...card("4000000000000002") });
    expect(declined.res.status).toBe(400);
    expect(declined.body.code).toBe("woocommerce_rest_checkout_process_payment_error");
    expect(declined.body.message).toMatch(/declined/i);

    const body = {
      billing_address: ADDRESS,
      shipping_address: { ...ADDRESS, first_name: "Charles", last_name: "Babbage", email: undefined },
      customer_note: "Leave at the door",
      ...card(),
      extensions: { "woocommerce/order-attribution": ATTRIBUTION },
    };
    // Two identical requests at once (a double submit): one order, one charge.
    const [a, b] = await Promise.all([c.call("POST", "/checkout", body), c.call("POST", "/checkout", body)]);
    const ok = [a, b].filter((r) => r.res.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    const placed = ok[0]!.body;
    expect(placed).toMatchObject({ status: "processing", payment_method: "sandbox_credit_card", customer_note: "Leave at the door" });
    expect(placed.payment_result).toMatchObject({ payment_status: "success" });
    expect(placed.billing_address).toMatchObject({ first_name: "Ada", email: ADDRESS.email });
    expect(placed.shipping_address).toMatchObject({ first_name: "Charles", last_name: "Babbage" });
    expect(placed.payment_result.redirect_url).toMatch(/\/checkout\/order-received\/\d+\/\?key=wc_order_/);
    for (const r of ok) expect(r.body.order_id).toBe(placed.order_id);
    // The same request again: the cart was bought, so no second order.
    const repeat = await c.call("POST", "/checkout", body);
    expect(repeat.body.code).toBe("woocommerce_rest_cart_empty");

    const after = await counts(shop);
    expect(after.orders - before.orders).toBe(2); // the declined attempt's failed order, and this one
    expect(after.charges - before.charges).toBe(1);
    const [order] = await shop.services.db.query<{ status: string; total: number }>(`SELECT status, total FROM orders WHERE id = $1`, [placed.order_id]);
    expect(order).toMatchObject({ status: "processing" });
    const meta = Object.fromEntries(
      (await shop.services.db.query<{ key: string; value: string }>(`SELECT key, value FROM order_meta WHERE order_id = $1`, [placed.order_id])).map((m) => [
        m.key,
        m.value,
      ]),
    );
    expect(meta).toMatchObject({
      _wc_order_attribution_source_type: "utm",
      _wc_order_attribution_utm_campaign: "winter",
      _wc_order_attribution_session_pages: "4",
      _wc_order_attribution_device_type: "Desktop",
    });
    expect(meta).not.toHaveProperty("_wc_order_attribution_utm_content");
    expect((await c.call("GET", "/cart")).body.items_count).toBe(0);
  });

  it("update-customer keeps the addresses in the cart, refuses a bad e-mail or country, and the checkout uses them", async () => {
    const c = new Headless(shop.url);
    await c.call("GET", "/cart");
    await c.call("POST", "/cart/add-item", { id: productId });
    const badEmail = await c.call("POST", "/cart/update-customer", { billing_address: { email: "nope" } });
    expect(badEmail.res.status).toBe(400);
    expect(badEmail.body.data.params).toHaveProperty("billing_address");
    expect((await c.call("POST", "/cart/update-customer", { shipping_address: { country: "ZZ" } })).body.code).toBe("rest_invalid_param");
    expect((await c.call("POST", "/cart/update-customer", { billing_address: { nickname: "x" } })).res.status).toBe(400);
    const { email, ...rest } = ADDRESS;
    const updated = await c.call("POST", "/cart/update-customer", { billing_address: { ...rest, email: "kept@example.com" } });
    expect(updated.res.status).toBe(200);
    expect(updated.body.billing_address).toMatchObject({ first_name: "Ada", email: "kept@example.com", country: "US" });
    expect(email).toBeTruthy();
    const placed = await c.call("POST", "/checkout", card());
    expect(placed.res.status).toBe(200);
    expect(placed.body.billing_address).toMatchObject({ email: "kept@example.com", postcode: "62701" });
  });

  it("one browser sending the page's checkout and the Store API's together: one order, one charge", async () => {
    const browser = await shopperWithCart(shop, productId, 1);
    const page = await openCheckout(browser);
    const nonce = (await browser.get(`${API}/cart`)).headers.get("Nonce")!;
    const before = await counts(shop);
    const [classic, store] = await Promise.all([
      submitCheckout(browser, page, { ...billing("both@example.com"), ...cardFields() }),
      browser.request(`${API}/checkout`, {
        method: "POST",
        json: { billing_address: { ...ADDRESS, email: "both@example.com" }, ...card() },
        headers: { Nonce: nonce },
      }),
    ]);
    const storeBody = (await store.json()) as Json;
    expect([classic.result === "success", store.status === 200].filter(Boolean).length).toBeGreaterThanOrEqual(1);
    if (classic.result === "success" && store.status === 200) expect(classic.redirect).toContain(`/order-received/${storeBody.order_id}/`);
    else expect(store.status === 200 ? classic.messages : storeBody.message).toMatch(/already being processed|session has expired|empty cart/i);
    const after = await counts(shop);
    expect(after.orders - before.orders).toBe(1);
    expect(after.charges - before.charges).toBe(1);
  });

  it("the last unit is sold once: two clients check it out together, one order, the other refused", async () => {
    await productWithStock(shop, (await shop.services.db.query<{ slug: string }>(`SELECT slug FROM products WHERE id = $1`, [scarceId]))[0]!.slug, 1, 2000);
    const one = new Headless(shop.url);
    const two = new Headless(shop.url);
    await Promise.all([one.call("GET", "/cart"), two.call("GET", "/cart")]);
    expect((await one.call("POST", "/cart/add-item", { id: scarceId })).res.status).toBe(201);
    expect((await two.call("POST", "/cart/add-item", { id: scarceId })).res.status).toBe(201);
    const before = await counts(shop);
    const results = await Promise.all([one, two].map((c) => c.call("POST", "/checkout", { billing_address: ADDRESS, ...card() })));
    expect(results.filter((r) => r.res.status === 200)).toHaveLength(1);
    const refused = results.find((r) => r.res.status !== 200)!;
    expect(refused.res.status).toBeGreaterThanOrEqual(400);
    expect(refused.res.status).toBeLessThan(500);
    const after = await counts(shop);
    expect(after.charges - before.charges).toBe(1);
    const [stock] = await shop.services.db.query<{ stock_quantity: number }>(`SELECT stock_quantity FROM products WHERE id = $1`, [scarceId]);
    expect(stock!.stock_quantity).toBe(0);
  });
});
