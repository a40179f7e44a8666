/**
 * The admin's Settings screen (issue 14, docs/contract/admin.md 'Settings') in Chromium: the owner adds a custom
 * referral source whose bad host is refused at its own field, corrects it and the storefront's next page carries
 * it; the consent tab; a shop manager has no consent tab (403 on its address) and uses the checkout and payments
 * tabs at 400 px (the sandbox marked as test mode); a customer gets the sign-in page. axe-core on every tab;
 * screenshots to tmp/shots/. The checkout layout: admin-settings-checkout.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { scrollsSideways, signedIn as signInAs } from "../support/admin-browser.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let browser: Browser;
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

  it("a shop manager: no consent tab (403 on its address), the checkout and payments tabs at 400 px", async () => {
    const { context, page } = await signedIn(MANAGER, 400);
    await page.goto(`${shop.url}/wp-admin/settings/checkout/`);
    await page.getByLabel("Place order button text").waitFor();
    const tabs = page.getByRole("navigation", { name: "Settings sections" });
    expect(await tabs.getByRole("link").allTextContents()).toEqual(["Checkout", "General", "Shipping", "Tax", "Payments", "E-mails", "Order attribution"]);
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_settings_checkout.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.goto(`${shop.url}/wp-admin/settings/attribution/`);
    await page.getByRole("button", { name: "Add referral source" }).click();
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_settings_attribution.png", fullPage: true });
    await page.goto(`${shop.url}/wp-admin/settings/payments/`);
    await page.getByLabel("American Express").waitFor();
    await page.getByText("Test mode", { exact: true }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_settings_payments.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
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
