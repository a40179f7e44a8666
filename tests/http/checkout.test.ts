import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient, pageGlobal } from "../support/client.ts";
import { scriptEventFields } from "../../server/features/checkout.ts";
import {
  CARD,
  ECHECK,
  billing,
  cardFields,
  counts,
  echeckFields,
  openCheckout,
  productWithStock,
  shopperWithCart,
  submitCheckout,
} from "./checkout-support.ts";

let shop: TestShop;
let productId: number;

beforeAll(async () => {
  shop = await startTestShop();
  productId = await productWithStock(shop, "silk-pocket-square", 1000, 1500);
});
afterAll(async () => shop?.close());

const ATTRIBUTION: Record<string, string> = {
  wc_order_attribution_source_type: "utm",
  wc_order_attribution_referrer: "https://news.example/",
  wc_order_attribution_utm_campaign: "spring",
  wc_order_attribution_utm_source: "newsletter",
  wc_order_attribution_utm_medium: "email",
  wc_order_attribution_utm_content: "(none)",
  wc_order_attribution_utm_id: "(none)",
  wc_order_attribution_utm_term: "(none)",
  wc_order_attribution_utm_source_platform: "(none)",
  wc_order_attribution_utm_creative_format: "(none)",
  wc_order_attribution_utm_marketing_tactic: "(none)",
  wc_order_attribution_session_entry: "https://shop.example/?utm_source=newsletter",
  wc_order_attribution_session_start_time: "2026-11-22 08:00:00",
  wc_order_attribution_session_pages: "3",
  wc_order_attribution_session_count: "1",
  wc_order_attribution_user_agent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148",
};

describe("POST /?wc-ajax=checkout", () => {
  it("a guest pays by card: one order, paid, stock taken, cart emptied, attribution stored, redirect to order received", async () => {
    const before = await counts(shop);
    const client = await shopperWithCart(shop, productId, 2);
    const page = await openCheckout(client);
    expect(pageGlobal(page.html, "wc_checkout_params").is_checkout).toBe("1");
    expect(page.html).toContain("Place order");
    const reply = await submitCheckout(client, page, { ...billing("ada@example.com"), ...cardFields(), ...ATTRIBUTION });
    expect(reply.result).toBe("success");
    expect(reply.redirect).toMatch(/\/checkout\/order-received\/\d+\/\?key=wc_order_/);
    const orderId = Number(/order-received\/(\d+)/.exec(reply.redirect!)![1]);
    const [order] = await shop.services.db.query<{ status: string; total: number; subtotal: number; shipping_total: number }>(
      `SELECT status, total, subtotal, shipping_total FROM orders WHERE id = $1`,
      [orderId],
    );
    expect(order).toMatchObject({ status: "processing", subtotal: 3000, shipping_total: 500, total: 3500 });
    const after = await counts(shop);
    expect(after.orders - before.orders).toBe(1);
    expect(after.charges - before.charges).toBe(1);
    const meta = Object.fromEntries(
      (await shop.services.db.query<{ key: string; value: string }>(`SELECT key, value FROM order_meta WHERE order_id = $1`, [orderId])).map((m) => [
        m.key,
        m.value,
      ]),
    );
    expect(meta._wc_order_attribution_source_type).toBe("utm");
    expect(meta._wc_order_attribution_utm_source).toBe("newsletter");
    expect(meta._wc_order_attribution_device_type).toBe("Mobile");
    expect(meta).not.toHaveProperty("_wc_order_attribution_utm_content");
    const [stock] = await shop.services.db.query<{ stock_quantity: number }>(`SELECT stock_quantity FROM products WHERE id = $1`, [productId]);
    expect(stock!.stock_quantity).toBeLessThanOrEqual(998);
    const received = await client.get(new URL(reply.redirect!).pathname + new URL(reply.redirect!).search);
    const html = await received.text();
    expect(html).toContain("Thank you. Your order has been received.");
    expect(html).toContain("ending in 4242");
    // The cart is empty now, and someone without the key cannot see the order.
    expect(await (await client.get("/checkout/")).text()).toContain("Your cart is empty");
    expect((await new TestClient(shop.url).get(new URL(reply.redirect!).pathname)).status).toBe(404);
    const [mail] = await shop.services.db.query<{ to_address: string; subject: string }>(`SELECT to_address, subject FROM email_outbox WHERE order_id = $1`, [
      orderId,
    ]);
    expect(mail).toMatchObject({ to_address: "ada@example.com", subject: `Your order #${orderId} has been received` });
  });

  it("a guest pays by e-check", async () => {
    const client = await shopperWithCart(shop, productId);
    const page = await openCheckout(client);
    const reply = await submitCheckout(client, page, { ...billing(), ...echeckFields() });
    expect(reply.result).toBe("success");
  });

  it("a declined card fails the order, gives the stock back and lets the shopper retry with another card", async () => {
    const client = await shopperWithCart(shop, productId, 3);
    const page = await openCheckout(client);
    const [before] = await shop.services.db.query<{ stock_quantity: number }>(`SELECT stock_quantity FROM products WHERE id = $1`, [productId]);
    const declined = await submitCheckout(client, page, { ...billing(), ...cardFields("4000 0000 0000 0002") });
    expect(declined.result).toBe("failure");
    expect(declined.messages).toContain('<ul class="woocommerce-error" role="alert">');
    expect(declined.messages).toMatch(/declined/i);
    const [after] = await shop.services.db.query<{ stock_quantity: number }>(`SELECT stock_quantity FROM products WHERE id = $1`, [productId]);
    expect(after!.stock_quantity).toBe(before!.stock_quantity);
    const [failed] = await shop.services.db.query<{ status: string }>(`SELECT status FROM orders ORDER BY id DESC LIMIT 1`);
    expect(failed!.status).toBe("failed");
    const retry = await submitCheckout(client, page, { ...billing(), ...cardFields("5555 5555 5555 4444") });
    expect(retry.result).toBe("success");
  });

  it("a processor's refusal reads as its own sentence, then the general advice (CSC check, routing checksum, unknown test account)", async () => {
    const general = "An error occurred, please try again or try an alternate form of payment.";
    const cases: [Record<string, string>, string][] = [
      [cardFields("4000 0000 0000 0127", "123"), "Your card&#039;s security code is incorrect. "],
      [echeckFields("123456789", "000123456789"), "Routing Number is invalid. "],
      [echeckFields("110000000", "1234"), "Test mode: use a documented test number. "],
    ];
    for (const [fields, reason] of cases) {
      const client = await shopperWithCart(shop, productId);
      const reply = await submitCheckout(client, await openCheckout(client), { ...billing(), ...fields });
      expect(reply.result).toBe("failure");
      expect(reply.messages).toContain(`${reason}${general}`);
      expect(reply.messages).not.toContain("must be 3 or 4 digits");
    }
  });

  it("missing and malformed fields get the failure shape with one li[data-id] per field, and nothing is created or charged", async () => {
    const client = await shopperWithCart(shop, productId);
    const page = await openCheckout(client);
    const before = await counts(shop);
    const reply = await submitCheckout(client, page, { ...cardFields("4242 4242 4242 4241", "12", "13 / 20"), billing_email: "not-an-email" });
    expect(reply).toMatchObject({ result: "failure", refresh: false, reload: false });
    expect(reply.messages).toMatch(/^<ul class="woocommerce-error" role="alert">/);
    expect(reply.messages).toContain('<li data-id="billing_first_name"><strong>Billing First name</strong> is a required field.</li>');
    expect(reply.messages).toContain('<li data-id="billing_email"><strong>Billing Email address</strong> is not a valid email address.</li>');
    expect(reply.messages).toContain(`<li data-id="${CARD}-account-number">Card number is invalid</li>`);
    expect(reply.messages).toContain(`<li data-id="${CARD}-expiry">Card expiration date is invalid</li>`);
    expect(reply.messages).toContain(`<li data-id="${CARD}-csc">Card security code is invalid (must be 3 or 4 digits)</li>`);
    expect(await counts(shop)).toEqual(before);
  });

  it("e-check fields are checked with the form's own rules (account 3–17 digits, message says 5–17)", async () => {
    const client = await shopperWithCart(shop, productId);
    const page = await openCheckout(client);
    const reply = await submitCheckout(client, page, { ...billing(), ...echeckFields("12345678", "12a") });
    expect(reply.messages).toContain(`<li data-id="${ECHECK}-routing-number">Routing Number is invalid (must be 9 digits)</li>`);
    expect(reply.messages).toContain(`<li data-id="${ECHECK}-account-number">Account Number is invalid (only digits are allowed)</li>`);
  });

  it("hostile and oversized input is escaped or refused, never a 500", async () => {
    const client = await shopperWithCart(shop, productId);
    const page = await openCheckout(client);
    const before = await counts(shop);
    const hostile = await submitCheckout(client, page, {
      ...billing(),
      ...cardFields(),
      billing_first_name: "",
      billing_last_name: "x".repeat(5000),
      payment_method: "<script>alert(1)</script>",
    });
    expect(hostile.result).toBe("failure");
    expect(hostile.messages).not.toContain("<script>");
    expect(hostile.messages).toContain('data-id="billing_last_name"');
    expect(hostile.messages).toContain('data-id="payment_method"');
    const arrays = await client.post("/?wc-ajax=checkout", {
      "woocommerce-process-checkout-nonce": page.nonce,
      _checkout_token: page.token,
      billing_email: ["a@b.co", "c@d.co"],
    });
    expect(arrays.status).toBe(200);
    expect(((await arrays.json()) as { result: string }).result).toBe("failure");
    const huge = await client.request("/?wc-ajax=checkout", {
      method: "POST",
      body: "billing_email=" + "a".repeat(2_000_000),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(huge.status).toBeLessThan(500);
    expect(await counts(shop)).toEqual(before);
  });

  it("a bad nonce asks the page to refresh", async () => {
    const client = await shopperWithCart(shop, productId);
    const page = await openCheckout(client);
    const reply = await submitCheckout(client, { ...page, nonce: "bogus" }, { ...billing(), ...cardFields() });
    expect(reply).toMatchObject({ result: "failure", refresh: true, reload: false });
    expect(reply.messages).toContain("We were unable to process your order, please try again.");
  });

  it("an empty cart cannot be ordered", async () => {
    const client = new TestClient(shop.url);
    await client.get("/checkout/");
    const html = await (await client.get("/checkout/")).text();
    expect(html).toContain("Your cart is empty");
    const nonceMatch = /"update_order_review_nonce":"([^"]+)"/.exec(html);
    const review = await client.post("/?wc-ajax=update_order_review", { security: nonceMatch![1]! });
    expect(await review.json()).toEqual({ fragments: { "form.woocommerce-checkout": expect.stringContaining("Sorry, your session has expired.") } });
  });

  it("the same checkout submitted again (double click, retry, second tab) gives the same order and one charge", async () => {
    const client = await shopperWithCart(shop, productId);
    const page = await openCheckout(client);
    const before = await counts(shop);
    const first = await submitCheckout(client, page, { ...billing(), ...cardFields() });
    const again = await submitCheckout(client, page, { ...billing(), ...cardFields() });
    expect(first.result).toBe("success");
    expect(again).toEqual(first);
    const after = await counts(shop);
    expect(after.orders - before.orders).toBe(1);
    expect(after.charges - before.charges).toBe(1);
  });

  it("create account at checkout: the new account owns the order, is signed in, and can save the card", async () => {
    const client = await shopperWithCart(shop, productId);
    const page = await openCheckout(client);
    const email = `new${Date.now()}@example.com`;
    const reply = await submitCheckout(client, page, {
      ...billing(email),
      ...cardFields(),
      createaccount: "1",
      account_password: "correct horse battery",
      [`${CARD}-tokenize-payment-method`]: "true",
    });
    expect(reply.result).toBe("success");
    const [row] = await shop.services.db.query<{ customer_id: number; email: string }>(
      `SELECT o.customer_id, c.email FROM orders o JOIN customers c ON c.id = o.customer_id ORDER BY o.id DESC LIMIT 1`,
    );
    expect(row!.email).toBe(email);
    const tokens = await shop.services.db.query<{ brand: string; last4: string }>(`SELECT brand, last4 FROM payment_tokens WHERE customer_id = $1`, [
      row!.customer_id,
    ]);
    expect(tokens).toEqual([{ brand: "visa", last4: "4242" }]);
    // Signed in now: the checkout offers the saved card, and paying with it works.
    await client.post("/?wc-ajax=add_to_cart", { product_id: String(productId), quantity: "1" });
    const again = await openCheckout(client);
    expect(again.html).toContain("Visa ending in 4242");
    const tokenId = /id="wc-sandbox-credit-card-payment-token-(\d+)"/.exec(again.html)![1]!;
    const paid = await submitCheckout(client, again, { ...billing(email), payment_method: "sandbox_credit_card", [`${CARD}-payment-token`]: tokenId });
    expect(paid.result).toBe("success");
  });

  it("a token that belongs to someone else is refused", async () => {
    const [token] = await shop.services.db.query<{ id: number }>(`SELECT id FROM payment_tokens LIMIT 1`);
    const client = await shopperWithCart(shop, productId);
    const page = await openCheckout(client);
    const reply = await submitCheckout(client, page, {
      ...billing(),
      payment_method: "sandbox_credit_card",
      [`${CARD}-payment-token`]: String(token!.id),
      [`${CARD}-csc`]: "123",
    });
    expect(reply.result).toBe("failure");
    expect(reply.messages).toContain(`data-id="${CARD}-payment-token"`);
  });
});

describe("POST /?wc-ajax=update_order_review", () => {
  it("answers JSON with the review table fragment, and a shipping choice changes the totals", async () => {
    const client = await shopperWithCart(shop, productId);
    const page = await openCheckout(client);
    const res = await client.post("/?wc-ajax=update_order_review", {
      security: page.reviewNonce,
      payment_method: "sandbox_credit_card",
      country: "US",
      "shipping_method[0]": "local_pickup:1",
      has_full_address: "true",
      post_data: "",
    });
    expect(res.headers.get("content-type")).toContain("application/json");
    const body = (await res.json()) as { result: string; fragments: Record<string, string> };
    expect(body.result).toBe("success");
    const table = body.fragments[".woocommerce-checkout-review-order-table"]!;
    expect(table).toMatch(/<input[^>]*checked=""[^>]*value="local_pickup:1"/);
    expect(table).toMatch(/<tr class="order-total"><th>Total<\/th><td><strong>\$15<\/strong>/);
    const payment = body.fragments[".woocommerce-checkout-payment"]!;
    expect(payment).toContain('id="wc-sandbox-credit-card-account-number"');
    expect(payment).toContain(`name="_checkout_token" value="${page.token}"`);
    expect(payment).toContain("Place order");
  });

  it("a bad nonce is a failure and changes nothing", async () => {
    const client = await shopperWithCart(shop, productId);
    const res = await client.post("/?wc-ajax=update_order_review", { security: "nope", "shipping_method[0]": "local_pickup:1" });
    expect(((await res.json()) as { result: string }).result).toBe("failure");
  });
});

describe("card data is never stored", () => {
  it("no table holds a full test card number or a CSC-bearing field", async () => {
    const tables = await shop.services.db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
    );
    for (const { table_name } of tables) {
      const rows = await shop.services.db.query<{ t: string }>(`SELECT t::text AS t FROM "${table_name}" t`);
      for (const r of rows) {
        expect(r.t).not.toMatch(/4242424242424242|4242 4242 4242 4242|5555555555554444|4000000000000002|000123456789/);
      }
    }
  });
});

describe("payment form script-error log", () => {
  it("accepts an event with the page's token and refuses one without", async () => {
    const client = await shopperWithCart(shop, productId);
    const page = await openCheckout(client);
    const token = /scriptLogNonce\\?"?,\\?"([0-9a-f]{10})\\?"/.exec(page.html)?.[1];
    expect(token).toBeTruthy();
    const ok = await client.post("/wp-admin/admin-ajax.php", {
      action: "sandbox_credit_card_payment_form_log_script_event",
      security: token!,
      name: "/assets/x.js",
      message: "The script /assets/x.js could not be loaded.",
    });
    expect(await ok.json()).toEqual({ success: true });
    const bad = await client.post("/wp-admin/admin-ajax.php", {
      action: "sandbox_echeck_payment_form_log_script_event",
      security: "nope",
      name: "x",
      message: "y",
    });
    expect(bad.status).toBe(403);
  });

  it("masks every number a report could quote, however it is spaced, and limits reports per address", async () => {
    const fields = scriptEventFields({
      name: "card-4242-4242-4242-4242.js",
      message: "bad input 4242 4242 4242 4242 exp 12/34 csc 123 routing 110000000 acct 0001-2345-6789; 5555.5555.5555.4444 ok",
    });
    expect(`${fields.name} ${fields.message}`).not.toMatch(/\d{3}|\d[\s./-]\d[\s./-]?\d/);
    expect(fields.message).toContain("bad input [digits] exp [digits] csc [digits] routing [digits] acct [digits]; [digits] ok");
    expect(scriptEventFields({ message: "x".repeat(600_000) }).message.length).toBe(500);
    expect(scriptEventFields({ message: "card ４２４２ ４２４２ ４２４２ ４２４２ csc １２３" }).message).toBe("card [digits] csc [digits]");

    const client = await shopperWithCart(shop, productId);
    const page = await openCheckout(client);
    const token = /scriptLogNonce\\?"?,\\?"([0-9a-f]{10})\\?"/.exec(page.html)?.[1];
    const report = (message: string) =>
      client.request("/wp-admin/admin-ajax.php", {
        method: "POST",
        headers: { "x-forwarded-for": "203.0.113.77" },
        form: { action: "sandbox_credit_card_payment_form_log_script_event", security: token!, name: "x.js", message },
      });
    // What reaches the shop's logger (the same object the endpoint logs through).
    const logged: string[] = [];
    const warn = shop.services.logger.warn;
    shop.services.logger.warn = (msg, fields) => {
      logged.push(JSON.stringify({ msg, ...fields }));
      warn(msg, fields);
    };
    try {
      expect((await report("card 4111-1111-1111-1111 csc 987")).status).toBe(200);
    } finally {
      shop.services.logger.warn = warn;
    }
    expect(logged.some((l) => l.includes("payment form script event"))).toBe(true);
    expect(logged.some((l) => l.includes("4111") || l.includes("987"))).toBe(false);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await report(`event ${i}`)).status);
    expect(statuses.slice(0, 9).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(-2)).toEqual([429, 429]);
  });
});
