/**
 * The admin's Coupons and Store notice screens (issue 14, docs/contract/admin.md 'Coupons', 'Coupon', 'Store notice
 * & Coming soon') in Chromium: the owner creates a coupon with limits (a refused amount shown at its field), the
 * storefront's cart refuses it under its minimum spend with its own message and applies it once the limit is
 * lowered; two tabs editing the same coupon: the second save is refused as "changed since you opened it"; leaving
 * with unsaved changes asks first; the store notice switched on in the admin shows on the storefront; a shop manager
 * uses the screens; a customer gets the sign-in page. axe-core on every screen; no sideways scrolling at 400 px;
 * screenshots to tmp/shots/.
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
const PASSWORD = "marketing screens pass 1";
const ADMIN = "mkt-owner@example.com";
const MANAGER = "mkt-manager@example.com";
const CUSTOMER = "mkt-shopper@example.com";
let couponId = 0;

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  for (const [email, role] of [
    [ADMIN, "administrator"],
    [MANAGER, "shop_manager"],
    [CUSTOMER, "customer"],
  ] as const) {
    const made = await registerCustomer(shop.services.db, { email, password: PASSWORD, first_name: "Mo", last_name: "Staff" });
    if (!made.ok) throw new Error(made.message);
    await shop.services.db.query(`UPDATE customers SET role = $2 WHERE id = $1`, [made.customerId, role]);
  }
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

/** A notice on the screen (not the copy in the a11y-speak live region). */
const said = (page: Page, text: string) => page.locator(".components-notice").getByText(text, { exact: false });
const signedIn = (email: string, width = 1280) => signInAs(browser, shop.url, email, PASSWORD, width);

/** A guest's cart with one face mask, on the cart page, the coupon box open. */
async function cartWithCoupon(code: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${shop.url}/product-category/face-masks/`);
  await page.waitForFunction(() => document.getElementById("wc-cart-announcer") !== null);
  await page.locator("a.ajax_add_to_cart").first().click();
  await expect.poll(() => page.locator("a.cart-contents .count").first().textContent()).toBe("1");
  await applyOnCart(page, code);
  return page;
}
async function applyOnCart(page: Page, code: string) {
  await page.goto(`${shop.url}/cart/`);
  await page.waitForFunction(() => document.getElementById("wc-cart-announcer") !== null);
  await page.click("#ast-coupon-trigger");
  await page.fill("#ast-coupon-code", code);
  await Promise.all([page.waitForURL(`${shop.url}/cart/`), page.press("#ast-coupon-code", "Enter")]);
}

describe("coupons", () => {
  it("creates a coupon with limits; the cart refuses it under its minimum spend and applies it after an edit", async () => {
    const { context, page } = await signedIn(ADMIN);
    await page.goto(`${shop.url}/wp-admin/coupons/`);
    await page.getByRole("link", { name: "Add coupon" }).click();
    await page.getByRole("heading", { level: 1, name: "Add coupon" }).waitFor();
    await page.getByLabel("Coupon code").fill("MKT-TEN");
    await page.getByLabel("Discount type").selectOption("percent");
    await page.getByLabel("Coupon amount (%)").fill("150");
    await page.getByLabel("Minimum spend").fill("500");
    await page.getByLabel("Usage limit per coupon").fill("5");
    await page.getByLabel("Usage limit per user").fill("1");
    await page.getByLabel("Individual use only").check();
    await page.getByRole("button", { name: "Publish" }).click();
    // The pricing engine refuses a percentage above 100: the message sits at the amount, which takes the focus.
    const amount = page.getByLabel("Coupon amount (%)");
    await expect.poll(() => amount.getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByRole("alert").innerText()).toContain("The coupon was not saved");
    expect(await page.locator(".admin-field-error").innerText()).toMatch(/Coupon amount/);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-invalid"))).toBe("true");
    await page.screenshot({ path: "tmp/shots/admin_1280_coupon_error.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    await amount.fill("10");
    await Promise.all([page.waitForURL(/\/wp-admin\/coupons\/\d+\/\?saved=created$/), page.getByRole("button", { name: "Publish" }).click()]);
    couponId = Number(/coupons\/(\d+)\//.exec(page.url())![1]);
    await said(page, "Coupon created.").waitFor();
    expect(await page.getByLabel("Coupon code").inputValue()).toBe("mkt-ten");
    expect(await page.getByLabel("Usage limit per user").inputValue()).toBe("1");
    const [row] = await shop.services.db.query<{ data: Record<string, unknown> }>(`SELECT data FROM coupons WHERE id = $1`, [couponId]);
    expect(row!.data).toMatchObject({
      code: "mkt-ten",
      kind: "percent",
      amount: 10,
      minimumSpend: 50000,
      usageLimit: 5,
      usageLimitPerCustomer: 1,
      individualUse: true,
    });
    await page.screenshot({ path: "tmp/shots/admin_1280_coupon.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The list: code, type, amount, usage and limit.
    await page.goto(`${shop.url}/wp-admin/coupons/`);
    const listed = page.locator("tr", { has: page.getByRole("link", { name: "mkt-ten" }) });
    await listed.waitFor();
    expect(await listed.innerText()).toMatch(/Percentage discount[\s\S]*10%[\s\S]*0 \/ 5/);
    await page.screenshot({ path: "tmp/shots/admin_1280_coupons.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole("searchbox").fill("nothing-like-it");
    await expect.poll(() => page.getByRole("link", { name: "mkt-ten" }).count()).toBe(0);

    // The storefront refuses it with its own message while the cart is under the minimum spend…
    const cart = await cartWithCoupon("mkt-ten");
    await cart.locator(".woocommerce-error", { hasText: "The minimum spend for this coupon is" }).waitFor();
    expect(await cart.locator(".cart_totals .coupon-mkt-ten").count()).toBe(0);

    // …and applies it once the owner lowers the minimum spend.
    await page.goto(`${shop.url}/wp-admin/coupons/${couponId}/`);
    await page.getByLabel("Minimum spend").fill("1");
    // …and turns it into $2 off the cart (the shop shows whole dollars: 10% of a $3 mask would read "−$0").
    await page.getByLabel("Discount type").selectOption("fixed_cart");
    await page.getByLabel("Coupon amount", { exact: true }).fill("2");
    await page.getByRole("button", { name: "Update" }).click();
    await said(page, "Coupon updated.").waitFor();
    await applyOnCart(cart, "mkt-ten");
    await cart.locator(".cart_totals .coupon-mkt-ten").waitFor();
    expect(await cart.locator(".cart_totals .coupon-mkt-ten").innerText()).toMatch(/[-−]\s*\$2\b/);
    await cart.context().close();
    await context.close();
  });

  it("refuses the second of two tabs' saves as changed since it was opened, and asks before leaving unsaved changes", async () => {
    const { context, page: first } = await signedIn(ADMIN);
    const second = await context.newPage();
    for (const tab of [first, second]) {
      await tab.goto(`${shop.url}/wp-admin/coupons/${couponId}/`);
      await tab.getByLabel("Coupon amount", { exact: true }).waitFor();
    }
    await first.getByLabel("Coupon amount", { exact: true }).fill("12");
    await first.getByRole("button", { name: "Update" }).click();
    await said(first, "Coupon updated.").waitFor();
    await second.getByLabel("Coupon amount", { exact: true }).fill("40");
    await second.getByRole("button", { name: "Update" }).click();
    await second.getByRole("alert").getByText("This coupon was changed since you opened it.", { exact: false }).waitFor();
    const [row] = await shop.services.db.query<{ data: { amount: number } }>(`SELECT data FROM coupons WHERE id = $1`, [couponId]);
    expect(row!.data.amount).toBe(1200);
    await second.screenshot({ path: "tmp/shots/admin_1280_coupon_conflict.png", fullPage: true });
    await second.getByRole("button", { name: /Reload the coupon/ }).click();
    await expect.poll(() => second.getByLabel("Coupon amount", { exact: true }).inputValue()).toBe("12.00");

    // Unsaved changes: the browser's prompt on the way out (dismissed: the page stays).
    await second.getByLabel("Usage limit per coupon").fill("9");
    await second.getByText("Unsaved changes.").waitFor();
    const asked = new Promise<string>((resolve) => second.once("dialog", (d) => (resolve(d.type()), void d.dismiss())));
    await second.getByRole("link", { name: "Coupons", exact: true }).click();
    expect(await asked).toBe("beforeunload");
    expect(new URL(second.url()).pathname).toBe(`/wp-admin/coupons/${couponId}/`);
    await context.close();
  });
});

describe("store notice", () => {
  it("shows on the storefront once the owner switches it on", async () => {
    const { context, page } = await signedIn(ADMIN);
    await page.goto(`${shop.url}/wp-admin/store-notice/`);
    await page.getByLabel("Show the store notice").check();
    await page.getByLabel("Store notice text").fill("Free gift wrap this week");
    expect(await page.locator(".admin-preview-notice").innerText()).toContain("Free gift wrap this week");
    await page.getByRole("button", { name: "Save changes" }).click();
    await said(page, "Settings saved.").waitFor();
    await page.screenshot({ path: "tmp/shots/admin_1280_store_notice.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    const visitor = await browser.newContext();
    const shopPage = await visitor.newPage();
    await shopPage.goto(`${shop.url}/`);
    expect(await shopPage.locator(".woocommerce-store-notice").innerText()).toContain("Free gift wrap this week");
    await visitor.close();
    await context.close();
  });
});

describe("who gets the screens", () => {
  it("a shop manager uses them; nothing scrolls sideways at 400 px", async () => {
    const { context, page } = await signedIn(MANAGER, 400);
    for (const [path, ready, shot] of [
      ["/wp-admin/coupons/", () => page.getByText("mkt-ten").first().waitFor(), "coupons"],
      [`/wp-admin/coupons/${couponId}/`, () => page.getByLabel("Coupon code").waitFor(), "coupon"],
      ["/wp-admin/store-notice/", () => page.getByLabel("Store notice text").waitFor(), "store_notice"],
    ] as const) {
      await page.goto(`${shop.url}${path}`);
      await ready();
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `tmp/shots/admin_400_${shot}.png`, fullPage: true });
      expect(await seriousAxeViolations(page)).toEqual([]);
    }
    await page.getByLabel("Store notice text").fill("Managers can write this");
    await page.getByRole("button", { name: "Save changes" }).click();
    await said(page, "Settings saved.").waitFor();
    await context.close();
  });

  it("a customer gets the sign-in page", async () => {
    const { context, page } = await signedIn(CUSTOMER);
    await page.goto(`${shop.url}/wp-admin/coupons/`);
    expect(new URL(page.url()).pathname).toBe("/wp-login.php");
    expect(await page.content()).not.toContain("mkt-ten");
    await context.close();
  });
});
