/**
 * wp-login.php in a browser (docs/contract/rest/auth.md): a staff member sent there from /wp-admin/ signs in with the
 * keyboard only and lands back on the dashboard; a wrong password's error is announced and linked to the fields;
 * neither page has serious axe violations, loads a script, or scrolls sideways at 400 px. Screenshots of both pages at
 * 1280 and 400 px go to tmp/shots/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let browser: Browser;
const EMAIL = "keyboard-admin@example.com";
const PASSWORD = "keyboard admin pass 1";

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  shop = await startTestShop();
  browser = await launchBrowser();
  const made = await registerCustomer(shop.services.db, { email: EMAIL, password: PASSWORD, first_name: "Kay", last_name: "Board" });
  if (!made.ok) throw new Error(made.message);
  await shop.services.db.query(`UPDATE customers SET role = 'administrator' WHERE id = $1`, [made.customerId]);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? "");
const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

async function tabTo(page: Page, id: string, max = 10): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if ((await focusedId(page)) === id) return;
  }
  throw new Error(`Tab never reached #${id}`);
}

describe("wp-login.php in a browser", () => {
  it("signs a staff member in by keyboard only and returns them to the admin", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on("request", (r) => void (r.resourceType() === "script" && scripts.push(r.url())));
    await page.goto(`${shop.url}/wp-admin/`);
    expect(new URL(page.url()).pathname).toBe("/wp-login.php");
    expect(new URL(page.url()).searchParams.get("redirect_to")).toBe(`${shop.url}/wp-admin/`);
    await page.screenshot({ path: "tmp/shots/1280_wp-login.png" });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // A wrong password first: the error is an alert, and the fields point at it.
    await tabTo(page, "user_login");
    await page.keyboard.type(EMAIL);
    await page.keyboard.press("Tab");
    expect(await focusedId(page)).toBe("user_pass");
    await page.keyboard.type("not my password");
    await Promise.all([page.waitForURL(/wp-login\.php/), page.keyboard.press("Enter")]);
    const error = page.locator("#login_error[role=alert]");
    await expect.poll(() => error.textContent()).toContain(`The password you entered for the email address ${EMAIL} is incorrect.`);
    expect(await page.locator("#user_pass").getAttribute("aria-describedby")).toBe("login_error");
    expect(await page.locator("#user_login").inputValue()).toBe(EMAIL);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Then the right one, by keyboard: the password field, Remember Me with Space, the button with Enter.
    await page.locator("#user_login").focus();
    await page.keyboard.press("Tab");
    expect(await focusedId(page)).toBe("user_pass");
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press("Tab");
    expect(await focusedId(page)).toBe("rememberme");
    await page.keyboard.press("Space");
    expect(await page.locator("#rememberme").isChecked()).toBe(true);
    await page.keyboard.press("Tab");
    expect(await focusedId(page)).toBe("wp-submit");
    await Promise.all([page.waitForURL(`${shop.url}/wp-admin/`), page.keyboard.press("Enter")]);
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    await page.screenshot({ path: "tmp/shots/1280_wp-admin.png" });
    expect(await seriousAxeViolations(page)).toEqual([]);
    // The sign-in page is a plain document; the dashboard loads the admin's own bundle and no storefront script.
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((url) => !new URL(url).pathname.startsWith("/wp-admin-app/"))).toEqual([]);
    page.removeAllListeners("request");

    await page.setViewportSize({ width: 400, height: 900 });
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/400_wp-admin.png", fullPage: true });

    // A product page shows staff its Edit link, which leads through post.php to the edit screen's address.
    const [product] = await shop.services.db.query<{ slug: string; name: string }>(
      `SELECT slug, name FROM products WHERE status = 'publish' ORDER BY id LIMIT 1`,
    );
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${shop.url}/product/${product!.slug}/`);
    const edit = page.getByRole("link", { name: `Edit “${product!.name}”` });
    await Promise.all([page.waitForURL(/\/wp-admin\/edit\/product\/\d+\/$/), edit.click()]);
    await page.getByRole("heading", { level: 1, name: "Edit Product" }).waitFor();
    // The admin's editor has loaded the product (the first published one need not be simple: either way, its view link).
    await page.locator("#admin-screen").getByRole("link", { name: "View product" }).waitFor();
    await page.screenshot({ path: "tmp/shots/1280_wp-admin-edit-product.png" });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.goto(`${shop.url}/wp-admin/`);

    // Log Out (a link with its nonce) lands on the form with WordPress's message.
    await Promise.all([page.waitForURL(/loggedout=true/), page.getByRole("link", { name: "Log Out" }).click()]);
    await expect.poll(() => page.locator("#login-message").textContent()).toBe("You are now logged out.");
    expect(await scrollsSideways(page)).toBe(false);
    await page.goto(`${shop.url}/wp-login.php`);
    await page.screenshot({ path: "tmp/shots/400_wp-login.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });
});
