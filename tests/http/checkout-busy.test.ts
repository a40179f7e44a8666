/**
 * A checkout that cannot get its turn in time (docs/decisions/0027): the order gate is full, so the shopper gets the
 * checkout's failure JSON with the busy notice (never a bare 500), nothing is written, and the same form goes through
 * once the shop has room again. The Store API answers 503 with Retry-After in its own error shape.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { billing, cardFields, counts, openCheckout, productWithStock, shopperWithCart, submitCheckout } from "./checkout-support.ts";

let shop: TestShop;
let productId: number;

beforeAll(async () => {
  shop = await startTestShop({ DATABASE_WAIT_MS: "300" });
  productId = await productWithStock(shop, "tie-clip", 50, 1200);
});
afterAll(async () => shop?.close());

/** Takes every slot of the shop's order gate until the returned function is called. */
async function fillOrderGate(): Promise<() => Promise<void>> {
  const gate = shop.services.orderGate!;
  let open!: () => void;
  const held = new Promise<void>((r) => (open = r));
  const runs = Array.from({ length: gate.slots }, () => gate.run(() => held));
  await Promise.resolve();
  return async () => {
    open();
    await Promise.all(runs);
  };
}

describe("a checkout when the shop is too busy", () => {
  it("answers the failure JSON with the busy notice, writes nothing, and the same form succeeds afterwards", async () => {
    const client = await shopperWithCart(shop, productId, 1);
    const page = await openCheckout(client);
    const fields = { ...billing("busy@example.com"), ...cardFields() };
    const before = await counts(shop);
    const release = await fillOrderGate();
    let reply;
    try {
      reply = await submitCheckout(client, page, fields); // throws on anything but 200 JSON
    } finally {
      await release();
    }
    expect(reply.result).toBe("failure");
    expect(reply.messages).toContain("The shop is very busy right now. Please try again in a moment.");
    expect(await counts(shop)).toEqual(before);
    const again = await submitCheckout(client, page, fields);
    expect(again.result).toBe("success");
    const after = await counts(shop);
    expect(after.orders - before.orders).toBe(1);
    expect(after.charges - before.charges).toBe(1);
  });

  it("the Store API answers 503 shop_busy with Retry-After, and nothing is written", async () => {
    const api = `${shop.url}/wp-json/wc/store/v1`;
    let token = "";
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(api + path, {
        method,
        headers: { Accept: "application/json", "Content-Type": "application/json", ...(token ? { "Cart-Token": token } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      token = res.headers.get("Cart-Token") ?? token;
      return res;
    };
    await call("GET", "/cart");
    expect((await call("POST", "/cart/add-item", { id: productId, quantity: 1 })).status).toBe(201);
    const before = await counts(shop);
    const release = await fillOrderGate();
    let res: Response;
    try {
      res = await call("POST", "/checkout", {
        billing_address: { ...billingAddress(), email: "busy-store@example.com" },
        payment_method: "sandbox_credit_card",
        payment_data: [
          { key: "wc-sandbox-credit-card-account-number", value: "4242424242424242" },
          { key: "wc-sandbox-credit-card-expiry", value: "12 / 34" },
          { key: "wc-sandbox-credit-card-csc", value: "123" },
        ],
      });
    } finally {
      await release();
    }
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toEqual({ code: "shop_busy", message: "The shop is very busy right now. Please try again in a moment.", data: { status: 503 } });
    expect(await counts(shop)).toEqual(before);
  });
});

function billingAddress() {
  const b = billing();
  return {
    first_name: b.billing_first_name,
    last_name: b.billing_last_name,
    company: "",
    address_1: b.billing_address_1,
    address_2: "",
    city: b.billing_city,
    state: b.billing_state,
    postcode: b.billing_postcode,
    country: b.billing_country,
    phone: b.billing_phone,
    email: b.billing_email,
  };
}
