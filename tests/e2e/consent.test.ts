/**
 * Consent in the browser (decision 0017): the banner by keyboard and under axe, the choice kept 365 days across a
 * reload, a refusal that deletes the attribution and pys_* cookies and empties the order's attribution inputs, GPC
 * as a refusal, the pre-hydration script that attributes a click made before the app has loaded, and
 * `attribution.allowTracking` false writing no cookie, and the console warning for a manipulated attribution element.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";

let shop: TestShop;
let browser: Browser;
let productId: number;
const ACCEPTED = "v1.1.1.1790000000";

beforeAll(async () => {
  shop = await startTestShop();
  browser = await launchBrowser();
  const [row] = await shop.services.db.query<{ id: number }>(
    `UPDATE products SET stock_quantity = 50, regular_price = 1500, sale_price = NULL WHERE slug = 'silk-pocket-square' RETURNING id`,
  );
  productId = row!.id;
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

const host = () => new URL(shop.url).hostname;
const cookieMap = async (context: BrowserContext) => Object.fromEntries((await context.cookies()).map((c) => [c.name, c]));
const names = async (context: BrowserContext) => (await context.cookies()).map((c) => c.name).sort();
const focusedName = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name || document.activeElement?.textContent?.trim());
const hydrated = (page: Page) => page.waitForSelector('.consent-banner[data-hydrated="1"]', { state: "attached" });
const banner = (page: Page) => page.getByRole("region", { name: "Cookies on this site" });
/** Cookies of the site's tracking list (docs/contract/storefront.md §9) and attribution, as a returning visitor may have them. */
const TRACKING_COOKIES = ["pbid", "pys_landing_page", "last_pysTrafficSource", "pys_utm_source", "sbjs_current", "sbjs_udata"];
const withTrackingCookies = (context: BrowserContext, extra: Record<string, string> = {}) =>
  context.addCookies(
    Object.entries({ ...Object.fromEntries(TRACKING_COOKIES.map((n) => [n, "old"])), ...extra }).map(([name, value]) => ({
      name,
      value,
      domain: host(),
      path: "/",
    })),
  );

describe("the consent banner", () => {
  it("asks before any analytics cookie, works by keyboard, passes axe, and the choice survives a reload for 365 days", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${shop.url}/shop/?utm_source=newsletter&utm_medium=email&utm_campaign=winter`);
    await hydrated(page);
    await expect.poll(() => banner(page).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.dataset.consent)).toBe("ask");
    expect((await names(context)).filter((n) => n.startsWith("sbjs_"))).toEqual([]);
    // The banner does not take focus on load (it is not modal) and moves no content: it is fixed at the bottom.
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    expect(await page.locator(".consent-banner").evaluate((el) => getComputedStyle(el).position)).toBe("fixed");
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Keyboard: Preferences opens the choices with focus on the first one; Escape does not accept.
    await page.getByRole("button", { name: "Preferences" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => focusedName(page)).toBe("consent_analytics");
    await page.keyboard.press("Space");
    expect(await page.isChecked('input[name="consent_analytics"]')).toBe(true);
    await page.keyboard.press("Escape");
    expect(await banner(page).isVisible()).toBe(true);
    expect((await cookieMap(context)).shop_consent).toBeUndefined();
    expect(await seriousAxeViolations(page, ".consent-banner")).toEqual([]);
    await page.keyboard.press("Tab"); // marketing
    await page.keyboard.press("Tab"); // Reject all
    await page.keyboard.press("Tab"); // Save choices
    expect(await focusedName(page)).toBe("Save choices");
    await page.keyboard.press("Enter");

    await expect.poll(() => banner(page).isVisible()).toBe(false);
    const consent = (await cookieMap(context)).shop_consent!;
    expect(consent.value).toMatch(/^v1\.1\.0\.\d+$/);
    const days = (consent.expires - Date.now() / 1000) / 86_400;
    expect(days).toBeGreaterThan(364.9);
    expect(days).toBeLessThanOrEqual(365);
    // Analytics consented: the landing seen before the choice is attributed; marketing refused: no pbid.
    await expect
      .poll(async () => decodeURIComponent((await cookieMap(context)).sbjs_current?.value ?? ""))
      .toContain("typ=utm|||src=newsletter|||mdm=email|||cmp=winter");
    expect((await cookieMap(context)).pbid).toBeUndefined();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("content");

    await page.reload();
    await hydrated(page);
    expect(await page.evaluate(() => document.documentElement.dataset.consent)).toBe("decided");
    expect(await banner(page).isVisible()).toBe(false);
    expect(decodeURIComponent((await cookieMap(context)).sbjs_session!.value)).toContain("pgs=2");

    // The footer's Cookie settings reopens the banner with the current choice; Escape closes it back to the button.
    await page.getByRole("button", { name: "Cookie settings" }).click();
    await expect.poll(() => banner(page).isVisible()).toBe(true);
    expect(await page.isChecked('input[name="consent_analytics"]')).toBe(true);
    expect(await page.isChecked('input[name="consent_marketing"]')).toBe(false);
    await page.keyboard.press("Escape");
    await expect.poll(() => banner(page).isVisible()).toBe(false);
    expect(await focusedName(page)).toBe("Cookie settings");
    expect((await cookieMap(context)).shop_consent!.value).toBe(consent.value);
    await context.close();
  });

  it("refusing deletes every attribution and pys_* cookie and leaves the order's attribution inputs empty", async () => {
    const context = await browser.newContext({ viewport: { width: 400, height: 900 } });
    await withTrackingCookies(context, { shop_consent: ACCEPTED });
    const page = await context.newPage();
    expect((await page.request.post(shop.url + "/?wc-ajax=add_to_cart", { form: { product_id: String(productId), quantity: "1" } })).ok()).toBe(true);
    await page.goto(`${shop.url}/checkout/?utm_source=partner`);
    await page.waitForSelector('form.checkout[data-hydrated="1"]');
    const source = 'form[name="checkout"] input[name="wc_order_attribution_source_type"]';
    await expect.poll(() => page.inputValue(source)).toBe("utm");
    expect(await banner(page).isVisible()).toBe(false);

    await page.getByRole("button", { name: "Cookie settings" }).click();
    await banner(page).getByRole("button", { name: "Reject all" }).click();
    await expect.poll(async () => (await names(context)).filter((n) => n.startsWith("sbjs_") || n.includes("pys") || n === "pbid")).toEqual([]);
    expect((await cookieMap(context)).shop_consent!.value).toMatch(/^v1\.0\.0\./);
    await expect.poll(() => page.inputValue(source)).toBe("");
    const values = await page
      .locator('form[name="checkout"] wc-order-attribution-inputs input')
      .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    expect(values).toHaveLength(16);
    expect(values.every((v) => v === "")).toBe(true);

    // And it stays so on the next page load: nothing is written again.
    await page.reload();
    await page.waitForSelector('form.checkout[data-hydrated="1"]');
    await expect.poll(() => page.locator('form[name="checkout"] wc-order-attribution-inputs input').count()).toBe(16);
    expect(await page.inputValue(source)).toBe("");
    expect((await names(context)).filter((n) => n.startsWith("sbjs_"))).toEqual([]);
    await context.close();
  });

  it("the browser's Global Privacy Control counts as a refusal: no banner, no attribution, old tracking cookies deleted", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(() => Object.defineProperty(Navigator.prototype, "globalPrivacyControl", { get: () => true, configurable: true }));
    await withTrackingCookies(context);
    const page = await context.newPage();
    await page.goto(`${shop.url}/?utm_source=gpc&utm_medium=test`);
    await hydrated(page);
    expect(await page.evaluate(() => document.documentElement.dataset.consent)).toBe("decided");
    expect(await banner(page).isVisible()).toBe(false);
    expect(await names(context)).not.toEqual(expect.arrayContaining(["sbjs_current"]));
    expect((await names(context)).filter((n) => TRACKING_COOKIES.includes(n) || n.startsWith("sbjs_"))).toEqual([]);
    // The visitor may still opt in from the footer; until then nothing is decided for them.
    await page.getByRole("button", { name: "Cookie settings" }).click();
    expect(await page.isChecked('input[name="consent_analytics"]')).toBe(false);
    await context.close();
  });

  it("a campaign landing followed by a click before the app has loaded is still attributed (the inline script)", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: "shop_consent", value: ACCEPTED, domain: host(), path: "/" }]);
    // No module script ever arrives: the page never hydrates, as in the first second on a slow connection.
    await context.route("**/assets/**/*.js", (route) => route.abort());
    const page = await context.newPage();
    await page.goto(`${shop.url}/product/silk-pocket-square/?utm_source=mail&utm_medium=email&utm_campaign=early`);
    await page.locator('a[href="/shop/"]:visible').first().click();
    await page.waitForURL(`${shop.url}/shop/`);
    const cookies = await cookieMap(context);
    expect(decodeURIComponent(cookies.sbjs_current!.value)).toContain("typ=utm|||src=mail|||mdm=email|||cmp=early");
    expect(decodeURIComponent(cookies.sbjs_session!.value)).toContain("pgs=2");
    expect(decodeURIComponent(cookies.sbjs_udata!.value)).toContain("vst=1");
    await context.close();
  });
});

describe("attribution.allowTracking false", () => {
  it("writes no attribution cookie even with consent, deletes old ones, and the order's inputs stay empty", async () => {
    const other = await startTestShop({ SHOP_SETTINGS: JSON.stringify({ attribution: { allowTracking: false } }) });
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const h = new URL(other.url).hostname;
      await context.addCookies(
        ["shop_consent", "sbjs_first"].map((name) => ({ name, value: name === "shop_consent" ? ACCEPTED : "old", domain: h, path: "/" })),
      );
      const page = await context.newPage();
      expect((await page.request.post(other.url + "/?wc-ajax=add_to_cart", { form: { product_id: String(productId), quantity: "1" } })).ok()).toBe(true);
      await page.goto(`${other.url}/checkout/?utm_source=newsletter`);
      await page.waitForSelector('form.checkout[data-hydrated="1"]');
      await expect.poll(() => page.locator('form[name="checkout"] wc-order-attribution-inputs input').count()).toBe(16);
      expect(await page.inputValue('input[name="wc_order_attribution_source_type"]')).toBe("");
      expect(await page.evaluate(() => (window.sbjs ? window.sbjs.get : "missing"))).toBeNull();
      expect((await names(context)).filter((n) => n.startsWith("sbjs_"))).toEqual([]);

      // An input removed by another script: the next fill (here after a consent change) warns, as WooCommerce does (§8).
      const warning = page.waitForEvent("console", (m) => m.type() === "warning" && m.text().includes("was manipulated"));
      await page.evaluate(() => {
        document.querySelector('input[name="wc_order_attribution_referrer"]')!.remove();
        document.dispatchEvent(new CustomEvent("shop:consent-change"));
      });
      expect((await warning).text()).toBe(`Field "referrer" not found. Most likely, the '<wc-order-attribution-inputs>' element was manipulated.`);
      await context.close();
    } finally {
      await other.close();
    }
  });
});
