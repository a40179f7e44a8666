/**
 * Settings › Tax in Chromium (issue 14, docs/decisions/0040-tax-rates.md): the owner turns tax on and adds a rate by
 * keyboard (a bad rate refused at its field first); a shopper's checkout then shows the rate's row and a total with
 * tax. axe-core on the tab; screenshots at 1280 and 400 px to tmp/shots/.
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
const PASSWORD = "tax rates pass 1";
const OWNER = "tax-owner@example.com";

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  const made = await registerCustomer(shop.services.db, { email: OWNER, password: PASSWORD, first_name: "Tess", last_name: "Tax" });
  if (!made.ok) throw new Error(made.message);
  await shop.services.db.query(`UPDATE customers SET role = 'administrator' WHERE id = $1`, [made.customerId]);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

describe("Settings › Tax", () => {
  it("the owner turns tax on and adds a rate by keyboard; the shopper's checkout shows its row", async () => {
    const { context, page } = await signedIn(browser, shop.url, OWNER, PASSWORD);
    await page.goto(`${shop.url}/wp-admin/settings/tax/`);
    await page.getByRole("heading", { level: 1, name: "Settings: Tax" }).waitFor();
    const enable = page.getByRole("checkbox", { name: "Enable tax rates and calculations" });
    expect(await enable.isChecked()).toBe(false);
    await enable.focus();
    await page.keyboard.press("Space");
    await page.getByRole("button", { name: "Save tax settings" }).click();
    await page.locator(".components-notice").getByText("Settings saved.", { exact: false }).waitFor();

    await page.getByRole("button", { name: "Add tax rate" }).focus();
    await page.keyboard.press("Enter");
    // The form opens on its first field (Country: any); Tab to the rate.
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe("SELECT");
    for (let i = 0; i < 3; i++) await page.keyboard.press("Tab");
    await page.keyboard.type("ten");
    await page.keyboard.press("Tab");
    await page.keyboard.type("Sales tax");
    await page.keyboard.press("Enter");
    const rate = page.getByLabel("Rate %");
    await expect.poll(() => rate.getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.id)).toBe(await rate.getAttribute("id"));
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("10");
    await page.keyboard.press("Enter");
    await page.locator(".components-notice").getByText("Tax rate “Sales tax” added.").waitFor();
    const table = page.locator("table.admin-tax-rates");
    await expect.poll(() => table.locator("tbody tr").first().textContent()).toContain("Sales tax");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: "tmp/shots/admin-settings-tax-1280.png", fullPage: true });
    await page.getByRole("button", { name: "Edit Sales tax" }).click();
    await page.getByLabel("Tax name").waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();

    const narrow = await signedIn(browser, shop.url, OWNER, PASSWORD, 400);
    await narrow.page.goto(`${shop.url}/wp-admin/settings/tax/`);
    await narrow.page.locator("table.admin-tax-rates tbody tr", { hasText: "Sales tax" }).waitFor();
    expect(await scrollsSideways(narrow.page)).toBe(false);
    await narrow.page.screenshot({ path: "tmp/shots/admin-settings-tax-400.png", fullPage: true });
    await narrow.context.close();

    const [row] = await shop.services.db.query<{ id: number }>(
      `UPDATE products SET stock_quantity = 50, regular_price = 1500, sale_price = NULL WHERE slug = 'silk-pocket-square' RETURNING id`,
    );
    const shopper = await openCheckoutWithCart(browser, shop.url, row!.id);
    const review = shopper.locator(".woocommerce-checkout-review-order-table");
    // $15 + $5 flat rate, 10 % on both: $2 of tax, $22 in all.
    await expect.poll(() => review.locator("tr.tax-rate").textContent()).toBe("Sales tax$2");
    expect(await review.locator("tr.order-total").textContent()).toContain("$22");
    await shopper.screenshot({ path: "tmp/shots/checkout-tax-1280.png", fullPage: true });
    await shopper.setViewportSize({ width: 400, height: 900 });
    await shopper.screenshot({ path: "tmp/shots/checkout-tax-400.png", fullPage: true });
    await shopper.close();
  });
});
