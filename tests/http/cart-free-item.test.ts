/**
 * The buy-X-get-Y free item in the cart (seeded rule: buy a Silk Necktie, get a Velvet Bow Tie free,
 * colour of the shopper's choice): the free line follows its rule, and
 * admin-ajax awdr_change_discount_product_in_cart switches it only to one of the offered variants.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, builtServer, type TestShop } from "../support/shop.ts";
import { TestClient, pageGlobal } from "../support/client.ts";
import { DEMO_RULE_CODES, DEMO_RULE_PRODUCTS } from "../../core/db/seed/demo-discounts.ts";
import { loadRules } from "../../core/db/repositories/discounts.ts";

// The running shop's own module: its save clears the shop's pricing cache.
const { saveRule } = await builtServer();

let shop: TestShop;
let necktie: number;
/** Silk Necktie is variable: an in-stock variation of it (add_to_cart resolves it to its parent). */
let necktieVariation: number;
let bowTie: number;
/** In-stock bow tie variations in menu order: the rule's choices (the first is the default). */
let choices: number[];
/** A bow tie variation that is not a choice (out of stock), or another product's variation. */
let notAChoice: number;

beforeAll(async () => {
  shop = await startTestShop();
  const db = shop.services.db;
  const idOf = async (slug: string) => (await db.query<{ id: number }>(`SELECT id FROM products WHERE slug = $1`, [slug]))[0]!.id;
  necktie = await idOf(DEMO_RULE_PRODUCTS.buyProduct);
  bowTie = await idOf(DEMO_RULE_PRODUCTS.freeProduct);
  necktieVariation = (
    await db.query<{ id: number }>(`SELECT id FROM variations WHERE product_id = $1 AND stock_status = 'instock' ORDER BY menu_order, id LIMIT 1`, [necktie])
  )[0]!.id;
  const vars = await db.query<{ id: number; stock_status: string }>(`SELECT id, stock_status FROM variations WHERE product_id = $1 ORDER BY menu_order, id`, [
    bowTie,
  ]);
  choices = vars.filter((v) => v.stock_status !== "outofstock").map((v) => v.id);
  notAChoice =
    vars.find((v) => v.stock_status === "outofstock")?.id ??
    (await db.query<{ id: number }>(`SELECT id FROM variations WHERE product_id <> $1 ORDER BY id LIMIT 1`, [bowTie]))[0]!.id;
});
afterAll(async () => shop?.close());

const AJAX = "/wp-admin/admin-ajax.php";
type CartJson = { fragments?: Record<string, string>; cart_hash?: string };

interface FreePanel {
  ruleUniqueId: string;
  parentId: string;
  nonce: string;
  offered: number[];
  pressed: number | null;
}

/** Reads the free line's 'change product' panel from the cart page. */
async function freePanel(client: TestClient): Promise<{ html: string; panel: FreePanel | null }> {
  const html = await (await client.get("/cart/")).text();
  const wrap = /<div class="awdr-free-product-change" data-rule_unique_id="([^"]+)" data-parent_id="(\d+)" data-awdr_nonce="([^"]+)">([\s\S]*?)<\/ul>/.exec(
    html,
  );
  if (!wrap) return { html, panel: null };
  const offered = [...wrap[4]!.matchAll(/data-product_id="(\d+)"/g)].map((m) => Number(m[1]));
  const pressed = /data-product_id="(\d+)" aria-pressed="true"/.exec(wrap[4]!);
  return {
    html,
    panel: { ruleUniqueId: wrap[1]!.replace(/&amp;/g, "&"), parentId: wrap[2]!, nonce: wrap[3]!, offered, pressed: pressed ? Number(pressed[1]) : null },
  };
}

/** The newest cart: this file's tests run one after another on their own shop, so it is the current client's. */
async function newestCartId(): Promise<number> {
  return (await shop.services.db.query<{ id: number }>(`SELECT max(id) AS id FROM carts`))[0]!.id;
}

async function cartLines(cartId: number): Promise<{ productId: number; variationId: number; quantity: number; freeItem: string | null }[]> {
  const rows = await shop.services.db.query<{ product_id: number; variation_id: number; quantity: number; free: string | null }>(
    `SELECT product_id, variation_id, quantity, item_data->>'freeItem' AS free FROM cart_items WHERE cart_id = $1 ORDER BY position`,
    [cartId],
  );
  return rows.map((r) => ({ productId: r.product_id, variationId: r.variation_id, quantity: r.quantity, freeItem: r.free }));
}

async function fragments(client: TestClient): Promise<CartJson> {
  return (await (await client.post("/?wc-ajax=get_refreshed_fragments", { time: "1" })).json()) as CartJson;
}

async function change(client: TestClient, form: Record<string, string>): Promise<{ status: number; body: { success?: boolean; data?: unknown } }> {
  const res = await client.post(AJAX, { action: "awdr_change_discount_product_in_cart", ...form });
  return { status: res.status, body: (await res.json()) as { success?: boolean; data?: unknown } };
}

describe("buy X get Y: the free item", () => {
  it("buying a necktie adds the default bow tie free; the cart page offers the in-stock colours", async () => {
    expect(choices.length).toBeGreaterThan(1);
    const client = new TestClient(shop.url);
    await client.post("/?wc-ajax=add_to_cart", { product_id: String(necktieVariation), quantity: "1" });
    const cartId = await newestCartId();
    const mini = (await fragments(client)).fragments!["div.widget_shopping_cart_content"]!;
    expect(mini).toContain("Velvet Bow Tie");
    expect(mini).toMatch(/1 × <span class="free-item">Free<\/span>/);
    // Only the paid line has a remove link (the free one would come straight back).
    expect(mini.match(/remove_from_cart_button/g)).toHaveLength(1);
    const { html, panel } = await freePanel(client);
    expect(panel).not.toBeNull();
    expect(panel!.parentId).toBe(String(bowTie));
    expect(panel!.offered).toEqual(choices);
    expect(panel!.pressed).toBe(choices[0]);
    // The free line has no remove link and no quantity input: it follows its rule.
    expect(html).toMatch(/awdr-free-item/);
    expect((html.match(/name="cart\[[0-9a-f]{32}\]\[qty\]"/g) ?? []).length).toBe(1);

    // A second necktie: the rule is not recursive, still one free bow tie.
    await client.post("/?wc-ajax=add_to_cart", { product_id: String(necktieVariation), quantity: "1" });
    const lines = await cartLines(cartId);
    expect(lines.filter((l) => l.freeItem)).toEqual([expect.objectContaining({ productId: bowTie, variationId: choices[0], quantity: 1 })]);
  });

  it("changes the free colour with a valid request; the hash and cookie follow", async () => {
    const client = new TestClient(shop.url);
    const added = (await (await client.post("/?wc-ajax=add_to_cart", { product_id: String(necktieVariation) })).json()) as CartJson;
    const cartId = await newestCartId();
    const { panel } = await freePanel(client);
    const target = choices[1]!;
    const res = await change(client, { product_id: String(target), rule_unique_id: panel!.ruleUniqueId, parent_id: panel!.parentId, awdr_nonce: panel!.nonce });
    expect(res).toEqual({ status: 200, body: { success: true, data: 1 } });
    const after = await freePanel(client);
    expect(after.panel!.pressed).toBe(target);
    const lines = await cartLines(cartId);
    expect(lines.filter((l) => l.freeItem).map((l) => [l.variationId, l.quantity])).toEqual([[target, 1]]);
    expect(lines.filter((l) => !l.freeItem).map((l) => [l.productId, l.quantity])).toEqual([[necktie, 1]]);
    const refreshed = await fragments(client);
    expect(refreshed.cart_hash).not.toBe(added.cart_hash);
    expect(client.cookie("woocommerce_cart_hash")).toBe(refreshed.cart_hash);

    // Choosing the current one again changes nothing and still answers success.
    const again = await change(client, { product_id: String(target), rule_unique_id: panel!.ruleUniqueId, parent_id: "0", awdr_nonce: panel!.nonce });
    expect(again.body.success).toBe(true);
    expect((await fragments(client)).cart_hash).toBe(refreshed.cart_hash);
  });

  it("refuses a wrong rule, a product that is not offered, a wrong parent and a missing or bad nonce, changing nothing", async () => {
    const client = new TestClient(shop.url);
    await client.post("/?wc-ajax=add_to_cart", { product_id: String(necktieVariation) });
    const cartId = await newestCartId();
    const { panel } = await freePanel(client);
    const before = await fragments(client);
    const linesBefore = await cartLines(cartId);
    const good = { product_id: String(choices[1]), rule_unique_id: panel!.ruleUniqueId, parent_id: panel!.parentId, awdr_nonce: panel!.nonce };

    const refusals: [Record<string, string>, number][] = [
      [{ ...good, rule_unique_id: "no-such-rule" }, 200],
      [{ ...good, product_id: String(notAChoice) }, 200],
      [{ ...good, product_id: String(necktie) }, 200],
      [{ ...good, parent_id: String(necktie) }, 200],
      [{ ...good, product_id: "abc" }, 400],
      [{ ...good, product_id: "-3" }, 400],
      [{ ...good, rule_unique_id: "" }, 400],
      [{ ...good, awdr_nonce: "" }, 403],
      [{ ...good, awdr_nonce: "0123456789" }, 403],
    ];
    for (const [form, status] of refusals) {
      const res = await change(client, form);
      expect(res.status, JSON.stringify(form)).toBe(status);
      expect(res.body.success, JSON.stringify(form)).toBe(false);
      expect(typeof res.body.data).toBe("string");
    }
    const { awdr_nonce: _n, ...noNonce } = good;
    expect((await change(client, noNonce)).status).toBe(403);
    expect(await cartLines(cartId)).toEqual(linesBefore);
    expect((await fragments(client)).cart_hash).toBe(before.cart_hash);

    // Another shopper's nonce is not this shopper's.
    const other = new TestClient(shop.url);
    await other.post("/?wc-ajax=add_to_cart", { product_id: String(necktieVariation) });
    const otherPanel = (await freePanel(other)).panel!;
    expect((await change(client, { ...good, awdr_nonce: otherPanel.nonce })).status).toBe(403);
    expect(await cartLines(cartId)).toEqual(linesBefore);

    // A shopper without the offer (no necktie in the cart) cannot get the free item by asking.
    const stranger = new TestClient(shop.url);
    await stranger.post("/?wc-ajax=add_to_cart", { product_id: String(choices[0]) });
    const strangerCart = await newestCartId();
    const params = pageGlobal(await (await stranger.get("/cart/")).text(), "awdr_params") as { nonce: string };
    const res = await change(stranger, { ...good, parent_id: "0", awdr_nonce: params.nonce });
    expect(res.body).toEqual({ success: false, data: "This free product offer is no longer available." });
    expect((await cartLines(strangerCart)).map((l) => [l.variationId, l.quantity, l.freeItem])).toEqual([[choices[0], 1, null]]);
  });

  it("the free item leaves with its necktie, and its quantity cannot be changed by the cart form", async () => {
    const client = new TestClient(shop.url);
    const added = (await (await client.post("/?wc-ajax=add_to_cart", { product_id: String(necktieVariation) })).json()) as CartJson;
    const cartId = await newestCartId();
    const page = await (await client.get("/cart/")).text();
    const nonce = /name="woocommerce-cart-nonce" value="([^"]+)"/.exec(page)![1]!;
    const keys = [...page.matchAll(/data-cart_item_key="([0-9a-f]{32})"/g)].map((m) => m[1]!);
    const freeKey = /class="woocommerce-cart-form__cart-item cart_item awdr-free-item" data-cart_item_key="([0-9a-f]{32})"/.exec(page)![1]!;
    const paidKey = keys.find((k) => k !== freeKey)!;
    await client.post("/cart/", { [`cart[${freeKey}][qty]`]: "5", "woocommerce-cart-nonce": nonce, update_cart: "Update cart" });
    expect((await cartLines(cartId)).find((l) => l.freeItem)?.quantity).toBe(1);
    expect((await fragments(client)).cart_hash).toBe(added.cart_hash);

    const removed = (await (await client.post("/?wc-ajax=remove_from_cart", { cart_item_key: paidKey })).json()) as CartJson;
    expect(removed.cart_hash).toBe("");
    expect(removed.fragments!["div.widget_shopping_cart_content"]).toContain("No products in the cart.");
    expect(client.cookie("woocommerce_cart_hash")).toBeUndefined();
  });

  it("a saved rule takes effect at once: the cached rules are dropped on save", async () => {
    const db = shop.services.db;
    const rule = (await loadRules(db)).find((r) => r.code === DEMO_RULE_CODES.buyXGetY)!;
    // Warm the cache with the rule enabled.
    const warm = new TestClient(shop.url);
    await warm.post("/?wc-ajax=add_to_cart", { product_id: String(necktieVariation) });
    expect((await fragments(warm)).fragments!["div.widget_shopping_cart_content"]).toContain("Velvet Bow Tie");
    try {
      await saveRule(db, { ...rule, enabled: false });
      const client = new TestClient(shop.url);
      await client.post("/?wc-ajax=add_to_cart", { product_id: String(necktieVariation) });
      expect(await cartLines(await newestCartId())).toEqual([expect.objectContaining({ variationId: necktieVariation, freeItem: null })]);
    } finally {
      await saveRule(db, rule);
    }
    const again = new TestClient(shop.url);
    await again.post("/?wc-ajax=add_to_cart", { product_id: String(necktieVariation) });
    expect((await cartLines(await newestCartId())).filter((l) => l.freeItem)).toHaveLength(1);
  });
});
