/**
 * shop/v1/settings: the sections the admin's Settings screen edits (docs/contract/rest/shop-v1.md 'Settings'):
 * checkout, accounts and the version of every section (`ETag`, a stale `If-Match` refused with 412 and nothing
 * changed), nested refusals named by their path, capabilities, and the storefront's checkout following a save on
 * its next request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";
import { billing, cardFields, openCheckout, productWithStock, shopperWithCart, submitCheckout } from "./checkout-support.ts";

let shop: TestShop;
let admin: SignedIn;
let manager: SignedIn;
let customer: SignedIn;
let productId = 0;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "sections-admin@example.com", "administrator");
  manager = await signInAs(shop, "sections-manager@example.com", "shop_manager");
  customer = await signInAs(shop, "sections-customer@example.com", "customer");
  productId = await productWithStock(shop, "silk-pocket-square", 50);
});
afterAll(async () => shop?.close());

type Json = Record<string, unknown>;
const call = (who: SignedIn, method: string, path: string, json?: unknown, headers: Record<string, string> = {}) =>
  who.client.request(`/wp-json/${path}`, { method, headers: { "X-WP-Nonce": who.nonce, ...headers }, ...(json === undefined ? {} : { json }) });
const guest = (method: string, path: string, json?: unknown) =>
  new TestClient(shop.url).request(`/wp-json/${path}`, { method, ...(json === undefined ? {} : { json }) });

async function params(res: Response): Promise<Record<string, string>> {
  expect(res.status).toBe(400);
  const body = (await res.json()) as { code: string; data: { params: Record<string, string> } };
  expect(body.code).toBe("rest_invalid_param");
  return body.data.params;
}

describe("who may read and change the new sections", () => {
  it("guests 401, customers 403, shop managers and administrators 200", async () => {
    for (const name of ["checkout", "accounts", "payments"]) {
      expect((await guest("GET", `shop/v1/settings/${name}`)).status).toBe(401);
      expect((await guest("PUT", `shop/v1/settings/${name}`, {})).status).toBe(401);
      expect((await call(customer, "GET", `shop/v1/settings/${name}`)).status).toBe(403);
      const put = await call(customer, "PUT", `shop/v1/settings/${name}`, {});
      expect(put.status).toBe(403);
      expect(((await put.json()) as Json).code).toBe("rest_cannot_edit");
      expect((await call(manager, "GET", `shop/v1/settings/${name}`)).status).toBe(200);
      expect((await call(admin, "GET", `shop/v1/settings/${name}`)).status).toBe(200);
    }
    expect(await (await call(manager, "GET", "shop/v1/settings/checkout")).json()).toMatchObject({ layout: "multi-step", placeOrderText: "Place order" });
    expect(await (await call(manager, "GET", "shop/v1/settings/accounts")).json()).toMatchObject({ guestCheckout: true, isRegistrationRequired: false });
  });
});

describe("validation", () => {
  it("refuses bad values with rest_invalid_param naming the field (nested ones by their path) and changes nothing", async () => {
    expect(await params(await call(admin, "PUT", "shop/v1/settings/checkout", { layout: "sideways" }))).toHaveProperty("layout");
    expect(await params(await call(admin, "PUT", "shop/v1/settings/checkout", { placeOrderText: "  " }))).toHaveProperty("placeOrderText");
    expect(await params(await call(admin, "PUT", "shop/v1/settings/checkout", { layuot: "modern" }))).toHaveProperty("layuot");
    const both = await params(await call(admin, "PUT", "shop/v1/settings/accounts", { isRegistrationRequired: true }));
    expect(both.guestCheckout).toMatch(/guest checkout cannot be on while an account is required/);
    expect(await params(await call(admin, "PUT", "shop/v1/settings/payments", { enabledCardTypes: [] }))).toHaveProperty("enabledCardTypes");
    expect((await params(await call(admin, "PUT", "shop/v1/settings/payments", { enabledCardTypes: ["visa", "mir"] }))).enabledCardTypes).toMatch(
      /^enabledCardTypes\[1\] /,
    );
    const hosts = await params(
      await call(admin, "PUT", "shop/v1/settings/attribution", { referrals: [{ host: "partner.example" }, { host: "not a host/" }], sessionMinutes: 10 }),
    );
    expect(hosts.referrals).toBe("referrals[1].host a host name like example.com");
    expect(await (await call(admin, "GET", "shop/v1/settings/checkout")).json()).toMatchObject({ layout: "multi-step", placeOrderText: "Place order" });
    expect(await (await call(admin, "GET", "shop/v1/settings/attribution")).json()).toMatchObject({ referrals: [], sessionMinutes: 30 });
  });
});

describe("versions", () => {
  it("answers an ETag; a save with a stale If-Match is refused with 412 and changes nothing", async () => {
    const first = await call(admin, "GET", "shop/v1/settings/attribution");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{16}"$/);
    // The manager saves first (with the version both read)…
    const ok = await call(manager, "PUT", "shop/v1/settings/attribution", { sessionMinutes: 40 }, { "If-Match": etag });
    expect(ok.status).toBe(200);
    const newer = ok.headers.get("etag");
    expect(newer).not.toBe(etag);
    expect((await call(admin, "GET", "shop/v1/settings/attribution")).headers.get("etag")).toBe(newer);
    // …so the administrator's save over the old version is refused.
    const stale = await call(admin, "PUT", "shop/v1/settings/attribution", { sessionMinutes: 50 }, { "If-Match": etag });
    expect(stale.status).toBe(412);
    expect(((await stale.json()) as Json).code).toBe("rest_setting_changed");
    expect(await (await call(admin, "GET", "shop/v1/settings/attribution")).json()).toMatchObject({ sessionMinutes: 40 });
    // Without If-Match the save is not checked (the API's other clients), as WordPress's settings.
    expect((await call(admin, "PUT", "shop/v1/settings/attribution", { sessionMinutes: 30 })).status).toBe(200);
    // Every section's first version (its defaults, not yet saved) is the one a save checks against.
    for (const name of ["checkout", "accounts", "payments", "consent", "store-notice", "coming-soon"]) {
      const read = await call(admin, "GET", `shop/v1/settings/${name}`);
      const body = (await read.json()) as Json;
      const [field, value] = Object.entries(body)[0]!;
      const res = await call(admin, "PUT", `shop/v1/settings/${name}`, { [field]: value }, { "If-Match": read.headers.get("etag")! });
      expect(res.status, name).toBe(200);
      expect(res.headers.get("etag"), name).toBe(read.headers.get("etag"));
    }
    // A version that was never one (not quoted) is a stale one too.
    expect((await call(admin, "PUT", "shop/v1/settings/store-notice", { enabled: true }, { "If-Match": "garbage" })).status).toBe(412);
  });
});

describe("the storefront's checkout follows the saved settings on its next request", () => {
  it("the layout", async () => {
    const client = await shopperWithCart(shop, productId);
    expect((await openCheckout(client)).html).toContain("layout-multi-step");
    const res = await call(admin, "PUT", "shop/v1/settings/checkout", { layout: "one-page", placeOrderText: "Buy now" });
    expect(res.status).toBe(200);
    const html = (await openCheckout(client)).html;
    expect(html).toContain("layout-one-page");
    expect(html).toContain("Buy now");
    expect((await call(admin, "DELETE", "shop/v1/settings/checkout")).status).toBe(200);
    expect((await openCheckout(client)).html).toContain("layout-multi-step");
  });

  it("guest checkout: off, a guest's order is refused until they create an account", async () => {
    expect((await call(manager, "PUT", "shop/v1/settings/accounts", { guestCheckout: false })).status).toBe(200);
    const client = await shopperWithCart(shop, productId);
    const page = await openCheckout(client);
    expect(page.html).toContain('"option_guest_checkout":"no"');
    const refused = await submitCheckout(client, page, { ...billing(), ...cardFields() });
    expect(refused.result).toBe("failure");
    expect(refused.messages).toContain("You must be logged in to checkout.");
    expect((await call(manager, "PUT", "shop/v1/settings/accounts", { guestCheckout: true })).status).toBe(200);
    const placed = await submitCheckout(client, await openCheckout(client), { ...billing(), ...cardFields() });
    expect(placed.result).toBe("success");
  });

  it("payments: a card type turned off is refused and the CSC rule follows, by the server", async () => {
    const client = await shopperWithCart(shop, productId);
    const amex = cardFields("3782 822463 10005", "1234");
    const noCsc = cardFields("4242 4242 4242 4242", "");
    // As the shop starts: a CSC is required.
    const missing = await submitCheckout(client, await openCheckout(client), { ...billing(), ...noCsc });
    expect(missing.result).toBe("failure");
    const saved = await call(manager, "PUT", "shop/v1/settings/payments", { enabledCardTypes: ["visa", "mastercard"], cscRequired: false });
    expect(saved.status).toBe(200);
    const page = await openCheckout(client);
    expect(page.html).not.toMatch(/"enabled_card_types":\[[^\]]*amex/);
    const refused = await submitCheckout(client, page, { ...billing(), ...amex });
    expect(refused.result).toBe("failure");
    expect(refused.messages).toMatch(/American Express/i);
    const placed = await submitCheckout(client, await openCheckout(client), { ...billing(), ...noCsc });
    expect(placed.result).toBe("success");
    expect((await call(manager, "DELETE", "shop/v1/settings/payments")).status).toBe(200);
  });
});
