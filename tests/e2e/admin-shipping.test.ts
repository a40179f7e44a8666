/**
 * Settings › Shipping and › General in Chromium (issue 14, docs/contract/admin.md 'Settings'): the owner adds a zone
 * for Canada with a flat rate (a bad cost refused at its field first), and a shopper's checkout shows that rate once
 * Canada is chosen, the rest of the world's flat rate for the United States; the General tab refuses "specific
 * countries" without one, at the list. axe-core on both tabs; screenshots at 1280 and 400 px to tmp/shots/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { scrollsSideways, signedIn } from "../support/admin-browser.ts";
import { openCheckoutWithCart } from "../support/checkout-page.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let browser: Browser;
const PASSWORD = "shipping zones pass 1";
const OWNER = "zones-owner@example.com";

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  const made = await registerCustomer(shop.services.db, { email: OWNER, password: PASSWORD, first_name: "Sam", last_name: "Shipping" });
  if (!made.ok) throw new Error(made.message);
  await shop.services.db.query(`UPDATE customers SET role = 'administrator' WHERE id = $1`, [made.customerId]);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

describe("Settings › Shipping", () => {
  it("the owner adds a zone for Canada with a flat rate, and a shopper's checkout shows it for Canada only", async () => {
    const { context, page } = await signedIn(browser, shop.url, OWNER, PASSWORD);
    await page.goto(`${shop.url}/wp-admin/settings/shipping/`);
    await page.getByRole("heading", { level: 1, name: "Settings: Shipping" }).waitFor();
    const table = page.locator("table.admin-zones");
    await expect.poll(() => table.locator("tbody tr").count()).toBe(1);
    expect(await table.locator("tbody tr").first().textContent()).toContain("Locations not covered by your other zones");

    await page.getByRole("button", { name: "Add shipping zone" }).click();
    await page.getByLabel("Zone name").fill("Canada");
    await page.getByRole("checkbox", { name: "Canada" }).check();
    await page.getByRole("button", { name: "Add flat rate" }).click();
    await page.getByLabel("Method 1: title").fill("Canada Post");
    await page.getByLabel("Method 1: cost ($)").fill("-3");
    await page.getByRole("button", { name: "Add zone" }).click();
    const cost = page.getByLabel("Method 1: cost ($)");
    await expect.poll(() => cost.getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.id)).toBe(await cost.getAttribute("id"));
    await cost.fill("12");
    await page.getByRole("button", { name: "Add zone" }).click();
    await page.locator(".components-notice").getByText("Zone “Canada” added.").waitFor();
    await expect.poll(() => table.locator("tbody tr").count()).toBe(2);
    expect(await table.locator("tbody tr").first().textContent()).toContain("Canada Post");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: "tmp/shots/admin-settings-shipping-1280.png", fullPage: true });
    await page.getByRole("button", { name: "Edit Canada" }).click();
    await page.getByLabel("Zone name").waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: "tmp/shots/admin-settings-shipping-zone-1280.png", fullPage: true });
    await context.close();

    const [row] = await shop.services.db.query<{ id: number }>(
      `UPDATE products SET stock_quantity = 50, regular_price = 1500, sale_price = NULL WHERE slug = 'silk-pocket-square' RETURNING id`,
    );
    const shopper = await openCheckoutWithCart(browser, shop.url, row!.id);
    const review = shopper.locator(".woocommerce-checkout-review-order-table");
    await expect.poll(() => review.textContent()).toContain("Flat rate");
    await shopper.selectOption("#billing_country", "CA");
    await expect.poll(() => review.textContent()).toContain("Canada Post");
    expect(await review.textContent()).toContain("Canada Post: $12");
    expect(await review.textContent()).not.toContain("Flat rate");
    await shopper.selectOption("#billing_country", "US");
    await expect.poll(() => review.textContent()).toContain("Flat rate");
    await shopper.close();
  });

  it("General at 400 px: the address and the fixed currency; 'specific countries' without one is refused at the list", async () => {
    const { context, page } = await signedIn(browser, shop.url, OWNER, PASSWORD, 400);
    await page.goto(`${shop.url}/wp-admin/settings/general/`);
    await page.getByLabel("City").waitFor();
    expect(await page.locator("#general-currency").textContent()).toContain("USD");
    await page.getByLabel("City").fill("Springfield");
    await page.getByRole("radio", { name: "Sell to specific countries" }).check();
    await page.getByRole("button", { name: "Save general settings" }).click();
    await page.locator(".admin-country-list").getByText("choose at least one country to sell to", { exact: false }).waitFor();
    const first = page.getByRole("checkbox", { name: "United States (US)" });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-invalid"))).toBe("true");
    await first.check();
    await page.getByRole("button", { name: "Save general settings" }).click();
    await page.locator(".components-notice").getByText("Settings saved.", { exact: false }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: "tmp/shots/admin-settings-general-400.png", fullPage: true });
    await page.goto(`${shop.url}/wp-admin/settings/shipping/`);
    await page.locator("table.admin-zones").waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin-settings-shipping-400.png", fullPage: true });
    await context.close();
  });
});
