/**
 * The order received page in the browser: the receipt lists each line's choice (a variation's attributes, a
 * bundle's contents) as the checkout showed it, and so does the e-mail; a guest can create an account with the order
 * and go back to the shop; a visitor holding only the link is asked for the order's e-mail address.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { fillBillingDetails } from "../support/checkout-page.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";

let shop: TestShop;
let browser: Browser;
let variable: { id: number; variation: number; attributes: Record<string, string> };
let bundleId: number;
const EMAIL = "receipt-guest@example.com";

beforeAll(async () => {
  shop = await startTestShop();
  browser = await launchBrowser();
  const db = shop.services.db;
  const [mask] = await db.query<{ id: number }>(`SELECT id FROM products WHERE slug = 'cotton-face-mask'`);
  const [v] = await db.query<{ id: number; attributes: Record<string, string> }>(
    `SELECT id, attributes FROM variations WHERE product_id = $1 AND stock_status = 'instock' ORDER BY id LIMIT 1`,
    [mask!.id],
  );
  variable = { id: mask!.id, variation: v!.id, attributes: v!.attributes };
  const [bundle] = await db.query<{ id: number }>(
    `UPDATE products SET stock_quantity = 50, stock_status = 'instock' WHERE slug = 'groomsmen-gift-box' RETURNING id`,
  );
  bundleId = bundle!.id;
  await db.query(
    `UPDATE products SET stock_quantity = 50, stock_status = 'instock' WHERE slug IN ('skinny-cotton-tie', 'black-everyday-mask', 'silk-pocket-square', 'tie-clip')`,
  );
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

/** A guest's paid order of the variable mask and the bundle with an extra; returns the page on order received and what the checkout showed. */
async function buyVariationAndBundle(page: Page): Promise<{ maskDetails: string; bundleDetails: string }> {
  const mask = await page.request.post(`${shop.url}/product/cotton-face-mask/`, {
    form: {
      ...variable.attributes,
      quantity: "1",
      "add-to-cart": String(variable.id),
      product_id: String(variable.id),
      variation_id: String(variable.variation),
    },
    maxRedirects: 0,
  });
  expect(mask.status()).toBe(303);
  const bundle = await page.request.post(`${shop.url}/product/groomsmen-gift-box/`, {
    form: {
      "add-to-cart": String(bundleId),
      quantity: "1",
      bundle_quantity_1: "1",
      bundle_quantity_2: "2",
      bundle_selected_optional_3: "yes",
      bundle_quantity_3: "1",
    },
    maxRedirects: 0,
  });
  expect(bundle.status()).toBe(303);
  await page.goto(shop.url + "/checkout/");
  await page.waitForSelector('form.checkout[data-hydrated="1"]');
  const row = (name: string) => page.locator(".woocommerce-checkout-review-order-table tr.cart_item", { hasText: name }).locator(".variation");
  const maskDetails = await row("Cotton Face Mask").innerText();
  const bundleDetails = await row("Groomsmen Gift Box").innerText();
  await fillBillingDetails(page, EMAIL);
  await page.getByRole("button", { name: "Proceed to payment" }).click();
  await page.locator("#wc-sandbox-credit-card-account-number").pressSequentially("4242424242424242");
  await page.locator("#wc-sandbox-credit-card-expiry").pressSequentially("1234");
  await page.fill("#wc-sandbox-credit-card-csc", "123");
  await Promise.all([page.waitForURL(/\/checkout\/order-received\/\d+\/\?key=/), page.getByRole("button", { name: "Place order" }).click()]);
  return { maskDetails, bundleDetails };
}

describe("order received", () => {
  it("the receipt and the e-mail say which variation and what the bundle held; a guest creates an account with the order", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(shop.url + "/shop/");
    const shown = await buyVariationAndBundle(page);
    expect(shown.maskDetails).toMatch(/\w+: \w+/);
    const orderUrl = page.url();
    const lines = page.locator(".woocommerce-table--order-details .order_item");
    const maskLine = lines.filter({ hasText: "Cotton Face Mask" });
    expect(await maskLine.locator(".variation").innerText()).toBe(shown.maskDetails);
    const bundleText = await lines.filter({ hasText: "Groomsmen Gift Box" }).locator(".variation").innerText();
    expect(bundleText).toMatch(/^Contains: /);
    expect(bundleText).toContain("Silk Pocket Square × 1"); // the ticked extra
    const [order] = await shop.services.db.query<{ id: number }>(`SELECT id FROM orders ORDER BY id DESC LIMIT 1`);
    const [mail] = await shop.services.db.query<{ body: string }>(`SELECT body FROM email_outbox WHERE order_id = $1 AND kind = 'order_received'`, [order!.id]);
    expect(mail!.body).toContain(`\n  ${shown.maskDetails}\n`);
    expect(mail!.body).toContain(`\n  ${bundleText}\n`);

    // A way back to the shop, and an account made from the order.
    expect(await page.getByRole("link", { name: "Continue shopping" }).getAttribute("href")).toBe("/shop/");
    expect(await page.getByRole("heading", { name: "Create an account with this order" }).isVisible()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: "tmp/shots/order-received-guest-1280.png", fullPage: true });
    await page.fill("#order-account-password", "short");
    await page.evaluate(() => document.querySelector<HTMLFormElement>(".woocommerce-form-register")!.setAttribute("novalidate", ""));
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText("Please use a password of at least 8 characters.").waitFor();
    expect((await shop.services.db.query(`SELECT id FROM customers WHERE email = $1`, [EMAIL])).length).toBe(0);
    await page.fill("#order-account-password", "receipt pass 1");
    await Promise.all([page.waitForURL(orderUrl), page.getByRole("button", { name: "Create account" }).click()]);
    await page.getByText("Your account was created and this order is in it. Welcome!").waitFor();
    expect(await page.getByRole("heading", { name: "Create an account with this order" }).count()).toBe(0);
    const [linked] = await shop.services.db.query<{ customer_id: number | null; email: string }>(
      `SELECT o.customer_id, c.email FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.id = $1`,
      [order!.id],
    );
    expect(linked!.email).toBe(EMAIL);
    await page.goto(shop.url + "/my-account/orders/");
    expect(await page.locator(`a[href="/my-account/view-order/${order!.id}/"]`).count()).toBeGreaterThan(0);

    // Someone else with the link: the e-mail confirmation form, nothing of the order.
    const stranger = await browser.newPage({ viewport: { width: 400, height: 900 } });
    await stranger.goto(orderUrl);
    await stranger.getByRole("button", { name: "Verify" }).waitFor();
    expect(await stranger.locator(".woocommerce-table--order-details").count()).toBe(0);
    expect(await seriousAxeViolations(stranger)).toEqual([]);
    await stranger.fill("#verify-email", "nobody@example.com");
    await stranger.getByRole("button", { name: "Verify" }).click();
    await stranger.getByText("We were unable to verify the email address you provided").waitFor();
    expect(await stranger.locator(".woocommerce-table--order-details").count()).toBe(0);
    await stranger.fill("#verify-email", EMAIL);
    await stranger.getByRole("button", { name: "Verify" }).click();
    await stranger.locator(".woocommerce-table--order-details").waitFor();
    await stranger.screenshot({ path: "tmp/shots/order-received-verified-400.png", fullPage: true });
    await stranger.close();
    await page.close();
  });
});
