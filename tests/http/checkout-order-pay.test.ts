/** The order-pay page: a failed order paid again, with its stock taken again; guarded by the order key. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient, pageGlobal } from "../support/client.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";
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
    const [order] = await shop.services.db.query<{ id: number; order_key: string; status: string }>(
      `SELECT id, order_key, status FROM orders ORDER BY id DESC LIMIT 1`,
    );
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

const PASSWORD = "order pay pass 1";
const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? "";

async function signedIn(email: string): Promise<TestClient> {
  await registerCustomer(shop.services.db, { email, password: PASSWORD, first_name: "Pay", last_name: "Er" });
  const client = new TestClient(shop.url);
  const astra = pageGlobal(await (await client.get("/checkout/")).text(), "astra");
  const body = await (
    await client.post("/wp-admin/admin-ajax.php", {
      action: "astra_woocommerce_login_user",
      user_name_email: email,
      password: PASSWORD,
      security: String(astra.woocommerce_login_nonce),
    })
  ).json();
  expect(body).toEqual({ success: true, data: { success: true } });
  return client;
}

/** A declined checkout by this client: its failed order, ready to be paid on the order-pay page. */
async function declinedOrder(client: TestClient, email: string): Promise<{ id: number; key: string; path: string }> {
  await client.post("/?wc-ajax=add_to_cart", { product_id: String(productId), quantity: "1" });
  const reply = await submitCheckout(client, await openCheckout(client), { ...billing(email), ...cardFields("4000 0000 0000 0002") });
  expect(reply.result).toBe("failure");
  const [o] = await shop.services.db.query<{ id: number; order_key: string; status: string }>(
    `SELECT id, order_key, status FROM orders WHERE billing_email = $1 ORDER BY id DESC LIMIT 1`,
    [email],
  );
  expect(o!.status).toBe("failed");
  return { id: o!.id, key: o!.order_key, path: `/checkout/order-pay/${o!.id}/?pay_for_order=true&key=${o!.order_key}` };
}

const charges = async () => (await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM payment_attempts`))[0]!.n;
const INVALID = "Sorry, this order is invalid and cannot be paid for.";
const LOG_IN = "Please log in to your account below to continue to the payment form.";
const NOT_YOURS = "This order cannot be paid for. Please contact us if you need assistance.";

describe("who may pay on /checkout/order-pay/{id}/ (WooCommerce's rules)", () => {
  it("a customer's order: the key must match even for its owner; a guest with the key is asked to log in; another customer is refused", async () => {
    const email = "owner-pays@example.com";
    const owner = await signedIn(email);
    const order = await declinedOrder(owner, email);
    const form = await (await owner.get(order.path)).text();
    expect(form).toContain('id="place_order"');

    // The owner, signed in, with a wrong or missing key: the order is "invalid", no form.
    for (const path of [
      `/checkout/order-pay/${order.id}/?pay_for_order=true&key=wc_order_wrong`,
      `/checkout/order-pay/${order.id}/?pay_for_order=true`,
      `/checkout/order-pay/${order.id}/?pay_for_order=true&key=${order.key}x`,
    ]) {
      const res = await owner.get(path);
      expect(res.status).toBe(404);
      const html = await res.text();
      expect(html).toContain(INVALID);
      expect(html).not.toContain('id="place_order"');
    }
    const attempts = await charges();
    const wrongKeyPost = await owner.post(`/checkout/order-pay/${order.id}/?pay_for_order=true&key=wc_order_wrong`, {
      "woocommerce-pay-nonce": hidden(form, "woocommerce-pay-nonce"),
      ...cardFields(),
    });
    expect(wrongKeyPost.status).toBe(404);

    // A guest holding the key: the login prompt, never the form; paying is refused.
    const guest = new TestClient(shop.url);
    const prompt = await guest.get(order.path);
    expect(prompt.status).toBe(200);
    const promptHtml = await prompt.text();
    expect(promptHtml).toContain(LOG_IN);
    expect(promptHtml).not.toContain('id="place_order"');
    expect(promptHtml).not.toContain("Tie Clip"); // nothing of the order is shown
    const guestPay = await guest.post(order.path, { "woocommerce-pay-nonce": hidden(form, "woocommerce-pay-nonce"), ...cardFields() });
    expect(guestPay.status).toBe(403);

    // Another customer holding the key: refused.
    const other = await signedIn("other-payer@example.com");
    const refused = await other.get(order.path);
    expect(refused.status).toBe(403);
    const refusedHtml = await refused.text();
    expect(refusedHtml).toContain(NOT_YOURS);
    expect(refusedHtml).not.toContain('id="place_order"');
    const otherPay = await other.post(order.path, { "woocommerce-pay-nonce": hidden(form, "woocommerce-pay-nonce"), ...cardFields() });
    expect(otherPay.status).toBe(403);
    expect(await charges()).toBe(attempts);
    const [still] = await shop.services.db.query<{ status: string }>(`SELECT status FROM orders WHERE id = $1`, [order.id]);
    expect(still!.status).toBe("failed");

    // The guest logs in on the prompt and comes back to the form.
    const login = await guest.post(order.path, {
      intent: "login",
      username: email,
      password: PASSWORD,
      "woocommerce-login-nonce": hidden(promptHtml, "woocommerce-login-nonce"),
    });
    expect(login.status).toBe(302);
    expect(login.headers.get("location")).toBe(order.path);
    const after = await (await guest.get(order.path)).text();
    expect(after).toContain('id="place_order"');
    const paid = await guest.post(order.path, {
      "woocommerce-pay-nonce": hidden(after, "woocommerce-pay-nonce"),
      ...cardFields(),
      [`${CARD}-payment-token`]: "",
    });
    expect(paid.status).toBe(302);
  });

  it("a guest's order: anyone with the key may pay (a signed-in stranger is warned); without it, no one", async () => {
    const email = "guest-order@example.com";
    const order = await declinedOrder(new TestClient(shop.url), email);
    const stranger = new TestClient(shop.url);
    expect(await (await stranger.get(order.path)).text()).toContain('id="place_order"');
    const bad = await stranger.get(`/checkout/order-pay/${order.id}/?pay_for_order=true&key=wc_order_nope`);
    expect(bad.status).toBe(404);
    expect(await bad.text()).toContain(INVALID);
    const customer = await signedIn("someone-else@example.com");
    const page = await (await customer.get(order.path)).text();
    expect(page).toContain('id="place_order"');
    expect(page).toContain("You are paying for a guest order. Please continue with payment only if you recognize this order.");
    const paid = await customer.post(order.path, { "woocommerce-pay-nonce": hidden(page, "woocommerce-pay-nonce"), ...cardFields() });
    expect(paid.status).toBe(302);
    // The order stays the guest's.
    const [o] = await shop.services.db.query<{ status: string; customer_id: number | null }>(`SELECT status, customer_id FROM orders WHERE id = $1`, [
      order.id,
    ]);
    expect(o).toEqual({ status: "processing", customer_id: null });
  });

  it("the order received page wants the key too, even from the signed-in owner", async () => {
    const email = "received-owner@example.com";
    const owner = await signedIn(email);
    await owner.post("/?wc-ajax=add_to_cart", { product_id: String(productId), quantity: "1" });
    const reply = await submitCheckout(owner, await openCheckout(owner), { ...billing(email), ...cardFields() });
    expect(reply.result).toBe("success");
    const url = new URL(reply.redirect!);
    const id = /order-received\/(\d+)/.exec(url.pathname)![1]!;
    expect((await owner.get(url.pathname + url.search)).status).toBe(200);
    expect((await owner.get(`/checkout/order-received/${id}/?key=wc_order_wrong`)).status).toBe(404);
    expect((await owner.get(`/checkout/order-received/${id}/`)).status).toBe(404);
    // Anyone else with the link is asked for the order's e-mail address first (tests/http/order-received.test.ts).
    const stranger = await new TestClient(shop.url).get(url.pathname + url.search);
    expect(stranger.status).toBe(200);
    expect(await stranger.text()).toContain("verify the email address associated with the order");
  });
});
