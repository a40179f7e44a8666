/**
 * Stock written through wc/v3/products while shoppers check out the same product (decision 0021): no update is
 * lost and nothing is oversold. Every API write records the stock it replaced and the stock it set (the audit
 * line, written under the row lock), so the arithmetic can be checked exactly: the stock left is the starting
 * stock, less the units every order took, plus what each API write changed. And the units an unpaid order holds
 * come back on top of the value the API set. Runs on PGlite by default and on PostgreSQL with TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";
import { billing, cardFields, openCheckout, productWithStock, shopperWithCart, submitCheckout } from "./checkout-support.ts";
import { cancelUnpaidOrder } from "../../core/commerce/orders.ts";
import { insertOrder } from "../../core/db/repositories/orders.ts";

let shop: TestShop;
let admin: SignedIn;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "stock-admin@example.com", "administrator");
});
afterAll(async () => shop?.close());

const putStock = async (path: string, quantity: number) => {
  const res = await admin.client.request(`/wp-json/wc/v3/${path}`, {
    method: "PUT",
    headers: { "X-WP-Nonce": admin.nonce },
    json: { stock_quantity: quantity },
  });
  return { status: res.status, body: (await res.json()) as { stock_quantity: number } };
};

/** Each API write's stock before and after, from the audit log. */
async function apiDeltas(objectType: string, id: number, afterAuditId: number): Promise<number[]> {
  const rows = await shop.services.db.query<{ changes: { stock_quantity?: { before: number; after: number } } }>(
    `SELECT changes FROM audit_log WHERE object_type = $1 AND object_id = $2 AND id > $3 ORDER BY id`,
    [objectType, String(id), afterAuditId],
  );
  return rows.map((r) => (r.changes.stock_quantity ? r.changes.stock_quantity.after - r.changes.stock_quantity.before : 0));
}

const maxId = async (table: string) => (await shop.services.db.query<{ n: number }>(`SELECT coalesce(max(id), 0)::int AS n FROM ${table}`))[0]!.n;

describe("API stock writes against checkouts", () => {
  it("24 checkouts and 8 stock writes at once: stock left = start − ordered + Σ(API after − before), never below 0", async () => {
    const START = 12;
    const productId = await productWithStock(shop, "mask-lanyard", 1000, 500);
    const shoppers = [];
    for (let i = 0; i < 24; i += 8)
      shoppers.push(
        ...(await Promise.all(
          Array.from({ length: 8 }, async () => {
            const client = await shopperWithCart(shop, productId, 1);
            return { client, page: await openCheckout(client) };
          }),
        )),
      );
    await shop.services.db.query(`UPDATE products SET stock_quantity = $2 WHERE id = $1`, [productId, START]);
    const [auditFrom, ordersFrom] = [await maxId("audit_log"), await maxId("orders")];

    // Interleave: a stock write after every third checkout, all in flight together.
    const jobs: Promise<unknown>[] = [];
    const writes: Promise<{ status: number }>[] = [];
    shoppers.forEach(({ client, page }, i) => {
      jobs.push(submitCheckout(client, page, { ...billing(), ...cardFields() }));
      if (i % 3 === 1) {
        const w = putStock(`products/${productId}`, 3 + (i % 5));
        writes.push(w);
        jobs.push(w);
      }
    });
    const replies = (await Promise.all(jobs)).filter((r): r is { result: string; messages?: string } => typeof r === "object" && r !== null && "result" in r);
    for (const w of await Promise.all(writes)) expect(w.status).toBe(200);
    const won = replies.filter((r) => r.result === "success").length;
    for (const r of replies.filter((x) => x.result !== "success")) expect(r.messages).toMatch(/not in stock|do not have enough/);

    const [{ stock }] = (await shop.services.db.query<{ stock: number }>(`SELECT stock_quantity AS stock FROM products WHERE id = $1`, [productId])) as [
      { stock: number },
    ];
    const [{ ordered }] = (await shop.services.db.query<{ ordered: number }>(
      `SELECT coalesce(sum(s.quantity), 0)::int AS ordered FROM order_stock s WHERE s.item_table = 'products' AND s.item_id = $1 AND s.order_id > $2`,
      [productId, ordersFrom],
    )) as [{ ordered: number }];
    const deltas = await apiDeltas("product", productId, auditFrom);
    expect(deltas).toHaveLength(8);
    expect(ordered).toBe(won);
    expect(stock).toBeGreaterThanOrEqual(0);
    expect(stock).toBe(START - ordered + deltas.reduce((a, b) => a + b, 0));
  }, 180_000);

  it("the same for a variation's stock", async () => {
    const [variation] = await shop.services.db.query<{ id: number; product_id: number }>(
      `SELECT v.id, v.product_id FROM variations v JOIN products p ON p.id = v.product_id WHERE p.slug = 'classic-mask-and-tie-set' ORDER BY v.menu_order LIMIT 1`,
    );
    const { id, product_id: parent } = variation!;
    await shop.services.db.query(`UPDATE variations SET stock_quantity = 1000, stock_status = 'instock', status = 'publish' WHERE id = $1`, [id]);
    const shoppers = [];
    for (let i = 0; i < 12; i += 6)
      shoppers.push(
        ...(await Promise.all(
          Array.from({ length: 6 }, async () => {
            const client = await shopperWithCart(shop, id, 1);
            return { client, page: await openCheckout(client) };
          }),
        )),
      );
    await shop.services.db.query(`UPDATE variations SET stock_quantity = 5 WHERE id = $1`, [id]);
    const [auditFrom, ordersFrom] = [await maxId("audit_log"), await maxId("orders")];
    const jobs: Promise<unknown>[] = [];
    const writes: Promise<{ status: number }>[] = [];
    shoppers.forEach(({ client, page }, i) => {
      jobs.push(submitCheckout(client, page, { ...billing(), ...cardFields() }));
      if (i % 3 === 0) {
        const w = putStock(`products/${parent}/variations/${id}`, 2 + (i % 4));
        writes.push(w);
        jobs.push(w);
      }
    });
    await Promise.all(jobs);
    // No write is lost to a deadlock or a time-out: every one answers 200 (the variation is locked before its parent,
    // the order a checkout takes them in).
    for (const w of await Promise.all(writes)) expect(w.status).toBe(200);
    const [{ stock }] = (await shop.services.db.query<{ stock: number }>(`SELECT stock_quantity AS stock FROM variations WHERE id = $1`, [id])) as [
      { stock: number },
    ];
    const [{ ordered }] = (await shop.services.db.query<{ ordered: number }>(
      `SELECT coalesce(sum(quantity), 0)::int AS ordered FROM order_stock WHERE item_table = 'variations' AND item_id = $1 AND order_id > $2`,
      [id, ordersFrom],
    )) as [{ ordered: number }];
    const deltas = await apiDeltas("product_variation", id, auditFrom);
    expect(deltas).toHaveLength(4);
    expect(stock).toBeGreaterThanOrEqual(0);
    expect(stock).toBe(5 - ordered + deltas.reduce((a, b) => a + b, 0));
  }, 180_000);

  it("units an unpaid order holds are not in stock_quantity, and come back on top of the value the API set", async () => {
    const productId = await productWithStock(shop, "travel-tie-case", 20, 1900);
    const customer = await signInAs(shop, "stock-holder@example.com", "customer");
    // An order awaiting payment that took 3 units when it was placed (as the checkout does).
    const orderId = await shop.services.db.transaction(async (tx) => {
      await tx.query(`UPDATE products SET stock_quantity = stock_quantity - 3 WHERE id = $1`, [productId]);
      return insertOrder(tx, {
        orderKey: "wc_order_heldstock12345",
        customerId: customer.id,
        billingEmail: "stock-holder@example.com",
        currency: "USD",
        subtotal: 5700,
        discountTotal: 0,
        shippingTotal: 0,
        total: 5700,
        shippingMethodId: null,
        shippingMethodTitle: null,
        paymentMethod: "sandbox_credit_card",
        paymentMethodTitle: "Credit Card",
        customerNote: "",
        checkoutKey: null,
        billing: {
          first_name: "Ada",
          last_name: "Lovelace",
          company: "",
          country: "US",
          address_1: "1 Way",
          address_2: "",
          city: "Springfield",
          state: "IL",
          postcode: "62701",
          phone: "5551234567",
          email: "stock-holder@example.com",
        },
        shipping: null,
        lines: [{ productId, variationId: null, name: "Travel Tie Case", details: "", quantity: 3, subtotal: 5700, total: 5700 }],
        stock: [{ table: "products", id: productId, name: "Travel Tie Case", quantity: 3 }],
        coupons: [],
        meta: {},
      });
    });
    const read = await admin.client.get(`/wp-json/wc/v3/products/${productId}`, { headers: { "X-WP-Nonce": admin.nonce } });
    expect(((await read.json()) as { stock_quantity: number }).stock_quantity).toBe(17);
    // The owner counts 10 units free to sell now.
    expect((await putStock(`products/${productId}`, 10)).body.stock_quantity).toBe(10);
    // The unpaid order is cancelled: its 3 units come back on top.
    expect(await cancelUnpaidOrder(shop.services.db, orderId, customer.id)).toBe(true);
    const after = await admin.client.get(`/wp-json/wc/v3/products/${productId}`, { headers: { "X-WP-Nonce": admin.nonce } });
    expect(((await after.json()) as { stock_quantity: number }).stock_quantity).toBe(13);
  });
});
