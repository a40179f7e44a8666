/**
 * The order status machine in TypeScript (core/domain/orders/status.ts) is the database's: after migrating, the
 * order_statuses and order_status_transitions rows equal the TypeScript statuses, labels and edges, and a status
 * change through the repository succeeds exactly along those edges. Runs on PGlite and, with TEST_DATABASE_URL,
 * on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { findOrder, insertOrder, orderStatusTable, transition } from "../../core/db/repositories/orders.ts";
import { ORDER_STATUSES, ORDER_STATUS_LABELS, canTransition, transitionPairs, type OrderStatus } from "../../core/domain/orders/status.ts";

let shop: TestShop;

beforeAll(async () => {
  shop = await startTestShop();
});
afterAll(async () => shop?.close());

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe("order status machine vs. the database", () => {
  it("has the same statuses and labels as order_statuses", async () => {
    const { statuses } = await orderStatusTable(shop.services.db);
    const expected = ORDER_STATUSES.map((status) => ({ status, label: ORDER_STATUS_LABELS[status] })).sort((a, b) => byText(a.status, b.status));
    expect(statuses).toEqual(expected);
  });

  it("has the same edges as order_status_transitions", async () => {
    const { transitions } = await orderStatusTable(shop.services.db);
    const expected = transitionPairs()
      .map(([from, to]) => ({ from, to }))
      .sort((a, b) => byText(a.from, b.from) || byText(a.to, b.to));
    expect(transitions).toEqual(expected);
  });

  it("moves an order only along the edges canTransition allows", async () => {
    const db = shop.services.db;
    const address = {
      first_name: "Sta",
      last_name: "Tus",
      company: "",
      country: "US",
      address_1: "1 Main St",
      address_2: "",
      city: "Town",
      state: "CA",
      postcode: "90001",
      phone: "",
      email: "status@example.com",
    };
    const orderId = await insertOrder(db, {
      orderKey: `wc_order_status_${Date.now()}`,
      customerId: null,
      billingEmail: "status@example.com",
      currency: "USD",
      subtotal: 1000,
      discountTotal: 0,
      shippingTotal: 0,
      total: 1000,
      shippingMethodId: null,
      shippingMethodTitle: null,
      paymentMethod: "sandbox_credit_card",
      paymentMethodTitle: "Credit Card",
      customerNote: "",
      checkoutKey: null,
      billing: address,
      shipping: null,
      lines: [],
      stock: [],
      coupons: [],
      meta: {},
    });
    // A walk through the lifecycle, trying every status at each step: the database agrees with the table.
    const walk: OrderStatus[] = ["failed", "pending", "processing", "completed", "refunded"];
    let current: OrderStatus = "pending";
    for (const next of walk) {
      for (const to of ORDER_STATUSES) {
        if (to === next || canTransition(current, to)) continue;
        expect(await db.transaction((tx) => transition(tx, orderId, to)), `${current} → ${to}`).toBe(false);
      }
      expect(canTransition(current, next)).toBe(true);
      expect(await db.transaction((tx) => transition(tx, orderId, next, { paid: next === "processing" })), `${current} → ${next}`).toBe(true);
      current = next;
      const order = await findOrder(db, orderId);
      expect(order?.status).toBe(next);
      expect(order?.statusLabel).toBe(ORDER_STATUS_LABELS[next]);
    }
    expect((await findOrder(db, orderId))?.paidAt).toBeInstanceOf(Date);
  });
});
