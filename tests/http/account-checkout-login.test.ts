/** The checkout's Astra calls: the e-mail check and the login, with their nonces and limits. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient, pageGlobal } from "../support/client.ts";
import { registerCustomer, AUTH_LIMITS } from "../../core/commerce/accounts.ts";

let shop: TestShop;

beforeAll(async () => {
  shop = await startTestShop();
  await registerCustomer(shop.services.db, { email: "known@example.com", password: "right password 1", first_name: "Kim", last_name: "" });
});
afterAll(async () => shop?.close());

async function guest(): Promise<{ client: TestClient; astra: Record<string, unknown> }> {
  const client = new TestClient(shop.url);
  const html = await (await client.get("/checkout/")).text();
  return { client, astra: pageGlobal(html, "astra") };
}

const ajax = (client: TestClient, form: Record<string, string>) => client.post("/wp-admin/admin-ajax.php", form);

describe("astra_woo_check_user_exist", () => {
  it("answers data.success / data.is_login_allowed, with the same minimum time either way", async () => {
    const { client, astra } = await guest();
    const security = String(astra.check_user_exist_nonce);
    let t = Date.now();
    const known = await (await ajax(client, { action: "astra_woo_check_user_exist", user_name_email: "KNOWN@example.com", security })).json();
    const knownMs = Date.now() - t;
    t = Date.now();
    const unknown = await (await ajax(client, { action: "astra_woo_check_user_exist", user_name_email: "nobody@example.com", security })).json();
    const unknownMs = Date.now() - t;
    expect(known).toEqual({ success: true, data: { success: true, is_login_allowed: true } });
    expect(unknown).toEqual({ success: true, data: { success: false, is_login_allowed: false } });
    expect(knownMs).toBeGreaterThanOrEqual(AUTH_LIMITS.userCheckFloorMs - 5);
    expect(unknownMs).toBeGreaterThanOrEqual(AUTH_LIMITS.userCheckFloorMs - 5);
  });

  it("refuses a missing or wrong nonce", async () => {
    const { client } = await guest();
    const res = await ajax(client, { action: "astra_woo_check_user_exist", user_name_email: "known@example.com", security: "x" });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { data: { success: boolean } }).data.success).toBe(false);
  });

  it("is rate limited per session", async () => {
    const { client, astra } = await guest();
    const security = String(astra.check_user_exist_nonce);
    const statuses: number[] = [];
    for (let i = 0; i < AUTH_LIMITS.userChecksPerSessionPer5Min + 1; i++) {
      statuses.push((await ajax(client, { action: "astra_woo_check_user_exist", user_name_email: `x${i}@example.com`, security })).status);
    }
    expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  }, 30_000);
});

describe("astra_woocommerce_login_user", () => {
  it("a wrong password: data.error, nothing signed in", async () => {
    const { client, astra } = await guest();
    const body = await (
      await ajax(client, {
        action: "astra_woocommerce_login_user",
        user_name_email: "known@example.com",
        password: "wrong",
        security: String(astra.woocommerce_login_nonce),
      })
    ).json();
    expect(body).toEqual({ success: false, data: { success: false, error: AUTH_LIMITS.badCredentialsMessage } });
  });

  it("the right password signs in with a new session id", async () => {
    const { client, astra } = await guest();
    const before =
      client.cookieStartingWith("wordpress_") ??
      client.cookieStartingWith("wp_woocommerce_session_") ??
      [...client.cookies.entries()].find(([k]) => k !== "shop_nonce_key");
    const body = await (
      await ajax(client, {
        action: "astra_woocommerce_login_user",
        user_name_email: "known@example.com",
        password: "right password 1",
        security: String(astra.woocommerce_login_nonce),
      })
    ).json();
    expect(body).toEqual({ success: true, data: { success: true } });
    const after = [...client.cookies.entries()].find(([k]) => k === before?.[0]);
    expect(after?.[1].value).not.toBe(before?.[1].value);
    const html = await (await client.get("/checkout/")).text();
    expect(pageGlobal(html, "astra").is_logged_in).toBe("1");
  });

  it("100 failed logins in an hour slow the account instead of locking it: an address that failed is refused with a clear message, a clean address signs in", async () => {
    await registerCustomer(shop.services.db, { email: "target@example.com", password: "right password 2", first_name: "", last_name: "" });
    // 100 failures from 100 addresses (198.51.100.1 … 100), as the per-account limit records them.
    await shop.services.db.query(
      `INSERT INTO auth_events (kind, scope, subject, at, address) SELECT 'login_failed', 'account', 'target@example.com', now(), '198.51.100.' || g FROM generate_series(1, $1) g`,
      [AUTH_LIMITS.failedPerAccountPerHour],
    );
    const login = async (address: string) => {
      const { client, astra } = await guest();
      const res = await client.request("/wp-admin/admin-ajax.php", {
        method: "POST",
        headers: { "x-forwarded-for": address },
        form: {
          action: "astra_woocommerce_login_user",
          user_name_email: "target@example.com",
          password: "right password 2",
          security: String(astra.woocommerce_login_nonce),
        },
      });
      return res.json();
    };
    expect(await login("198.51.100.7")).toEqual({ success: false, data: { success: false, error: AUTH_LIMITS.tooManyLoginsMessage } });
    const started = Date.now();
    expect(await login("192.0.2.10")).toEqual({ success: true, data: { success: true } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(AUTH_LIMITS.slowLoginDelayMs - 5);
  }, 30_000);
});
