/**
 * Order attribution end to end: a utm landing on a product page, consent given in the banner, a guest card checkout,
 * the order's stored attribution.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";

let shop: TestShop;
let browser: Browser;
let productId: number;

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

describe("order attribution", () => {
  it("a newsletter landing is attributed to the order: source_type utm, utm_*, session pages, entry, device type", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const landing = `${shop.url}/product/silk-pocket-square/?utm_source=newsletter&utm_medium=email&utm_campaign=spring`;
    await page.goto(landing);
    // Attribution is analytics (decision 0017): nothing is written until the visitor consents, and the landing seen
    // before the choice is then counted.
    expect((await page.context().cookies()).map((c) => c.name)).not.toContain("sbjs_session");
    await page.waitForSelector('.consent-banner[data-hydrated="1"]');
    await page.getByRole("button", { name: "Accept all" }).click();
    await expect.poll(async () => (await page.context().cookies()).map((c) => c.name)).toContain("sbjs_session");
    const cookies = Object.fromEntries((await page.context().cookies()).map((c) => [c.name, c]));
    expect(decodeURIComponent(cookies.sbjs_current!.value)).toContain("typ=utm|||src=newsletter|||mdm=email|||cmp=spring");
    // Session cookies, except sbjs_session (30 minutes).
    expect(cookies.sbjs_current!.expires).toBe(-1);
    expect(cookies.sbjs_session!.expires).toBeGreaterThan(Date.now() / 1000 + 25 * 60);

    expect((await page.request.post(shop.url + "/?wc-ajax=add_to_cart", { form: { product_id: String(productId), quantity: "1" } })).ok()).toBe(true);
    await page.goto(shop.url + "/checkout/");
    await page.waitForSelector('form.checkout[data-hydrated="1"]');
    const inputs = page.locator('form[name="checkout"] wc-order-attribution-inputs input[type="hidden"]');
    await expect.poll(() => inputs.count()).toBe(16);
    expect(await page.inputValue('input[name="wc_order_attribution_source_type"]')).toBe("utm");
    expect(await page.inputValue('input[name="wc_order_attribution_session_pages"]')).toBe("2");
    expect(await page.inputValue('input[name="wc_order_attribution_utm_content"]')).toBe("(none)");

    await page.fill("#billing_email", "attributed@example.com");
    await page.fill("#billing_first_name", "Ada");
    await page.fill("#billing_last_name", "Lovelace");
    await page.fill("#billing_address_1", "1 Analytical Way");
    await page.fill("#billing_city", "Springfield");
    await page.selectOption("#billing_state", "IL");
    await page.fill("#billing_postcode", "62701");
    await page.fill("#billing_phone", "555 123 4567");
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    await page.locator("#wc-sandbox-credit-card-account-number").pressSequentially("4242424242424242");
    await page.locator("#wc-sandbox-credit-card-expiry").pressSequentially("1234");
    await page.fill("#wc-sandbox-credit-card-csc", "123");
    await Promise.all([page.waitForURL(/\/checkout\/order-received\/(\d+)\/\?key=/), page.getByRole("button", { name: "Place order" }).click()]);
    const orderId = Number(/order-received\/(\d+)\//.exec(page.url())![1]);

    const rows = await shop.services.db.query<{ key: string; value: string }>(
      `SELECT key, value FROM order_meta WHERE order_id = $1 AND key LIKE '_wc_order_attribution_%'`,
      [orderId],
    );
    const meta = Object.fromEntries(rows.map((r) => [r.key.replace("_wc_order_attribution_", ""), r.value]));
    expect(meta).toMatchObject({
      source_type: "utm",
      utm_source: "newsletter",
      utm_medium: "email",
      utm_campaign: "spring",
      session_entry: landing,
      session_count: "1",
      device_type: "Desktop",
    });
    expect(Number(meta.session_pages)).toBeGreaterThanOrEqual(2);
    expect(meta.session_start_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(meta.user_agent).toContain("Chrome");
    // '(none)' values are not stored.
    expect(meta.utm_content).toBeUndefined();
    expect(meta.referrer).toBeUndefined();
    await page.close();
  });
});
