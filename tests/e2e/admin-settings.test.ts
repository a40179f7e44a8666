/**
 * The admin's Settings screen (issue 14, docs/contract/admin.md 'Settings') in Chromium: the owner adds a custom
 * referral source whose bad host is refused at its own field, corrects it and the storefront's next page carries
 * it; the owner switches the checkout to the one-page layout and a shopper's checkout follows; a second tab's stale
 * save is refused (412) with a reload; a shop manager has no consent tab (403 on its address) and uses the checkout
 * tab at 400 px; a customer gets the sign-in page. axe-core on every tab; screenshots to tmp/shots/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { scrollsSideways, signedIn as signInAs } from "../support/admin-browser.ts";
import { openCheckoutWithCart } from "../support/checkout-page.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let browser: Browser;
let productId = 0;
const PASSWORD = "settings screens pass 1";
const ADMIN = "set-owner@example.com";
const MANAGER = "set-manager@example.com";
const CUSTOMER = "set-shopper@example.com";

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  for (const [email, role] of [
    [ADMIN, "administrator"],
    [MANAGER, "shop_manager"],
    [CUSTOMER, "customer"],
  ] as const) {
    const made = await registerCustomer(shop.services.db, { email, password: PASSWORD, first_name: "Sam", last_name: "Settings" });
    if (!made.ok) throw new Error(made.message);
    await shop.services.db.query(`UPDATE customers SET role = $2 WHERE id = $1`, [made.customerId, role]);
  }
  const [row] = await shop.services.db.query<{ id: number }>(`UPDATE products SET stock_quantity = 50 WHERE slug = 'silk-pocket-square' RETURNING id`);
  productId = row!.id;
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

const said = (page: Page, text: string) => page.locator(".components-notice").getByText(text, { exact: false });
const signedIn = (email: string, width = 1280) => signInAs(browser, shop.url, email, PASSWORD, width);

describe("Settings", () => {
  it("attribution: a bad referral host is refused at its field; the corrected one reaches the storefront", async () => {
    const { context, page } = await signedIn(ADMIN);
    await page.goto(`${shop.url}/wp-admin/settings/`);
    expect(new URL(page.url()).pathname).toBe("/wp-admin/settings/checkout/");
    expect(await page.getByRole("navigation", { name: "Admin menu" }).getByRole("link", { name: "Settings" }).getAttribute("aria-current")).toBe("page");
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Order attribution" }).click();
    await page.getByRole("heading", { level: 1, name: "Settings: Order attribution" }).waitFor();
    await page.getByLabel("Session length (minutes)").fill("45");
    await page.getByRole("button", { name: "Add referral source" }).click();
    await page.getByLabel("Referral 1: host").fill("partner.example");
    await page.getByRole("button", { name: "Add referral source" }).click();
    await page.getByLabel("Referral 2: host").fill("not a host/");
    await page.getByLabel("Referral 2: shown as").fill("Newsletter");
    await page.getByRole("button", { name: "Save order attribution settings" }).click();
    const bad = page.getByLabel("Referral 2: host");
    await expect.poll(() => bad.getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => bad.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByText("A host name like example.com").waitFor();
    expect(await page.getByLabel("Referral 1: host").getAttribute("aria-invalid")).toBeNull();
    await page.screenshot({ path: "tmp/shots/admin_1280_settings_attribution_error.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    // Nothing was stored.
    expect(await shop.services.db.query(`SELECT 1 FROM settings WHERE key = 'site_settings.attribution' AND value::text LIKE '%partner%'`)).toHaveLength(0);

    await bad.fill("news.example");
    await page.getByRole("button", { name: "Save order attribution settings" }).click();
    await said(page, "Settings saved.").waitFor();
    await page.screenshot({ path: "tmp/shots/admin_1280_settings_attribution.png", fullPage: true });

    const html = await (await fetch(`${shop.url}/`)).text();
    expect(html).toContain('"referrals":[{"host":"partner.example"},{"host":"news.example","display":"Newsletter"}]');
    expect(html).toContain('"session":"45"');
    await context.close();
  });

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

  it("consent: the administrator's tab", async () => {
    const { context, page } = await signedIn(ADMIN);
    await page.goto(`${shop.url}/wp-admin/settings/consent/`);
    await page.getByLabel("Ask before tracking (opt-in)").waitFor();
    await page.getByLabel("Traffic source (analytics)").check();
    await page.getByRole("button", { name: "Save consent settings" }).click();
    await said(page, "Settings saved.").waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await (await fetch(`${shop.url}/`)).text()).toContain('"disabledCookies":["trafficsource"]');
    await context.close();
  });

  it("a shop manager: no consent tab (403 on its address), the checkout tab at 400 px", async () => {
    const { context, page } = await signedIn(MANAGER, 400);
    await page.goto(`${shop.url}/wp-admin/settings/checkout/`);
    await page.getByLabel("Place order button text").waitFor();
    const tabs = page.getByRole("navigation", { name: "Settings sections" });
    expect(await tabs.getByRole("link").allTextContents()).toEqual(["Checkout", "Order attribution"]);
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_settings_checkout.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.goto(`${shop.url}/wp-admin/settings/attribution/`);
    await page.getByRole("button", { name: "Add referral source" }).click();
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_settings_attribution.png", fullPage: true });
    const denied = await page.goto(`${shop.url}/wp-admin/settings/consent/`);
    expect(denied?.status()).toBe(403);
    await page.getByText("Only an administrator can change the consent settings.").waitFor();
    await context.close();
  });

  it("a customer gets the sign-in page", async () => {
    const { context, page } = await signedIn(CUSTOMER);
    await page.goto(`${shop.url}/wp-admin/settings/checkout/`);
    expect(new URL(page.url()).pathname).toBe("/wp-login.php");
    await context.close();
  });
});
