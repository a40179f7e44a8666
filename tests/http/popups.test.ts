/**
 * Popups over HTTP (docs/contract/storefront.md §4 'Popups', docs/contract/wire.md §2 'Popups'): the server's display
 * conditions decide which popups a page carries; the browser's events are validated and limited; a conversion needs an
 * order this session placed after an impression; settings are validated (a refusal names the field and saves
 * nothing); the staff-only routes answer WordPress's 401/403.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";
import { POPUP_EVENTS_PER_ADDRESS_PER_HOUR, POPUP_EVENTS_PER_CLIENT_PER_HOUR } from "../../core/commerce/popups.ts";
import { billing, cardFields, openCheckout, productWithStock, shopperWithCart, submitCheckout } from "./checkout-support.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
let shop: TestShop;
let ids: Record<string, number>;

beforeAll(async () => {
  shop = await startTestShop();
  // The template has the demo popups turned off (tests/support/database-template.ts): this file tests them.
  await shop.services.db.query(`UPDATE popups SET settings = jsonb_set(settings, '{enabled}', 'true')`);
  const rows = await shop.services.db.query<{ id: number; title: string }>(`SELECT id, settings->>'title' AS title FROM popups ORDER BY id`);
  ids = Object.fromEntries(rows.map((r) => [r.title, r.id]));
});
afterAll(async () => shop?.close());

const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? "";
/** The popups' titles in a page's loader data (React Router's turbo-stream keeps strings whole). */
const popupTitles = (html: string) => ["Newsletter sign-up", "Free mask with 6", "Size guide"].filter((t) => html.includes(`\\"${t}\\"`));

async function signIn(email: string, role?: "administrator" | "shop_manager"): Promise<{ client: TestClient; nonce: string }> {
  const id = await registerCustomer(shop.services.db, { email, password: "account pass 1", first_name: "Ada", last_name: "Lovelace" });
  if (role) await shop.services.db.query(`UPDATE customers SET role = $2 WHERE email = $1`, [email, role]);
  expect(id).toBeTruthy();
  const client = new TestClient(shop.url);
  const page = await (await client.get("/my-account/")).text();
  const res = await client.post("/my-account/", {
    intent: "login",
    username: email,
    password: "account pass 1",
    "woocommerce-login-nonce": hidden(page, "woocommerce-login-nonce"),
  });
  expect(res.status).toBe(302);
  const nonce = await (await client.get("/wp-admin/admin-ajax.php?action=rest-nonce")).text();
  return { client, nonce };
}

const event = (client: TestClient, id: number | string, body: unknown) =>
  client.request(`/wp-json/shop/v1/popups/${id}/events`, { method: "POST", json: body });

describe("which popups a page carries", () => {
  it("seeds the three demo popups, and each page gets only those whose server conditions hold", async () => {
    expect(Object.keys(ids)).toEqual(["Newsletter sign-up", "Free mask with 6", "Size guide"]);
    const guest = new TestClient(shop.url);
    const product = await (await guest.get("/product/cotton-face-mask/")).text();
    // No masks in the cart: the offer is not sent; the size guide is (product page) with its link.
    expect(popupTitles(product)).toEqual(["Newsletter sign-up", "Size guide"]);
    expect(product).toContain('href="#size-guide"');
    expect(popupTitles(await (await guest.get("/checkout/")).text())).toEqual([]);
    expect(popupTitles(await (await guest.get("/cart/")).text())).toEqual(["Newsletter sign-up"]);

    const maskId = await productWithStock(shop, "black-everyday-mask", 100, 1500);
    const withMask = await shopperWithCart(shop, maskId);
    expect(popupTitles(await (await withMask.get("/shop/")).text())).toEqual(["Newsletter sign-up", "Free mask with 6"]);
    expect(popupTitles(await (await withMask.get("/cart/")).text())).toEqual(["Newsletter sign-up"]);

    // logged_in 'all': a signed-in customer never gets the newsletter; the roles are never printed.
    const { client } = await signIn("reader@example.com");
    const signedIn = await (await client.get("/product/cotton-face-mask/")).text();
    expect(popupTitles(signedIn)).toEqual(["Size guide"]);
    expect(signedIn).not.toContain('\\"logged_in\\"');
    expect(signedIn).not.toContain('\\"roles\\"');
    expect(signedIn).not.toContain('\\"contains_categories\\"');
  });

  it("a popup row that no longer passes the schema is skipped, never sent, and the page still renders", async () => {
    const [row] = await shop.services.db.query<{ id: number }>(
      `INSERT INTO popups (settings) VALUES ('{"title":"Broken","content":{"heading":"x"},"triggers":{"page_load":{"delay":-5}}}') RETURNING id`,
    );
    const res = await new TestClient(shop.url).get("/shop/");
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain('\\"Broken\\"');
    await shop.services.db.query(`DELETE FROM popups WHERE id = $1`, [row!.id]);
  });
});

describe("first-load JavaScript", () => {
  it("the product page's entry scripts and preloads leave out the popup engine, though the page has popups", async () => {
    const html = await (await new TestClient(shop.url).get("/product/cotton-face-mask/")).text();
    expect(popupTitles(html)).toContain("Size guide");
    // What the first load fetches: modulepreload links, script src and the inline module scripts' static imports.
    const loaded = new Set<string>();
    for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) loaded.add(m[1]!);
    for (const m of html.matchAll(/<script[^>]*src="([^"]+)"/g)) loaded.add(m[1]!);
    for (const m of html.matchAll(/<script[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/g)) {
      for (const i of m[1]!.matchAll(/import(?:\s*[^"'()]*from)?\s*["']([^"']+\.js)["']/g)) loaded.add(i[1]!);
    }
    const assets = [...loaded].filter((u) => u.startsWith("/assets/"));
    expect(assets.length).toBeGreaterThan(3);
    expect(assets.filter((u) => /PopupEngine|PopupDialog|popup-actions|\/actions-/.test(u))).toEqual([]);
    // By content too (a static import would fold the engine into an entry chunk): the dialog's class names.
    const engineChunk = readdirSync(path.join(ROOT, "build/client/assets")).filter(
      (f) => f.endsWith(".js") && readFileSync(path.join(ROOT, "build/client/assets", f), "utf8").includes("shop-popup-modal"),
    );
    expect(engineChunk.length).toBeGreaterThan(0);
    expect(assets.filter((u) => engineChunk.some((f) => u.endsWith(`/${f}`)))).toEqual([]);
  });
});

describe("the browser's events", () => {
  it("records impressions, closes and do-not-show-again; refuses bad input in WordPress's shape", async () => {
    const client = new TestClient(shop.url);
    const id = ids["Size guide"]!;
    expect((await event(client, id, { event: "impression" })).status).toBe(201);
    expect((await event(client, id, { event: "close" })).status).toBe(201);
    expect((await event(client, id, { event: "do_not_show_again" })).status).toBe(201);

    const bad = await event(client, id, { event: "explode" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "rest_invalid_param", data: { status: 400, params: { event: expect.any(String) } } });
    const extra = await event(client, id, { event: "close", colour: "red" });
    expect(extra.status).toBe(400);
    expect(await extra.json()).toMatchObject({ code: "rest_invalid_param", data: { params: { colour: expect.any(String) } } });
    expect((await event(client, 999999, { event: "close" })).status).toBe(404);
    expect((await event(client, "abc", { event: "close" })).status).toBe(404);
    const noOrder = await event(client, id, { event: "conversion" });
    expect(noOrder.status).toBe(400);
    expect(await noOrder.json()).toMatchObject({ code: "rest_missing_callback_param" });
    const [n] = await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM popup_events WHERE popup_id = $1`, [id]);
    expect(n!.n).toBe(3);
  });

  it(`limits a client to ${POPUP_EVENTS_PER_CLIENT_PER_HOUR} events an hour`, async () => {
    const client = new TestClient(shop.url, { forwardedFor: "203.0.113.77" });
    const id = ids["Size guide"]!;
    expect((await event(client, id, { event: "impression" })).status).toBe(201);
    const [row] = await shop.services.db.query<{ client_key: string }>(`SELECT client_key FROM popup_events ORDER BY id DESC LIMIT 1`);
    expect(row!.client_key).toContain("203.0.113.77");
    await shop.services.db.query(`INSERT INTO popup_events (popup_id, kind, client_key) SELECT $1, 'impression', $2 FROM generate_series(1, $3)`, [
      id,
      row!.client_key,
      POPUP_EVENTS_PER_CLIENT_PER_HOUR - 1,
    ]);
    const limited = await event(client, id, { event: "impression" });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ code: "rest_popup_events_limited" });
    // Another client is not limited.
    expect((await event(new TestClient(shop.url, { forwardedFor: "203.0.113.78" }), id, { event: "impression" })).status).toBe(201);
  });

  it(`limits an address to ${POPUP_EVENTS_PER_ADDRESS_PER_HOUR} events an hour, whatever key cookie each request sends`, async () => {
    const address = "203.0.113.90";
    const id = ids["Size guide"]!;
    /** A script's request: a fresh random shop_nonce_key each time (a fresh per-client limit). */
    const rotating = () => {
      const client = new TestClient(shop.url, { forwardedFor: address });
      client.cookies.set("shop_nonce_key", { value: randomBytes(16).toString("hex"), attributes: "" });
      return client;
    };
    expect((await event(rotating(), id, { event: "impression" })).status).toBe(201);
    const [row] = await shop.services.db.query<{ client_key: string; client_address: string }>(
      `SELECT client_key, client_address FROM popup_events ORDER BY id DESC LIMIT 1`,
    );
    expect(row!.client_key).toMatch(/^browser:[0-9a-f]{32}$/);
    expect(row!.client_address).toBe(address);
    // The address's earlier events, each under another key (as a rotating script leaves them).
    await shop.services.db.query(
      `INSERT INTO popup_events (popup_id, kind, client_key, client_address) SELECT $1, 'close', 'browser:' || md5(g::text), $2 FROM generate_series(1, $3) g`,
      [id, address, POPUP_EVENTS_PER_ADDRESS_PER_HOUR - 2],
    );
    expect((await event(rotating(), id, { event: "close" })).status).toBe(201); // the cap's last one
    for (let i = 0; i < 2; i++) {
      const limited = await event(rotating(), id, { event: "close" });
      expect(limited.status).toBe(429);
      expect(await limited.json()).toMatchObject({ code: "rest_popup_events_limited" });
    }
    // Another address is not limited.
    expect((await event(new TestClient(shop.url, { forwardedFor: "203.0.113.91" }), id, { event: "close" })).status).toBe(201);
    await shop.services.db.query(`DELETE FROM popup_events WHERE client_address IN ($1, '203.0.113.91')`, [address]);
  });

  it("a conversion is an order this session placed after the popup was shown, counted once", async () => {
    const maskId = await productWithStock(shop, "black-everyday-mask", 100, 1500);
    const offer = ids["Free mask with 6"]!;
    const newsletter = ids["Newsletter sign-up"]!;
    const client = await shopperWithCart(shop, maskId);
    await client.get("/shop/"); // a page: the browser key cookie
    expect((await event(client, offer, { event: "impression" })).status).toBe(201);
    const reply = await submitCheckout(client, await openCheckout(client), { ...billing(), ...cardFields() });
    expect(reply.result).toBe("success");
    const url = new URL(reply.redirect!, shop.url);
    const orderId = Number(/order-received\/(\d+)\//.exec(url.pathname)![1]);
    const key = url.searchParams.get("key")!;

    expect((await event(client, offer, { event: "conversion", order_id: orderId, order_key: key })).status).toBe(201);
    // Counted once per popup and order.
    expect(await (await event(client, offer, { event: "conversion", order_id: orderId, order_key: key })).json()).toEqual({ recorded: false });
    // A popup this browser never saw is no conversion.
    expect(await (await event(client, newsletter, { event: "conversion", order_id: orderId, order_key: key })).json()).toEqual({ recorded: false });
    // Another browser (even with the key) or a wrong key: refused.
    const other = await event(new TestClient(shop.url), offer, { event: "conversion", order_id: orderId, order_key: key });
    expect(other.status).toBe(400);
    expect(await other.json()).toMatchObject({ code: "rest_popup_invalid_order" });
    expect((await event(client, offer, { event: "conversion", order_id: orderId, order_key: "wc_order_wrong" })).status).toBe(400);
  });
});

describe("staff routes", () => {
  const valid = {
    title: "Winter sale",
    content: { heading: "Winter sale", text: ["20% off scarves."] },
    triggers: { page_load: { delay: 2 } },
    timing: { times: { times: 1, period: "day" } },
  };

  it("answer 401 without a signed-in user and nonce, 403 for a customer", async () => {
    const guest = await new TestClient(shop.url).get("/wp-json/shop/v1/popups/stats");
    expect(guest.status).toBe(401);
    expect(await guest.json()).toMatchObject({ code: "rest_not_logged_in" });
    const { client, nonce } = await signIn("customer-stats@example.com");
    expect((await client.get("/wp-json/shop/v1/popups/stats")).status).toBe(401); // signed in, but no nonce
    const forbidden = await client.get("/wp-json/shop/v1/popups/stats", { headers: { "X-WP-Nonce": nonce } });
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toMatchObject({ code: "rest_forbidden" });
    expect((await client.request("/wp-json/shop/v1/popups", { method: "POST", json: valid, headers: { "X-WP-Nonce": nonce } })).status).toBe(403);
  });

  it("stats per popup; create, refuse (naming the field, saving nothing), update and delete", async () => {
    const { client, nonce } = await signIn("manager@example.com", "shop_manager");
    const headers = { "X-WP-Nonce": nonce };
    const stats = (await (await client.get("/wp-json/shop/v1/popups/stats", { headers })).json()) as Record<string, unknown>[];
    const guide = stats.find((s) => s.id === ids["Size guide"]);
    expect(guide).toMatchObject({ title: "Size guide", closes: 1, do_not_show_again: 1, conversions: 0 });
    const offer = stats.find((s) => s.id === ids["Free mask with 6"]);
    expect(offer).toMatchObject({ impressions: 1, conversions: 1, conversion_rate: 1 });
    // Revenue: the converted order's total, in major units like the funnel report's.
    const [order] = await shop.services.db.query<{ total: number }>(
      `SELECT o.total FROM orders o JOIN popup_events e ON e.order_id = o.id WHERE e.kind = 'conversion' AND e.popup_id = $1`,
      [ids["Free mask with 6"]],
    );
    expect(order!.total).toBeGreaterThan(0);
    expect(offer!.revenue).toBe(order!.total / 100);
    expect(guide!.revenue).toBe(0);

    const before = await shop.services.db.query(`SELECT id FROM popups`);
    for (const [body, field, message] of [
      [{ ...valid, colour: "red" }, "colour", "colour is not a popup setting"],
      [{ ...valid, triggers: { page_load: { delay: -1 } } }, "triggers.page_load.delay", "triggers.page_load.delay must be 0 or more"],
      [{ ...valid, timing: { url: { action: "regex", url: "([" } } }, "timing.url.url", "timing.url.url must be a valid regular expression"],
      [{ ...valid, display: { prevent_scroll: "yes" } }, "display.prevent_scroll", "display.prevent_scroll must be a boolean"],
      [
        { ...valid, timing: { schedule: { start_date: "2026-12-24T00:00", end_date: "2026-12-01T00:00" } } },
        "timing.schedule.end_date",
        "timing.schedule.end_date must be after start_date",
      ],
    ] as const) {
      const res = await client.request("/wp-json/shop/v1/popups", { method: "POST", json: body, headers });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        code: "rest_invalid_param",
        message: `Invalid parameter(s): ${field}`,
        data: { status: 400, params: { [field]: message } },
      });
    }
    expect(await shop.services.db.query(`SELECT id FROM popups`)).toHaveLength(before.length);

    const created = await client.request("/wp-json/shop/v1/popups", { method: "POST", json: valid, headers });
    expect(created.status).toBe(201);
    const popup = (await created.json()) as { id: number; display: { close_button_position: string } };
    expect(popup.display.close_button_position).toBe("inside");
    const refused = await client.request(`/wp-json/shop/v1/popups/${popup.id}`, { method: "PUT", json: { ...valid, title: "" }, headers });
    expect(refused.status).toBe(400);
    expect(((await (await client.get(`/wp-json/shop/v1/popups/${popup.id}`, { headers })).json()) as { title: string }).title).toBe("Winter sale");
    const updated = await client.request(`/wp-json/shop/v1/popups/${popup.id}`, { method: "PUT", json: { ...valid, enabled: false }, headers });
    expect(updated.status).toBe(200);
    expect(popupTitles(await (await new TestClient(shop.url).get("/shop/")).text())).not.toContain("Winter sale");
    expect((await client.request(`/wp-json/shop/v1/popups/${popup.id}`, { method: "DELETE", headers })).status).toBe(200);
    expect((await client.get(`/wp-json/shop/v1/popups/${popup.id}`, { headers })).status).toBe(404);
  });

  it("two editors: the read's ETag sent back as If-Match; a save after someone else's is refused (412) and changes nothing", async () => {
    const { client, nonce } = await signIn("manager-etag@example.com", "shop_manager");
    const headers = { "X-WP-Nonce": nonce };
    const created = await client.request("/wp-json/shop/v1/popups", { method: "POST", json: valid, headers });
    const { id } = (await created.json()) as { id: number };
    const version = created.headers.get("etag");
    expect(version).toMatch(/^"\d+"$/);
    const read = await client.get(`/wp-json/shop/v1/popups/${id}`, { headers });
    expect(read.headers.get("etag")).toBe(version);
    // Both editors opened that version; the first save wins and answers a new version.
    await new Promise((r) => setTimeout(r, 5));
    const first = await client.request(`/wp-json/shop/v1/popups/${id}`, {
      method: "PUT",
      json: { ...valid, title: "First" },
      headers: { ...headers, "If-Match": version! },
    });
    expect(first.status).toBe(200);
    expect(first.headers.get("etag")).not.toBe(version);
    const second = await client.request(`/wp-json/shop/v1/popups/${id}`, {
      method: "PUT",
      json: { ...valid, title: "Second" },
      headers: { ...headers, "If-Match": version! },
    });
    expect(second.status).toBe(412);
    expect(await second.json()).toEqual({
      code: "rest_popup_changed",
      message: "This popup was changed since you opened it. Reload it to see the changes, then make yours again.",
      data: { status: 412 },
    });
    expect(((await (await client.get(`/wp-json/shop/v1/popups/${id}`, { headers })).json()) as { title: string }).title).toBe("First");
    // With the new version, or without If-Match (an API client that does not care), the save lands.
    const third = await client.request(`/wp-json/shop/v1/popups/${id}`, {
      method: "PUT",
      json: { ...valid, title: "Third" },
      headers: { ...headers, "If-Match": first.headers.get("etag")! },
    });
    expect(third.status).toBe(200);
    expect((await client.request(`/wp-json/shop/v1/popups/${id}`, { method: "PUT", json: valid, headers })).status).toBe(200);
    expect((await client.request(`/wp-json/shop/v1/popups/${id}`, { method: "DELETE", headers })).status).toBe(200);
  });
});

describe("the newsletter sign-up (POST /newsletter/)", () => {
  const noticeText = (html: string) => [...html.matchAll(/<(div|ul)[^>]*role="alert"[^>]*>([\s\S]*?)<\/\1>/g)].map((m) => m[2]!.replace(/<[^>]+>/g, "").trim());
  const subscribers = () =>
    shop.services.db.query<{ email: string; source: string }>(
      `SELECT email, source FROM newsletter_subscribers WHERE lower(email) LIKE '%@letters.example' ORDER BY id`,
    );

  it("the demo popup carries a sign-up form, not a link", async () => {
    const page = await (await new TestClient(shop.url).get("/cart/")).text();
    expect(page).toContain('\\"signup\\"');
    expect(page).not.toContain('\\"Create an account\\"');
  });

  it("stores an address once (a repeat in any case is the same success), refuses a bad one, and goes back to this shop only", async () => {
    const client = new TestClient(shop.url);
    await client.get("/cart/");
    const popup = `popup:${ids["Newsletter sign-up"]}`;
    const ok = await client.post("/newsletter/", { email: "Ada@Letters.example", source: popup, redirect_to: "/cart/?from=popup" });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/cart/?from=popup");
    expect(noticeText(await (await client.get("/cart/?from=popup")).text())).toContain("Thanks — you are on the list.");
    expect(await subscribers()).toEqual([{ email: "Ada@Letters.example", source: popup }]);

    const repeat = await client.post("/newsletter/", { email: " ada@letters.EXAMPLE ", source: "form", redirect_to: "/cart/" });
    expect(repeat.status).toBe(303);
    expect(noticeText(await (await client.get("/cart/")).text())).toContain("Thanks — you are on the list.");
    expect(await subscribers()).toHaveLength(1);

    for (const email of ["", "not-an-address", "bo@letters"]) {
      const bad = await client.post("/newsletter/", { email, redirect_to: "/cart/" });
      expect(bad.status).toBe(303);
      expect(noticeText(await (await client.get("/cart/")).text())).toContain("Please enter a valid email address.");
    }
    expect(await subscribers()).toHaveLength(1);

    for (const to of ["https://evil.example/", "//evil.example/", "/\\evil.example"]) {
      const res = await client.post("/newsletter/", { email: "cy@letters.example", redirect_to: to });
      expect(res.headers.get("location")).toBe("/shop/");
    }
    expect(await subscribers()).toEqual([
      { email: "Ada@Letters.example", source: popup },
      { email: "cy@letters.example", source: "form" },
    ]);
    const get = await client.get("/newsletter/");
    expect([get.status, get.headers.get("location")]).toEqual([302, "/shop/"]);
  });
});
