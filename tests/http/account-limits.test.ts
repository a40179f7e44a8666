/**
 * The sign-in and reset limits under attack (docs/decisions/0009-account-limits.md): concurrent guesses cannot all
 * pass one count, guesses from rotating addresses slow the account without locking its owner out, an attacker's
 * reset requests cannot use up the owner's reset e-mail, a reset lifts the account's limit, and the script-error
 * log limit is kept in the database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient, pageGlobal } from "../support/client.ts";
import { AUTH_LIMITS, registerCustomer } from "../../core/commerce/accounts.ts";
import { openCheckout, productWithStock, shopperWithCart } from "./checkout-support.ts";

let shop: TestShop;
beforeAll(async () => {
  shop = await startTestShop();
});
afterAll(async () => shop?.close());

const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? "";
const bad = { success: false, data: { success: false, error: AUTH_LIMITS.badCredentialsMessage } };
const signedIn = { success: true, data: { success: true } };

/** A browser on the checkout page, ready to sign in through the checkout's login call from `address`. */
async function checkoutLogin(): Promise<(email: string, password: string, address: string) => Promise<unknown>> {
  const client = new TestClient(shop.url);
  const astra = pageGlobal(await (await client.get("/checkout/")).text(), "astra");
  return async (email, password, address) =>
    (
      await client.request("/wp-admin/admin-ajax.php", {
        method: "POST",
        headers: { "x-forwarded-for": address },
        form: { action: "astra_woocommerce_login_user", user_name_email: email, password, security: String(astra.woocommerce_login_nonce) },
      })
    ).json();
}

async function requestReset(email: string, address: string): Promise<void> {
  const client = new TestClient(shop.url);
  const nonce = hidden(await (await client.get("/my-account/lost-password/")).text(), "_wpnonce");
  const res = await client.request("/my-account/lost-password/", {
    method: "POST",
    headers: { "x-forwarded-for": address },
    form: { _wpnonce: nonce, user_login: email, intent: "request" },
  });
  expect(await res.text()).toContain("If an account matches, a password reset e-mail has been sent");
}

const mailsTo = async (email: string) =>
  shop.services.db.query<{ body: string }>(`SELECT body FROM email_outbox WHERE kind = 'password_reset' AND to_address = $1 ORDER BY id`, [email]);

async function resetWithLastMail(email: string, password: string): Promise<void> {
  const link = new URL(/(http\S+lost-password\/\?key=\S+)/.exec((await mailsTo(email)).at(-1)!.body)![1]!);
  const client = new TestClient(shop.url);
  const page = await (await client.get(link.pathname + link.search)).text();
  const res = await client.post("/my-account/lost-password/", {
    _wpnonce: hidden(page, "_wpnonce"),
    key: link.searchParams.get("key")!,
    id: link.searchParams.get("id")!,
    password_1: password,
    intent: "reset",
  });
  expect(res.status).toBe(302);
}

describe("sign-in limits", () => {
  it("30 simultaneous wrong passwords from one address: exactly 20 are checked, the rest refused with the address's message", async () => {
    await registerCustomer(shop.services.db, { email: "burst@example.com", password: "right password 1", first_name: "", last_name: "" });
    const login = await checkoutLogin();
    const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => login("burst@example.com", `wrong ${i}`, "198.51.100.30")));
    const refused = { success: false, data: { success: false, error: AUTH_LIMITS.tooManyLoginsFromAddressMessage } };
    expect(replies.filter((r) => JSON.stringify(r) === JSON.stringify(bad))).toHaveLength(AUTH_LIMITS.failedPerAddressPer15Min);
    expect(replies.filter((r) => JSON.stringify(r) === JSON.stringify(refused))).toHaveLength(30 - AUTH_LIMITS.failedPerAddressPer15Min);
    const [row] = await shop.services.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM auth_events WHERE kind = 'login_failed' AND scope = 'address' AND subject = '198.51.100.30'`,
    );
    expect(row!.n).toBe(AUTH_LIMITS.failedPerAddressPer15Min);
  }, 120_000);

  it("100 wrong passwords from rotating addresses slow the account but never refuse the owner's right password from a clean address; a reset lifts the limit", async () => {
    await registerCustomer(shop.services.db, { email: "owner@example.com", password: "owner password 1", first_name: "", last_name: "" });
    const login = await checkoutLogin();
    const attacker = (i: number) => `203.0.113.${(i % 250) + 1}`;
    // 90 of the 100 as the limit records them (each password check costs a second of scrypt on a busy machine), the
    // last ten sent at once over HTTP.
    const seeded = AUTH_LIMITS.failedPerAccountPerHour - 10;
    await shop.services.db.query(
      `INSERT INTO auth_events (kind, scope, subject, at, address) SELECT 'login_failed', 'account', 'owner@example.com', now(), '203.0.113.' || (g + 1) FROM generate_series(1, $1) g`,
      [seeded],
    );
    const replies = await Promise.all(Array.from({ length: 10 }, (_, j) => login("owner@example.com", `guess ${j}`, attacker(seeded + j))));
    for (const r of replies) expect(r).toEqual(bad);
    // The owner, from an address that has not failed: signed in, after the account's delay.
    let started = Date.now();
    expect(await login("owner@example.com", "owner password 1", "192.0.2.44")).toEqual(signedIn);
    expect(Date.now() - started).toBeGreaterThanOrEqual(AUTH_LIMITS.slowLoginDelayMs - 5);
    // An address that has failed on the account is refused, even with the right password.
    expect(await (await checkoutLogin())("owner@example.com", "owner password 1", attacker(5))).toEqual({
      success: false,
      data: { success: false, error: AUTH_LIMITS.tooManyLoginsMessage },
    });
    // A fresh address gets one slowed guess, then it has failed too.
    started = Date.now();
    expect(await (await checkoutLogin())("owner@example.com", "guess again", "192.0.2.45")).toEqual(bad);
    expect(Date.now() - started).toBeGreaterThanOrEqual(AUTH_LIMITS.slowLoginDelayMs - 5);
    expect(await (await checkoutLogin())("owner@example.com", "guess once more", "192.0.2.45")).toEqual({
      success: false,
      data: { success: false, error: AUTH_LIMITS.tooManyLoginsMessage },
    });

    // A completed reset clears the account's failures: even an address that failed may sign in again, undelayed.
    await requestReset("owner@example.com", "192.0.2.44");
    await resetWithLastMail("owner@example.com", "owner password 2");
    const [left] = await shop.services.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM auth_events WHERE kind = 'login_failed' AND scope = 'account' AND subject = 'owner@example.com'`,
    );
    expect(left!.n).toBe(0);
    expect(await (await checkoutLogin())("owner@example.com", "owner password 2", attacker(5))).toEqual(signedIn);
  }, 180_000);
});

describe("reset e-mail limits", () => {
  it("an attacker's requests from their address cannot use up the owner's reset e-mails from the owner's address", async () => {
    await registerCustomer(shop.services.db, { email: "resets@example.com", password: "old password 1", first_name: "", last_name: "" });
    for (let i = 0; i < AUTH_LIMITS.resetRequestsPerAddressPer15Min; i++) await requestReset("resets@example.com", "198.51.100.66");
    expect(await mailsTo("resets@example.com")).toHaveLength(AUTH_LIMITS.resetMailsPerAccountPerAddressPerHour);
    await requestReset("resets@example.com", "192.0.2.66");
    expect(await mailsTo("resets@example.com")).toHaveLength(AUTH_LIMITS.resetMailsPerAccountPerAddressPerHour + 1);
    // The owner's e-mail carries the one live key.
    await resetWithLastMail("resets@example.com", "new password 1");
    expect(await (await checkoutLogin())("resets@example.com", "new password 1", "192.0.2.66")).toEqual(signedIn);
  }, 60_000);
});

describe("payment form script-error log limit", () => {
  it("is counted in the database, so every process of the shop (and a restarted one) shares it", async () => {
    const client = await shopperWithCart(shop, await productWithStock(shop, "silk-pocket-square", 100, 1500));
    const html = (await openCheckout(client)).html;
    // The reports of another process: ten from this address in the last minute.
    await shop.services.db.query(
      `INSERT INTO auth_events (kind, scope, subject, at) SELECT 'script_event', 'address', '198.51.100.200', now() FROM generate_series(1, 10)`,
    );
    const token = /scriptLogNonce\\?"?,\\?"([0-9a-f]{10})\\?"/.exec(html)?.[1];
    expect(token).toBeTruthy();
    const report = (address: string) =>
      client.request("/wp-admin/admin-ajax.php", {
        method: "POST",
        headers: { "x-forwarded-for": address },
        form: { action: "sandbox_credit_card_payment_form_log_script_event", security: token!, name: "x.js", message: "failed" },
      });
    expect((await report("198.51.100.200")).status).toBe(429);
    expect((await report("198.51.100.201")).status).toBe(200);
  });
});
