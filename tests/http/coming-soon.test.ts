/**
 * The coming-soon footer banner and the user record it writes (docs/contract/storefront.md §4 'Banners and fields',
 * docs/contract/wire.md §2 'Users'): shown to signed-in visitors only; POST /wp-json/wp/v2/users/{id} with the
 * nonce stores `coming_soon_banner_dismissed = 'yes'` for that account, after which the banner is gone on every
 * page; every refusal (no sign-in, no or a wrong nonce, someone else's record, an unknown key or value) changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

let shop: TestShop;
beforeAll(async () => {
  shop = await startTestShop();
});
afterAll(async () => shop?.close());

const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? "";
const banner = (html: string) => /<button type="button" class="coming-soon-footer-banner-dismiss" data-rest-url="([^"]+)" data-rest-nonce="([^"]+)"/.exec(html);

async function signIn(email: string, on: TestShop = shop): Promise<{ client: TestClient; id: number }> {
  const registered = await registerCustomer(on.services.db, { email, password: "account pass 1", first_name: "Ada", last_name: "Lovelace" });
  if (!registered.ok) throw new Error(registered.message);
  const id = registered.customerId;
  const client = new TestClient(on.url);
  const page = await (await client.get("/my-account/")).text();
  const res = await client.post("/my-account/", {
    intent: "login",
    username: email,
    password: "account pass 1",
    "woocommerce-login-nonce": hidden(page, "woocommerce-login-nonce"),
  });
  expect(res.status).toBe(302);
  return { client, id };
}

const stored = async (id: number) =>
  (await shop.services.db.query<{ meta_key: string; meta_value: string }>("SELECT meta_key, meta_value FROM user_meta WHERE customer_id = $1", [id])).map(
    (r) => `${r.meta_key}=${r.meta_value}`,
  );

describe("coming-soon banner", () => {
  it("is absent, signed in too, when the shop turns it off (SHOP_SETTINGS comingSoonBanner.enabled false)", async () => {
    const off = await startTestShop({ SHOP_SETTINGS: JSON.stringify({ comingSoonBanner: { enabled: false } }) });
    try {
      const { client } = await signIn("soon-off@example.com", off);
      const html = await (await client.get("/shop/")).text();
      expect(html).toContain("Hi, Ada"); // signed in: the banner would show if it were on
      expect(html).not.toContain("coming-soon-footer-banner");
      expect(html).not.toContain("New: matching bow ties are coming soon.");
    } finally {
      await off.close();
    }
  });

  it("is not shown to guests", async () => {
    const html = await (await fetch(`${shop.url}/shop/`)).text();
    expect(html).not.toContain("coming-soon-footer-banner");
  });

  it("is shown signed in, and its dismissal is kept for the account", async () => {
    const { client, id } = await signIn("soon@example.com");
    const html = await (await client.get("/shop/")).text();
    const m = banner(html);
    expect(m?.[1]).toBe(`${shop.url}/wp-json/wp/v2/users/${id}`);
    expect(html).toContain("New: matching bow ties are coming soon.");
    const res = await client.request(new URL(m![1]!).pathname, {
      method: "POST",
      json: { meta: { coming_soon_banner_dismissed: "yes" } },
      headers: { "X-WP-Nonce": m![2]! },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, meta: { coming_soon_banner_dismissed: "yes" } });
    expect(await stored(id)).toEqual(["coming_soon_banner_dismissed=yes"]);
    expect(await (await client.get("/product/silk-pocket-square/")).text()).not.toContain("coming-soon-footer-banner");
    // The same record through /users/me, as api-fetch reads it (method override and _locale included).
    const me = await client.request(`/wp-json/wp/v2/users/me?_locale=user`, { headers: { "X-WP-Nonce": m![2]! } });
    expect(await me.json()).toMatchObject({ id, meta: { coming_soon_banner_dismissed: "yes" } });
  });

  it("refuses without sign-in, without or with a wrong nonce, for another account, and bad meta — storing nothing", async () => {
    const { client, id } = await signIn("refuse@example.com");
    const other = await signIn("other@example.com");
    const nonce = banner(await (await client.get("/shop/")).text())![2]!;
    const body = { meta: { coming_soon_banner_dismissed: "yes" } };
    const cases: [TestClient, string, Record<string, string>, unknown, number, string][] = [
      [new TestClient(shop.url), `/wp-json/wp/v2/users/me`, {}, body, 401, "rest_not_logged_in"],
      [client, `/wp-json/wp/v2/users/${id}`, {}, body, 401, "rest_not_logged_in"],
      [client, `/wp-json/wp/v2/users/${id}`, { "X-WP-Nonce": "0123456789" }, body, 403, "rest_cookie_invalid_nonce"],
      [client, `/wp-json/wp/v2/users/${other.id}`, { "X-WP-Nonce": nonce }, body, 403, "rest_cannot_edit"],
      [client, `/wp-json/wp/v2/users/999999`, { "X-WP-Nonce": nonce }, body, 404, "rest_user_invalid_id"],
      [client, `/wp-json/wp/v2/users/me`, { "X-WP-Nonce": nonce }, { meta: { is_admin: "yes" } }, 400, "rest_invalid_param"],
      [client, `/wp-json/wp/v2/users/me`, { "X-WP-Nonce": nonce }, { meta: { coming_soon_banner_dismissed: true } }, 400, "rest_invalid_param"],
      [client, `/wp-json/wp/v2/users/me`, { "X-WP-Nonce": nonce }, { meta: ["yes"] }, 400, "rest_invalid_param"],
    ];
    for (const [c, path, headers, json, status, code] of cases) {
      const res = await c.request(path, { method: "POST", json, headers });
      expect([path, res.status, (await res.json()).code]).toEqual([path, status, code]);
    }
    expect(await stored(id)).toEqual([]);
    expect(await stored(other.id)).toEqual([]);
  });

  it("accepts PUT sent as POST with X-HTTP-Method-Override, as api-fetch sends it", async () => {
    const { client, id } = await signIn("override@example.com");
    const nonce = banner(await (await client.get("/")).text())![2]!;
    const res = await client.request(`/wp-json/wp/v2/users/me`, {
      method: "POST",
      json: { meta: { coming_soon_banner_dismissed: "no" } },
      headers: { "X-WP-Nonce": nonce, "X-HTTP-Method-Override": "PUT" },
    });
    expect(res.status).toBe(200);
    expect(await stored(id)).toEqual(["coming_soon_banner_dismissed=no"]);
    expect(banner(await (await client.get("/")).text())).not.toBeNull();
  });
});
