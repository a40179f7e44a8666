/**
 * The browser tracker end to end (docs/contract/storefront.md §9 'Tracking (analytics)', docs/contract/wire.md §6.1):
 * view → add → checkout → purchase with consent, each event's id shared by the dataLayer, the pixel, the
 * server-bound request and the server's own deliveries to a real local receiver (Conversions-API and
 * Measurement-Protocol styles); with consent refused nothing loads or is sent; the admin-ajax fallback. Third-party
 * scripts are observed and aborted (no network here).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page, Request } from "playwright-core";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser, letPageSettle } from "../support/browser.ts";
import { fillBillingDetails } from "../support/checkout-page.ts";
import { EVENT_ID_LENGTH } from "../../core/domain/tracking/events.ts";

let shop: TestShop;
let browser: Browser;

const SETTINGS = { tracking: { gtmContainerId: "GTM-TEST12", pixels: { facebook: ["1234567890"] }, timeOnPageSeconds: 1, scrollPercent: 60 } };
const THIRD_PARTY = /googletagmanager\.com|facebook\.net|facebook\.com|google-analytics\.com/;

/** The server-side destinations: a real local HTTP receiver recording each delivery's event ids by style. */
const delivered = { capi: [] as { name: string; id: string }[], mp: [] as { name: string; id: string }[] };
let receiver: http.Server;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const json = JSON.parse(body) as { data?: { event_name: string; event_id: string }[]; events?: { name: string; params: { event_id: string } }[] };
      if (req.url!.startsWith("/capi")) for (const e of json.data ?? []) delivered.capi.push({ name: e.event_name, id: e.event_id });
      else for (const e of json.events ?? []) delivered.mp.push({ name: e.name, id: e.params.event_id });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  shop = await startTestShop({
    SHOP_SETTINGS: JSON.stringify(SETTINGS),
    TRACKING_CAPI_URL: `${base}/capi`,
    TRACKING_CAPI_TOKEN: "test-token",
    TRACKING_MP_URL: `${base}/mp`,
    TRACKING_MP_SECRET: "test-secret",
    TRACKING_SEND_EVERY_MS: "200",
  });
  browser = await launchBrowser();
  await shop.services.db.query(`UPDATE products SET stock_quantity = 50, regular_price = 1500, sale_price = NULL WHERE slug = 'silk-pocket-square'`);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
  await new Promise((r) => receiver?.close(r));
});

/** The server delivered each browser event id to the destinations the consent allowed, and nothing else. */
async function deliveredIds(style: "capi" | "mp", ids: string[]): Promise<string[]> {
  await expect.poll(() => ids.every((id) => delivered[style].some((d) => d.id === id)), { timeout: 20_000 }).toBe(true);
  return delivered[style].filter((d) => ids.includes(d.id)).map((d) => d.name);
}

interface Observed {
  thirdParty: string[];
  server: { url: string; fields: URLSearchParams; type: string }[];
  chunks: string[];
}

/** A context with the consent cookie set directly (as the banner would), recording what the pages request. */
async function contextWith(consent: string, observed: Observed): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies([{ name: "shop_consent", value: consent, url: shop.url }]);
  await context.route(THIRD_PARTY, (route) => {
    observed.thirdParty.push(route.request().url());
    return route.abort();
  });
  context.on("request", (req: Request) => {
    const url = req.url();
    if (url.includes("/wp-json/pys/v1/event") || (url.includes("admin-ajax.php") && (req.postData() ?? "").includes("pys_api_event")))
      observed.server.push({ url, fields: new URLSearchParams(req.postData() ?? ""), type: req.resourceType() });
    if (/tracker\.client/.test(url)) observed.chunks.push(url);
  });
  return context;
}

type Layer = Record<string, unknown> & { event?: string; event_id?: string; ecommerce?: { value: number; transaction_id?: string } };
const layer = (page: Page) => page.evaluate(() => ((window as unknown as { dataLayer?: unknown[] }).dataLayer ?? []) as Layer[]);
async function layerEvent(page: Page, name: string): Promise<Layer> {
  await expect.poll(async () => (await layer(page)).some((e) => e.event === name), { timeout: 15_000 }).toBe(true);
  return (await layer(page)).filter((e) => e.event === name).at(-1)!;
}
/** gtag-style entries (Arguments objects) on the dataLayer, as arrays: Consent Mode's default and updates. */
const consentCalls = (page: Page) =>
  page.evaluate(() =>
    ((window as unknown as { dataLayer?: unknown[] }).dataLayer ?? []).flatMap((e, index) =>
      Object.prototype.toString.call(e) === "[object Arguments]" && (e as unknown[])[0] === "consent" ? [{ index, args: Array.from(e as unknown[]) }] : [],
    ),
  );
const fbCalls = (page: Page) => page.evaluate(() => ((window as unknown as { fbq?: { queue?: unknown[][] } }).fbq?.queue ?? []) as unknown[][]);
async function serverEvent(observed: Observed, eventId: string) {
  await expect.poll(() => observed.server.some((s) => s.fields.get("eventID") === eventId)).toBe(true);
  return observed.server.find((s) => s.fields.get("eventID") === eventId)!;
}

describe("browser tracking", () => {
  it("with consent: view → add → checkout → purchase, one event id per event across dataLayer, pixel and server", async () => {
    const observed: Observed = { thirdParty: [], server: [], chunks: [] };
    const context = await contextWith(`v1.1.1.${Math.floor(Date.now() / 1000)}`, observed);
    const page = await context.newPage();
    await page.goto(shop.url + "/product/silk-pocket-square/");

    const view = await layerEvent(page, "view_item");
    expect(view.ecommerce).toMatchObject({ currency: "USD", value: 15 });
    expect(view.event_id).toHaveLength(EVENT_ID_LENGTH);
    expect((await layer(page)).some((e) => e.event === "page_view")).toBe(true);
    // The pixel's copy and the server's copy carry the same id.
    expect(await fbCalls(page)).toContainEqual([
      "track",
      "ViewContent",
      expect.objectContaining({ value: 15, content_ids: [expect.any(String)] }),
      { eventID: view.event_id },
    ]);
    const viewSent = await serverEvent(observed, view.event_id!);
    expect(viewSent.fields.get("event")).toBe("ViewContent");
    expect(JSON.parse(viewSent.fields.get("data")!)).toMatchObject({ value: 15, ecomm_totalvalue: 15, currency: "USD" });
    expect(viewSent.fields.getAll("ids[]")).toEqual(["1234567890"]);
    expect(viewSent.fields.get("woo_order")).toBe("0");
    expect(viewSent.fields.get("edd_order")).toBe("0");
    expect(viewSent.type).toBe("ping"); // a beacon
    // The configured destinations' scripts were asked for (after hydration), and aborted here.
    await expect.poll(() => observed.thirdParty.some((u) => u.startsWith("https://www.googletagmanager.com/gtm.js?id=GTM-TEST12"))).toBe(true);
    expect(observed.thirdParty.some((u) => u.startsWith("https://connect.facebook.net/"))).toBe(true);
    // The ad pixel's external id: the pbid cookie, kept 180 days, given to the pixel at its init.
    const pbid = (await context.cookies()).find((c) => c.name === "pbid")!;
    expect(pbid.value).toMatch(/^[0-9a-f-]{36}$/);
    expect(Math.round((pbid.expires - Date.now() / 1000) / 86_400)).toBe(180);
    expect((await fbCalls(page)).find((call) => call[0] === "init")).toEqual(["init", "1234567890", { external_id: pbid.value }]);
    // Consent Mode: the default from the visitor's choice (everything granted here) before the tag manager starts;
    // the pixel is granted before its init.
    const [consentDefault] = await consentCalls(page);
    expect(consentDefault!.args).toEqual([
      "consent",
      "default",
      { analytics_storage: "granted", ad_storage: "granted", ad_user_data: "granted", ad_personalization: "granted" },
    ]);
    expect(consentDefault!.index).toBeLessThan((await layer(page)).findIndex((e) => e.event === "gtm.js"));
    const fbq = await fbCalls(page);
    expect(fbq.findIndex((c) => c[0] === "consent" && c[1] === "grant")).toBeLessThan(fbq.findIndex((c) => c[0] === "init"));
    const ids = JSON.parse(decodeURIComponent((await context.cookies()).find((c) => c.name === "pys_fb_event_id")!.value)) as Record<string, string>;
    expect(ids.ViewContent).toBe(view.event_id);

    // Engagement: time on page (1 s here), scroll past 60 %, an outbound click, a form submit; a search form is skipped.
    expect((await layerEvent(page, "time_on_page")).seconds).toBe(1);
    await page.evaluate(() => {
      const link = Object.assign(document.createElement("a"), { href: "https://partner.example/offer", textContent: "Partner offer" });
      link.addEventListener("click", (e) => e.preventDefault());
      const form = (id: string, cls: string) => {
        const f = Object.assign(document.createElement("form"), { id, className: cls });
        f.append(Object.assign(document.createElement("button"), { textContent: "Send" }));
        f.addEventListener("submit", (e) => e.preventDefault());
        return f;
      };
      document.querySelector("main")!.append(link, form("newsletter", "subscribe"), form("", "search-form"));
    });
    await page.getByRole("link", { name: "Partner offer" }).click();
    expect((await layerEvent(page, "click")).url).toBe("https://partner.example/offer");
    await page.locator("#newsletter button").click();
    await page.locator("form.search-form button").click();
    expect((await layerEvent(page, "form_submit")).form_id).toBe("newsletter");
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    expect((await layerEvent(page, "scroll")).percent).toBe(60);
    await letPageSettle(page);
    expect((await layer(page)).filter((e) => e.event === "form_submit")).toHaveLength(1);
    expect((await layer(page)).filter((e) => e.event === "scroll")).toHaveLength(1);
    await page.evaluate(() => window.scrollTo(0, 0));

    // Add to cart: fired from the server's confirmation, with the quantity added.
    await page.waitForFunction(() => document.getElementById("wc-cart-announcer") !== null);
    await page.fill("form.cart input.qty", "2");
    await page.locator("form.cart .single_add_to_cart_button").click();
    const add = await layerEvent(page, "add_to_cart");
    expect(add.ecommerce).toMatchObject({ value: 30, items: [{ quantity: 2, price: 15 }] });
    expect((await serverEvent(observed, add.event_id!)).fields.get("event")).toBe("AddToCart");
    expect(await fbCalls(page)).toContainEqual(["track", "AddToCart", expect.objectContaining({ value: 30 }), { eventID: add.event_id }]);

    // A refused add (2 in the cart, 2 in stock): the server's error, and no AddToCart anywhere.
    await shop.services.db.query(`UPDATE products SET stock_quantity = 2 WHERE slug = 'silk-pocket-square'`);
    const addsSent = observed.server.filter((s) => s.fields.get("event") === "AddToCart").length;
    await page.fill("form.cart input.qty", "1");
    await page.locator("form.cart .single_add_to_cart_button").click();
    await page.getByText("You cannot add that amount").first().waitFor();
    await letPageSettle(page, { frames: 5 });
    await shop.services.db.query(`UPDATE products SET stock_quantity = 50 WHERE slug = 'silk-pocket-square'`);
    expect((await layer(page)).filter((e) => e.event === "add_to_cart").length).toBeLessThanOrEqual(1);
    expect((await layer(page)).filter((e) => e.event === "add_to_cart" && e.event_id !== add.event_id)).toEqual([]);
    expect(observed.server.filter((s) => s.fields.get("event") === "AddToCart")).toHaveLength(addsSent);

    const asked = observed.thirdParty.length;
    await page.goto(shop.url + "/checkout/");
    const begin = await layerEvent(page, "begin_checkout");
    // The destinations' scripts failed here (aborted, as an ad blocker would): the checkout does not treat that as its own.
    await expect.poll(() => observed.thirdParty.length).toBeGreaterThan(asked);
    await letPageSettle(page, { frames: 3 });
    expect(await page.getByText("A script error has occurred.").count()).toBe(0);
    expect(begin.ecommerce).toMatchObject({ value: 30 });
    expect((await serverEvent(observed, begin.event_id!)).fields.get("event")).toBe("InitiateCheckout");

    await page.waitForSelector('form.checkout[data-hydrated="1"]');
    await fillBillingDetails(page, "tracked@example.com");
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    await page.locator("#wc-sandbox-credit-card-account-number").pressSequentially("4242424242424242");
    await page.locator("#wc-sandbox-credit-card-expiry").pressSequentially("1234");
    await page.fill("#wc-sandbox-credit-card-csc", "123");
    await Promise.all([page.waitForURL(/\/checkout\/order-received\/(\d+)\/\?key=/), page.getByRole("button", { name: "Place order" }).click()]);
    const orderId = Number(/order-received\/(\d+)\//.exec(page.url())![1]);
    const [order] = await shop.services.db.query<{ total: string }>(`SELECT total FROM orders WHERE id = $1`, [orderId]);

    // The payment form's check passed before the order went: AddPaymentInfo, once, with the cart's value.
    const paymentInfo = observed.server.filter((s) => s.fields.get("event") === "AddPaymentInfo");
    expect(paymentInfo).toHaveLength(1);
    expect(JSON.parse(paymentInfo[0]!.fields.get("data")!)).toMatchObject({ value: 30 });

    const purchase = await layerEvent(page, "purchase");
    expect(purchase.ecommerce).toMatchObject({ value: Number(order!.total) / 100, transaction_id: String(orderId) });
    const purchaseSent = await serverEvent(observed, purchase.event_id!);
    expect(purchaseSent.fields.get("event")).toBe("Purchase");
    expect(purchaseSent.fields.get("woo_order")).toBe(String(orderId));
    expect(JSON.parse(purchaseSent.fields.get("data")!).value).toBe(Number(order!.total) / 100);
    expect(await fbCalls(page)).toContainEqual([
      "track",
      "Purchase",
      expect.objectContaining({ value: Number(order!.total) / 100 }),
      { eventID: purchase.event_id },
    ]);

    // The server's copies of the same four events reached both server-side destinations with the browser's event ids,
    // so each destination can deduplicate the pixel's event against the server's (a Purchase with the order's value).
    const paired = [view.event_id!, add.event_id!, begin.event_id!, purchase.event_id!];
    expect(await deliveredIds("capi", paired)).toEqual(["ViewContent", "AddToCart", "InitiateCheckout", "Purchase"]);
    expect(await deliveredIds("mp", paired)).toEqual(["view_item", "add_to_cart", "begin_checkout", "purchase"]);

    // A reload of the order's page does not count the purchase again.
    await page.reload();
    await layerEvent(page, "page_view");
    await letPageSettle(page);
    expect((await layer(page)).some((e) => e.event === "purchase")).toBe(false);
    expect(observed.server.filter((s) => s.fields.get("event") === "Purchase")).toHaveLength(1);
    await context.close();
  });

  it("analytics only: Consent Mode denies the ad signals; a registration sends sign_up once, with the user id", async () => {
    const observed: Observed = { thirdParty: [], server: [], chunks: [] };
    const context = await contextWith(`v1.1.0.${Math.floor(Date.now() / 1000)}`, observed);
    const page = await context.newPage();
    const warnings: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "warning") warnings.push(m.text());
    });
    await page.goto(shop.url + "/my-account/");
    await layerEvent(page, "page_view");
    expect((await consentCalls(page)).map((c) => c.args)).toEqual([
      ["consent", "default", { analytics_storage: "granted", ad_storage: "denied", ad_user_data: "denied", ad_personalization: "denied" }],
    ]);

    await page.waitForSelector('form.register button[type="submit"]:not([disabled])');
    const email = `registered-${Date.now()}@example.com`;
    await page.fill("#reg_email", email);
    await page.fill("#reg_password", "a-Long-password-42");
    await page.locator("form.register").getByRole("button", { name: "Register" }).click();
    const signUp = await layerEvent(page, "sign_up");
    const [customer] = await shop.services.db.query<{ id: number }>(`SELECT id FROM customers WHERE email = $1`, [email]);
    expect(signUp).toMatchObject({ method: "email", user_id: String(customer!.id) });
    expect(signUp.event_id).toHaveLength(EVENT_ID_LENGTH);
    expect((await serverEvent(observed, signUp.event_id!)).fields.get("event")).toBe("CompleteRegistration");

    // A consent change pushes Consent Mode's update.
    await page.evaluate(() => {
      document.cookie = `shop_consent=v1.1.1.${Math.floor(Date.now() / 1000)}; path=/`;
      document.dispatchEvent(new CustomEvent("shop:consent-change", { detail: { analytics: true, marketing: true } }));
    });
    await expect.poll(async () => (await consentCalls(page)).map((c) => c.args[1])).toContain("update");
    expect((await consentCalls(page)).find((c) => c.args[1] === "update")!.args[2]).toMatchObject({ ad_storage: "granted" });

    // The next page: a page view for the signed-in visitor, no second sign_up. Invalid printed JSON: a warning only.
    await page.goto(shop.url + "/product/silk-pocket-square/");
    const view = await layerEvent(page, "page_view");
    expect(view.user_id).toBe(String(customer!.id));
    await layerEvent(page, "view_item");
    await page.evaluate(() => {
      document.querySelector("script.pys-product-data")!.textContent = "{not json";
    });
    await page.locator("form.cart .single_add_to_cart_button").click();
    await page.waitForSelector("form.cart .single_add_to_cart_button.added");
    await letPageSettle(page, { frames: 5 });
    expect(warnings.filter((w) => w.startsWith("Tracking: invalid JSON"))).toHaveLength(1);
    expect((await layer(page)).some((e) => e.event === "sign_up" || e.event === "add_to_cart")).toBe(false);
    expect(observed.server.filter((s) => s.fields.get("event") === "CompleteRegistration")).toHaveLength(1);

    // A variable product's add button before a variation is chosen: disabled, so no AddToCart.
    await page.goto(shop.url + "/product/cotton-face-mask/");
    await layerEvent(page, "view_item");
    await page.locator("form.cart .single_add_to_cart_button.wc-variation-selection-needed").click({ force: true }); // aria-disabled: a real click all the same
    await letPageSettle(page, { frames: 5 });
    expect((await layer(page)).some((e) => e.event === "add_to_cart")).toBe(false);
    expect(observed.server.some((s) => s.fields.get("event") === "AddToCart")).toBe(false);
    await context.close();
  });

  it("refused: nothing loads or is sent; granted later on the page (analytics only): events flow, the fallback carries them", async () => {
    const observed: Observed = { thirdParty: [], server: [], chunks: [] };
    const context = await contextWith(`v1.0.0.${Math.floor(Date.now() / 1000)}`, observed);
    // No beacons, and the REST route failing: the form-urlencoded POST, then the admin-ajax fallback.
    await context.addInitScript(() => Object.defineProperty(navigator, "sendBeacon", { value: () => false }));
    await context.route("**/wp-json/pys/v1/event", (route) => route.fulfill({ status: 503, body: "" }));
    const page = await context.newPage();
    await page.goto(shop.url + "/product/silk-pocket-square/");
    await page.waitForFunction(() => document.getElementById("wc-cart-announcer") !== null); // the cart script is mounted
    await page.locator("form.cart .single_add_to_cart_button").click();
    await page.waitForSelector("form.cart .single_add_to_cart_button.added");
    await letPageSettle(page, { frames: 5 });
    expect(await page.evaluate(() => (window as unknown as { dataLayer?: unknown }).dataLayer)).toBeUndefined();
    expect(observed).toEqual({ thirdParty: [], server: [], chunks: [] });
    expect((await context.cookies()).map((c) => c.name)).not.toContain("pys_fb_event_id");

    // The banner grants analytics only: the tracker loads now, the page view goes out; no ad pixel, no ad script.
    await page.evaluate(() => {
      document.cookie = `shop_consent=v1.1.0.${Math.floor(Date.now() / 1000)}; path=/`;
      document.dispatchEvent(new CustomEvent("shop:consent-change", { detail: { analytics: true, marketing: false } }));
    });
    const view = await layerEvent(page, "view_item");
    await expect.poll(() => observed.server.filter((s) => s.fields.get("eventID") === view.event_id).length).toBe(2);
    const [rest, ajax] = observed.server.filter((s) => s.fields.get("eventID") === view.event_id);
    expect(rest!.url).toContain("/wp-json/pys/v1/event");
    expect(rest!.fields.getAll("ids[]")).toEqual([]); // no marketing consent: no pixel ids
    expect(ajax!.url).toContain("/wp-admin/admin-ajax.php");
    expect(Object.fromEntries(ajax!.fields)).toMatchObject({
      action: "pys_api_event",
      pixel: "ga",
      event: "ViewContent",
      url: shop.url + "/product/silk-pocket-square/",
    });
    // On the server: the analytics destination got it (through the fallback), the marketing one did not.
    expect(await deliveredIds("mp", [view.event_id!])).toEqual(["view_item"]);
    expect(delivered.capi.some((d) => d.id === view.event_id)).toBe(false);
    expect(await page.evaluate(() => "fbq" in window)).toBe(false);
    expect(observed.thirdParty.filter((u) => u.includes("facebook"))).toEqual([]);
    expect((await context.cookies()).map((c) => c.name)).not.toContain("pbid"); // a marketing cookie: analytics only here
    expect((await context.cookies()).map((c) => c.name)).toContain("pys_fb_event_id");

    // Withdrawn: the id cookie goes, and a later add sends nothing.
    await page.evaluate(() => {
      document.cookie = `shop_consent=v1.0.0.${Math.floor(Date.now() / 1000)}; path=/`;
      document.dispatchEvent(new CustomEvent("shop:consent-change", { detail: { analytics: false, marketing: false } }));
    });
    await expect.poll(async () => (await context.cookies()).map((c) => c.name)).not.toContain("pys_fb_event_id");
    const sent = observed.server.length;
    const entries = (await layer(page)).length;
    await page.locator("form.cart .single_add_to_cart_button").click();
    await expect.poll(() => page.locator("#ast-site-header-cart a.cart-contents .count").first().textContent()).toBe("2");
    await letPageSettle(page, { frames: 5 });
    expect(observed.server.length).toBe(sent);
    expect((await layer(page)).length).toBe(entries);
    await context.close();
  });
});
