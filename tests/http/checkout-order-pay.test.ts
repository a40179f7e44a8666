/** The order-pay page: a failed order paid again, with its stock taken again; guarded by the order key. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { CARD, billing, cardFields, openCheckout, productWithStock, shopperWithCart, submitCheckout } from "./checkout-support.ts";

let shop: TestShop;
let productId: number;

beforeAll(async () => {
  shop = await startTestShop();
  productId = await productWithStock(shop, "tie-clip", 20, 1200);
});
afterAll(async () => shop?.close());

describe("/checkout/order-pay/{id}/", () => {
  it("a declined order can be paid on its order-pay page; the stock is taken again", async () => {
    const client = await shopperWithCart(shop, productId, 2);
    const page = await openCheckout(client);
    const declined = await submitCheckout(client, page, { ...billing(), ...cardFields("4000 0000 0000 0002") });
    expect(declined.result).toBe("failure");
    const [order] = await shop.services.db.query<{ id: number; order_key: string; status: string }>(`SELECT id, order_key, status FROM orders ORDER BY id DESC LIMIT 1`);
    expect(order!.status).toBe("failed");
    const stock = async () => (await shop.services.db.query<{ n: number }>(`SELECT stock_quantity AS n FROM products WHERE id = $1`, [productId]))[0]!.n;
    expect(await stock()).toBe(20);
    const path = `/checkout/order-pay/${order!.id}/?pay_for_order=true&key=${order!.order_key}`;
    expect((await new TestClient(shop.url).get(`/checkout/order-pay/${order!.id}/?pay_for_order=true&key=wrong`)).status).toBe(404);
    const html = await (await client.get(path)).text();
    expect(html).toContain("Pay for order");
    const nonce = /name="woocommerce-pay-nonce" value="([^"]+)"/.exec(html)![1]!;
    const bad = await client.post(path, { "woocommerce-pay-nonce": nonce, ...cardFields("4242", "1") });
    expect(await bad.text()).toContain("Card number is invalid (wrong length)");
    const paid = await client.post(path, { "woocommerce-pay-nonce": nonce, ...cardFields(), [`${CARD}-payment-token`]: "" });
    expect(paid.status).toBe(302);
    expect(paid.headers.get("location")).toBe(`/checkout/order-received/${order!.id}/?key=${order!.order_key}`);
    const [after] = await shop.services.db.query<{ status: string }>(`SELECT status FROM orders WHERE id = $1`, [order!.id]);
    expect(after!.status).toBe("processing");
    expect(await stock()).toBe(18);
    // Paid orders cannot be paid again.
    expect(await (await client.get(path)).text()).toContain("it cannot be paid for");
  });
});
