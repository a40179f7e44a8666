/**
 * Right-to-left mode (docs/contract/header-menus.md 'Right to left'): with `layout.isRtl` the whole storefront
 * mirrors through logical CSS properties. On /shop/ and a product page at 1280 and 400 px: `dir="rtl"`, no horizontal
 * scroll, the breadcrumb starts at the right edge, the product's summary sits on the left of its gallery, star
 * ratings fill and the price slider runs from the right, the off-canvas filter slides in from the right and the
 * mini-cart drawer from the left; axe-core finds no serious or critical issue.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";

let shop: TestShop;
let browser: Browser;

beforeAll(async () => {
  [shop, browser] = await Promise.all([startTestShop({ SHOP_SETTINGS: JSON.stringify({ layout: { isRtl: true } }) }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

async function openPage(width: number, path: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  // A visitor who has answered the consent banner: it does not cover the page.
  await context.addCookies([{ name: "shop_consent", value: `v1.0.0.${Math.floor(Date.now() / 1000)}`, url: shop.url }]);
  const page = await context.newPage();
  await page.goto(shop.url + path);
  await expect.poll(() => page.evaluate(() => Boolean((window as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules))).toBe(true);
  return page;
}

const box = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())!;

/** The common checks of a mirrored page: the root's direction, no horizontal scroll, axe. */
async function mirroredPage(page: Page, width: number): Promise<void> {
  expect(await page.getAttribute("html", "dir")).toBe("rtl");
  expect(await page.evaluate(() => getComputedStyle(document.body).direction)).toBe("rtl");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
  expect(await seriousAxeViolations(page)).toEqual([]);
}

describe.each([1280, 400])("right-to-left at %i px", (width) => {
  it("the product page: mirrored columns, breadcrumb from the right edge", async () => {
    const page = await openPage(width, "/product/cotton-face-mask/");
    await mirroredPage(page, width);
    const gallery = await box(page, ".woocommerce-product-gallery");
    const summary = await box(page, ".summary.entry-summary");
    // The breadcrumb's first crumb ends where the content's right edge is.
    const crumbs = page.locator(".woocommerce-breadcrumb a");
    const first = (await crumbs.first().boundingBox())!;
    const second = (await crumbs.nth(1).boundingBox())!;
    expect(second.x + second.width).toBeLessThan(first.x);
    if (width === 1280) {
      // Mirrored: the title and price column on the left of the gallery.
      expect(summary.x + summary.width).toBeLessThanOrEqual(gallery.x);
      expect(Math.abs(first.x + first.width - (gallery.x + gallery.width))).toBeLessThan(2);
    } else {
      // One column: the gallery above the summary, both ending at the right edge as the breadcrumb does.
      expect(summary.y).toBeGreaterThan(gallery.y);
      expect(Math.abs(first.x + first.width - (summary.x + summary.width))).toBeLessThan(2);
    }
    // The title and price start at the right: their text is aligned to the inline start.
    const title = await box(page, ".summary .product_title");
    expect(title.x + title.width).toBeGreaterThan(summary.x + summary.width - 2);
    expect(await page.locator(".summary .product_title").evaluate((e) => getComputedStyle(e).textAlign)).toMatch(/^(start|right)$/);
    await page.context().close();
  });

  it("/shop/: the off-canvas filter opens from the right edge", async () => {
    const page = await openPage(width, "/shop/");
    await page.waitForSelector('.astra-shop-filter-button[data-hydrated="1"]', { state: "attached" });
    await mirroredPage(page, width);
    // The first product card sits at the right of the row.
    const cards = page.locator("ul.products li.product");
    const firstCard = (await cards.first().boundingBox())!;
    const secondCard = (await cards.nth(1).boundingBox())!;
    if (width === 1280) expect(firstCard.x).toBeGreaterThan(secondCard.x);
    // A star rating fills from the right.
    const stars = await box(page, "ul.products .star-rating");
    const filled = await box(page, "ul.products .star-rating span");
    expect(Math.abs(filled.x + filled.width - (stars.x + stars.width))).toBeLessThan(1);
    await page.locator(".astra-shop-filter-button").click();
    const panel = page.locator("#astra-off-canvas-sidebar");
    await panel.waitFor({ state: "visible" });
    // Once slid in (the 250 ms animation), the panel is against the right edge.
    await expect
      .poll(async () => {
        const b = (await panel.boundingBox())!;
        return Math.round(b.x + b.width);
      })
      .toBe(width);
    expect((await panel.boundingBox())!.x).toBeGreaterThan(0);
    // The price slider runs from the right: the minimum's handle is the right one.
    const [from, to] = [await box(page, ".price_slider_handle.handle-from"), await box(page, ".price_slider_handle.handle-to")];
    expect(from.x).toBeGreaterThan(to.x);
    // Its arrow keys follow the screen: the left arrow moves the minimum's handle left (a higher minimum).
    const fromHandle = page.locator(".price_slider_handle.handle-from");
    const before = Number(await fromHandle.getAttribute("aria-valuenow"));
    await fromHandle.focus();
    await page.keyboard.press("ArrowLeft");
    await expect.poll(async () => Number(await fromHandle.getAttribute("aria-valuenow"))).toBeGreaterThan(before);
    expect((await box(page, ".price_slider_handle.handle-from")).x).toBeLessThan(from.x);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
    await page.context().close();
  });
});

describe("the mini-cart drawer at 400 px", () => {
  it("slides in from the left edge", async () => {
    const page = await openPage(400, "/product-category/face-masks/");
    await page.waitForFunction(() => document.getElementById("wc-cart-announcer") !== null);
    await page.locator("a.ajax_add_to_cart").first().click();
    await expect.poll(() => page.locator("#ast-site-header-cart a.cart-contents .count").first().textContent()).toBe("1");
    await page.locator("#ast-site-header-cart a.cart-contents").first().click();
    const drawer = page.locator("#astra-mobile-cart-drawer .astra-cart-drawer");
    await drawer.waitFor({ state: "visible" });
    await expect.poll(async () => Math.round((await drawer.boundingBox())!.x)).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(400);
    expect(await seriousAxeViolations(page, "#astra-mobile-cart-drawer")).toEqual([]);
    await page.context().close();
  });
});
