/** The account area: orders, order view, saved payment methods, add payment method. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient, pageGlobal } from "../support/client.ts";
import { AUTH_LIMITS, registerCustomer } from "../../core/commerce/accounts.ts";
import { CARD, billing, cardFields, openCheckout, productWithStock, submitCheckout } from "./checkout-support.ts";

let shop: TestShop;
let productId: number;

beforeAll(async () => {
  shop = await startTestShop();
  productId = await productWithStock(shop, "silk-pocket-square", 100, 1500);
});
afterAll(async () => shop?.close());

async function signedIn(email: string): Promise<TestClient> {
  await registerCustomer(shop.services.db, { email, password: "account pass 1", first_name: "Acc", last_name: "Ount" });
  const client = new TestClient(shop.url);
  const astra = pageGlobal(await (await client.get("/checkout/")).text(), "astra");
  const body = await (
    await client.post("/wp-admin/admin-ajax.php", {
      action: "astra_woocommerce_login_user",
      user_name_email: email,
      password: "account pass 1",
      security: String(astra.woocommerce_login_nonce),
    })
  ).json();
  expect(body).toEqual({ success: true, data: { success: true } });
  return client;
}

const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? "";

describe("saved payment methods", () => {
  it("add a card, see it listed (brand, last four, expiry), make another default, delete one", async () => {
    const client = await signedIn("methods@example.com");
    const page = await (await client.get("/my-account/add-payment-method/")).text();
    expect(page).toContain("Test mode:");
    const nonce = hidden(page, "woocommerce-add-payment-method-nonce");
    const bad = await client.post("/my-account/add-payment-method/", {
      "woocommerce-add-payment-method-nonce": nonce,
      payment_method: "sandbox_credit_card",
      [`${CARD}-account-number`]: "4242",
      [`${CARD}-expiry`]: "12 / 34",
      [`${CARD}-csc`]: "123",
    });
    expect(await bad.text()).toContain("Card number is invalid (wrong length)");
    for (const number of ["4242 4242 4242 4242", "5555 5555 5555 4444"]) {
      const res = await client.post("/my-account/add-payment-method/", {
        "woocommerce-add-payment-method-nonce": nonce,
        payment_method: "sandbox_credit_card",
        [`${CARD}-account-number`]: number,
        [`${CARD}-expiry`]: "12 / 34",
        [`${CARD}-csc`]: "123",
      });
      expect(res.status).toBe(302);
    }
    let list = await (await client.get("/my-account/payment-methods/")).text();
    expect(list).toContain("Visa ending in 4242");
    expect(list).toContain("Mastercard ending in 4444");
    expect(list).toContain("12/34");
    expect(list).toMatch(/Visa ending in 4242(<!-- -->)? <strong>\(default\)<\/strong>/);
    const ids = [...list.matchAll(/name="token_id" value="(\d+)"/g)].map((m) => m[1]!);
    const pmNonce = hidden(list, "_wpnonce");
    await client.post("/my-account/payment-methods/", { _wpnonce: pmNonce, token_id: ids[1]!, intent: "default" });
    list = await (await client.get("/my-account/payment-methods/")).text();
    expect(list).toMatch(/Mastercard ending in 4444(<!-- -->)? <strong>\(default\)<\/strong>/);
    expect(list).toContain("This payment method was successfully set as your default.");
    await client.post("/my-account/payment-methods/", { _wpnonce: pmNonce, token_id: ids[0]!, intent: "delete" });
    list = await (await client.get("/my-account/payment-methods/")).text();
    expect(list).not.toContain("Visa ending in 4242");
    expect(list).toContain("Payment method deleted.");
  });

  it("someone else's method cannot be deleted, and a bad nonce changes nothing", async () => {
    const owner = await signedIn("owner@example.com");
    const page = await (await owner.get("/my-account/add-payment-method/")).text();
    await owner.post("/my-account/add-payment-method/", {
      "woocommerce-add-payment-method-nonce": hidden(page, "woocommerce-add-payment-method-nonce"),
      payment_method: "sandbox_credit_card",
      [`${CARD}-account-number`]: "4242 4242 4242 4242",
      [`${CARD}-expiry`]: "12 / 34",
      [`${CARD}-csc`]: "123",
    });
    const [token] = await shop.services.db.query<{ id: number }>(
      `SELECT t.id FROM payment_tokens t JOIN customers c ON c.id = t.customer_id WHERE c.email = 'owner@example.com'`,
    );
    const thief = await signedIn("thief@example.com");
    const own = await (await thief.get("/my-account/add-payment-method/")).text();
    await thief.post("/my-account/add-payment-method/", {
      "woocommerce-add-payment-method-nonce": hidden(own, "woocommerce-add-payment-method-nonce"),
      payment_method: "sandbox_credit_card",
      [`${CARD}-account-number`]: "5555 5555 5555 4444",
      [`${CARD}-expiry`]: "12 / 34",
      [`${CARD}-csc`]: "123",
    });
    const list = await (await thief.get("/my-account/payment-methods/")).text();
    expect(hidden(list, "_wpnonce")).not.toBe("");
    await thief.post("/my-account/payment-methods/", { _wpnonce: hidden(list, "_wpnonce"), token_id: String(token!.id), intent: "delete" });
    await owner.post("/my-account/payment-methods/", { _wpnonce: "bad", token_id: String(token!.id), intent: "delete" });
    expect(await shop.services.db.query(`SELECT id FROM payment_tokens WHERE id = $1`, [token!.id])).toHaveLength(1);
    expect(await (await thief.get("/my-account/payment-methods/")).text()).toContain("Invalid payment method.");
  });

  it("guests are sent to the login page", async () => {
    const res = await new TestClient(shop.url).get("/my-account/payment-methods/");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/my-account/");
  });
});

describe("orders in the account", () => {
  it("a signed-in customer's order is listed and viewable; another customer gets a 404", async () => {
    const client = await signedIn("orders@example.com");
    await client.post("/?wc-ajax=add_to_cart", { product_id: String(productId), quantity: "1" });
    const page = await openCheckout(client);
    const reply = await submitCheckout(client, page, { ...billing("orders@example.com"), ...cardFields() });
    expect(reply.result).toBe("success");
    const id = /order-received\/(\d+)/.exec(reply.redirect!)![1]!;
    const orders = await (await client.get("/my-account/orders/")).text();
    expect(orders).toContain(`href="/my-account/view-order/${id}/"`);
    expect(orders).toContain("Processing");
    const view = await (await client.get(`/my-account/view-order/${id}/`)).text();
    expect(view).toContain("Silk Pocket Square");
    const other = await signedIn("other@example.com");
    expect((await other.get(`/my-account/view-order/${id}/`)).status).toBe(404);
    expect((await other.get(`/my-account/view-order/abc/`)).status).toBe(404);
  });
});

describe("lost password", () => {
  it("sends a one-use link through the outbox, answers the same for unknown accounts, and the new password works", async () => {
    await registerCustomer(shop.services.db, { email: "forgot@example.com", password: "old password 1", first_name: "", last_name: "" });
    const client = new TestClient(shop.url);
    const form = await (await client.get("/my-account/lost-password/")).text();
    const nonce = hidden(form, "_wpnonce");
    const unknown = await (await client.post("/my-account/lost-password/", { _wpnonce: nonce, user_login: "nobody@example.com", intent: "request" })).text();
    const known = await (await client.post("/my-account/lost-password/", { _wpnonce: nonce, user_login: "forgot@example.com", intent: "request" })).text();
    const sent = "If an account matches, a password reset e-mail has been sent";
    expect(unknown).toContain(sent);
    expect(known).toContain(sent);
    const mails = await shop.services.db.query<{ to_address: string; body: string }>(`SELECT to_address, body FROM email_outbox WHERE kind = 'password_reset'`);
    expect(mails.map((m) => m.to_address)).toEqual(["forgot@example.com"]);
    const link = new URL(/(http\S+lost-password\/\?key=\S+)/.exec(mails[0]!.body)![1]!);
    const resetPage = await (await client.get(link.pathname + link.search)).text();
    expect(resetPage).toContain("Enter a new password below.");
    const fields = {
      _wpnonce: hidden(resetPage, "_wpnonce"),
      key: link.searchParams.get("key")!,
      id: link.searchParams.get("id")!,
      password_1: "brand new password",
      intent: "reset",
    };
    expect((await client.post("/my-account/lost-password/", fields)).status).toBe(302);
    expect(await (await client.post("/my-account/lost-password/", fields)).text()).toContain("This key is invalid or has already been used.");
    const astra = pageGlobal(await (await client.get("/checkout/")).text(), "astra");
    const login = await (
      await client.post("/wp-admin/admin-ajax.php", {
        action: "astra_woocommerce_login_user",
        user_name_email: "forgot@example.com",
        password: "brand new password",
        security: String(astra.woocommerce_login_nonce),
      })
    ).json();
    expect(login).toEqual({ success: true, data: { success: true } });
  });
});

describe("abuse limits on the account pages", () => {
  // The shop trusts X-Forwarded-For from loopback (a proxy in front), so each test speaks from its own address.
  const from = (address: string) => ({ "x-forwarded-for": address });

  it("the reset link is built on the shop's own address, whatever Host the request claims", async () => {
    await registerCustomer(shop.services.db, { email: "host-header@example.com", password: "old password 1", first_name: "", last_name: "" });
    const client = new TestClient(shop.url);
    const nonce = hidden(await (await client.get("/my-account/lost-password/")).text(), "_wpnonce");
    const res = await client.request("/my-account/lost-password/", {
      method: "POST",
      headers: { ...from("198.51.100.7"), "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
      form: { _wpnonce: nonce, user_login: "host-header@example.com", intent: "request" },
    });
    expect(await res.text()).toContain("If an account matches, a password reset e-mail has been sent");
    const [mail] = await shop.services.db.query<{ body: string }>(`SELECT body FROM email_outbox WHERE to_address = 'host-header@example.com'`);
    expect(mail!.body).toContain(`${shop.services.siteUrl}/my-account/lost-password/?key=`);
    expect(mail!.body).not.toContain("evil.example");
  });

  it("reset e-mails are capped per account per requesting address and per account (silently), requests per address (with a message)", async () => {
    await registerCustomer(shop.services.db, { email: "flooded@example.com", password: "old password 1", first_name: "", last_name: "" });
    const client = new TestClient(shop.url);
    const nonce = hidden(await (await client.get("/my-account/lost-password/")).text(), "_wpnonce");
    const ask = async (address: string, login = "flooded@example.com") =>
      (
        await client.request("/my-account/lost-password/", {
          method: "POST",
          headers: from(address),
          form: { _wpnonce: nonce, user_login: login, intent: "request" },
        })
      ).text();
    const mails = async () =>
      (await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM email_outbox WHERE to_address = 'flooded@example.com'`))[0]!.n;
    // Three requests from each of four addresses: the same answer each time, but e-mails stop at the account's cap
    // (three from each of the first three addresses, then the fourth address's first).
    for (let i = 1; i <= 4; i++) {
      for (let n = 0; n < 3; n++) expect(await ask(`203.0.113.${i}`)).toContain("If an account matches, a password reset e-mail has been sent");
    }
    expect(await mails()).toBe(AUTH_LIMITS.resetMailsPerAccountPerHour);
    // An address's first request for the account always sends: nobody else's requests use up the owner's e-mail.
    expect(await ask("203.0.113.5")).toContain("If an account matches, a password reset e-mail has been sent");
    expect(await mails()).toBe(AUTH_LIMITS.resetMailsPerAccountPerHour + 1);
    expect(await ask("203.0.113.5")).toContain("If an account matches, a password reset e-mail has been sent");
    expect(await mails()).toBe(AUTH_LIMITS.resetMailsPerAccountPerHour + 1);
    // One address asking about anyone: ten requests, then a refusal.
    for (let i = 0; i < 10; i++) expect(await ask("192.0.2.50", `nobody${i}@example.com`)).toContain("If an account matches");
    const refused = await ask("192.0.2.50", "someone-else@example.com");
    expect(refused).toContain("Too many attempts. Please wait a few minutes and try again.");
    expect(refused).not.toContain("If an account matches");
    // Another address is not affected.
    expect(await ask("192.0.2.51", "nobody@example.com")).toContain("If an account matches");
  });

  it("/my-account/ registrations are limited per address, across fresh browsers; another address still registers", async () => {
    const register = async (address: string, email: string) => {
      const browser = new TestClient(shop.url);
      const nonce = hidden(await (await browser.get("/my-account/")).text(), "woocommerce-register-nonce");
      const res = await browser.request("/my-account/", {
        method: "POST",
        headers: from(address),
        form: { "woocommerce-register-nonce": nonce, email, password: "a long enough password 1", intent: "register" },
      });
      return { status: res.status, body: await res.text() };
    };
    for (let i = 0; i < AUTH_LIMITS.registrationsPerAddressPerHour; i++) expect((await register("198.51.100.42", `signup${i}@example.com`)).status).toBe(302);
    const refused = await register("198.51.100.42", "one-too-many@example.com");
    expect(refused.status).toBe(200);
    expect(refused.body).toContain("Too many attempts. Please wait a few minutes and try again.");
    const [row] = await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM customers WHERE email = 'one-too-many@example.com'`);
    expect(row!.n).toBe(0);
    expect((await register("198.51.100.43", "one-too-many@example.com")).status).toBe(302);
  });

  it("/my-account/ sign-in failures are limited per address across accounts and fresh browsers", async () => {
    await registerCustomer(shop.services.db, { email: "victim@example.com", password: "right password 1", first_name: "", last_name: "" });
    const attempt = async (address: string, username: string, password: string) => {
      const browser = new TestClient(shop.url); // a new browser each time: no cookie to count by
      const nonce = hidden(await (await browser.get("/my-account/")).text(), "woocommerce-login-nonce");
      const res = await browser.request("/my-account/", {
        method: "POST",
        headers: from(address),
        form: { "woocommerce-login-nonce": nonce, username, password, intent: "login" },
      });
      return { status: res.status, body: await res.text() };
    };
    for (let i = 0; i < 20; i++) {
      const r = await attempt("198.51.100.99", `guess${i}@example.com`, "wrong");
      expect(r.body).toContain("The e-mail address or password you entered is incorrect.");
    }
    const blocked = await attempt("198.51.100.99", "victim@example.com", "right password 1");
    expect(blocked.status).toBe(200);
    expect(blocked.body).toContain("Too many failed login attempts from your network. Please wait 15 minutes and try again.");
    // The account itself is not locked for everyone else: the right password from another address signs in.
    const ok = await attempt("198.51.100.100", "victim@example.com", "right password 1");
    expect(ok.status).toBe(302);
  });
});

describe("password reset keys", () => {
  it("one live key per account: a new request replaces the last, and a reset ends every other key", async () => {
    await registerCustomer(shop.services.db, { email: "keys@example.com", password: "old password 1", first_name: "", last_name: "" });
    const client = new TestClient(shop.url);
    const ask = async () => {
      const nonce = hidden(await (await client.get("/my-account/lost-password/")).text(), "_wpnonce");
      await client.request("/my-account/lost-password/", {
        method: "POST",
        headers: { "x-forwarded-for": "192.0.2.201" },
        form: { _wpnonce: nonce, user_login: "keys@example.com", intent: "request" },
      });
      const [mail] = await shop.services.db.query<{ body: string }>(
        `SELECT body FROM email_outbox WHERE to_address = 'keys@example.com' ORDER BY id DESC LIMIT 1`,
      );
      return new URL(/(http\S+lost-password\/\?key=\S+)/.exec(mail!.body)![1]!);
    };
    const reset = async (link: URL, password: string) => {
      const page = await (await client.get(link.pathname + link.search)).text();
      const res = await client.post("/my-account/lost-password/", {
        _wpnonce: hidden(page, "_wpnonce"),
        key: link.searchParams.get("key")!,
        id: link.searchParams.get("id")!,
        password_1: password,
        intent: "reset",
      });
      return res.status === 302 ? "reset" : (await res.text()).includes("This key is invalid or has already been used.") ? "refused" : "other";
    };
    const first = await ask();
    const second = await ask();
    expect(await reset(first, "first new password")).toBe("refused"); // replaced by the second e-mail
    const third = await ask();
    expect(await reset(third, "third new password")).toBe("reset");
    expect(await reset(second, "second new password")).toBe("refused");
  });
});
