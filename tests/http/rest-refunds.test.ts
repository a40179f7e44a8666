/**
 * wc/v3/orders/{id}/refunds (docs/contract/rest/orders.md 'Refunds', decision 0022): a refund goes through the
 * sandbox gateway once whatever the retries, never past what is left under concurrency, restocks what it is told
 * to (and the product page shows it at once), moves a fully refunded order to 'refunded', notes it, and a gateway
 * refusal changes nothing.
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
  admin = await signInAs(shop, "refunds-admin@example.com", "administrator");
  productId = await productWithStock(shop, "silk-pocket-square", 40, 1500);
});
afterAll(async () => shop?.close());

async function paidOrder(quantity: number): Promise<{ id: number; total: string; lineId: number }> {
  const client = await shopperWithCart(shop, productId, quantity);
  const reply = await submitCheckout(client, await openCheckout(client), { ...billing(), ...cardFields() });
  expect(reply.result).toBe("success");
  const id = Number(/order-received\/(\d+)/.exec(reply.redirect!)![1]);
  const order = (await (await api("GET", `/wp-json/wc/v3/orders/${id}`)).json()) as { total: string; status: string; line_items: { id: number }[] };
  expect(order.status).toBe("processing");
  return { id, total: order.total, lineId: order.line_items[0]!.id };
}

function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, who: SignedIn = admin) {
  return who.client.request(path, {
    method,
    headers: { "X-WP-Nonce": who.nonce, "Content-Type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

const stockOf = async () => (await shop.services.db.query<{ n: number }>(`SELECT stock_quantity AS n FROM products WHERE id = $1`, [productId]))[0]!.n;
const gatewayRefunds = async () => (await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM sandbox_records WHERE type = 'refund'`))[0]!.n;

describe("POST wc/v3/orders/{id}/refunds", () => {
  it("refunds through the gateway once, restocks the line, notes it; a retry with the same key is not doubled", async () => {
    const order = await paidOrder(3);
    const stockBefore = await stockOf();
    const refundsBefore = await gatewayRefunds();
    const body = { amount: "15.00", reason: "Torn", line_items: [{ id: order.lineId, quantity: 1, refund_total: "15.00" }], api_restock: true };
    const res = await api("POST", `/wp-json/wc/v3/orders/${order.id}/refunds`, body, { "Idempotency-Key": `r-${order.id}-1` });
    expect(res.status).toBe(201);
    const refund = (await res.json()) as Record<string, unknown>;
    expect(refund).toMatchObject({ amount: "15.00", reason: "Torn", refunded_payment: true, refunded_by: admin.id });
    expect((refund.line_items as { id: number; quantity: number; total: string }[])[0]).toMatchObject({ id: order.lineId, quantity: -1, total: "-15.00" });
    expect(await stockOf()).toBe(stockBefore + 1);
    expect(await gatewayRefunds()).toBe(refundsBefore + 1);
    // The storefront shows the restocked unit at once.
    const page = await (await new TestClient(shop.url).get("/product/silk-pocket-square/")).text();
    expect(page).toMatch(new RegExp(`>${stockBefore + 1}(<!-- -->)? in stock<`));

    const again = await api("POST", `/wp-json/wc/v3/orders/${order.id}/refunds`, body, { "Idempotency-Key": `r-${order.id}-1` });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { id: number }).id).toBe(refund.id);
    expect(await gatewayRefunds()).toBe(refundsBefore + 1);
    expect(await stockOf()).toBe(stockBefore + 1);

    const reused = await api("POST", `/wp-json/wc/v3/orders/${order.id}/refunds`, { ...body, amount: "5.00" }, { "Idempotency-Key": `r-${order.id}-1` });
    expect(reused.status).toBe(409);
    expect(((await reused.json()) as { code: string }).code).toBe("woocommerce_rest_idempotency_key_reused");

    const got = (await (await api("GET", `/wp-json/wc/v3/orders/${order.id}`)).json()) as { status: string; refunds: unknown[] };
    expect(got.status).toBe("processing");
    expect(got.refunds).toEqual([{ id: refund.id, reason: "Torn", total: "-15.00" }]);
    const notes = (await (await api("GET", `/wp-json/wc/v3/orders/${order.id}/notes`)).json()) as { note: string }[];
    expect(notes.some((n) => /^Refunded \$15 through the payment gateway/.test(n.note))).toBe(true);
    const list = await api("GET", `/wp-json/wc/v3/orders/${order.id}/refunds`);
    expect(list.headers.get("x-wp-total")).toBe("1");
    const one = await api("GET", `/wp-json/wc/v3/orders/${order.id}/refunds/${String(refund.id)}`);
    expect(((await one.json()) as { amount: string }).amount).toBe("15.00");
    const audit = await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE action = 'refund' AND object_id = $1`, [
      String(order.id),
    ]);
    expect(audit[0]!.n).toBe(1);
  });

  it("two concurrent refunds that together exceed the total: exactly one succeeds", async () => {
    const order = await paidOrder(2);
    const cents = Math.round(Number(order.total) * 100);
    const part = (Math.floor(cents * 0.75) / 100).toFixed(2);
    const refundsBefore = await gatewayRefunds();
    const replies = await Promise.all(
      ["a", "b", "c"].map((k) =>
        api("POST", `/wp-json/wc/v3/orders/${order.id}/refunds`, { amount: part, api_restock: false }, { "Idempotency-Key": `conc-${order.id}-${k}` }),
      ),
    );
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 400, 400]);
    for (const r of replies.filter((x) => x.status === 400)) expect(((await r.json()) as { code: string }).code).toBe("woocommerce_rest_invalid_order_refund");
    expect(await gatewayRefunds()).toBe(refundsBefore + 1);
    const [sum] = await shop.services.db.query<{ n: number }>(`SELECT sum(amount)::int AS n FROM order_refunds WHERE order_id = $1`, [order.id]);
    expect(sum!.n).toBe(Math.round(Number(part) * 100));
  });

  it("a double click without a key refunds once", async () => {
    const order = await paidOrder(1);
    const refundsBefore = await gatewayRefunds();
    const replies = await Promise.all([1, 2].map(() => api("POST", `/wp-json/wc/v3/orders/${order.id}/refunds`, { amount: "3.00", api_restock: false })));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of replies.filter((x) => x.status !== 201)) expect([200, 503]).toContain(r.status);
    expect(await gatewayRefunds()).toBe(refundsBefore + 1);
  });

  it("a refund left pending after the gateway refunded (a crash) holds its amount and is finished, once, by the retry with its key", async () => {
    const order = await paidOrder(2);
    const db = shop.services.db;
    const body = { amount: "15.00", line_items: [{ id: order.lineId, quantity: 1, refund_total: "15.00" }] };
    const stockBefore = await stockOf();
    const refundsBefore = await gatewayRefunds();
    const done = await api("POST", `/wp-json/wc/v3/orders/${order.id}/refunds`, body, { "Idempotency-Key": "crashed" });
    expect(done.status).toBe(201);
    // Undo what the last transaction did, as if the process died right after the gateway's answer.
    await db.query(`UPDATE order_refunds SET status = 'pending', completed_at = NULL WHERE order_id = $1`, [order.id]);
    await db.query(`UPDATE order_stock SET restocked = 0 WHERE order_id = $1`, [order.id]);
    await db.query(`UPDATE products SET stock_quantity = stock_quantity - 1 WHERE id = $1`, [productId]);
    expect(await stockOf()).toBe(stockBefore);
    expect((await (await api("GET", `/wp-json/wc/v3/orders/${order.id}/refunds`)).json()) as unknown[]).toEqual([]);
    // The pending refund's amount stays reserved.
    const all = await api("POST", `/wp-json/wc/v3/orders/${order.id}/refunds`, { amount: order.total, api_restock: false });
    expect(all.status).toBe(400);
    const retry = await api("POST", `/wp-json/wc/v3/orders/${order.id}/refunds`, body, { "Idempotency-Key": "crashed" });
    expect(retry.status).toBe(201);
    expect(await gatewayRefunds()).toBe(refundsBefore + 1);
    expect(await stockOf()).toBe(stockBefore + 1);
    const again = await api("POST", `/wp-json/wc/v3/orders/${order.id}/refunds`, body, { "Idempotency-Key": "crashed" });
    expect(again.status).toBe(200);
    expect(await stockOf()).toBe(stockBefore + 1);
    expect(await gatewayRefunds()).toBe(refundsBefore + 1);
  });

  it("a full refund moves the order to refunded; nothing is left to refund after it", async () => {
    const order = await paidOrder(2);
    const stockBefore = await stockOf();
    const res = await api("POST", `/wp-json/wc/v3/orders/${order.id}/refunds`, {
      amount: order.total,
      line_items: [{ id: order.lineId, quantity: 2, refund_total: "30.00" }],
      restock_items: true,
    });
    expect(res.status).toBe(201);
    expect(await stockOf()).toBe(stockBefore + 2);
    const got = (await (await api("GET", `/wp-json/wc/v3/orders/${order.id}`)).json()) as { status: string };
    expect(got.status).toBe("refunded");
    const more = await api("POST", `/wp-json/wc/v3/orders/${order.id}/refunds`, { amount: "1.00" });
    expect(more.status).toBe(400);
    expect(((await more.json()) as { code: string }).code).toBe("woocommerce_rest_invalid_order_refund");
    const mail = await shop.services.db.query<{ subject: string }>(`SELECT subject FROM email_outbox WHERE order_id = $1 AND kind = 'order_refunded'`, [
      order.id,
    ]);
    expect(mail.map((m) => m.subject)).toEqual([`Your order #${order.id} has been refunded`]);
  });

  it("a refund the gateway refuses changes nothing and answers an error", async () => {
    const order = await paidOrder(1);
    await shop.services.db.query(`UPDATE payment_attempts SET charge_id = 'ch_unknown' WHERE order_id = $1 AND status = 'captured'`, [order.id]);
    const stockBefore = await stockOf();
    const res = await api("POST", `/wp-json/wc/v3/orders/${order.id}/refunds`, {
      amount: "5.00",
      line_items: [{ id: order.lineId, quantity: 1, refund_total: "5.00" }],
    });
    expect(res.status).toBe(500);
    const body = (await res.json()) as { code: string; data: { gateway_code: string; retryable: boolean } };
    expect(body.code).toBe("woocommerce_rest_cannot_create_order_refund");
    expect(body.data).toMatchObject({ gateway_code: "not_found", retryable: false });
    expect(await stockOf()).toBe(stockBefore);
    const rows = await shop.services.db.query(`SELECT id FROM order_refunds WHERE order_id = $1`, [order.id]);
    expect(rows).toEqual([]);
    const got = (await (await api("GET", `/wp-json/wc/v3/orders/${order.id}`)).json()) as { status: string; refunds: unknown[] };
    expect(got).toMatchObject({ status: "processing", refunds: [] });
  });

  it("a manual refund (api_refund false) moves no money and may be deleted; a gateway refund may not", async () => {
    const order = await paidOrder(1);
    const refundsBefore = await gatewayRefunds();
    const manual = await api("POST", `/wp-json/wc/v3/orders/${order.id}/refunds`, { amount: "2.00", api_refund: false, reason: "Goodwill" });
    expect(manual.status).toBe(201);
    const m = (await manual.json()) as { id: number; refunded_payment: boolean };
    expect(m.refunded_payment).toBe(false);
    expect(await gatewayRefunds()).toBe(refundsBefore);
    expect((await api("DELETE", `/wp-json/wc/v3/orders/${order.id}/refunds/${m.id}`)).status).toBe(501);
    expect((await api("DELETE", `/wp-json/wc/v3/orders/${order.id}/refunds/${m.id}?force=true`)).status).toBe(200);
    expect((await api("GET", `/wp-json/wc/v3/orders/${order.id}/refunds/${m.id}`)).status).toBe(404);
    const viaGateway = (await (await api("POST", `/wp-json/wc/v3/orders/${order.id}/refunds`, { amount: "1.00" })).json()) as { id: number };
    const del = await api("DELETE", `/wp-json/wc/v3/orders/${order.id}/refunds/${viaGateway.id}?force=true`);
    expect(del.status).toBe(400);
  });

  it("refuses bad input, unpaid orders, guests and customers", async () => {
    const order = await paidOrder(1);
    for (const [body, param] of [
      [{ amount: "-1" }, "amount"],
      [{ amount: "abc" }, "amount"],
      [{ amount: "1.001" }, "amount"],
      [{ line_items: "x" }, "line_items"],
      [{ api_refund: "maybe" }, "api_refund"],
    ] as const) {
      const res = await api("POST", `/wp-json/wc/v3/orders/${order.id}/refunds`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const err = (await res.json()) as { code: string; data: { params: Record<string, string> } };
      expect(err.code).toBe("rest_invalid_param");
      expect(Object.keys(err.data.params)).toContain(param);
    }
    const zero = await api("POST", `/wp-json/wc/v3/orders/${order.id}/refunds`, { amount: "0" });
    expect(((await zero.json()) as { code: string }).code).toBe("woocommerce_rest_invalid_order_refund");
    const badLine = await api("POST", `/wp-json/wc/v3/orders/${order.id}/refunds`, { line_items: [{ id: 999999, quantity: 1, refund_total: "1.00" }] });
    expect(badLine.status).toBe(400);
    expect((await api("POST", `/wp-json/wc/v3/orders/999999/refunds`, { amount: "1.00" })).status).toBe(404);

    const created = (await (
      await api("POST", "/wp-json/wc/v3/orders", { billing: { email: "unpaid@example.com" }, line_items: [{ product_id: productId, quantity: 1 }] })
    ).json()) as { id: number };
    const unpaid = await api("POST", `/wp-json/wc/v3/orders/${created.id}/refunds`, { amount: "1.00" });
    expect(unpaid.status).toBe(400);
    expect(((await unpaid.json()) as { code: string }).code).toBe("woocommerce_rest_cannot_create_order_refund");

    const guest = await new TestClient(shop.url).request(`/wp-json/wc/v3/orders/${order.id}/refunds`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ amount: "1.00" }),
    });
    expect(guest.status).toBe(401);
    expect(((await guest.json()) as { code: string }).code).toBe("woocommerce_rest_cannot_create");
    const customer = await signInAs(shop, "refund-customer@example.com", "customer");
    const denied = await api("POST", `/wp-json/wc/v3/orders/${order.id}/refunds`, { amount: "1.00" }, {}, customer);
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as { code: string }).code).toBe("woocommerce_rest_cannot_create");
    const list = await api("GET", `/wp-json/wc/v3/orders/${order.id}/refunds`, undefined, {}, customer);
    expect(list.status).toBe(403);
    const rows = await shop.services.db.query(`SELECT id FROM order_refunds WHERE order_id = $1`, [order.id]);
    expect(rows).toEqual([]);
  });
});
