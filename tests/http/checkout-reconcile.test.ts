/**
 * Crashes between the steps of a payment: the process dies (an exception stands in for the kill) after the
 * attempt is recorded, after the processor authorized, or before the authorization was written down. The
 * reconciler must then complete or fail every order: no captured payment without its order, no double charge,
 * and the stock of a failed order comes back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { paymentRuntime } from "../../core/commerce/payment-runtime.server.ts";
import { placeOrder, reconcilePayments } from "../../core/commerce/orders.ts";
import type { PaymentGateway } from "../../core/payments/gateway.ts";
import type { CheckoutInput } from "../../core/commerce/checkout-form.ts";
import { productWithStock, shopperWithCart } from "./checkout-support.ts";

let shop: TestShop;
let productId: number;

beforeAll(async () => {
  shop = await startTestShop();
  productId = await productWithStock(shop, "tie-clip", 50, 1200);
});
afterAll(async () => shop?.close());

const input: CheckoutInput = {
  billing: {
    first_name: "Ada",
    last_name: "L",
    company: "",
    country: "US",
    address_1: "1 Way",
    address_2: "",
    city: "Springfield",
    state: "IL",
    postcode: "62701",
    phone: "5551234567",
    email: "crash@example.com",
  },
  shipping: null,
  orderComments: "",
  paymentMethod: "sandbox_credit_card",
  payment: { kind: "card", number: "4242424242424242", expMonth: 12, expYear: 2034, csc: "123", tokenize: false },
  shippingMethodId: "flat_rate:1",
  createAccount: null,
  attribution: {},
};

class Killed extends Error {}

/** The real gateway, but the process "dies" at the named point. */
function dyingGateway(real: PaymentGateway, at: "before-authorize" | "after-authorize" | "before-capture"): PaymentGateway {
  return {
    id: real.id,
    testMode: real.testMode,
    authorize: async (r) => {
      if (at === "before-authorize") throw new Killed();
      const result = await real.authorize(r);
      if (at === "after-authorize") throw new Killed();
      return result;
    },
    capture: async (r) => {
      if (at === "before-capture") throw new Killed();
      return real.capture(r);
    },
    void: (r) => real.void(r),
    refund: (r) => real.refund(r),
    tokenize: (r) => real.tokenize(r),
    chargeToken: (r) => real.chargeToken(r),
    echeckDebit: (r) => real.echeckDebit(r),
    lookup: (k) => real.lookup(k),
  };
}

async function crashDuringOrder(at: Parameters<typeof dyingGateway>[1]): Promise<number> {
  await shopperWithCart(shop, productId, 2);
  const [cart] = await shop.services.db.query<{ session_id: string }>(`SELECT session_id FROM carts WHERE session_id IS NOT NULL ORDER BY id DESC LIMIT 1`);
  const rt = paymentRuntime(shop.services);
  await expect(
    placeOrder(
      { ...rt.deps, gateway: dyingGateway(rt.gateway, at) },
      { claimKey: `crash-${at}-${Date.now()}`, customerId: null, input, owner: { sessionId: cart!.session_id } },
    ),
  ).rejects.toBeInstanceOf(Killed);
  const [order] = await shop.services.db.query<{ id: number; status: string }>(`SELECT id, status FROM orders ORDER BY id DESC LIMIT 1`);
  expect(order!.status).toBe("pending");
  return order!.id;
}

const orderState = async (id: number) =>
  (
    await shop.services.db.query<{ status: string; attempt: string; stock_held: boolean; charges: number }>(
      `SELECT o.status, a.status AS attempt, o.stock_held,
         (SELECT count(*)::int FROM sandbox_records r WHERE r.type = 'charge' AND r.data->>'authId' = a.auth_id) AS charges
       FROM orders o JOIN payment_attempts a ON a.order_id = o.id WHERE o.id = $1`,
      [id],
    )
  )[0]!;

describe("the payment reconciler", () => {
  it("a crash before the processor was called: the order fails and its stock comes back", async () => {
    const [before] = await shop.services.db.query<{ n: number }>(`SELECT stock_quantity AS n FROM products WHERE id = $1`, [productId]);
    const id = await crashDuringOrder("before-authorize");
    const [held] = await shop.services.db.query<{ n: number }>(`SELECT stock_quantity AS n FROM products WHERE id = $1`, [productId]);
    expect(held!.n).toBe(before!.n - 2);
    const done = await reconcilePayments(paymentRuntime(shop.services).deps, 0);
    expect(done.failed).toBeGreaterThanOrEqual(1);
    expect(await orderState(id)).toMatchObject({ status: "failed", attempt: "failed", stock_held: false });
    const [after] = await shop.services.db.query<{ n: number }>(`SELECT stock_quantity AS n FROM products WHERE id = $1`, [productId]);
    expect(after!.n).toBe(before!.n);
  });

  it("a crash after the processor authorized but before we wrote it down: the reconciler finds it, captures once, pays the order", async () => {
    const id = await crashDuringOrder("after-authorize");
    expect((await orderState(id)).attempt).toBe("started");
    await reconcilePayments(paymentRuntime(shop.services).deps, 0);
    expect(await orderState(id)).toMatchObject({ status: "processing", attempt: "captured", charges: 1 });
    // Running it again changes nothing and charges nothing.
    await reconcilePayments(paymentRuntime(shop.services).deps, 0);
    expect(await orderState(id)).toMatchObject({ status: "processing", attempt: "captured", charges: 1 });
  });

  it("a crash between authorize and capture: the reconciler captures and pays the order", async () => {
    const id = await crashDuringOrder("before-capture");
    expect((await orderState(id)).attempt).toBe("authorized");
    await reconcilePayments(paymentRuntime(shop.services).deps, 0);
    expect(await orderState(id)).toMatchObject({ status: "processing", attempt: "captured", charges: 1 });
  });

  it("afterwards no captured charge is without a paid order", async () => {
    const orphans = await shop.services.db.query(
      `SELECT r.id FROM sandbox_records r WHERE r.type = 'charge'
       AND NOT EXISTS (SELECT 1 FROM payment_attempts a JOIN orders o ON o.id = a.order_id
                       WHERE (a.charge_id = r.id) AND o.status = 'processing')`,
    );
    expect(orphans).toEqual([]);
  });
});

/** The real gateway, but one operation waits at a gate before it reaches the processor: a stalled call. */
function stalledGateway(real: PaymentGateway, op: "authorize" | "echeckDebit", opts: { refundDies?: boolean } = {}) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let reached!: () => void;
  const waiting = new Promise<void>((resolve) => (reached = resolve));
  const gateway: PaymentGateway = {
    ...dyingGateway(real, "before-capture"),
    capture: (r) => real.capture(r),
    authorize: async (r) => {
      if (op === "authorize") {
        reached();
        await gate;
      }
      return real.authorize(r);
    },
    echeckDebit: async (r) => {
      if (op === "echeckDebit") {
        reached();
        await gate;
      }
      return real.echeckDebit(r);
    },
    refund: async (r) => {
      if (opts.refundDies) throw new Killed();
      return real.refund(r);
    },
  };
  return { gateway, waiting, open };
}

const stockOf = async () => (await shop.services.db.query<{ n: number }>(`SELECT stock_quantity AS n FROM products WHERE id = $1`, [productId]))[0]!.n;

/** Starts a checkout whose payment call stalls; the reconciler then judges the call dead and fails the order. */
async function stallThenReconcile(op: "authorize" | "echeckDebit", payment: CheckoutInput["payment"], opts: { refundDies?: boolean } = {}) {
  await shopperWithCart(shop, productId, 3);
  const [cart] = await shop.services.db.query<{ session_id: string }>(`SELECT session_id FROM carts WHERE session_id IS NOT NULL ORDER BY id DESC LIMIT 1`);
  const rt = paymentRuntime(shop.services);
  const stalled = stalledGateway(rt.gateway, op, opts);
  const running = placeOrder(
    { ...rt.deps, gateway: stalled.gateway },
    {
      claimKey: `late-${op}-${Date.now()}`,
      customerId: null,
      input: { ...input, payment, paymentMethod: payment!.kind === "bank" ? "sandbox_echeck" : "sandbox_credit_card" },
      owner: { sessionId: cart!.session_id },
    },
  );
  await stalled.waiting;
  const [order] = await shop.services.db.query<{ id: number }>(`SELECT id FROM orders ORDER BY id DESC LIMIT 1`);
  // Age 0: as if the deadline had long passed. The processor has not seen the call: the order fails, stock returns.
  await reconcilePayments(rt.deps, 0);
  expect(await orderState(order!.id)).toMatchObject({ status: "failed", attempt: "failed", stock_held: false });
  return { orderId: order!.id, running, open: stalled.open };
}

describe("a payment that lands after the reconciler failed its order", () => {
  it("an authorization is voided, never captured, and the failed order stays failed with its stock given back once", async () => {
    const before = await stockOf();
    const { orderId, running, open } = await stallThenReconcile("authorize", input.payment);
    expect(await stockOf()).toBe(before);
    open();
    const result = await running;
    expect(result.ok).toBe(false);
    const [a] = await shop.services.db.query<{ status: string; idempotency_key: string }>(
      `SELECT status, idempotency_key FROM payment_attempts WHERE order_id = $1`,
      [orderId],
    );
    expect(a!.status).toBe("failed");
    // The processor did authorize (late); that authorization was voided and never captured.
    const found = await paymentRuntime(shop.services).gateway.lookup(`${a!.idempotency_key}:auth`);
    expect(found.found && found.state === "completed" && found.result.status === "approved").toBe(true);
    const authId = found.found && found.state === "completed" && "authId" in found.result ? found.result.authId : "";
    const [auth] = await shop.services.db.query<{ status: string }>(`SELECT data->>'status' AS status FROM sandbox_records WHERE id = $1`, [authId]);
    expect(auth!.status).toBe("voided");
    expect(await shop.services.db.query(`SELECT 1 FROM sandbox_records WHERE type = 'charge' AND data->>'authId' = $1`, [authId])).toEqual([]);
    expect((await orderState(orderId)).status).toBe("failed");
    expect(await stockOf()).toBe(before);
  });

  it("a charge is refunded in full; the order stays failed and unpaid; stock is given back once", async () => {
    const before = await stockOf();
    const { orderId, running, open } = await stallThenReconcile("echeckDebit", {
      kind: "bank",
      routingNumber: "110000000",
      accountNumber: "000123456789",
      tokenize: false,
    });
    open();
    const result = await running;
    expect(result.ok).toBe(false);
    const [a] = await shop.services.db.query<{ status: string; charge_id: string; refund_id: string | null; amount: number }>(
      `SELECT status, charge_id, refund_id, amount FROM payment_attempts WHERE order_id = $1`,
      [orderId],
    );
    expect(a!.status).toBe("refunded");
    expect(a!.refund_id).toBeTruthy();
    const [refund] = await shop.services.db.query<{ amount: number }>(`SELECT (data->>'amount')::int AS amount FROM sandbox_records WHERE id = $1`, [
      a!.refund_id,
    ]);
    expect(refund!.amount).toBe(a!.amount);
    const [order] = await shop.services.db.query<{ status: string; paid_at: Date | null }>(`SELECT status, paid_at FROM orders WHERE id = $1`, [orderId]);
    expect(order).toMatchObject({ status: "failed", paid_at: null });
    expect(await stockOf()).toBe(before);
  });

  it("a refund cut short by a crash is finished by the next reconciler run, once", async () => {
    const { orderId, running, open } = await stallThenReconcile(
      "echeckDebit",
      { kind: "bank", routingNumber: "110000000", accountNumber: "000123456789", tokenize: false },
      { refundDies: true },
    );
    open();
    await expect(running).rejects.toBeInstanceOf(Killed);
    const attempt = async () =>
      (
        await shop.services.db.query<{ status: string; refund_id: string | null }>(`SELECT status, refund_id FROM payment_attempts WHERE order_id = $1`, [
          orderId,
        ])
      )[0]!;
    expect((await attempt()).status).toBe("late_captured");
    const done = await reconcilePayments(paymentRuntime(shop.services).deps, 30_000);
    expect(done.refunded).toBe(1);
    expect(await attempt()).toMatchObject({ status: "refunded" });
    await reconcilePayments(paymentRuntime(shop.services).deps, 0);
    const refunds = await shop.services.db.query(
      `SELECT 1 FROM sandbox_records WHERE type = 'refund' AND data->>'chargeId' = (SELECT charge_id FROM payment_attempts WHERE order_id = $1)`,
      [orderId],
    );
    expect(refunds.length).toBe(1);
  });
});
