/**
 * The order received page: the key in the link is not enough for a visitor who is not the order's owner or the
 * browser that placed it: they confirm the order's e-mail address first (server-enforced, rate-limited).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient, pageGlobal } from "../support/client.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";
import { billing, cardFields, openCheckout, productWithStock, submitCheckout } from "./checkout-support.ts";

let shop: TestShop;
let productId: number;
const PASSWORD = "received pass 1";
const PROMPT = "To view this page, you must either log in or verify the email address associated with the order.";
const MISMATCH = "We were unable to verify the email address you provided, so the order is not shown. Please check the address and try again.";

beforeAll(async () => {
  shop = await startTestShop();
  productId = await productWithStock(shop, "tie-clip", 100, 1200);
});
afterAll(async () => shop?.close());

async function signedIn(email: string): Promise<TestClient> {
  await registerCustomer(shop.services.db, { email, password: PASSWORD, first_name: "Rae", last_name: "Ceived" });
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

/** An order placed and paid by `client`; its order received path. */
async function placeOrder(client: TestClient, email: string): Promise<string> {
  await client.post("/?wc-ajax=add_to_cart", { product_id: String(productId), quantity: "1" });
  const reply = await submitCheckout(client, await openCheckout(client), { ...billing(email), billing_address_1: "42 Secret Lane", ...cardFields() });
  expect(reply.result).toBe("success");
  const url = new URL(reply.redirect!);
  return url.pathname + url.search;
}

const nonceOf = (html: string) => /name="_wpnonce" value="([^"]+)"/.exec(html)![1]!;

function expectNothingOfTheOrder(html: string): void {
  expect(html).toContain(PROMPT);
  expect(html).not.toContain("42 Secret Lane");
  expect(html).not.toContain("Tie Clip");
  expect(html).not.toContain("woocommerce-order-overview");
}

describe("/checkout/order-received/{id}/?key=…", () => {
  it("a registered customer's order: the owner sees it; a visitor with the link confirms the e-mail first, and a wrong one shows nothing", async () => {
    const email = "received-owner2@example.com";
    const owner = await signedIn(email);
    const path = await placeOrder(owner, email);
    expect(await (await owner.get(path)).text()).toContain("42 Secret Lane");

    const visitor = new TestClient(shop.url, { forwardedFor: "203.0.113.5" });
    const first = await visitor.get(path);
    expect(first.status).toBe(200);
    const prompt = await first.text();
    expectNothingOfTheOrder(prompt);
    expect(prompt).not.toContain(email);

    const wrong = await visitor.post(path, { email: "someone@example.com", _wpnonce: nonceOf(prompt) });
    const wrongHtml = await wrong.text();
    expect(wrongHtml).toContain(MISMATCH);
    expectNothingOfTheOrder(wrongHtml);
    expectNothingOfTheOrder(await (await visitor.get(path)).text());

    const right = await visitor.post(path, { email: "  Received-Owner2@Example.com ", _wpnonce: nonceOf(prompt) });
    expect(right.status).toBe(302);
    expect(right.headers.get("location")).toBe(path);
    const shown = await (await visitor.get(path)).text();
    expect(shown).toContain("42 Secret Lane");
    expect(shown).toContain("Thank you. Your order has been received.");
  });

  it("another signed-in customer holding the link is asked too; the guest's own browser sees its order", async () => {
    const guest = new TestClient(shop.url);
    const path = await placeOrder(guest, "received-guest@example.com");
    expect(await (await guest.get(path)).text()).toContain("42 Secret Lane");
    const other = await signedIn("received-other@example.com");
    expectNothingOfTheOrder(await (await other.get(path)).text());
    // A wrong key is still a 404, e-mail or not.
    const id = /order-received\/(\d+)/.exec(path)![1];
    expect((await other.post(`/checkout/order-received/${id}/?key=wc_order_nope`, { email: "received-guest@example.com" })).status).toBe(404);
  });

  it("wrong confirmations are limited per client address: past 10 in 15 minutes even the right one waits", async () => {
    const guest = new TestClient(shop.url);
    const path = await placeOrder(guest, "received-limited@example.com");
    const visitor = new TestClient(shop.url, { forwardedFor: "198.51.100.7" });
    const nonce = nonceOf(await (await visitor.get(path)).text());
    for (let i = 0; i < 10; i++) {
      const res = await visitor.post(path, { email: `guess${i}@example.com`, _wpnonce: nonce });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain(MISMATCH);
    }
    const limited = await visitor.post(path, { email: "received-limited@example.com", _wpnonce: nonce });
    expect(limited.status).toBe(429);
    const html = await limited.text();
    expect(html).toContain("Too many attempts. Please wait a few minutes and try again.");
    expectNothingOfTheOrder(html);
    // Another address is not affected.
    const elsewhere = new TestClient(shop.url, { forwardedFor: "198.51.100.8" });
    const n2 = nonceOf(await (await elsewhere.get(path)).text());
    expect((await elsewhere.post(path, { email: "received-limited@example.com", _wpnonce: n2 })).status).toBe(302);
  });
});
