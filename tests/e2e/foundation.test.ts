import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";

let shop: TestShop;
let browser: Browser;

beforeAll(async () => {
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

describe("the storefront in Chromium", () => {
  it("hydrates, and navigation links move between server-rendered pages", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(shop.url + "/");
    await expect.poll(() => page.evaluate(() => Boolean((window as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules))).toBe(true);
    await page.getByRole("navigation", { name: "Primary" }).getByRole("link", { name: "Mask and Tie Sets" }).click();
    await page.waitForURL("**/product-category/mask-and-tie-sets/");
    await expect.poll(() => page.title()).toBe("Mask and Tie Sets Archives – Maskerade");
    expect(await page.locator("li.product").count()).toBeGreaterThan(0);
    await page
      .getByRole("link", { name: /Classic Mask and Tie Set/ })
      .first()
      .click();
    await page.waitForURL("**/product/classic-mask-and-tie-set/");
    expect(await page.locator("h1.product_title").textContent()).toBe("Classic Mask and Tie Set");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("changing the sort select submits the listing form", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(shop.url + "/shop/");
    const expected = /<h2 class="woocommerce-loop-product__title">([^<]+)<\/h2>/.exec(await (await fetch(shop.url + "/shop/?orderby=price-desc")).text())![1];
    await page.selectOption("select.orderby", "price-desc");
    await page.waitForURL(/orderby=price-desc/);
    await expect.poll(() => page.locator("li.product .woocommerce-loop-product__title").first().textContent()).toBe(expected);
    expect(await page.inputValue("select.orderby")).toBe("price-desc");
    await page.close();
  });

  it("a notice after signing up is an alert that receives focus", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(shop.url + "/my-account/");
    await page.fill("#reg_email", "grace@example.com");
    await page.fill("#reg_password", "a-long-password");
    await page.getByRole("button", { name: "Register" }).click();
    const alert = page.getByRole("alert").filter({ hasText: "Your account was created" });
    await alert.waitFor();
    await expect.poll(() => alert.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.textContent(".my-account")).toContain("grace@example.com");
    await page.close();
  });

  it("the password toggle says 'Show password' then 'Hide password' and reveals the text", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(shop.url + "/my-account/");
    await page.fill("#password", "secret-words");
    const toggle = page.getByRole("button", { name: "Show password" }).first();
    await toggle.click();
    expect(await page.getAttribute("#password", "type")).toBe("text");
    await page.getByRole("button", { name: "Hide password" }).first().click();
    expect(await page.getAttribute("#password", "type")).toBe("password");
    await page.close();
  });

  it("the store notice stays dismissed (cookie store_notice{id}=hidden)", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(shop.url + "/");
    await page.locator(".woocommerce-store-notice__dismiss-link").click();
    await expect.poll(() => page.locator(".woocommerce-store-notice").count()).toBe(0);
    const cookie = (await context.cookies()).find((c) => c.name.startsWith("store_notice"));
    expect(cookie?.value).toBe("hidden");
    expect(cookie?.path).toBe("/");
    await page.reload();
    expect(await page.locator(".woocommerce-store-notice").count()).toBe(0);
    await context.close();
  });

  it("at 400 px the menu collapses behind a button that opens it", async () => {
    const page = await browser.newPage({ viewport: { width: 400, height: 800 } });
    await page.goto(shop.url + "/");
    expect(await page.locator(".main-navigation").isVisible()).toBe(false);
    // The ☰ button is React's (docs/contract/header-menus.md): it answers once the page is hydrated.
    await expect.poll(() => page.evaluate(() => Boolean((window as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules))).toBe(true);
    await page.getByRole("button", { name: "Menu", exact: true }).click();
    await page.getByRole("navigation", { name: "Mobile" }).getByRole("link", { name: "Blog" }).click();
    await page.waitForURL("**/blog/");
    expect(await page.locator("h1").textContent()).toBe("Journal");
    await page.close();
  });

  it("an unknown address shows the 404 page with a search form", async () => {
    const page = await browser.newPage();
    const res = await page.goto(shop.url + "/no/such/page/");
    expect(res?.status()).toBe(404);
    expect(await page.locator("h1").textContent()).toContain("can’t be found");
    await page.close();
  });
});
