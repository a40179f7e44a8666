/**
 * The account's orders after a payment goes wrong: Pay and Cancel on a pending or failed order, the
 * "payment failed" e-mail with its link back to the order-pay page, and the addresses a checkout leaves on the
 * account (and the address form's State rule, the checkout's own).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient, pageGlobal } from "../support/client.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";
import { markFailed, placeOrder, reconcilePayments } from "../../core/commerce/orders.ts";
import { insertOrder } from "../../core/db/repositories/orders.ts";
import { paymentRuntime } from "../../core/commerce/payment-runtime.server.ts";
import type { PaymentGateway } from "../../core/payments/gateway.ts";
import type { CheckoutInput } from "../../core/commerce/checkout-form.ts";
import { formatMoney } from "../../core/domain/money/money.ts";
import { CARD, billing, cardFields, openCheckout, productWithStock, submitCheckout, type CheckoutReply } from "./checkout-support.ts";

let shop: TestShop;
let productId: number;

beforeAll(async () => {
  shop = await startTestShop();
  productId = await productWithStock(shop, "skinny-cotton-tie", 100, 2000);
});
afterAll(async () => shop?.close());

const PASSWORD = "orders pass 123";
const DECLINED = "4000 0000 0000 0002";
const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? "";
const unescape = (html: string) => html.replace(/&amp;/g, "&");

async function signedIn(email: string): Promise<{ client: TestClient; customerId: number }> {
  const registered = await registerCustomer(shop.services.db, { email, password: PASSWORD, first_name: "Ord", last_name: "Ers" });
  if (!registered.ok) throw new Error(registered.message);
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
  return { client, customerId: registered.customerId };
}

async function checkoutWith(client: TestClient, fields: Record<string, string>, quantity = 1, init?: RequestInit): Promise<CheckoutReply> {
  await client.post("/?wc-ajax=add_to_cart", { product_id: String(productId), quantity: String(quantity) });
  const page = await openCheckout(client);
  if (!init) return submitCheckout(client, page, fields);
  const res = await client.request("/?wc-ajax=checkout", {
    ...init,
    method: "POST",
    form: { "woocommerce-process-checkout-nonce": page.nonce, _checkout_token: page.token, _wp_http_referer: "/checkout/", ...fields },
  });
  return (await res.json()) as CheckoutReply;
}

const lastOrder = async (email: string) =>
  (
    await shop.services.db.query<{ id: number; order_key: string; status: string }>(
      `SELECT id, order_key, status FROM orders WHERE billing_email = $1 ORDER BY id DESC LIMIT 1`,
      [email],
    )
  )[0]!;
const stockLeft = async () => (await shop.services.db.query<{ n: number }>(`SELECT stock_quantity AS n FROM products WHERE id = $1`, [productId]))[0]!.n;
const statusOf = async (id: number) => (await shop.services.db.query<{ status: string }>(`SELECT status FROM orders WHERE id = $1`, [id]))[0]!.status;
const failedMails = (orderId: number) =>
  shop.services.db.query<{ to_address: string; subject: string; body: string }>(
    `SELECT to_address, subject, body FROM email_outbox WHERE kind = 'order_failed' AND order_id = $1 ORDER BY id`,
    [orderId],
  );
const payPath = (o: { id: number; order_key: string }) => `/checkout/order-pay/${o.id}/?pay_for_order=true&key=${o.order_key}`;

/** A process that dies before the processor is called: its attempt stays 'started' until the reconciler runs. */
/** A card checkout's parsed input (for driving placeOrder directly, with a gateway that dies). */
function cardCheckout(email: string): CheckoutInput {
  return {
    billing: {
      first_name: "Ord",
      last_name: "Ers",
      company: "",
      country: "US",
      address_1: "1 Way",
      address_2: "",
      city: "Springfield",
      state: "IL",
      postcode: "62701",
      phone: "5551234567",
      email,
    },
    shipping: null,
    orderComments: "",
    paymentMethod: "sandbox_credit_card",
    payment: { kind: "card", number: "4242424242424242", expMonth: 12, expYear: 2034, csc: "123", tokenize: false },
    shippingMethodId: "flat_rate:1",
    createAccount: null,
    attribution: {},
  };
}

function dyingBeforeAuthorize(real: PaymentGateway): PaymentGateway {
  return {
    id: real.id,
    testMode: real.testMode,
    authorize: async () => {
      throw new Error("killed");
    },
    capture: (r) => real.capture(r),
    void: (r) => real.void(r),
    refund: (r) => real.refund(r),
    tokenize: (r) => real.tokenize(r),
    chargeToken: (r) => real.chargeToken(r),
    echeckDebit: (r) => real.echeckDebit(r),
    lookup: (k) => real.lookup(k),
  };
}

describe("Pay and Cancel in the account", () => {
  it("a declined order shows Pay (to its order-pay page) and Cancel on its view page; once paid, neither", async () => {
    const email = "pay-from-account@example.com";
    const { client } = await signedIn(email);
    const reply = await checkoutWith(client, { ...billing(email), ...cardFields(DECLINED) });
    expect(reply.result).toBe("failure");
    const order = await lastOrder(email);
    expect(order.status).toBe("failed");
    const view = await (await client.get(`/my-account/view-order/${order.id}/`)).text();
    const pay = /<a class="woocommerce-button button pay" href="([^"]+)">Pay<\/a>/.exec(view)?.[1];
    expect(pay && unescape(pay)).toBe(payPath(order));
    expect(view).toMatch(/<button type="submit" class="woocommerce-button button cancel">Cancel<\/button>/);
    // The Pay link leads the signed-in owner to the payment form, and paying works.
    const form = await (await client.get(unescape(pay!))).text();
    expect(form).toContain('id="place_order"');
    const paid = await client.post(unescape(pay!), {
      "woocommerce-pay-nonce": hidden(form, "woocommerce-pay-nonce"),
      ...cardFields(),
      [`${CARD}-payment-token`]: "",
    });
    expect(paid.status).toBe(302);
    expect(await statusOf(order.id)).toBe("processing");
    const after = await (await client.get(`/my-account/view-order/${order.id}/`)).text();
    expect(after).not.toContain("button pay");
    expect(after).not.toContain("button cancel");
  });

  it("the orders list and the dashboard offer Pay and Cancel for a failed order, and the list's Cancel works", async () => {
    const email = "list-actions@example.com";
    const { client } = await signedIn(email);
    expect((await checkoutWith(client, { ...billing(email), ...cardFields(DECLINED) })).result).toBe("failure");
    const order = await lastOrder(email);
    for (const page of ["/my-account/orders/", "/my-account/"]) {
      const html = await (await client.get(page)).text();
      const pay = new RegExp(`<a class="button pay" href="([^"]+)" aria-label="Pay for order #${order.id}">Pay</a>`).exec(html)?.[1];
      expect(pay && unescape(pay)).toBe(payPath(order));
      expect(html).toMatch(new RegExp(`<form(?=[^>]*class="order-actions-cancel")(?=[^>]*action="/my-account/view-order/${order.id}/")(?=[^>]*method="post")`));
      expect(html).toContain(`aria-label="Cancel order #${order.id}">Cancel</button>`);
    }
    const list = await (await client.get("/my-account/orders/")).text();
    const nonce = new RegExp(`action="/my-account/view-order/${order.id}/"[^>]*><input type="hidden" name="_wpnonce" value="([^"]+)"`).exec(list)?.[1];
    expect(nonce).toBeTruthy();
    const cancelled = await client.post(`/my-account/view-order/${order.id}/`, { _wpnonce: nonce! });
    expect(cancelled.status).toBe(302);
    expect(await statusOf(order.id)).toBe("cancelled");
    const after = await (await client.get("/my-account/orders/")).text();
    expect(after).not.toContain(`Pay for order #${order.id}`);
    expect(after).not.toContain(`Cancel order #${order.id}`);
  });

  it("Cancel gives back a pending order's stock and coupon use, once, only to its owner and with a nonce", async () => {
    const email = "cancel-pending@example.com";
    const { client, customerId } = await signedIn(email);
    const stockBefore = await stockLeft();
    const usage = async () =>
      (
        await shop.services.db.query<{ count: number; rows: number }>(
          `SELECT usage_count AS count, (SELECT count(*)::int FROM coupon_usages WHERE coupon_code = 'welcome10') AS rows FROM coupons WHERE code = 'welcome10'`,
        )
      )[0]!;
    const usageBefore = await usage();
    // An order awaiting payment that holds 3 units and a coupon use, as staff create one for a customer to pay.
    const orderId = await shop.services.db.transaction(async (tx) => {
      await tx.query(`UPDATE products SET stock_quantity = stock_quantity - 3 WHERE id = $1`, [productId]);
      await tx.query(`UPDATE coupons SET usage_count = usage_count + 1 WHERE code = 'welcome10'`);
      const id = await insertOrder(tx, {
        orderKey: "wc_order_cancelme123456",
        customerId,
        billingEmail: email,
        currency: "USD",
        subtotal: 6000,
        discountTotal: 600,
        shippingTotal: 0,
        total: 5400,
        shippingMethodId: null,
        shippingMethodTitle: null,
        paymentMethod: "sandbox_credit_card",
        paymentMethodTitle: "Credit Card",
        customerNote: "",
        checkoutKey: null,
        billing: {
          first_name: "Ord",
          last_name: "Ers",
          company: "",
          country: "US",
          address_1: "1 Way",
          address_2: "",
          city: "Springfield",
          state: "IL",
          postcode: "62701",
          phone: "5551234567",
          email,
        },
        shipping: null,
        lines: [{ productId, variationId: null, name: "Skinny Cotton Tie", details: "", quantity: 3, subtotal: 6000, total: 5400 }],
        stock: [{ table: "products", id: productId, name: "Skinny Cotton Tie", quantity: 3 }],
        coupons: [{ code: "welcome10", discount: 600 }],
        meta: {},
      });
      await tx.query(`INSERT INTO coupon_usages (coupon_code, customer_key, order_id) VALUES ('welcome10', $1, $2)`, [`c:${customerId}`, id]);
      return id;
    });
    expect(await stockLeft()).toBe(stockBefore - 3);
    const view = await (await client.get(`/my-account/view-order/${orderId}/`)).text();
    expect(view).toContain('class="woocommerce-button button pay"');
    const nonce = hidden(view, "_wpnonce");
    expect(nonce).not.toBe("");

    // A forged form, or another customer, changes nothing.
    const forged = await client.post(`/my-account/view-order/${orderId}/`, { _wpnonce: "0000000000" });
    expect(await forged.text()).toContain("Your session has expired. Please reload the page and try again.");
    // Another customer, with a good nonce of their own (from their own declined order's page).
    const other = (await signedIn("cancel-thief@example.com")).client;
    await checkoutWith(other, { ...billing("cancel-thief@example.com"), ...cardFields(DECLINED) });
    const otherNonce = hidden(await (await other.get(`/my-account/view-order/${(await lastOrder("cancel-thief@example.com")).id}/`)).text(), "_wpnonce");
    expect(otherNonce).not.toBe("");
    const stranger = await other.post(`/my-account/view-order/${orderId}/`, { _wpnonce: otherNonce });
    expect(stranger.status).toBe(409);
    expect(await statusOf(orderId)).toBe("pending");
    expect(await stockLeft()).toBe(stockBefore - 3);

    const cancelled = await client.post(`/my-account/view-order/${orderId}/`, { _wpnonce: nonce });
    expect(cancelled.status).toBe(302);
    expect(cancelled.headers.get("location")).toBe("/my-account/orders/");
    expect(await (await client.get("/my-account/orders/")).text()).toContain("Your order was cancelled.");
    expect(await statusOf(orderId)).toBe("cancelled");
    expect(await stockLeft()).toBe(stockBefore);
    expect(await usage()).toEqual(usageBefore);
    // Twice: refused, and nothing is given back a second time.
    const again = await client.post(`/my-account/view-order/${orderId}/`, { _wpnonce: nonce });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("Your order can no longer be cancelled. Please contact us if you need assistance.");
    expect(await stockLeft()).toBe(stockBefore);
    expect(await usage()).toEqual(usageBefore);
    // A cancelled order cannot be paid any more.
    expect(await (await client.get(payPath({ id: orderId, order_key: "wc_order_cancelme123456" }))).text()).toContain("it cannot be paid for");
  });

  it("Cancel is refused while a payment is under way; the reconciler fails the order (one e-mail), then Cancel works", async () => {
    const email = "cancel-inflight@example.com";
    const { client, customerId } = await signedIn(email);
    await client.post("/?wc-ajax=add_to_cart", { product_id: String(productId), quantity: "2" });
    const stockBefore = await stockLeft();
    const rt = paymentRuntime(shop.services);
    const input = cardCheckout(email);
    await expect(
      placeOrder({ ...rt.deps, gateway: dyingBeforeAuthorize(rt.gateway) }, { claimKey: `inflight-${Date.now()}`, customerId, input, owner: { customerId } }),
    ).rejects.toThrow("killed");
    const order = await lastOrder(email);
    expect(order.status).toBe("pending");
    expect(await stockLeft()).toBe(stockBefore - 2);
    const view = await (await client.get(`/my-account/view-order/${order.id}/`)).text();
    const refused = await client.post(`/my-account/view-order/${order.id}/`, { _wpnonce: hidden(view, "_wpnonce") });
    expect(refused.status).toBe(409);
    expect(await statusOf(order.id)).toBe("pending");
    expect(await stockLeft()).toBe(stockBefore - 2);

    await reconcilePayments(rt.deps, 0);
    expect(await statusOf(order.id)).toBe("failed");
    expect(await stockLeft()).toBe(stockBefore);
    // Failed once, e-mailed once: another reconciler run or a second markFailed does not send it again.
    await reconcilePayments(rt.deps, 0);
    await markFailed(rt.deps, order.id, null, "failed", null);
    const mails = await failedMails(order.id);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to_address).toBe(email);
    expect(mails[0]!.body).toContain(`${shop.services.siteUrl}${payPath(order)}`);

    const cancelled = await client.post(`/my-account/view-order/${order.id}/`, { _wpnonce: hidden(view, "_wpnonce") });
    expect(cancelled.status).toBe(302);
    expect(await statusOf(order.id)).toBe("cancelled");
    expect(await stockLeft()).toBe(stockBefore);
  });

  it("a guest's Cancel is sent to the login page", async () => {
    const res = await new TestClient(shop.url).post("/my-account/view-order/1/", { _wpnonce: "x" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/my-account/");
  });
});

describe("the payment-failed e-mail", () => {
  it("a decline the shopper sees on the page (checkout, order-pay) is not e-mailed: they retry there", async () => {
    const email = "declined-mail@example.com";
    const client = new TestClient(shop.url);
    const reply = await checkoutWith(client, { ...billing(email), ...cardFields(DECLINED) });
    expect(reply.result).toBe("failure");
    const order = await lastOrder(email);
    expect(order.status).toBe("failed");
    expect(await failedMails(order.id)).toHaveLength(0);
    // Its order-pay page (the guest holds the key): declined again, still no e-mail; then paid.
    const page = await (await client.get(payPath(order))).text();
    const nonce = hidden(page, "woocommerce-pay-nonce");
    await client.post(payPath(order), { "woocommerce-pay-nonce": nonce, ...cardFields(DECLINED) });
    expect(await statusOf(order.id)).toBe("failed");
    expect(await failedMails(order.id)).toHaveLength(0);
    expect((await client.post(payPath(order), { "woocommerce-pay-nonce": nonce, ...cardFields() })).status).toBe(302);
    expect(await statusOf(order.id)).toBe("processing");
  });

  it("the reconciler's failure e-mail carries the order number, the total and the order-pay link on the shop's own address", async () => {
    const email = "reconciled-mail@example.com";
    const { client, customerId } = await signedIn(email);
    await client.post("/?wc-ajax=add_to_cart", { product_id: String(productId), quantity: "1" });
    const rt = paymentRuntime(shop.services);
    const input = cardCheckout(email);
    await expect(
      placeOrder({ ...rt.deps, gateway: dyingBeforeAuthorize(rt.gateway) }, { claimKey: `mail-${Date.now()}`, customerId, input, owner: { customerId } }),
    ).rejects.toThrow("killed");
    const order = await lastOrder(email);
    await reconcilePayments(rt.deps, 0);
    expect(await statusOf(order.id)).toBe("failed");
    const mails = await failedMails(order.id);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to_address).toBe(email);
    expect(mails[0]!.subject).toContain(`#${order.id}`);
    const [{ total }] = (await shop.services.db.query<{ total: number }>(`SELECT total FROM orders WHERE id = $1`, [order.id])) as [{ total: number }];
    expect(mails[0]!.body).toContain(`Total: ${formatMoney(total, shop.services.config.currency.format)}`);
    expect(mails[0]!.body).toContain(`${shop.services.siteUrl}${payPath(order)}`);
  });

  it("a paid order queues no failure e-mail", async () => {
    const email = "paid-nomail@example.com";
    const reply = await checkoutWith(new TestClient(shop.url), { ...billing(email), ...cardFields() });
    expect(reply.result).toBe("success");
    expect(await failedMails((await lastOrder(email)).id)).toHaveLength(0);
  });
});

describe("addresses saved by the checkout", () => {
  const shippingTo = {
    ship_to_different_address: "1",
    shipping_first_name: "Grace",
    shipping_last_name: "Hopper",
    shipping_company: "",
    shipping_country: "US",
    shipping_address_1: "22 Harbour Road",
    shipping_address_2: "",
    shipping_city: "Portland",
    shipping_state: "OR",
    shipping_postcode: "97201",
  };

  it("a signed-in customer's order saves the billing and shipping addresses to the account", async () => {
    const email = "addresses-saved@example.com";
    const { client } = await signedIn(email);
    expect(await (await client.get("/my-account/edit-address/")).text()).toContain("You have not set up this type of address yet.");
    const reply = await checkoutWith(client, { ...billing(email), ...shippingTo, ...cardFields() });
    expect(reply.result).toBe("success");
    const page = await (await client.get("/my-account/edit-address/")).text();
    expect(page).not.toContain("You have not set up this type of address yet.");
    expect(page).toContain("1 Analytical Way");
    expect(page).toContain("22 Harbour Road");
    expect(page).toContain("Portland, OR, 97201");
    // The next checkout starts from them.
    await client.post("/?wc-ajax=add_to_cart", { product_id: String(productId), quantity: "1" });
    const checkout = await (await client.get("/checkout/")).text();
    expect(checkout).toContain('value="1 Analytical Way"');
  });

  it("an account created at checkout keeps its billing address (no shipping address given: none saved)", async () => {
    const email = "addresses-new-account@example.com";
    const client = new TestClient(shop.url);
    const reply = await checkoutWith(client, { ...billing(email), ...cardFields(), createaccount: "1", account_password: "new account pass 1" });
    expect(reply.result).toBe("success");
    const page = await (await client.get("/my-account/edit-address/")).text();
    expect(page).toContain("1 Analytical Way");
    expect(page).toContain("Springfield, IL, 62701");
    const [rows] = await shop.services.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM customer_addresses a JOIN customers c ON c.id = a.customer_id WHERE c.email = $1 AND a.kind = 'shipping'`,
      [email],
    );
    expect(rows!.n).toBe(0);
  });

  it("a guest's order saves no address anywhere", async () => {
    const [before] = await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM customer_addresses`);
    expect((await checkoutWith(new TestClient(shop.url), { ...billing("guest-addresses@example.com"), ...cardFields() })).result).toBe("success");
    const [after] = await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM customer_addresses`);
    expect(after!.n).toBe(before!.n);
  });

  it("the address form marks State required like the checkout, and enforces it by country", async () => {
    const { client } = await signedIn("state-rule@example.com");
    const form = await (await client.get("/my-account/edit-address/billing/")).text();
    const state = /<label for="billing_state">([\s\S]*?)<\/label>/.exec(form)![1]!;
    expect(state).toContain('<abbr class="required" title="required">*</abbr>');
    expect(state).not.toContain("(optional)");
    expect(/<label for="billing_company">([\s\S]*?)<\/label>/.exec(form)![1]).toContain("(optional)");
    const nonce = hidden(form, "woocommerce-edit-address-nonce");
    const fields = { ...billing("state-rule@example.com"), billing_state: "", "woocommerce-edit-address-nonce": nonce };
    const us = await (await client.post("/my-account/edit-address/billing/", fields)).text();
    expect(us).toContain("<strong>Billing State</strong> is a required field.");
    const gb = await client.post("/my-account/edit-address/billing/", { ...fields, billing_country: "GB", billing_postcode: "SW1A 1AA" });
    expect(gb.status).toBe(302);
  });
});

describe("a failed checkout, then another", () => {
  it("retrying after a decline cancels the earlier failed order, so its order-pay link cannot charge the same cart again", async () => {
    const email = "retry-after-decline@example.com";
    const client = new TestClient(shop.url);
    await client.post("/?wc-ajax=add_to_cart", { product_id: String(productId), quantity: "1" });
    const page = await openCheckout(client);
    const submit = (fields: Record<string, string>) =>
      client.post("/?wc-ajax=checkout", {
        "woocommerce-process-checkout-nonce": page.nonce,
        _checkout_token: page.token,
        _wp_http_referer: "/checkout/",
        ...billing(email),
        ...fields,
      });
    expect(((await (await submit(cardFields(DECLINED))).json()) as CheckoutReply).result).toBe("failure");
    const first = await lastOrder(email);
    expect(first.status).toBe("failed");
    const retried = (await (await submit(cardFields())).json()) as CheckoutReply;
    expect(retried.result).toBe("success");
    const second = await lastOrder(email);
    expect(second.id).not.toBe(first.id);
    expect(await statusOf(first.id)).toBe("cancelled");
    const pay = await client.get(payPath(first));
    expect(await pay.text()).not.toContain('id="place_order"');
  });

  it("paying the failed order on its order-pay page empties that cart: the next checkout is a new order, never a replay of the old one", async () => {
    const email = "pay-then-shop-again@example.com";
    const client = new TestClient(shop.url);
    expect((await checkoutWith(client, { ...billing(email), ...cardFields(DECLINED) })).result).toBe("failure");
    const failed = await lastOrder(email);
    const payPage = await (await client.get(payPath(failed))).text();
    expect((await client.post(payPath(failed), { "woocommerce-pay-nonce": hidden(payPage, "woocommerce-pay-nonce"), ...cardFields() })).status).toBe(302);
    expect(await statusOf(failed.id)).toBe("processing");
    const cart = await (await client.get("/cart/")).text();
    expect(cart).toMatch(/aria-label="Cart, 0 items"/);
    // A new cart and a new checkout: a new order, charged once.
    const before = (await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM sandbox_records WHERE type = 'charge'`))[0]!.n;
    const reply = await checkoutWith(client, { ...billing(email), ...cardFields("5555 5555 5555 4444") });
    expect(reply.result).toBe("success");
    const placed = await lastOrder(email);
    expect(placed.id).not.toBe(failed.id);
    expect(reply.redirect).toContain(`/order-received/${placed.id}/`);
    const after = (await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM sandbox_records WHERE type = 'charge'`))[0]!.n;
    expect(after - before).toBe(1);
  });
});
