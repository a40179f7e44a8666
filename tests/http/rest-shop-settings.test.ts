/**
 * shop/v1 discount rules and settings (docs/contract/rest/shop-v1.md): capabilities (guest 401, customer 403, shop
 * manager vs administrator on consent), writes validated by the storefront's own schemas with `rest_invalid_param`
 * naming the field, every write audited, and each change on the storefront's next page without a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient, pageGlobal } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";

let shop: TestShop;
let admin: SignedIn;
let manager: SignedIn;
let customer: SignedIn;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "settings-admin@example.com", "administrator");
  manager = await signInAs(shop, "settings-manager@example.com", "shop_manager");
  customer = await signInAs(shop, "settings-customer@example.com", "customer");
});
afterAll(async () => shop?.close());

type Json = Record<string, unknown>;
const call = (who: SignedIn, method: string, path: string, json?: unknown) =>
  who.client.request(`/wp-json/${path}`, { method, headers: { "X-WP-Nonce": who.nonce }, ...(json === undefined ? {} : { json }) });
const guest = (method: string, path: string, json?: unknown) =>
  new TestClient(shop.url).request(`/wp-json/${path}`, { method, ...(json === undefined ? {} : { json }) });

async function auditLines(objectType: string, objectId: string): Promise<Json[]> {
  const res = await call(admin, "GET", `shop/v1/audit-log?object_type=${objectType}&object_id=${encodeURIComponent(objectId)}&per_page=100`);
  expect(res.status).toBe(200);
  return (await res.json()) as Json[];
}

async function expectInvalid(res: Response, field: string): Promise<Json> {
  expect(res.status).toBe(400);
  const body = (await res.json()) as { code: string; data: { status: number; params: Record<string, string> } };
  expect(body.code).toBe("rest_invalid_param");
  expect(Object.keys(body.data.params)).toContain(field);
  return body as unknown as Json;
}

const newRule = (code: string, extra: Json = {}) => ({
  code,
  title: `Rule ${code}`,
  priority: 90,
  enabled: true,
  filters: [],
  conditions: [{ type: "cart_quantity", min: 1000 }],
  action: { kind: "cart_percent", percent: 5 },
  stacking: "combinable",
  ...extra,
});

describe("shop/v1/discount-rules", () => {
  it("refuses guests with 401 and customers with 403, learning nothing", async () => {
    for (const [method, path, code, message] of [
      ["GET", "shop/v1/discount-rules", "rest_forbidden", "Sorry, you are not allowed to do that."],
      ["GET", "shop/v1/discount-rules/travel-case-20", "rest_forbidden", "Sorry, you are not allowed to do that."],
      ["DELETE", "shop/v1/discount-rules/travel-case-20", "rest_cannot_delete", "Sorry, you are not allowed to delete this resource."],
    ] as const) {
      expect((await guest(method, path)).status, `${method} ${path}`).toBe(401);
      const res = await call(customer, method, path);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await res.json()).toEqual({ code, message, data: { status: 403 } });
    }
    const create = await guest("POST", "shop/v1/discount-rules", newRule("guest-rule"));
    expect(create.status).toBe(401);
    expect(((await create.json()) as Json).code).toBe("rest_cannot_create");
    expect((await call(customer, "POST", "shop/v1/discount-rules", newRule("customer-rule"))).status).toBe(403);
    expect((await call(admin, "GET", "shop/v1/discount-rules/customer-rule")).status).toBe(404);
  });

  it("lists the seeded rules in the engine's order with paging headers", async () => {
    const res = await call(manager, "GET", "shop/v1/discount-rules?per_page=2");
    expect(res.status).toBe(200);
    const total = Number(res.headers.get("x-wp-total"));
    expect(total).toBeGreaterThanOrEqual(4);
    expect(res.headers.get("link")).toContain('rel="next"');
    const rules = (await res.json()) as Json[];
    expect(rules).toHaveLength(2);
    expect(rules[0]).toMatchObject({ id: expect.any(String), code: expect.any(String), priority: expect.any(Number), action: expect.any(Object) });
    expect((rules[0]!.priority as number) <= (rules[1]!.priority as number)).toBe(true);
  });

  it("creates, reads, updates and deletes a rule, each write audited", async () => {
    const created = await call(admin, "POST", "shop/v1/discount-rules", newRule("rest-rule-1"));
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({
      id: "rest-rule-1",
      code: "rest-rule-1",
      title: "Rule rest-rule-1",
      action: { kind: "cart_percent", percent: 5 },
    });

    const again = await call(admin, "POST", "shop/v1/discount-rules", newRule("rest-rule-1"));
    expect(again.status).toBe(400);
    expect(((await again.json()) as Json).code).toBe("rest_discount_rule_exists");

    const patched = await call(manager, "PATCH", "shop/v1/discount-rules/rest-rule-1", { enabled: false, title: "Renamed" });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ code: "rest-rule-1", enabled: false, title: "Renamed", priority: 90 });
    const read = (await (await call(admin, "GET", "shop/v1/discount-rules/rest-rule-1")).json()) as Json;
    expect(read).toMatchObject({ enabled: false, title: "Renamed" });

    const deleted = await call(admin, "DELETE", "shop/v1/discount-rules/rest-rule-1");
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toMatchObject({ deleted: true, previous: { code: "rest-rule-1", title: "Renamed" } });
    expect((await call(admin, "GET", "shop/v1/discount-rules/rest-rule-1")).status).toBe(404);
    expect((await call(admin, "DELETE", "shop/v1/discount-rules/rest-rule-1")).status).toBe(404);

    const lines = await auditLines("discount_rule", "rest-rule-1");
    expect(lines.map((l) => l.action)).toEqual(["delete", "update", "create"]);
    expect(lines[1]).toMatchObject({
      actor: { label: "settings-manager@example.com", via: "cookie" },
      changes: { enabled: { from: true, to: false }, title: { from: "Rule rest-rule-1", to: "Renamed" } },
    });
  });

  it("refuses bad input with rest_invalid_param naming the field, and stores nothing", async () => {
    await expectInvalid(await call(admin, "POST", "shop/v1/discount-rules", newRule("bad-kind", { action: { kind: "free_money" } })), "action");
    await expectInvalid(await call(admin, "POST", "shop/v1/discount-rules", newRule("bad-pct", { action: { kind: "cart_percent", percent: 150 } })), "action");
    await expectInvalid(await call(admin, "POST", "shop/v1/discount-rules", newRule("Bad Code")), "code");
    await expectInvalid(await call(admin, "POST", "shop/v1/discount-rules", newRule("typo", { priorty: 3 })), "priorty");
    await expectInvalid(await call(admin, "POST", "shop/v1/discount-rules", newRule("bad-prio", { priority: "high" })), "priority");
    await expectInvalid(await call(admin, "PATCH", "shop/v1/discount-rules/travel-case-20", { code: "other" }), "code");
    await expectInvalid(await call(admin, "PATCH", "shop/v1/discount-rules/travel-case-20", { stacking: "sometimes" }), "stacking");
    await expectInvalid(await call(admin, "POST", "shop/v1/discount-rules", [1, 2]), "body");
    for (const code of ["bad-kind", "bad-pct", "typo", "bad-prio"]) expect((await call(admin, "GET", `shop/v1/discount-rules/${code}`)).status).toBe(404);
    expect(await call(admin, "GET", "shop/v1/discount-rules/travel-case-20").then((r) => r.json())).toMatchObject({ stacking: "combinable" });
  });

  it("prices the storefront with a changed rule at once", async () => {
    const rule = (await (await call(admin, "GET", "shop/v1/discount-rules/travel-case-20")).json()) as { filters: { productIds: number[] }[] };
    const productId = rule.filters[0]!.productIds[0]!;
    const client = new TestClient(shop.url);
    const slug = (await shop.services.db.query<{ slug: string }>(`SELECT slug FROM products WHERE id = $1`, [productId]))[0]!.slug;
    const nonce = String(pageGlobal(await (await client.get(`/product/${slug}/`)).text(), "awdr_params").nonce);
    const discount = async () => {
      const res = await client.post("/wp-admin/admin-ajax.php", {
        action: "awdr_get_product_discount",
        product_id: String(productId),
        qty: "1",
        awdr_nonce: nonce,
      });
      return JSON.stringify(await res.json());
    };
    const before = await discount();
    expect((await call(admin, "PATCH", "shop/v1/discount-rules/travel-case-20", { action: { kind: "product_percent", percent: 50 } })).status).toBe(200);
    const after = await discount();
    expect(after).not.toBe(before);
    expect((await call(admin, "PATCH", "shop/v1/discount-rules/travel-case-20", { enabled: false })).status).toBe(200);
    expect(await discount()).not.toBe(after);
  });
});

describe("shop/v1/settings", () => {
  const page = async (client: TestClient = new TestClient(shop.url)) => (await client.get("/shop/")).text();

  it("refuses guests with 401 and customers with 403; consent is the administrator's", async () => {
    for (const name of ["store-notice", "coming-soon", "attribution", "consent"]) {
      expect((await guest("GET", `shop/v1/settings/${name}`)).status).toBe(401);
      expect((await guest("PUT", `shop/v1/settings/${name}`, {})).status).toBe(401);
      expect((await call(customer, "GET", `shop/v1/settings/${name}`)).status).toBe(403);
      expect((await call(customer, "PUT", `shop/v1/settings/${name}`, { enabled: false })).status).toBe(403);
    }
    expect((await call(manager, "GET", "shop/v1/settings/store-notice")).status).toBe(200);
    expect((await call(manager, "GET", "shop/v1/settings/consent")).status).toBe(403);
    expect((await call(manager, "PUT", "shop/v1/settings/consent", { required: false })).status).toBe(403);
    expect((await call(admin, "GET", "shop/v1/settings/consent")).status).toBe(200);
  });

  it("changes the store notice over REST, and the next page shows it", async () => {
    const before = (await (await call(admin, "GET", "shop/v1/settings/store-notice")).json()) as Json;
    expect(before).toEqual({ enabled: true, noticeId: "a1b2c3", text: "Free shipping on all mask purchases — 6 masks for $15, 12 masks for $24." });
    expect(await page()).toContain("Free shipping on all mask purchases");

    const res = await call(manager, "PUT", "shop/v1/settings/store-notice", { text: "Summer sale: every tie 20% off." });
    expect(res.status).toBe(200);
    const saved = (await res.json()) as Json;
    // A new text gets a new id (as WooCommerce's md5 of the notice), so those who hid the old one see this one.
    expect(saved).toMatchObject({ enabled: true, text: "Summer sale: every tie 20% off." });
    expect(saved.noticeId).toMatch(/^[0-9a-f]{32}$/);
    const html = await page();
    expect(html).toContain("Summer sale: every tie 20% off.");
    expect(html).toContain(`data-notice-id="${saved.noticeId}"`);

    expect((await call(admin, "PATCH", "shop/v1/settings/store-notice", { enabled: false })).status).toBe(200);
    expect(await page()).not.toContain("woocommerce-store-notice");

    const lines = await auditLines("setting", "store-notice");
    expect(lines[0]).toMatchObject({ action: "update", changes: { enabled: { from: true, to: false } } });
    expect(lines[1]).toMatchObject({ action: "update", changes: { text: { to: "Summer sale: every tie 20% off." } } });

    // DELETE forgets the saved fields: SHOP_SETTINGS and the defaults apply again.
    const reset = await call(admin, "DELETE", "shop/v1/settings/store-notice");
    expect(await reset.json()).toEqual(before);
    expect(await page()).toContain("Free shipping on all mask purchases");
    expect((await auditLines("setting", "store-notice"))[0]).toMatchObject({ action: "reset" });
  });

  it("refuses bad settings with rest_invalid_param naming the field, and changes nothing", async () => {
    await expectInvalid(await call(admin, "PUT", "shop/v1/settings/store-notice", { enabled: "yes" }), "enabled");
    await expectInvalid(await call(admin, "PUT", "shop/v1/settings/store-notice", { text: "x".repeat(2001) }), "text");
    await expectInvalid(await call(admin, "PUT", "shop/v1/settings/store-notice", { noticeId: "<script>" }), "noticeId");
    await expectInvalid(await call(admin, "PUT", "shop/v1/settings/store-notice", { txet: "typo" }), "txet");
    await expectInvalid(await call(admin, "PUT", "shop/v1/settings/attribution", { sessionMinutes: 0 }), "sessionMinutes");
    await expectInvalid(await call(admin, "PUT", "shop/v1/settings/attribution", { referrals: [{ host: "" }] }), "referrals");
    await expectInvalid(await call(admin, "PUT", "shop/v1/settings/attribution", { promocode: { enabled: true, min: 10, max: 5 } }), "promocode");
    await expectInvalid(await call(admin, "PUT", "shop/v1/settings/consent", { disabledCookies: ["nope"] }), "disabledCookies");
    await expectInvalid(await call(admin, "PUT", "shop/v1/settings/coming-soon", "text"), "body");
    expect(await (await call(admin, "GET", "shop/v1/settings/store-notice")).json()).toMatchObject({ enabled: true, noticeId: "a1b2c3" });
    expect(await (await call(admin, "GET", "shop/v1/settings/attribution")).json()).toMatchObject({ sessionMinutes: 30, referrals: [] });
    expect((await auditLines("setting", "attribution")).length).toBe(0);
  });

  it("changes the coming-soon banner, attribution and consent on the next page", async () => {
    const banner = await call(admin, "PUT", "shop/v1/settings/coming-soon", { text: "Linen masks arrive in May." });
    expect(await banner.json()).toEqual({ enabled: true, text: "Linen masks arrive in May." });
    expect(await page(admin.client)).toContain("Linen masks arrive in May.");

    const attribution = await call(admin, "PUT", "shop/v1/settings/attribution", {
      allowTracking: false,
      sessionMinutes: 45,
      referrals: [{ host: "partner.example" }],
    });
    expect(attribution.status).toBe(200);
    const consent = await call(admin, "PUT", "shop/v1/settings/consent", { required: false });
    expect(await consent.json()).toEqual({ required: false, disabledCookies: [] });

    const html = await page();
    const params = (pageGlobal(html, "wc_order_attribution") as { params: Json }).params;
    expect(params).toMatchObject({ allowTracking: false, session: "45", referrals: [{ host: "partner.example" }] });
    expect(pageGlobal(html, "shop_consent")).toEqual({ required: false, disabledCookies: [] });
  });

  it("lays saved fields over SHOP_SETTINGS, field by field", async () => {
    const other = await startTestShop({ SHOP_SETTINGS: JSON.stringify({ storeNotice: { text: "From the environment." } }) });
    try {
      const otherAdmin = await signInAs(other, "settings-admin2@example.com", "administrator");
      const get = () => otherAdmin.client.get("/wp-json/shop/v1/settings/store-notice", { headers: { "X-WP-Nonce": otherAdmin.nonce } }).then((r) => r.json());
      expect(await get()).toMatchObject({ text: "From the environment.", enabled: true });
      await otherAdmin.client.request("/wp-json/shop/v1/settings/store-notice", {
        method: "PUT",
        headers: { "X-WP-Nonce": otherAdmin.nonce },
        json: { noticeId: "n2" },
      });
      // The saved field wins; the field not saved still comes from SHOP_SETTINGS.
      expect(await get()).toEqual({ enabled: true, noticeId: "n2", text: "From the environment." });
      expect(await (await new TestClient(other.url).get("/shop/")).text()).toContain('data-notice-id="n2"');
    } finally {
      await other.close();
    }
  });
});

describe("shop/v1/popups writes", () => {
  it("are audited too", async () => {
    const popup = {
      title: "Audit me",
      content: { heading: "Hi", text: ["Hello."] },
      triggers: { page_load: { delay: 2 } },
      timing: { times: { times: 1, period: "day" } },
    };
    const created = await call(manager, "POST", "shop/v1/popups", popup);
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    expect((await call(manager, "PUT", `shop/v1/popups/${id}`, { ...popup, title: "Audited" })).status).toBe(200);
    expect((await call(manager, "DELETE", `shop/v1/popups/${id}`)).status).toBe(200);
    const lines = await auditLines("popup", String(id));
    expect(lines.map((l) => l.action)).toEqual(["delete", "update", "create"]);
    expect(lines[1]).toMatchObject({ changes: { title: { from: "Audit me", to: "Audited" } } });
  });
});

describe("odd addresses", () => {
  it("a malformed escape in a rule's code is a client's mistake, not a 5xx", async () => {
    const res = await call(admin, "GET", "shop/v1/discount-rules/%E0%A4%A");
    expect(res.status).toBe(404);
    expect(((await res.json()) as Json).code).toBe("rest_no_route");
  });
});
