/**
 * A bundle takes the stock of every product inside it, not only its own: at add-to-cart (refused when a product
 * inside is short), at order placement (one conditional update per stock item, summed across lines), and back
 * when the payment fails. Concurrent bundle and single-item orders share one stock and never oversell it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { billing, cardFields, openCheckout, productWithStock, submitCheckout } from "./checkout-support.ts";

let shop: TestShop;
const id: Record<string, number> = {};
// Groomsmen Gift Box (demo catalogue): 1 × skinny tie and 2 × black mask always; pocket square (1) and tie clip (1) optional.
const SLUGS = { bundle: "groomsmen-gift-box", tie: "skinny-cotton-tie", mask: "black-everyday-mask", square: "silk-pocket-square", clip: "tie-clip" } as const;

beforeAll(async () => {
  shop = await startTestShop();
  const [bundle] = await shop.services.db.query<{ id: number }>(
    `UPDATE products SET stock_quantity = 100, stock_status = 'instock' WHERE slug = $1 RETURNING id`,
    [SLUGS.bundle],
  );
  id.bundle = bundle!.id;
});
afterAll(async () => shop?.close());

async function stockOf(...slugs: string[]): Promise<Record<string, number | null>> {
  const rows = await shop.services.db.query<{ slug: string; n: number | null }>(`SELECT slug, stock_quantity AS n FROM products WHERE slug = ANY($1)`, [slugs]);
  return Object.fromEntries(rows.map((r) => [r.slug, r.n]));
}

async function setStock(stock: Partial<Record<keyof typeof SLUGS, number | null>>): Promise<void> {
  for (const [k, n] of Object.entries(stock)) {
    if (k === "bundle") await shop.services.db.query(`UPDATE products SET stock_quantity = $2, stock_status = 'instock' WHERE slug = $1`, [SLUGS.bundle, n]);
    else id[k] = await productWithStock(shop, SLUGS[k as keyof typeof SLUGS], n ?? null, 1000);
  }
}

/** Adds the bundle through the product form, as the page posts it; returns the notice text of the page. */
async function addBundle(client: TestClient, quantity: number, withSquare: boolean): Promise<string> {
  const form: Record<string, string> = { "add-to-cart": String(id.bundle), quantity: String(quantity), bundle_quantity_1: "1", bundle_quantity_2: "2" };
  if (withSquare) Object.assign(form, { bundle_selected_optional_3: "yes", bundle_quantity_3: "1" });
  const res = await client.post(`/product/${SLUGS.bundle}/`, form);
  const location = res.headers.get("location");
  return await (await client.get(location ? new URL(location, shop.url).pathname : `/product/${SLUGS.bundle}/`)).text();
}

/** Units in the cart, as the header's cart link shows them. */
async function cartCount(client: TestClient): Promise<number> {
  const html = await (await client.get("/cart/")).text();
  return Number(/class="cart-contents"[^>]*aria-label="Cart, (\d+) items?"/.exec(html)?.[1] ?? NaN);
}

describe("bundles and stock", () => {
  it("an order takes the bundle's own stock and every product inside it; a declined payment gives all of it back", async () => {
    await setStock({ bundle: 100, tie: 20, mask: 20, square: 20, clip: 20 });
    const paying = new TestClient(shop.url);
    await addBundle(paying, 2, true);
    expect(await cartCount(paying)).toBe(2);
    let reply = await submitCheckout(paying, await openCheckout(paying), { ...billing(), ...cardFields() });
    expect(reply.result).toBe("success");
    // 2 bundles: 2 ties, 4 masks, 2 pocket squares (ticked); the tie clip was not ticked.
    expect(await stockOf(...Object.values(SLUGS))).toEqual({ [SLUGS.bundle]: 98, [SLUGS.tie]: 18, [SLUGS.mask]: 16, [SLUGS.square]: 18, [SLUGS.clip]: 20 });

    const declined = new TestClient(shop.url);
    await addBundle(declined, 1, false);
    reply = await submitCheckout(declined, await openCheckout(declined), { ...billing(), ...cardFields("4000 0000 0000 0002") });
    expect(reply.result).toBe("failure");
    expect(await stockOf(...Object.values(SLUGS))).toEqual({ [SLUGS.bundle]: 98, [SLUGS.tie]: 18, [SLUGS.mask]: 16, [SLUGS.square]: 18, [SLUGS.clip]: 20 });
    const [held] = await shop.services.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM order_stock s JOIN orders o ON o.id = s.order_id WHERE o.status = 'failed'`,
    );
    expect(held!.n).toBeGreaterThan(0); // the ledger keeps what the failed order had held, for order-pay to take again
  });

  it("adding is refused while a product inside is short, and the product page shows it", async () => {
    await setStock({ bundle: 100, tie: 20, mask: 3, square: 0, clip: 20 });
    const client = new TestClient(shop.url);
    // Two bundles need 4 masks; 3 are left.
    expect(await addBundle(client, 2, false)).toContain(
      "You cannot add that amount of “Groomsmen Gift Box” to the cart because there is only enough “Black Everyday Mask” for 1.",
    );
    expect(await cartCount(client)).toBe(0);
    expect(await addBundle(client, 1, true)).toContain(
      "You cannot add “Groomsmen Gift Box” to the cart because “Silk Pocket Square” inside it is out of stock.",
    );
    expect(await cartCount(client)).toBe(0);
    const page = await (await client.get(`/product/${SLUGS.bundle}/`)).text();
    expect(page).toMatch(/<input type="checkbox"(?=[^>]*disabled="")[^>]*name="bundle_selected_optional_3"/);
    expect(page).toMatch(/id="quantity"[^>]*max="1"|max="1"[^>]*id="quantity"/);
    await setStock({ mask: 1 });
    const soldOut = await (await client.get(`/product/${SLUGS.bundle}/`)).text();
    expect(soldOut).toMatch(/<button(?=[^>]*name="add-to-cart")(?=[^>]*disabled="")/);
    expect(soldOut).toContain('<p class="stock out-of-stock">Out of stock</p>');
  });

  it("a product inside sold out after the bundle was added: the checkout refuses, names it, and takes nothing", async () => {
    await setStock({ bundle: 100, tie: 20, mask: 20, square: 20, clip: 20 });
    const client = new TestClient(shop.url);
    await addBundle(client, 1, false);
    await setStock({ tie: 0 });
    const before = await stockOf(...Object.values(SLUGS));
    const orders = (await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders`))[0]!.n;
    const reply = await submitCheckout(client, await openCheckout(client), { ...billing(), ...cardFields() });
    expect(reply.result).toBe("failure");
    expect(reply.messages).toContain("Sorry, &quot;Skinny Cotton Tie&quot; is not in stock.");
    expect(await stockOf(...Object.values(SLUGS))).toEqual(before);
    const after = (await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders`))[0]!.n;
    expect(after).toBe(orders);
  });

  it("bundles and single masks bought at once share the mask stock: never oversold, and every unit accounted for", async () => {
    await setStock({ bundle: 100, tie: 100, mask: 9, square: 100, clip: 100 });
    const start = (await stockOf(SLUGS.mask))[SLUGS.mask]!;
    const lastOrder = (await shop.services.db.query<{ n: number }>(`SELECT coalesce(max(id), 0)::int AS n FROM orders`))[0]!.n;
    // 8 shoppers want a bundle (2 masks each), 8 want 1 mask: 24 masks wanted, 9 in stock.
    const shoppers = await Promise.all(
      Array.from({ length: 16 }, async (_, i) => {
        const client = new TestClient(shop.url);
        if (i % 2 === 0) await addBundle(client, 1, false);
        else await client.post("/?wc-ajax=add_to_cart", { product_id: String(id.mask), quantity: "1" });
        return { client, page: await openCheckout(client) };
      }),
    );
    const replies = await Promise.all(shoppers.map(({ client, page }) => submitCheckout(client, page, { ...billing(), ...cardFields() })));
    expect(replies.every((r) => r.result === "success" || /in stock/.test(r.messages ?? ""))).toBe(true);
    const [sold] = await shop.services.db.query<{ n: number }>(
      `SELECT coalesce(sum(s.quantity), 0)::int AS n FROM order_stock s JOIN orders o ON o.id = s.order_id
       WHERE o.status = 'processing' AND s.item_table = 'products' AND s.item_id = $1 AND o.id > $2`,
      [id.mask, lastOrder],
    );
    const left = (await stockOf(SLUGS.mask))[SLUGS.mask]!;
    expect(left).toBeGreaterThanOrEqual(0);
    expect(left + sold!.n).toBe(start);
    expect(replies.filter((r) => r.result === "success").length).toBeGreaterThan(0);
  });
});
