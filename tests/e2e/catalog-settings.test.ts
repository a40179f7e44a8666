/**
 * Catalogue settings the spec turns off (or sets to the other value), turned on through
 * SHOP_SETTINGS: the 'scroll' infinite mode and the §9 swatch settings.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function open(shop: TestShop, width: number, path: string, ready: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  await page.goto(shop.url + path);
  await page.waitForSelector(ready, { state: "attached" });
  return page;
}

describe("infinite loading in 'scroll' mode", () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop({ SHOP_SETTINGS: JSON.stringify({ shop: { infiniteScrollEvent: "scroll" } }) });
  });
  afterAll(async () => {
    await shop?.close();
  });

  /** Scrolls so that the last product's bottom edge sits `offset` px below the viewport's bottom. */
  const scrollLastTo = (page: Page, offset: number) =>
    page.evaluate((off) => {
      const items = document.querySelectorAll("ul.products > li.product");
      const last = items[items.length - 1]!;
      window.scrollBy(0, last.getBoundingClientRect().bottom - window.innerHeight - off);
    }, offset);

  for (const width of [1280, 400]) {
    it(`at ${width} px loads the next page when the last product reaches the bottom of the viewport, one request at a time`, async () => {
      const page = await open(shop, width, "/shop/", ".astra-shop-filter-button");
      const total = Number(/of (\d+) results/.exec(await page.locator(".woocommerce-result-count").innerText())![1]);
      const pages = Math.ceil(total / 12);
      const requested: string[] = [];
      let inFlight = 0;
      let maxInFlight = 0;
      // A slow network, so that repeated scrolling happens while a page is still on its way.
      await page.route(/\/shop\/page\/\d+\//, async (route) => {
        requested.push(new URL(route.request().url()).pathname);
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 400));
        await route.continue();
        inFlight--;
      });
      expect(await page.locator(".ast-pagination-infinite").getAttribute("data-infinite-event")).toBe("scroll");
      // Only part of the last product in view: nothing yet.
      await scrollLastTo(page, 40);
      await page.waitForTimeout(300); // give a wrong trigger the chance to fire (nothing to await for an absence)
      expect(requested).toEqual([]);
      for (let n = 2; n <= pages; n++) {
        const shown = Math.min(total, n * 12);
        // Scroll repeatedly while the page loads: still one request for it.
        for (let i = 0; i < 5; i++) {
          await scrollLastTo(page, -1 - i);
          await page.mouse.wheel(0, 30);
        }
        await expect.poll(() => page.locator("ul.products > li.product").count()).toBe(shown);
        expect(requested).toEqual(Array.from({ length: n - 1 }, (_, i) => `/shop/page/${i + 2}/`));
      }
      await page.waitForSelector("text=No more products to show.");
      // Past the end, scrolling asks for nothing more.
      await scrollLastTo(page, 0);
      await page.mouse.wheel(0, 200);
      expect(requested.length).toBe(pages - 1);
      expect(maxInFlight).toBe(1);
      expect(await page.locator("ul.products > li.product").count()).toBe(total);
      await page.close();
    });
  }
});
