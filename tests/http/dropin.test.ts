/**
 * Issue 19, compatibility breaks (docs/contract/wire.md §1.2, §1.3, §1.9): WooCommerce's templates and scripts
 * dropped onto our pages. Multipart posts read like url-encoded ones (PHP's $_REQUEST takes both), the add-to-cart
 * edge answers add-to-cart.js acts on, and the empty-cart markup cart.js swaps in.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { billing, cardFields, openCheckout, productWithStock, shopperWithCart } from "./checkout-support.ts";

let shop: TestShop;
let simpleId: number; // stock 1000
let scarceId: number; // stock 2
let scarceSlug: string;

beforeAll(async () => {
  shop = await startTestShop();
  simpleId = await productWithStock(shop, "silk-pocket-square", 1000, 1500);
  const [row] = await shop.services.db.query<{ slug: string }>(
    `SELECT slug FROM products WHERE type = 'simple' AND status = 'publish' AND slug <> 'silk-pocket-square' ORDER BY id LIMIT 1`,
  );
  scarceSlug = row!.slug;
  scarceId = await productWithStock(shop, scarceSlug, 2, 900);
});
afterAll(async () => shop?.close());

/** A multipart/form-data POST as a browser sends it (fetch builds the boundary), with the client's cookies. */
function postMultipart(client: TestClient, path: string, fields: Record<string, string>, file?: { name: string; content: string }): Promise<Response> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append(file.name, new Blob([file.content], { type: "text/plain" }), "note.txt");
  return client.request(path, { method: "POST", body: form });
}

async function miniCartCount(client: TestClient): Promise<number> {
  const res = await client.post("/?wc-ajax=get_refreshed_fragments", { time: "1" });
  const body = (await res.json()) as { fragments: Record<string, string> };
  return [...body.fragments["div.widget_shopping_cart_content"]!.matchAll(/<span class="quantity">(\d+) ×/g)].reduce((n, m) => n + Number(m[1]), 0);
}

describe("multipart/form-data posts (WooCommerce's form.cart enctype)", () => {
  it("a product page's add-to-cart form posted as multipart adds, like the url-encoded form; a file part is dropped", async () => {
    const client = new TestClient(shop.url);
    const res = await postMultipart(
      client,
      "/product/silk-pocket-square/",
      { quantity: "2", "add-to-cart": String(simpleId) },
      { name: "upload", content: "x" },
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/product/silk-pocket-square/");
    expect(client.cookie("woocommerce_items_in_cart")).toBe("1");
    expect(await miniCartCount(client)).toBe(2);
    // The notice waits on the page the redirect leads to.
    expect(await (await client.get("/product/silk-pocket-square/")).text()).toContain("has been added to your cart.");
  });

  it("the same validation: a bad quantity adds nothing and queues the same notice as url-encoded", async () => {
    const client = new TestClient(shop.url);
    const res = await postMultipart(client, "/product/silk-pocket-square/", { quantity: "2.5", "add-to-cart": String(simpleId) });
    expect(res.status).toBe(303);
    expect(client.cookie("woocommerce_items_in_cart")).toBeUndefined();
    expect(await (await client.get("/product/silk-pocket-square/")).text()).toContain("Quantity must be a whole number.");
  });

  it("the cart form posted as multipart updates quantities with its nonce, and refuses a bad nonce", async () => {
    const client = await shopperWithCart(shop, simpleId, 1);
    const page = await (await client.get("/cart/")).text();
    const nonce = /name="woocommerce-cart-nonce" value="([0-9a-f]+)"/.exec(page)![1]!;
    const key = /name="cart\[([0-9a-f]{32})\]\[qty\]"/.exec(page)![1]!;
    const bad = await postMultipart(client, "/cart/", { [`cart[${key}][qty]`]: "4", update_cart: "Update cart", "woocommerce-cart-nonce": "bad" });
    expect(bad.status).toBe(303);
    expect(await miniCartCount(client)).toBe(1);
    const res = await postMultipart(client, "/cart/", { [`cart[${key}][qty]`]: "4", update_cart: "Update cart", "woocommerce-cart-nonce": nonce });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/cart/");
    expect(await miniCartCount(client)).toBe(4);
  });

  it("a valid checkout sent as multipart places the order, with its attribution", async () => {
    const client = await shopperWithCart(shop, simpleId, 1);
    const page = await openCheckout(client);
    const res = await postMultipart(client, "/?wc-ajax=checkout", {
      "woocommerce-process-checkout-nonce": page.nonce,
      _checkout_token: page.token,
      _wp_http_referer: "/checkout/",
      ...billing(),
      ...cardFields(),
      wc_order_attribution_source_type: "utm",
      wc_order_attribution_utm_source: "newsletter",
    });
    expect(res.status).toBe(200);
    const reply = (await res.json()) as { result: string; redirect?: string };
    expect(reply.result).toBe("success");
    const orderId = Number(/order-received\/(\d+)/.exec(reply.redirect!)![1]);
    const meta = await shop.services.db.query<{ key: string; value: string }>(
      `SELECT key, value FROM order_meta WHERE order_id = $1 AND key LIKE '_wc_order_attribution_%' ORDER BY key`,
      [orderId],
    );
    expect(Object.fromEntries(meta.map((m) => [m.key, m.value]))).toMatchObject({
      _wc_order_attribution_source_type: "utm",
      _wc_order_attribution_utm_source: "newsletter",
    });
  });

  it("nested field names read the same from both encodings (update_order_review's shipping_method[0])", async () => {
    const client = await shopperWithCart(shop, simpleId, 1);
    const page = await openCheckout(client);
    const fields = { security: page.reviewNonce, payment_method: "sandbox_credit_card", country: "US", "shipping_method[0]": "flat_rate:1" };
    const multipart = await (await postMultipart(client, "/?wc-ajax=update_order_review", fields)).json();
    const urlencoded = await (await client.post("/?wc-ajax=update_order_review", fields)).json();
    expect((multipart as { result: string }).result).toBe("success");
    const table = (x: unknown) => (x as { fragments: Record<string, string> }).fragments[".woocommerce-checkout-review-order-table"];
    expect(table(multipart)).toBe(table(urlencoded));
  });

  it("keeps the body limits: too large is 413 on a page and dropped on wc-ajax; too many fields or malformed is 400", async () => {
    const client = new TestClient(shop.url);
    const big = "x".repeat(shop.services.config.limits.requestBodyBytes + 10);
    const page = await postMultipart(client, "/product/silk-pocket-square/", { "add-to-cart": String(simpleId), note: big });
    expect(page.status).toBe(413);
    expect(client.cookie("woocommerce_items_in_cart")).toBeUndefined();
    // wc-ajax: the body is dropped and the endpoint answers as with no body (no product_id: empty 200).
    const ajax = await postMultipart(client, "/?wc-ajax=add_to_cart", { product_id: String(simpleId), note: big });
    expect(ajax.status).toBe(200);
    expect(await ajax.text()).toBe("");
    const many: Record<string, string> = { "add-to-cart": String(simpleId) };
    for (let i = 0; i < 2001; i++) many[`f${i}`] = "1";
    // Too many fields: the url-encoded parser's own answer (server/app.ts maps parameters.too.many to 400).
    expect((await postMultipart(client, "/product/silk-pocket-square/", many)).status).toBe(400);
    expect(client.cookie("woocommerce_items_in_cart")).toBeUndefined();
    const broken = await client.request("/product/silk-pocket-square/", {
      method: "POST",
      headers: { "content-type": "multipart/form-data" }, // no boundary
      body: "add-to-cart=1",
    });
    expect(broken.status).toBe(400);
    const admin = await postMultipart(client, "/wp-admin/admin-ajax.php", { action: "astra_add_cart_single_product", "add-to-cart": String(simpleId) });
    expect(admin.status).toBe(200);
    expect(client.cookie("woocommerce_items_in_cart")).toBe("1");
  });
});

describe("wc-ajax add_to_cart edge answers (add-to-cart.js acts on them)", () => {
  const add = async (client: TestClient, form: Record<string, string>) =>
    (await (await client.post("/?wc-ajax=add_to_cart", form)).json()) as { fragments?: unknown; error?: boolean; product_url?: string | false };

  it("quantity 0 or empty adds one, as WooCommerce's empty($_POST['quantity']) ? 1 reads it", async () => {
    for (const quantity of ["0", "", " 0 "]) {
      const client = new TestClient(shop.url);
      const body = await add(client, { product_id: String(simpleId), quantity });
      expect(body.fragments).toBeDefined();
      expect(await miniCartCount(client)).toBe(1);
    }
    // The product page's own form (no JavaScript, url-encoded and multipart) reads it the same way.
    for (const post of [
      (c: TestClient) => c.post("/product/silk-pocket-square/", { quantity: "0", "add-to-cart": String(simpleId) }),
      (c: TestClient) => postMultipart(c, "/product/silk-pocket-square/", { quantity: "0", "add-to-cart": String(simpleId) }),
    ]) {
      const client = new TestClient(shop.url);
      expect((await post(client)).status).toBe(303);
      expect(await miniCartCount(client)).toBe(1);
    }
  });

  it("a refused add of a real product answers its absolute product_url (over stock, over the maximum, not a number)", async () => {
    const client = new TestClient(shop.url);
    const productUrl = `${shop.url}/product/${scarceSlug}/`;
    expect(await add(client, { product_id: String(scarceId), quantity: "3" })).toEqual({ error: true, product_url: productUrl });
    expect(await add(client, { product_id: String(scarceId), quantity: "10000" })).toEqual({ error: true, product_url: productUrl });
    expect(await add(client, { product_id: String(scarceId), quantity: "-1" })).toEqual({ error: true, product_url: productUrl });
    expect(await add(client, { product_id: String(scarceId), quantity: "lots" })).toEqual({ error: true, product_url: productUrl });
    expect(client.cookie("woocommerce_items_in_cart")).toBeUndefined();
    // The notice is waiting on the product page the script sends the shopper to.
    expect(await (await client.get(`/product/${scarceSlug}/`)).text()).toContain("Quantity must be a number.");
    // No product to show: product_url false (the script then stays put).
    expect(await add(client, { product_id: "987654", quantity: "10000" })).toEqual({ error: true, product_url: false });
    // The listing-variation add (admin-ajax jck_wssv_add_to_cart) answers the same way, with the parent's page.
    const [variation] = await shop.services.db.query<{ id: number; product_id: number }>(
      `SELECT v.id, v.product_id FROM variations v JOIN products p ON p.id = v.product_id WHERE p.slug = 'silk-necktie' ORDER BY v.id LIMIT 1`,
    );
    const res = await client.post("/wp-admin/admin-ajax.php", {
      action: "jck_wssv_add_to_cart",
      product_id: String(variation!.product_id),
      variation_id: String(variation!.id),
      quantity: "10000",
    });
    expect(await res.json()).toEqual({ error: true, product_url: `${shop.url}/product/silk-necktie/` });
    expect(client.cookie("woocommerce_items_in_cart")).toBeUndefined();
  });
});

describe("empty cart markup (cart.js update_wc_div)", () => {
  it("the emptied cart page, fetched the way cart.js follows the remove link, has .wc-empty-cart-message inside .woocommerce", async () => {
    const client = await shopperWithCart(shop, simpleId, 1);
    const page = await (await client.get("/cart/")).text();
    // The page being replaced: .woocommerce-cart-form__contents inside a .woocommerce (cart.js: .closest('.woocommerce')).
    expect(page).toMatch(/<div class="woocommerce cart-page">[\s\S]*class="[^"]*woocommerce-cart-form__contents/);
    const remove = /href="(\/cart\/\?remove_item=[0-9a-f]{32}&amp;_wpnonce=[0-9a-f]+)"/.exec(page)![1]!.replace(/&amp;/g, "&");
    // cart.js item_remove_clicked: GET the link's href; jQuery follows the redirect and hands update_wc_div the HTML.
    const redirect = await client.get(remove);
    expect(redirect.status).toBe(303);
    const html = await (await client.get(redirect.headers.get("location")!)).text();
    expect(html).not.toContain("woocommerce-cart-form");
    expect(html).toMatch(
      /<div class="woocommerce cart-page">[\s\S]*?<div class="wc-empty-cart-message"><div class="cart-empty woocommerce-info" role="status">Your cart is currently empty\.<\/div><\/div><p class="return-to-shop">/,
    );
  });
});
