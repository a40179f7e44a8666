/**
 * Server-side tracking end to end (docs/contract/wire.md §6): the REST route and the admin-ajax fallback with good
 * and bad input, consent deciding what is queued, a Purchase enriched from the stored order and sent once, delivery
 * to a real local receiver that fails on purpose for a while, a Purchase sent exactly once across a restart, and
 * the funnel report for a known set of visits.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, builtServer, type TestShop } from "../support/shop.ts";
import { TestClient, pageGlobal } from "../support/client.ts";
import { startTrackingReceiver, type TrackingReceiver, type ReceivedEvent } from "../support/tracking-receiver.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";
import { parseEnv } from "../../core/config/env.server.ts";
import { serializeConsent } from "../../core/domain/tracking/consent.ts";
import { encodeCookieValue } from "../../core/domain/attribution/sourcebuster.ts";
import { billing, cardFields, openCheckout, productWithStock, submitCheckout } from "./checkout-support.ts";
import type { RunningShop } from "../../server/main.ts";

/** A browser with its own user agent (the funnel tells visitors apart by address + user agent). */
class Browser extends TestClient {
  constructor(
    base: string,
    private readonly ua: string,
    forwardedFor?: string,
  ) {
    super(base, { forwardedFor });
  }
  override request(path: string, init: Parameters<TestClient["request"]>[1] = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("user-agent", this.ua);
    return super.request(path, { ...init, headers });
  }
  setCookie(name: string, value: string) {
    this.cookies.set(name, { value, attributes: "" });
  }
  consent(analytics: boolean, marketing: boolean) {
    this.setCookie("shop_consent", serializeConsent({ analytics, marketing, decidedAt: Math.floor(Date.now() / 1000) }));
  }
  campaign(src: string, mdm: string, cmp: string) {
    this.setCookie(
      "sbjs_current",
      encodeCookieValue({ typ: "utm", src, mdm, cmp, cnt: "(none)", trm: "(none)", id: "(none)", plt: "(none)", fmt: "(none)", tct: "(none)" }, false),
    );
  }
}

const FAST = { TRACKING_SEND_EVERY_MS: "100", TRACKING_RETRY_BASE_MS: "200", TRACKING_RETRY_MAX_MS: "800" };
const uuid = () => crypto.randomUUID();
const eventIdOf = (r: ReceivedEvent) =>
  r.path === "/capi" ? (r.body.data as { event_id: string }[])[0]!.event_id : (r.body.events as { params: { event_id: string } }[])[0]!.params.event_id;

let receiver: TrackingReceiver;
let shop: TestShop;
let productId: number;

beforeAll(async () => {
  receiver = await startTrackingReceiver();
  shop = await startTestShop({
    TRACKING_CAPI_URL: `${receiver.url}/capi`,
    TRACKING_CAPI_TOKEN: "capi-token-0123456789",
    TRACKING_MP_URL: `${receiver.url}/mp`,
    TRACKING_MP_SECRET: "mp-secret-abc",
    ...FAST,
  });
  productId = await productWithStock(shop, "silk-pocket-square", 1000, 1500);
});
afterAll(async () => {
  await shop?.close();
  await receiver?.close();
});

const outboxCount = async (s: RunningShop, where = "true") =>
  (await s.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM tracking_outbox WHERE ${where}`))[0]!.n;

describe("POST /wp-json/pys/v1/event", () => {
  it("queues a valid event for both destinations and delivers it in each style, enriched by the server", async () => {
    const browser = new Browser(shop.url, "Mozilla/5.0 (Tracking REST)");
    browser.consent(true, true);
    browser.campaign("google", "cpc", "winter");
    const eventID = uuid();
    const res = await browser.post(
      "/wp-json/pys/v1/event",
      {
        event: "AddToCart",
        data: JSON.stringify({ value: 15, currency: "USD", content_ids: [String(productId)], content_type: "product" }),
        "ids[]": ["1234567890"],
        eventID,
        woo_order: "0",
        edd_order: "0",
      },
      { headers: { referer: `${shop.url}/product/silk-pocket-square/` } },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    await expect.poll(() => receiver.delivered().filter((r) => eventIdOf(r) === eventID).length).toBe(2);

    const capi = receiver.delivered().find((r) => r.path === "/capi" && eventIdOf(r) === eventID)!;
    expect(capi.headers.authorization).toBe("Bearer capi-token-0123456789");
    const e = (capi.body.data as Record<string, unknown>[])[0]!;
    expect(e).toMatchObject({
      event_name: "AddToCart",
      event_id: eventID,
      action_source: "website",
      event_source_url: `${shop.url}/product/silk-pocket-square/`,
    });
    expect(e.user_data).toMatchObject({ client_user_agent: "Mozilla/5.0 (Tracking REST)" });
    expect(e.user_data).not.toHaveProperty("em"); // a guest: no e-mail to hash
    expect(e.custom_data).toMatchObject({
      value: 15,
      currency: "USD",
      content_ids: [String(productId)],
      utm_source: "google",
      utm_medium: "cpc",
      utm_campaign: "winter",
    });

    const mp = receiver.delivered().find((r) => r.path === "/mp" && eventIdOf(r) === eventID)!;
    expect(mp.query.get("api_secret")).toBe("mp-secret-abc");
    expect(mp.headers.authorization).toBeUndefined();
    const ev = (mp.body.events as { name: string; params: Record<string, unknown> }[])[0]!;
    expect(ev.name).toBe("add_to_cart");
    expect(ev.params).toMatchObject({ event_id: eventID, source: "google", medium: "cpc", campaign: "winter", value: 15 });
    expect(typeof mp.body.client_id).toBe("string");

    // The same event posted again (the beacon and then the fallback) is not queued twice.
    expect((await browser.post("/wp-json/pys/v1/event", { event: "AddToCart", eventID })).status).toBe(200);
    expect(await outboxCount(shop, `event_id = '${eventID}'`)).toBe(2);
  });

  it("takes a JSON body too", async () => {
    const browser = new Browser(shop.url, "Mozilla/5.0 (Tracking JSON)");
    browser.consent(true, true);
    const eventID = uuid();
    const res = await browser.request("/wp-json/pys/v1/event", { method: "POST", json: { event: "ViewContent", data: '{"value":3}', ids: ["42"], eventID } });
    expect(await res.json()).toEqual({ success: true });
    expect(await outboxCount(shop, `event_id = '${eventID}'`)).toBe(2);
  });

  it("refuses bad input with WordPress's parameter errors and queues nothing", async () => {
    const browser = new Browser(shop.url, "Mozilla/5.0 (Tracking bad)");
    browser.consent(true, true);
    const before = await outboxCount(shop);
    const post = async (form: Record<string, string | string[]>) => {
      const res = await browser.post("/wp-json/pys/v1/event", form);
      return { status: res.status, body: (await res.json()) as { code: string; message: string; data: { status: number; params: unknown } } };
    };
    const unknown = await post({ event: "BuyEverything", eventID: uuid() });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: "rest_invalid_param", message: "Invalid parameter(s): event", data: { status: 400 } });
    expect((unknown.body.data.params as Record<string, string>).event).toContain("PageView");

    const malformed = await post({ event: "PageView", eventID: uuid(), data: "{value: 1" });
    expect(malformed.body).toMatchObject({ code: "rest_invalid_param", data: { params: { data: "data is not valid JSON." } } });

    const oversized = await post({ event: "PageView", eventID: uuid(), data: JSON.stringify({ blob: "x".repeat(9000) }) });
    expect(oversized.status).toBe(400);
    expect(oversized.body).toMatchObject({ code: "rest_invalid_param", data: { params: { data: "data is longer than 8192 bytes." } } });

    const noId = await post({ event: "PageView" });
    expect(noId.body).toMatchObject({
      code: "rest_missing_callback_param",
      message: "Missing parameter(s): eventID",
      data: { status: 400, params: ["eventID"] },
    });
    expect((await post({ event: "PageView", eventID: "not-a-uuid" })).body.data.params).toEqual({ eventID: "eventID is not a valid event id (a UUID)." });
    expect((await post({ event: "PageView", eventID: uuid(), woo_order: "-1" })).body.data.params).toEqual({ woo_order: "woo_order is not a valid order id." });
    expect((await post({ event: "PageView", eventID: uuid(), "ids[]": ["<script>"] })).body.data.params).toEqual({
      ids: "ids holds a value that is not a pixel id.",
    });
    expect((await post({ event: "Purchase", eventID: uuid() })).body).toMatchObject({ code: "rest_missing_callback_param", data: { params: ["woo_order"] } });
    // A Purchase for an order that is not this browser's.
    const [other] = await shop.services.db.query<{ id: number }>(`SELECT id FROM orders ORDER BY id LIMIT 1`);
    if (other) expect((await post({ event: "Purchase", eventID: uuid(), woo_order: String(other.id) })).body.data.params).toHaveProperty("woo_order");

    const wrongMethod = await browser.get("/wp-json/pys/v1/event");
    expect(wrongMethod.status).toBe(404);
    expect(await outboxCount(shop)).toBe(before);
  });

  it("queues only what the visitor's consent allows, and answers the same success either way", async () => {
    const none = new Browser(shop.url, "Mozilla/5.0 (No choice)");
    const noneId = uuid();
    expect(await (await none.post("/wp-json/pys/v1/event", { event: "PageView", eventID: noneId })).json()).toEqual({ success: true });
    expect(await outboxCount(shop, `event_id = '${noneId}'`)).toBe(0);

    const analyticsOnly = new Browser(shop.url, "Mozilla/5.0 (Analytics only)");
    analyticsOnly.consent(true, false);
    const aId = uuid();
    expect(await (await analyticsOnly.post("/wp-json/pys/v1/event", { event: "PageView", eventID: aId })).json()).toEqual({ success: true });
    const rows = await shop.services.db.query<{ destination: string }>(`SELECT destination FROM tracking_outbox WHERE event_id = $1`, [aId]);
    expect(rows.map((r) => r.destination)).toEqual(["mp"]);
  });
});

describe("POST /wp-admin/admin-ajax.php action=pys_api_event (the fallback)", () => {
  it("takes the fallback's fields and queues the event; refuses a bad one with a JSON error", async () => {
    const browser = new Browser(shop.url, "Mozilla/5.0 (Ajax fallback)");
    browser.consent(false, true);
    const eventID = uuid();
    const res = await browser.post("/wp-admin/admin-ajax.php", {
      action: "pys_api_event",
      pixel: "facebook",
      event: "InitiateCheckout",
      data: JSON.stringify({ value: 30, currency: "USD" }),
      ids: ["1234567890"],
      eventID,
      url: `${shop.url}/checkout/`,
      ajax_event: "a1b2c3",
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    const rows = await shop.services.db.query<{ destination: string; payload: { data: { event_source_url: string }[] } }>(
      `SELECT destination, payload FROM tracking_outbox WHERE event_id = $1`,
      [eventID],
    );
    expect(rows.map((r) => r.destination)).toEqual(["capi"]); // marketing only
    expect(rows[0]!.payload.data[0]!.event_source_url).toBe(`${shop.url}/checkout/`);

    const bad = await browser.post("/wp-admin/admin-ajax.php", {
      action: "pys_api_event",
      pixel: "facebook",
      event: "PageView",
      eventID: uuid(),
      url: "javascript:alert(1)",
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ success: false, data: { code: "rest_invalid_param", param: "url", message: "url is not a web address." } });
    const noPixel = await browser.post("/wp-admin/admin-ajax.php", { action: "pys_api_event", event: "PageView", eventID: uuid() });
    expect(await noPixel.json()).toMatchObject({ success: false, data: { code: "rest_missing_callback_param", param: "pixel" } });
  });
});

describe("Purchase", () => {
  it("carries the stored order's value, currency and contents, a hashed e-mail for a signed-in customer, and is queued once per order", async () => {
    const email = `buyer${Date.now()}@example.com`;
    await registerCustomer(shop.services.db, { email, password: "buyer pass 12", first_name: "Bu", last_name: "Yer" });
    const browser = new Browser(shop.url, "Mozilla/5.0 (Purchase)");
    browser.consent(true, true);
    const astra = pageGlobal(await (await browser.get("/checkout/")).text(), "astra");
    const login = await browser.post("/wp-admin/admin-ajax.php", {
      action: "astra_woocommerce_login_user",
      user_name_email: email,
      password: "buyer pass 12",
      security: String(astra.woocommerce_login_nonce),
    });
    expect(await login.json()).toEqual({ success: true, data: { success: true } });
    await browser.post("/?wc-ajax=add_to_cart", { product_id: String(productId), quantity: "2" });
    const reply = await submitCheckout(browser, await openCheckout(browser), { ...billing(email), ...cardFields() });
    expect(reply.result).toBe("success");
    const orderId = Number(/order-received\/(\d+)\//.exec(reply.redirect!)![1]);
    const [order] = await shop.services.db.query<{ total: number; currency: string }>(`SELECT total, currency FROM orders WHERE id = $1`, [orderId]);

    const first = uuid();
    // The browser claims a value of 1: the server sends the order's own.
    const res = await browser.post("/wp-json/pys/v1/event", {
      event: "Purchase",
      eventID: first,
      woo_order: String(orderId),
      data: '{"value":1,"currency":"EUR"}',
    });
    expect(await res.json()).toEqual({ success: true });
    await expect.poll(() => receiver.delivered().filter((r) => eventIdOf(r) === first).length).toBe(2);
    const capi = (receiver.delivered().find((r) => r.path === "/capi" && eventIdOf(r) === first)!.body.data as Record<string, Record<string, unknown>>[])[0]!;
    expect(capi.custom_data).toMatchObject({
      value: order!.total / 100,
      currency: order!.currency,
      order_id: String(orderId),
      content_ids: [String(productId)],
      num_items: 2,
    });
    const { createHash } = await import("node:crypto");
    expect(capi.user_data!.em).toEqual([createHash("sha256").update(email).digest("hex")]);
    const mp = receiver.delivered().find((r) => r.path === "/mp" && eventIdOf(r) === first)!.body;
    expect(mp.user_id).toBeDefined();
    expect(JSON.stringify(mp)).not.toContain(createHash("sha256").update(email).digest("hex")); // only the destination that takes one
    expect((mp.events as { params: Record<string, unknown> }[])[0]!.params).toMatchObject({ transaction_id: String(orderId), value: order!.total / 100 });

    // Reported again with another event id (a reload of the thank-you page): still one per destination.
    expect(await (await browser.post("/wp-json/pys/v1/event", { event: "Purchase", eventID: uuid(), woo_order: String(orderId) })).json()).toEqual({
      success: true,
    });
    expect(await outboxCount(shop, `order_id = ${orderId}`)).toBe(2);

    // A customer is signed in but may not read the reports.
    const nonce = await (await browser.get("/wp-admin/admin-ajax.php?action=rest-nonce")).text();
    const forbidden = await browser.get("/wp-json/shop/v1/reports/funnel", { headers: { "X-WP-Nonce": nonce } });
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toEqual({ code: "rest_forbidden", message: "Sorry, you are not allowed to do that.", data: { status: 403 } });

    // Another browser cannot report this order's Purchase.
    const stranger = new Browser(shop.url, "Mozilla/5.0 (Stranger)");
    stranger.consent(true, true);
    const refused = await stranger.post("/wp-json/pys/v1/event", { event: "Purchase", eventID: uuid(), woo_order: String(orderId) });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      code: "rest_invalid_param",
      data: { params: { woo_order: "woo_order is not a paid order of this visitor." } },
    });
  });
});

describe("delivery when a destination is down", () => {
  it("keeps every event while the receiver answers 500, then delivers each exactly once", async () => {
    const browser = new Browser(shop.url, "Mozilla/5.0 (Outage)");
    browser.consent(true, true);
    // "A minute" of outage, compressed: the retry schedule is 200 ms doubling to 800 ms (FAST).
    const OUTAGE_MS = 3_000;
    const started = Date.now();
    receiver.failFor(OUTAGE_MS);
    const ids: string[] = Array.from({ length: 6 }, () => uuid());
    for (const eventID of ids) {
      const t0 = Date.now();
      const res = await browser.post("/wp-json/pys/v1/event", { event: "PageView", eventID });
      expect(await res.json()).toEqual({ success: true });
      expect(Date.now() - t0).toBeLessThan(1_000); // the page never waits on the destination
    }
    await expect.poll(() => receiver.received.filter((r) => r.status === 500 && ids.includes(eventIdOf(r))).length).toBeGreaterThan(0);
    await expect.poll(() => ids.every((id) => receiver.delivered().filter((r) => eventIdOf(r) === id).length === 2), { timeout: 30_000 }).toBe(true);
    for (const id of ids) {
      const ok = receiver.delivered().filter((r) => eventIdOf(r) === id);
      expect(ok.map((r) => r.path).sort()).toEqual(["/capi", "/mp"]);
      for (const r of ok) expect(r.at).toBeGreaterThanOrEqual(started + OUTAGE_MS - 5);
    }
    const outboxRows = () =>
      shop.services.db.query<{ attempts: number; sent: boolean }>(
        `SELECT attempts, sent_at IS NOT NULL AS sent FROM tracking_outbox WHERE event_id = ANY($1::text[])`,
        [ids],
      );
    // The worker marks a row sent after the receiver's answer reaches it: wait for that state, not for the clock.
    await expect.poll(async () => (await outboxRows()).filter((r) => r.sent).length, { timeout: 30_000 }).toBe(12);
    const rows = await outboxRows();
    expect(rows).toHaveLength(12);
    expect(rows.some((r) => r.attempts > 0)).toBe(true);
    // Settled: nothing arrives twice afterwards.
    await new Promise((r) => setTimeout(r, 500));
    for (const id of ids) expect(receiver.delivered().filter((r) => eventIdOf(r) === id)).toHaveLength(2);
  });
});

describe("funnel and restart", () => {
  let second: TestShop;
  let secondReceiver: TrackingReceiver;
  let orderId = 0;
  let buyer: Browser;

  beforeAll(async () => {
    secondReceiver = await startTrackingReceiver();
    second = await startTestShop({ TRACKING_CAPI_URL: `${secondReceiver.url}/capi`, ...FAST });
  });
  afterAll(async () => {
    await second?.close();
    await secondReceiver?.close();
  });

  it("reports visitors, steps, conversion and revenue per source and day, counted without consent or cookies", async () => {
    const id = await productWithStock(second, "silk-pocket-square", 100, 2000);
    // A: from a Google campaign, views the shop and a product, adds, checks out and buys (no consent given).
    buyer = new Browser(second.url, "Mozilla/5.0 (Visitor A)");
    buyer.campaign("google", "cpc", "spring");
    expect((await buyer.get("/shop/")).status).toBe(200);
    expect((await buyer.get("/product/silk-pocket-square/")).status).toBe(200);
    await buyer.post("/?wc-ajax=add_to_cart", { product_id: String(id), quantity: "1" });
    const reply = await submitCheckout(buyer, await openCheckout(buyer), { ...billing(), ...cardFields() });
    expect(reply.result).toBe("success");
    orderId = Number(/order-received\/(\d+)\//.exec(reply.redirect!)![1]);
    // B: direct, views a product and adds it.
    const b = new Browser(second.url, "Mozilla/5.0 (Visitor B)");
    await b.get("/product/silk-pocket-square/");
    await b.post("/?wc-ajax=add_to_cart", { product_id: String(id), quantity: "1" });
    // C: from a newsletter, views the shop only. A crawler is not counted.
    const c = new Browser(second.url, "Mozilla/5.0 (Visitor C)");
    c.campaign("newsletter", "email", "november");
    await c.get("/shop/");
    await new Browser(second.url, "Googlebot/2.1 (+http://www.google.com/bot.html)").get("/shop/");

    // Staff: a shop manager signed in (on the checkout page: one more visitor with a checkout step and no view).
    await registerCustomer(second.services.db, { email: "manager@example.com", password: "manager pass 1", first_name: "Ma", last_name: "Nager" });
    await second.services.db.query(`UPDATE customers SET role = 'shop_manager' WHERE email = 'manager@example.com'`);
    const staff = new Browser(second.url, "Mozilla/5.0 (Shop manager)");
    const astra = pageGlobal(await (await staff.get("/checkout/")).text(), "astra");
    await staff.post("/wp-admin/admin-ajax.php", {
      action: "astra_woocommerce_login_user",
      user_name_email: "manager@example.com",
      password: "manager pass 1",
      security: String(astra.woocommerce_login_nonce),
    });
    const nonce = await (await staff.get("/wp-admin/admin-ajax.php?action=rest-nonce")).text();

    // Permission: no nonce = not signed in for REST; a customer is forbidden.
    const anonymous = await staff.get("/wp-json/shop/v1/reports/funnel");
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ code: "rest_not_logged_in", message: "You are not currently logged in.", data: { status: 401 } });
    await buyer.get("/checkout/"); // A opens the checkout page a second time (an empty cart now): counted again
    const buyerNonce = await (await buyer.get("/wp-admin/admin-ajax.php?action=rest-nonce")).text();
    // A guest with a valid nonce is still nobody (a signed-in customer gets rest_forbidden: the Purchase test).
    const guest = await buyer.get("/wp-json/shop/v1/reports/funnel", { headers: { "X-WP-Nonce": buyerNonce } });
    expect(guest.status).toBe(401);
    const badPeriod = await staff.get("/wp-json/shop/v1/reports/funnel?period=forever", { headers: { "X-WP-Nonce": nonce } });
    expect(badPeriod.status).toBe(400);
    expect(await badPeriod.json()).toMatchObject({ code: "rest_invalid_param", data: { params: { period: expect.stringContaining("last_month") } } });

    const today = new Date().toISOString().slice(0, 10);
    const res = await staff.get(`/wp-json/shop/v1/reports/funnel?after=${today}&before=${today}`, { headers: { "X-WP-Nonce": nonce } });
    expect(res.status).toBe(200);
    const report = (await res.json()) as {
      totals: Record<string, number>;
      funnel: { step: string; visitors: number }[];
      sources: Record<string, string | number>[];
      days: Record<string, string | number>[];
      currency: string;
    };
    const [order] = await second.services.db.query<{ total: number }>(`SELECT total FROM orders WHERE id = $1`, [orderId]);
    const revenue = order!.total / 100;
    // Visitors A, B, C and staff; views A2 B1 C1; adds A B; checkout pages A2 + staff; one purchase (A).
    expect(report.totals).toEqual({ visitors: 4, views: 4, add_to_cart: 2, checkout: 3, purchases: 1, revenue, conversion_rate: 0.25 });
    expect(report.funnel).toEqual([
      { step: "view", visitors: 3, rate: 1 },
      { step: "add_to_cart", visitors: 2, rate: 0.6667 },
      { step: "checkout", visitors: 1, rate: 0.5 },
      { step: "purchase", visitors: 1, rate: 1 },
    ]);
    expect(report.currency).toBe("USD");
    const google = report.sources.find((s) => s.source === "google")!;
    expect(google).toEqual({
      source: "google",
      medium: "cpc",
      campaign: "spring",
      visitors: 1,
      views: 2,
      add_to_cart: 1,
      checkout: 2,
      purchases: 1,
      revenue,
      conversion_rate: 1,
    });
    expect(report.sources.find((s) => s.source === "(direct)")).toMatchObject({
      medium: "(none)",
      campaign: "(none)",
      visitors: 2,
      views: 1,
      purchases: 0,
      conversion_rate: 0,
    });
    expect(report.sources.find((s) => s.source === "newsletter")).toMatchObject({ medium: "email", campaign: "november", visitors: 1, views: 1 });
    expect(report.days).toEqual([{ date: today, ...report.totals }]);

    // Filtered to one source.
    const filtered = (await (
      await staff.get(`/wp-json/shop/v1/reports/funnel?period=month&source=newsletter`, { headers: { "X-WP-Nonce": nonce } })
    ).json()) as typeof report;
    expect(filtered.totals).toMatchObject({ visitors: 1, views: 1, purchases: 0 });
    // No row names anyone: visitors are hashes, no address or user agent is stored.
    const stored = JSON.stringify(await second.services.db.query(`SELECT * FROM funnel_events`));
    expect(stored).not.toContain("Visitor A");
    expect(stored).not.toContain("127.0.0.1");
  });

  it("sends a Purchase exactly once across a restart", async () => {
    expect(orderId).toBeGreaterThan(0);
    buyer.consent(false, true);
    secondReceiver.failing = true;
    const eventID = uuid();
    expect(await (await buyer.post("/wp-json/pys/v1/event", { event: "Purchase", eventID, woo_order: String(orderId) })).json()).toEqual({ success: true });
    await expect.poll(() => secondReceiver.received.length).toBeGreaterThan(0); // tried, failed
    await second.stop();

    // The same database, a new process: the queued Purchase survives and goes once the receiver is back.
    const { startShop, createLogger } = await builtServer();
    const env = parseEnv({
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: second.dataDir,
      SIMULATOR: "off",
      LOG_LEVEL: "warn",
      ...(second.databaseUrl ? { DATABASE_URL: second.databaseUrl } : {}),
      TRACKING_CAPI_URL: `${secondReceiver.url}/capi`,
      ...FAST,
    });
    const lines: string[] = [];
    const restarted = await startShop(
      env,
      createLogger("warn", (line) => lines.push(line)),
    );
    try {
      secondReceiver.failing = false;
      await expect.poll(() => secondReceiver.delivered().length, { timeout: 30_000 }).toBe(1);
      expect(eventIdOf(secondReceiver.delivered()[0]!)).toBe(eventID);
      // Reported again after the restart: nothing new is queued or sent.
      const url = `http://127.0.0.1:${(restarted.server.address() as { port: number }).port}`;
      const again = new Browser(url, "Mozilla/5.0 (Visitor A)");
      for (const [k, v] of buyer.cookies) again.cookies.set(k, v);
      expect(await (await again.post("/wp-json/pys/v1/event", { event: "Purchase", eventID: uuid(), woo_order: String(orderId) })).json()).toEqual({
        success: true,
      });
      await new Promise((r) => setTimeout(r, 700));
      expect(secondReceiver.delivered()).toHaveLength(1);
      expect(await outboxCount(restarted, `order_id = ${orderId}`)).toBe(1);

      // Refusals are logged once a minute per client address, without the body.
      const noisy = new Browser(url, "Mozilla/5.0 (Noisy)", "198.51.100.7");
      for (let i = 0; i < 3; i++)
        expect((await noisy.post("/wp-json/pys/v1/event", { event: "Nope", eventID: uuid(), data: '{"secret":"body-text"}' })).status).toBe(400);
      expect((await new Browser(url, "Mozilla/5.0 (Other)", "198.51.100.8").post("/wp-json/pys/v1/event", { event: "PageView" })).status).toBe(400);
      const refusals = lines.filter((l) => l.includes("tracking event refused")).map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(refusals).toHaveLength(2);
      expect(refusals[0]).toMatchObject({ level: "warn", client: "198.51.100.7", via: "rest", code: "rest_invalid_param", param: "event", suppressed: 0 });
      expect(refusals[1]).toMatchObject({ client: "198.51.100.8", code: "rest_missing_callback_param", param: "eventID" });
      expect(lines.join("\n")).not.toContain("body-text");
    } finally {
      await restarted.stop();
    }
  });
});
