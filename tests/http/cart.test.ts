import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient, pageGlobal } from "../support/client.ts";

let shop: TestShop;
interface Ids {
  mask: number; // simple, stock managed
  variable: number;
  variation: number;
  otherVariation: number;
  outOfStockVariation: number | null;
  grouped: number;
  groupedChildren: number[];
  bundle: number;
  external: number;
  draft: number;
  soldOut: number | null;
}
let ids: Ids;

beforeAll(async () => {
  shop = await startTestShop();
  const db = shop.services.db;
  const one = async (sql: string, args: unknown[] = []) => (await db.query<{ id: number }>(sql, args))[0]?.id ?? null;
  const variable = (await one(`SELECT id FROM products WHERE type = 'variable' AND status = 'publish' AND slug = 'cotton-face-mask'`))!;
  const vars = await db.query<{ id: number; stock_status: string }>(`SELECT id, stock_status FROM variations WHERE product_id = $1 ORDER BY id`, [variable]);
  const inStock = vars.filter((v) => v.stock_status === "instock");
  const grouped = (await one(`SELECT id FROM products WHERE type = 'grouped'`))!;
  ids = {
    mask: (await one(`SELECT id FROM products WHERE type = 'simple' AND status = 'publish' AND stock_quantity >= 5 AND stock_status = 'instock' ORDER BY id`))!,
    variable,
    variation: inStock[0]!.id,
    otherVariation: (await one(`SELECT v.id FROM variations v JOIN products p ON p.id = v.product_id WHERE p.id <> $1 ORDER BY v.id`, [variable]))!,
    outOfStockVariation: vars.find((v) => v.stock_status === "outofstock")?.id ?? null,
    grouped,
    groupedChildren: (
      await db.query<{ linked_id: number }>(
        `SELECT l.linked_id FROM product_links l JOIN products p ON p.id = l.linked_id WHERE l.product_id = $1 AND l.kind = 'grouped_child' AND p.type = 'simple' AND p.stock_status = 'instock' ORDER BY l.position`,
        [grouped],
      )
    ).map((r) => r.linked_id),
    bundle: (await one(`SELECT id FROM products WHERE type = 'bundle'`))!,
    external: (await one(`SELECT id FROM products WHERE type = 'external'`))!,
    draft: (await one(`SELECT id FROM products WHERE status = 'draft'`))!,
    soldOut: await one(`SELECT id FROM products WHERE type = 'simple' AND status = 'publish' AND stock_status = 'outofstock'`),
  };
});
afterAll(async () => shop?.close());

const wc = (endpoint: string) => `/?wc-ajax=${endpoint}`;
type CartJson = { fragments?: Record<string, string>; cart_hash?: string; error?: boolean; product_url?: string | false; success?: boolean };

async function add(client: TestClient, form: Record<string, string>): Promise<{ res: Response; body: CartJson }> {
  const res = await client.post(wc("add_to_cart"), form);
  const text = await res.text();
  return { res, body: text ? (JSON.parse(text) as CartJson) : {} };
}

function miniCartQuantities(fragments: Record<string, string>): number {
  return [...fragments["div.widget_shopping_cart_content"]!.matchAll(/<span class="quantity">(\d+) ×/g)].reduce((n, m) => n + Number(m[1]), 0);
}

describe("add_to_cart", () => {
  it("adds with every button data attribute sent, sets both JS-readable cookies on that response, and the hash matches", async () => {
    const client = new TestClient(shop.url);
    const { res, body } = await add(client, { product_id: String(ids.mask), quantity: "2", product_sku: "whatever", success_message: "added", unknown: "x" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=UTF-8");
    expect(body.cart_hash).toMatch(/^[0-9a-f]{32}$/);
    expect(Object.keys(body.fragments!)).toEqual(expect.arrayContaining(["div.widget_shopping_cart_content", "a.cart-contents"]));
    expect(body.fragments!["div.widget_shopping_cart_content"]).toMatch(/^<div class="widget_shopping_cart_content">/);
    expect(body.fragments!["a.cart-contents"]).toContain('<span class="count">2</span>');
    const setCookies = res.headers.getSetCookie();
    const hashCookie = setCookies.find((c) => c.startsWith("woocommerce_cart_hash="))!;
    const itemsCookie = setCookies.find((c) => c.startsWith("woocommerce_items_in_cart="))!;
    expect(itemsCookie).toMatch(/^woocommerce_items_in_cart=1;/);
    expect(hashCookie).not.toMatch(/HttpOnly/i);
    expect(itemsCookie).not.toMatch(/HttpOnly/i);
    expect(client.cookie("woocommerce_cart_hash")).toBe(body.cart_hash);

    // The same fragments come back from a refresh, with the same hash; a page rendered for the shopper (the cart page:
    // /shop/ is the page kept for everyone, its cart parts placeholders: decision 0042) shows the same markup.
    const refreshed = (await (await client.post(wc("get_refreshed_fragments"), { time: String(Date.now()) })).json()) as CartJson;
    expect(refreshed).toEqual(body);
    const page = await (await client.get("/cart/")).text();
    expect(page).toContain(body.fragments!["a.cart-contents"]!);

    // Adding again sums the line and changes the hash.
    const again = await add(client, { product_id: String(ids.mask), quantity: "1" });
    expect(miniCartQuantities(again.body.fragments!)).toBe(3);
    expect(again.body.cart_hash).not.toBe(body.cart_hash);
    expect(client.cookie("woocommerce_cart_hash")).toBe(again.body.cart_hash);
  });

  it("answers an empty body without product_id, and ignores unknown fields", async () => {
    const client = new TestClient(shop.url);
    const res = await client.post(wc("add_to_cart"), { quantity: "1" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
    expect(client.cookie("woocommerce_items_in_cart")).toBeUndefined();
  });

  it.each([
    ["non-numeric id", { product_id: "abc" }],
    ["unknown id", { product_id: "987654" }],
    ["negative id", { product_id: "-3" }],
    ["negative quantity", { quantity: "-2" }],
    ["fractional quantity", { quantity: "1.5" }],
    ["huge quantity", { quantity: "99999999999" }],
    ["text quantity", { quantity: "lots" }],
  ])("refuses %s with the failure shape and changes nothing", async (_name, override) => {
    const client = new TestClient(shop.url);
    const { body } = await add(client, { product_id: String(ids.mask), quantity: "1", ...override });
    expect(body.error).toBe(true);
    expect("product_url" in body).toBe(true);
    expect(client.cookie("woocommerce_items_in_cart")).toBeUndefined();
    const refreshed = (await (await client.post(wc("get_refreshed_fragments"), { time: "1" })).json()) as CartJson;
    expect(refreshed.cart_hash).toBe("");
    expect(refreshed.fragments!["div.widget_shopping_cart_content"]).toContain("No products in the cart.");
  });

  it("refuses external, unpublished and variable-without-choice products; a variation id resolves to its parent", async () => {
    const client = new TestClient(shop.url);
    for (const id of [ids.external, ids.draft]) {
      const { body } = await add(client, { product_id: String(id) });
      expect(body.error).toBe(true);
    }
    const variable = await add(client, { product_id: String(ids.variable) });
    expect(variable.body).toEqual({ error: true, product_url: `${shop.url}/product/cotton-face-mask/` });
    expect(client.cookie("woocommerce_items_in_cart")).toBeUndefined();
    const variation = await add(client, { product_id: String(ids.variation) });
    expect(variation.body.fragments!["div.widget_shopping_cart_content"]).toContain("Cotton Face Mask");
    expect(variation.body.fragments!["div.widget_shopping_cart_content"]).toMatch(/class="variation">[^<]+: /);
    // The error notice is queued for the next page.
    const page = await (await client.get("/shop/")).text();
    expect(page).toContain("Please choose product options");
  });

  it("enforces stock with a clear notice, counting what is already in the cart", async () => {
    const [row] = await shop.services.db.query<{ stock_quantity: number }>(`SELECT stock_quantity FROM products WHERE id = $1`, [ids.mask]);
    const stock = row!.stock_quantity;
    const client = new TestClient(shop.url);
    const tooMany = await add(client, { product_id: String(ids.mask), quantity: String(stock + 1) });
    expect(tooMany.body.error).toBe(true);
    await add(client, { product_id: String(ids.mask), quantity: String(stock - 1) });
    const over = await add(client, { product_id: String(ids.mask), quantity: "2" });
    expect(over.body.error).toBe(true);
    const page = await (await client.get("/cart/")).text();
    expect(page).toContain(`You cannot add that amount to the cart — we have ${stock} in stock and you already have ${stock - 1} in your cart.`);
    if (ids.soldOut) {
      const sold = await add(client, { product_id: String(ids.soldOut) });
      expect(sold.body.error).toBe(true);
    }
  });
});

describe("remove_from_cart and the fallback link", () => {
  it("removes a line by key; the last removal clears both cookies and the hash is ''", async () => {
    const client = new TestClient(shop.url);
    const { body } = await add(client, { product_id: String(ids.mask) });
    const key = /data-cart_item_key="([0-9a-f]{32})"/.exec(body.fragments!["div.widget_shopping_cart_content"]!)![1]!;
    const bad = await client.post(wc("remove_from_cart"), { cart_item_key: "f".repeat(32) });
    expect(await bad.json()).toEqual({ success: false });
    expect(client.cookie("woocommerce_items_in_cart")).toBe("1");
    const res = await client.post(wc("remove_from_cart"), { cart_item_key: key });
    const removed = (await res.json()) as CartJson;
    expect(removed.cart_hash).toBe("");
    expect(removed.fragments!["div.widget_shopping_cart_content"]).toContain("No products in the cart.");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("woocommerce_cart_hash=;") && /Max-Age=0/.test(c))).toBe(true);
    expect(client.cookie("woocommerce_items_in_cart")).toBeUndefined();
    expect(client.cookie("woocommerce_cart_hash")).toBeUndefined();
  });

  it("the remove link works without JavaScript and needs its nonce", async () => {
    const client = new TestClient(shop.url);
    const { body } = await add(client, { product_id: String(ids.mask) });
    const href = /href="(\/cart\/\?remove_item=[^"]+)"/.exec(body.fragments!["div.widget_shopping_cart_content"]!)![1]!.replace(/&amp;/g, "&");
    const forged = await client.get(href.replace(/_wpnonce=[0-9a-f]+/, "_wpnonce=0000000000"));
    expect(forged.status).toBe(303);
    expect(client.cookie("woocommerce_items_in_cart")).toBe("1");
    const res = await client.get(href);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/cart/");
    expect(client.cookie("woocommerce_items_in_cart")).toBeUndefined();
    const page = await (await client.get("/cart/")).text();
    expect(page).toContain("removed.");
    expect(page).toContain("Your cart is currently empty.");
  });
});

describe("no-JavaScript add-to-cart", () => {
  it("a ?add-to-cart link adds, queues the notice and redirects to the same address without the parameter", async () => {
    const client = new TestClient(shop.url);
    const res = await client.get(`/shop/?orderby=price&add-to-cart=${ids.mask}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/shop/?orderby=price");
    expect(client.cookie("woocommerce_items_in_cart")).toBe("1");
    const page = await (await client.get("/shop/?orderby=price")).text();
    expect(page).toMatch(/has been added to your cart\./);
  });

  it("product forms post on their page: variable, grouped and bundle", async () => {
    const client = new TestClient(shop.url);
    const attrs = (await shop.services.db.query<{ attributes: Record<string, string> }>(`SELECT attributes FROM variations WHERE id = $1`, [ids.variation]))[0]!
      .attributes;
    const res = await client.post("/product/cotton-face-mask/", {
      ...attrs,
      quantity: "1",
      "add-to-cart": String(ids.variable),
      product_id: String(ids.variable),
      variation_id: String(ids.variation),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/product/cotton-face-mask/");
    const grouped: Record<string, string> = { "add-to-cart": String(ids.grouped) };
    grouped[`quantity[${ids.groupedChildren[0]}]`] = "2";
    await client.post("/product/office-essentials/", grouped);
    await client.post("/product/groomsmen-gift-box/", {
      "add-to-cart": String(ids.bundle),
      quantity: "1",
      bundle_quantity_1: "1",
      bundle_quantity_2: "2",
      bundle_selected_optional_3: "yes",
      bundle_quantity_3: "1",
    });
    const notices = await (await client.get("/shop/")).text();
    expect(notices).not.toContain("woocommerce-error");
    const json = (await (await client.post(wc("get_refreshed_fragments"), { time: "1" })).json()) as CartJson;
    const mini = json.fragments!["div.widget_shopping_cart_content"]!;
    expect(mini).toContain("Cotton Face Mask");
    expect(mini).toContain("Groomsmen Gift Box");
    expect(miniCartQuantities(json.fragments!)).toBe(4);
  });

  it("a variation that is not of its product or misses attributes is refused and changes nothing", async () => {
    const client = new TestClient(shop.url);
    await client.post("/product/cotton-face-mask/", { "add-to-cart": String(ids.variable), variation_id: String(ids.otherVariation), quantity: "1" });
    await client.post("/product/cotton-face-mask/", { "add-to-cart": String(ids.variable), variation_id: "0", attribute_pa_color: "", quantity: "1" });
    expect(client.cookie("woocommerce_items_in_cart")).toBeUndefined();
  });

  it("the cart form updates quantities (0 removes) with its nonce", async () => {
    const client = new TestClient(shop.url);
    await add(client, { product_id: String(ids.mask), quantity: "1" });
    const page = await (await client.get("/cart/")).text();
    const nonce = /name="woocommerce-cart-nonce" value="([0-9a-f]+)"/.exec(page)![1]!;
    const key = /name="cart\[([0-9a-f]{32})\]\[qty\]"/.exec(page)![1]!;
    await client.post("/cart/", { [`cart[${key}][qty]`]: "3", update_cart: "Update cart", "woocommerce-cart-nonce": nonce });
    expect(await (await client.get("/cart/")).text()).toMatch(/value="3"/);
    await client.post("/cart/", { [`cart[${key}][qty]`]: "2.5", update_cart: "Update cart", "woocommerce-cart-nonce": nonce });
    expect(await (await client.get("/cart/")).text()).toContain("Quantity must be a whole number.");
    await client.post("/cart/", { [`cart[${key}][qty]`]: "0", update_cart: "Update cart", "woocommerce-cart-nonce": "bad" });
    expect(client.cookie("woocommerce_items_in_cart")).toBe("1");
    await client.post("/cart/", { [`cart[${key}][qty]`]: "0", update_cart: "Update cart", "woocommerce-cart-nonce": nonce });
    expect(client.cookie("woocommerce_items_in_cart")).toBeUndefined();
  });
});

describe("admin-ajax adds", () => {
  it("astra_add_cart_single_product answers fragments, or an empty body with the notice queued", async () => {
    const client = new TestClient(shop.url);
    const ok = await client.post("/wp-admin/admin-ajax.php", { action: "astra_add_cart_single_product", "add-to-cart": String(ids.mask), quantity: "1" });
    expect(((await ok.json()) as CartJson).cart_hash).toBe(client.cookie("woocommerce_cart_hash"));
    const grouped = await client.post("/wp-admin/admin-ajax.php", {
      action: "astra_add_cart_single_product",
      "add-to-cart": String(ids.grouped),
      [`quantity[${ids.groupedChildren.at(-1)}]`]: "1",
    });
    expect(((await grouped.json()) as CartJson).fragments).toBeDefined();
    const bad = await client.post("/wp-admin/admin-ajax.php", { action: "astra_add_cart_single_product", "add-to-cart": String(ids.external), quantity: "1" });
    expect(bad.status).toBe(200);
    expect(await bad.text()).toBe("");
  });

  it("jck_wssv_add_to_cart adds a listing variation and refuses a variation of another product", async () => {
    const client = new TestClient(shop.url);
    const ok = await client.post("/wp-admin/admin-ajax.php", {
      action: "jck_wssv_add_to_cart",
      product_id: String(ids.variable),
      variation_id: String(ids.variation),
      quantity: "1",
    });
    expect(((await ok.json()) as CartJson).fragments!["div.widget_shopping_cart_content"]).toContain("Cotton Face Mask");
    const bad = await client.post("/wp-admin/admin-ajax.php", {
      action: "jck_wssv_add_to_cart",
      product_id: String(ids.variable),
      variation_id: String(ids.otherVariation),
      quantity: "1",
    });
    expect(((await bad.json()) as CartJson).error).toBe(true);
  });
});

describe("coupons, shipping and totals", () => {
  it("apply_coupon / remove_coupon answer HTML notices, check the nonce, and change the hash", async () => {
    const client = new TestClient(shop.url);
    const { body } = await add(client, { product_id: String(ids.mask), quantity: "2" });
    const page = await (await client.get("/cart/")).text();
    const params = pageGlobal(page, "wc_cart_params") as Record<string, string>;
    const forged = await client.post(wc("apply_coupon"), { security: "0000000000", coupon_code: "welcome10" });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toBe("-1");
    const missing = await client.post(wc("apply_coupon"), { security: params.apply_coupon_nonce!, coupon_code: "nope" });
    expect(missing.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await missing.text()).toContain("Coupon &quot;nope&quot; does not exist!");
    const ok = await client.post(wc("apply_coupon"), { security: params.apply_coupon_nonce!, coupon_code: "WELCOME10" });
    expect(await ok.text()).toBe('<div class="woocommerce-message" role="alert">Coupon code applied successfully.</div>');
    expect(client.cookie("woocommerce_cart_hash")).not.toBe(body.cart_hash);
    const totals = await (await client.post(wc("get_cart_totals"), {})).text();
    expect(totals).toMatch(/^<div class="cart_totals">/);
    expect(totals).toContain("Coupon: welcome10");
    const removed = await client.post(wc("remove_coupon"), { security: params.remove_coupon_nonce!, coupon: "welcome10" });
    expect(await removed.text()).toContain("Coupon has been removed.");
    expect(client.cookie("woocommerce_cart_hash")).toBe(body.cart_hash);
  });

  it("update_shipping_method answers the totals HTML with the chosen rate; a bad nonce is 403 -1", async () => {
    const client = new TestClient(shop.url);
    const tie = (
      await shop.services.db.query<{ id: number }>(
        `SELECT p.id FROM products p JOIN product_terms pt ON pt.product_id = p.id JOIN terms t ON t.id = pt.term_id WHERE t.slug = 'ties' AND p.type = 'simple' AND p.stock_status = 'instock' AND p.status = 'publish' ORDER BY p.id LIMIT 1`,
      )
    )[0]!.id;
    await add(client, { product_id: String(tie) });
    const params = pageGlobal(await (await client.get("/cart/")).text(), "wc_cart_params") as Record<string, string>;
    expect((await client.post(wc("update_shipping_method"), { security: "bad", "shipping_method[0]": "local_pickup:1" })).status).toBe(403);
    const res = await client.post(wc("update_shipping_method"), { security: params.update_shipping_method_nonce!, "shipping_method[0]": "local_pickup:1" });
    expect(res.status).toBe(200);
    const htmlText = await res.text();
    expect(htmlText).toMatch(/name="shipping_method\[0\]" checked="" value="local_pickup:1"/);
  });
});

describe("concurrency", () => {
  it("fifty parallel adds to one cart end with exactly the summed quantity", async () => {
    const client = new TestClient(shop.url);
    const [unmanaged] = await shop.services.db.query<{ id: number }>(
      `SELECT id FROM products WHERE type = 'simple' AND status = 'publish' AND stock_quantity IS NULL AND stock_status = 'instock' ORDER BY id LIMIT 1`,
    );
    const target = unmanaged?.id ?? ids.mask;
    if (!unmanaged) await shop.services.db.query(`UPDATE products SET stock_quantity = NULL WHERE id = $1`, [target]);
    await add(client, { product_id: String(target), quantity: "1" });
    const results = await Promise.all(Array.from({ length: 50 }, () => add(client, { product_id: String(target), quantity: "2" })));
    expect(results.every((r) => r.body.fragments)).toBe(true);
    const json = (await (await client.post(wc("get_refreshed_fragments"), { time: "1" })).json()) as CartJson;
    expect(miniCartQuantities(json.fragments!)).toBe(101);
  });

  it("parallel adds never exceed the stock", async () => {
    const client = new TestClient(shop.url);
    await shop.services.db.query(`UPDATE products SET stock_quantity = 7, stock_status = 'instock' WHERE id = $1`, [ids.mask]);
    await add(client, { product_id: String(ids.mask), quantity: "1" });
    await Promise.all(Array.from({ length: 20 }, () => add(client, { product_id: String(ids.mask), quantity: "1" })));
    const json = (await (await client.post(wc("get_refreshed_fragments"), { time: "1" })).json()) as CartJson;
    expect(miniCartQuantities(json.fragments!)).toBe(7);
  });
});

describe("sign-in merge", () => {
  it("a guest cart joins the customer's cart at login", async () => {
    const client = new TestClient(shop.url);
    const account = await (await client.get("/my-account/")).text();
    const registerNonce = /name="woocommerce-register-nonce" value="([0-9a-f]+)"/.exec(account)?.[1];
    expect(registerNonce).toBeDefined();
    await add(client, { product_id: String(ids.mask), quantity: "1" });
    const res = await client.post("/my-account/", {
      intent: "register",
      email: `cart-${Date.now()}@example.com`,
      password: "a-long-password",
      "woocommerce-register-nonce": registerNonce!,
    });
    expect(res.status).toBe(302);
    const json = (await (await client.post(wc("get_refreshed_fragments"), { time: "1" })).json()) as CartJson;
    expect(miniCartQuantities(json.fragments!)).toBe(1);
  });
});
