/**
 * The admin's Settings › Checkout tab (issue 14, docs/contract/admin.md 'Settings') in Chromium: the owner switches
 * the checkout to the one-page layout with another button text and a shopper's checkout follows on its next load; a
 * second tab that read the old version has its save refused (412) and reloads the owner's. axe-core on the tab.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { signedIn as signInAs } from "../support/admin-browser.ts";
import { openCheckoutWithCart } from "../support/checkout-page.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let browser: Browser;
let productId = 0;
const PASSWORD = "settings checkout pass 1";
const ADMIN = "set-checkout-owner@example.com";

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  const made = await registerCustomer(shop.services.db, { email: ADMIN, password: PASSWORD, first_name: "Sam", last_name: "Settings" });
  if (!made.ok) throw new Error(made.message);
  await shop.services.db.query(`UPDATE customers SET role = 'administrator' WHERE id = $1`, [made.customerId]);
  const [row] = await shop.services.db.query<{ id: number }>(`UPDATE products SET stock_quantity = 50 WHERE slug = 'silk-pocket-square' RETURNING id`);
  productId = row!.id;
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

const said = (page: Page, text: string) => page.locator(".components-notice").getByText(text, { exact: false });
const signedIn = (email: string, width = 1280) => signInAs(browser, shop.url, email, PASSWORD, width);

describe("Settings › Checkout", () => {
  it("checkout: the owner picks the one-page layout and a shopper's checkout follows; a stale second tab is refused", async () => {
    const { context, page } = await signedIn(ADMIN);
    const shopper = await openCheckoutWithCart(browser, shop.url, productId);
    expect(await shopper.locator("form.checkout.layout-multi-step").count()).toBe(1);

    await page.goto(`${shop.url}/wp-admin/settings/checkout/`);
    const second = await context.newPage();
    await second.goto(`${shop.url}/wp-admin/settings/checkout/`);
    await second.getByLabel("Place order button text").waitFor();

    await page.getByLabel("One page: everything in one form").check();
    await page.getByLabel("Place order button text").fill("Buy now");
    await page.getByText("Unsaved changes.").waitFor();
    await page.getByRole("button", { name: "Save checkout page settings" }).click();
    await said(page, "Settings saved.").waitFor();
    await page.screenshot({ path: "tmp/shots/admin_1280_settings_checkout.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    await shopper.reload();
    await shopper.waitForSelector('form.checkout[data-hydrated="1"]');
    expect(await shopper.locator("form.checkout.layout-one-page").count()).toBe(1);
    expect(await shopper.locator("#place_order").textContent()).toContain("Buy now");

    // The second tab read the old version: its save is refused, and reloading shows the owner's.
    await second.getByLabel("Modern: two steps (details, then payment), no login toggle").check();
    await second.getByRole("button", { name: "Save checkout page settings" }).click();
    await said(second, "These settings were changed since you opened them").waitFor();
    await second.getByRole("button", { name: "Reload the settings (your changes are discarded)" }).click();
    await expect.poll(() => second.getByLabel("One page: everything in one form").isChecked()).toBe(true);
    await shopper.close();
    await context.close();
  });
});
