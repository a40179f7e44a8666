/**
 * Refunds by line and the order actions (docs/contract/rest/orders.md 'Refunds', 'Order actions'): a line is never
 * refunded past its units or what was paid for it, across refunds and under concurrency; a line the order lacks is
 * refused; a retried line refund restocks once; `actions/send_order_details` queues the order e-mail again, staff only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";
import { billing, cardFields, openCheckout, productWithStock, shopperWithCart, submitCheckout } from "./checkout-support.ts";

let shop: TestShop;
let admin: SignedIn;
let productId: number;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "line-refunds-admin@example.com", "administrator");
  productId = await productWithStock(shop, "silk-pocket-square", 40, 1500);
});
afterAll(async () => shop?.close());

function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, who: SignedIn = admin) {
  return who.client.request(path, {
    method,
    headers: { "X-WP-Nonce": who.nonce, "Content-Type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function paidOrder(quantity: number): Promise<{ id: number; lineId: number; lineTotal: string }> {
  const client = await shopperWithCart(shop, productId, quantity);
  const reply = await submitCheckout(client, await openCheckout(client), { ...billing(), ...cardFields() });
  expect(reply.result).toBe("success");
  const id = Number(/order-received\/(\d+)/.exec(reply.redirect!)![1]);
  const order = (await (await api("GET", `/wp-json/wc/v3/orders/${id}`)).json()) as { line_items: { id: number; total: string }[] };
  return { id, lineId: order.line_items[0]!.id, lineTotal: order.line_items[0]!.total };
}

const stockOf = async () => (await shop.services.db.query<{ n: number }>(`SELECT stock_quantity AS n FROM products WHERE id = $1`, [productId]))[0]!.n;
const refund = (orderId: number, body: unknown, key?: string) =>
  api("POST", `/wp-json/wc/v3/orders/${orderId}/refunds`, body, key ? { "Idempotency-Key": key } : {});
const errorOf = async (res: Response) => (await res.json()) as { code: string; message: string; data: { status: number } };

describe("refunds by line", () => {
  it("refuses more units or money than a line has left after earlier refunds", async () => {
    const order = await paidOrder(2); // 2 × 15.00
    const first = await refund(order.id, { line_items: [{ id: order.lineId, quantity: 1, refund_total: "15.00" }], api_restock: true }, `l-${order.id}-1`);
    expect(first.status).toBe(201);
    expect(((await first.json()) as { amount: string }).amount).toBe("15.00");

    const tooMany = await refund(order.id, { line_items: [{ id: order.lineId, quantity: 2, refund_total: "1.00" }] }, `l-${order.id}-2`);
    expect(tooMany.status).toBe(400);
    const e1 = await errorOf(tooMany);
    expect(e1.code).toBe("woocommerce_rest_invalid_order_refund");
    expect(e1.message).toMatch(/only 1 unit left/);

    const tooMuch = await refund(order.id, { line_items: [{ id: order.lineId, quantity: 0, refund_total: "15.01" }] }, `l-${order.id}-3`);
    expect(tooMuch.status).toBe(400);
    expect((await errorOf(tooMuch)).message).toMatch(/only 15\.00 left/);

    // The amount may not be smaller than the lines' refund_total.
    const mismatch = await refund(order.id, { amount: "1.00", line_items: [{ id: order.lineId, quantity: 1, refund_total: "15.00" }] }, `l-${order.id}-4`);
    expect(mismatch.status).toBe(400);

    const rest = await refund(order.id, { line_items: [{ id: order.lineId, quantity: 1, refund_total: "15.00" }] }, `l-${order.id}-5`);
    expect(rest.status).toBe(201);
    const [n] = await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM order_refunds WHERE order_id = $1`, [order.id]);
    expect(n!.n).toBe(2);
  });

  it("refuses a line the order does not have, and a line named twice", async () => {
    const order = await paidOrder(1);
    const other = await paidOrder(1);
    const foreign = await refund(order.id, { line_items: [{ id: other.lineId, quantity: 1, refund_total: "1.00" }] });
    expect(foreign.status).toBe(400);
    expect((await errorOf(foreign)).message).toMatch(/no line item/);
    const twice = await refund(order.id, {
      line_items: [
        { id: order.lineId, quantity: 1, refund_total: "0" },
        { id: order.lineId, quantity: 0, refund_total: "1.00" },
      ],
    });
    expect(twice.status).toBe(400);
    expect((await errorOf(twice)).message).toMatch(/named twice/);
    const [n] = await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM order_refunds WHERE order_id = $1`, [order.id]);
    expect(n!.n).toBe(0);
  });

  it("a line refund retried with its key restocks once; two concurrent refunds of the same last unit: one succeeds", async () => {
    const order = await paidOrder(3);
    const before = await stockOf();
    const body = { line_items: [{ id: order.lineId, quantity: 2, refund_total: "30.00" }], api_restock: true, reason: "Two torn" };
    const a = await refund(order.id, body, `retry-${order.id}`);
    const b = await refund(order.id, body, `retry-${order.id}`);
    expect([a.status, b.status]).toEqual([201, 200]);
    expect(await stockOf()).toBe(before + 2);

    const replies = await Promise.all(
      ["x", "y"].map((k) =>
        refund(order.id, { line_items: [{ id: order.lineId, quantity: 1, refund_total: "1.00" }], api_restock: true }, `last-${order.id}-${k}`),
      ),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([201, 400]);
    expect(await stockOf()).toBe(before + 3);
  });
});

describe("POST wc/v3/orders/{id}/actions/send_order_details", () => {
  it("queues the order e-mail again and notes it; staff only; unknown order 404", async () => {
    const order = await paidOrder(1);
    const res = await api("POST", `/wp-json/wc/v3/orders/${order.id}/actions/send_order_details`, {});
    expect(res.status).toBe(200);
    const body = (await res.json()) as { message: string };
    expect(body.message).toMatch(/^Order details sent to \S+@\S+, via REST API\.$/);
    const mails = await shop.services.db.query<{ subject: string; body: string }>(
      `SELECT subject, body FROM email_outbox WHERE order_id = $1 AND kind = 'order_details'`,
      [order.id],
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Details for order #${order.id}`);
    expect(mails[0]!.body).toContain("Silk Pocket Square × 1");
    const notes = (await (await api("GET", `/wp-json/wc/v3/orders/${order.id}/notes`)).json()) as { note: string; customer_note: boolean }[];
    expect(notes.some((n) => n.note.startsWith("Order details sent to") && !n.customer_note)).toBe(true);

    expect((await api("POST", `/wp-json/wc/v3/orders/999999/actions/send_order_details`, {})).status).toBe(404);
    const withEmail = await api("POST", `/wp-json/wc/v3/orders/${order.id}/actions/send_order_details`, { email: "x@example.com" });
    expect(withEmail.status).toBe(400);

    const guest = await new TestClient(shop.url).request(`/wp-json/wc/v3/orders/${order.id}/actions/send_order_details`, { method: "POST" });
    expect(guest.status).toBe(401);
    const customer = await signInAs(shop, "line-refunds-customer@example.com", "customer");
    const refused = await api("POST", `/wp-json/wc/v3/orders/${order.id}/actions/send_order_details`, {}, {}, customer);
    expect(refused.status).toBe(403);
    const [n] = await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM email_outbox WHERE order_id = $1 AND kind = 'order_details'`, [
      order.id,
    ]);
    expect(n!.n).toBe(1);
  });
});
