// Listings and page chrome in the browser (issue 20): no layout shift while a listing loads and hydrates, the page
// chrome at 400 and 1280 px (404 page, idle loader, journal grid, a search without results), script failures told
// to the shopper, and axe-core over home, shop, a category and a blog post.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser, letPageSettle } from "../support/browser.ts";
import { openCheckoutWithCart } from "../support/checkout-page.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";

const WIDTHS = [400, 1280] as const;
const LISTINGS = ["/shop/", "/product-category/face-masks/"] as const;

let shop: TestShop;
let browser: Browser;
let productId: number;

beforeAll(async () => {
  shop = await startTestShop();
  browser = await launchBrowser();
  const [row] = await shop.services.db.query<{ id: number }>(
    `UPDATE products SET stock_quantity = 500, regular_price = 1500, sale_price = NULL WHERE slug = 'silk-pocket-square' RETURNING id`,
  );
  productId = row!.id;
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

async function open(width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  page.on("close", () => void context.close().catch(() => undefined));
  return page;
}

/** Hydrated: the listing's filter button says so once React has run. */
const listingHydrated = (page: Page) => page.waitForSelector('.astra-shop-filter-button[data-hydrated="1"]', { state: "attached" });

describe.each(WIDTHS)("at %i px", (width) => {
  it.each(LISTINGS)("%s does not shift while it loads and hydrates (CLS < 0.02), and its first image loads first", async (path) => {
    const page = await open(width);
    // Layout shifts as Lighthouse counts them: every entry not caused by recent input, from the first paint on.
    await page.addInitScript(() => {
      const w = window as unknown as { __cls: number };
      w.__cls = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) if (!entry.hadRecentInput) w.__cls += entry.value;
      }).observe({ type: "layout-shift", buffered: true });
    });
    await page.goto(shop.url + path, { waitUntil: "load" });
    await listingHydrated(page);
    await page.evaluate(() =>
      Promise.all([...document.images].filter((i) => !i.complete && i.loading !== "lazy").map((i) => i.decode().catch(() => undefined))),
    );
    await letPageSettle(page, { frames: 10 });
    expect(await page.evaluate(() => (window as unknown as { __cls: number }).__cls)).toBeLessThan(0.02);
    // The largest paint is the first product image: not lazy, fetched first.
    const first = page.locator("ul.products li.product img").first();
    expect(await first.getAttribute("loading")).toBe("eager");
    expect(await first.getAttribute("fetchpriority")).toBe("high");
    // The panel the server rendered closed is still closed: the button opens it.
    expect(await page.locator("#astra-off-canvas-sidebar").isVisible()).toBe(false);
    await page.close();
  });

  it("the 404 page has a title and does not scroll sideways", async () => {
    const page = await open(width);
    const res = await page.goto(shop.url + "/no-such-page/");
    expect(res?.status()).toBe(404);
    expect(await page.title()).toBe("Page not found – Maskerade");
    await page.waitForSelector(".error-404");
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await page.close();
  });

  it("the 'Load More' loader is drawn only while loading", async () => {
    const page = await open(width);
    await page.goto(shop.url + "/shop/");
    await listingHydrated(page);
    const loader = page.locator(".ast-pagination-infinite .ast-loader");
    expect(await loader.count()).toBe(1);
    expect(await loader.isVisible()).toBe(false);
    const before = await page.locator("ul.products > li.product").count();
    await page.locator(".ast-load-more").click();
    await expect.poll(() => page.locator("ul.products > li.product").count()).toBeGreaterThan(before);
    await expect.poll(() => page.locator(".ast-loader").isVisible()).toBe(false);
    await page.close();
  });

  it("a search without results says so under the heading, with no sorting or filters to offer", async () => {
    const page = await open(width);
    await page.goto(`${shop.url}/shop/?s=${encodeURIComponent("no product is called this")}`);
    const heading = await page.locator("h1.page-title").boundingBox();
    const message = page.locator(".woocommerce-result-count");
    await expect.poll(() => message.innerText()).toBe("No products were found matching your selection.");
    const box = await message.boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(heading!.y + heading!.height);
    expect(await page.locator(".woocommerce-ordering, .astra-shop-filter-button, .ast-view-toggle").count()).toBe(0);
    await page.close();
  });
});

describe("without JavaScript", () => {
  it("the listing shows its filters inline instead of a button that could not open them", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(shop.url + "/shop/");
    expect(await page.locator("#astra-off-canvas-sidebar").isVisible()).toBe(true);
    expect(await page.locator(".astra-shop-filter-button").isVisible()).toBe(false);
    expect(await page.locator('#astra-off-canvas-sidebar input[name="min_price"]').isVisible()).toBe(true);
    await context.close();
  });
});

describe("home page journal", () => {
  it("at 1280 px the three latest posts fill the row, with no empty fourth column", async () => {
    const page = await open(1280);
    await page.goto(shop.url + "/");
    const list = page.locator('section[aria-labelledby="journal-heading"] ul.post-cards');
    const cards = list.locator(":scope > li");
    expect(await cards.count()).toBe(3);
    // One layout read for all three boxes: images still loading above the journal move it between separate reads.
    const { row, first, last } = await list.evaluate((ul) => {
      const box = (el: Element) => {
        const r = el.getBoundingClientRect();
        return { top: r.top, right: r.right };
      };
      return { row: box(ul), first: box(ul.firstElementChild!), last: box(ul.lastElementChild!) };
    });
    expect(last.top).toBe(first.top);
    expect(Math.abs(last.right - row.right)).toBeLessThanOrEqual(1);
    await page.close();
  });
});

describe("script failures are shown to the shopper", () => {
  it("a lazy chunk that fails to load says 'Loading chunk {id} failed.'", async () => {
    const page = await open(1280);
    await page.route(/\/assets\/cart-client-[^/]*\.js$/, (route) => route.abort().catch(() => undefined));
    await page.goto(shop.url + "/");
    const alert = page.locator('.page-errors[role="alert"]');
    await expect.poll(() => alert.innerText()).toBe("Loading chunk cart-client failed.");
    // A request still held by the route must not be aborted on a closed page (an unhandled rejection).
    await page.unrouteAll({ behavior: "ignoreErrors" });
    await page.close();
  });

  it("a payment-form script that fails to load says 'A script error has occurred.'", async () => {
    const page = await openCheckoutWithCart(browser, shop.url, productId);
    const report = page.waitForRequest((r) => r.url().includes("/wp-admin/admin-ajax.php") && (r.postData() ?? "").includes("log_script_event"));
    await page.evaluate(() => {
      const script = document.createElement("script");
      script.src = "/assets/payment-form-that-is-missing.js";
      document.head.append(script);
    });
    await report; // still logged to the server
    await expect.poll(() => page.locator('.page-errors[role="alert"]').innerText()).toBe("A script error has occurred.");
    await page.close();
  });
});

describe.each(WIDTHS)("axe-core at %i px", (width) => {
  it.each(["/", "/shop/", "/product-category/face-masks/", "/blog/how-to-wash-a-face-mask/"])("%s has no serious or critical violations", async (path) => {
    const page = await open(width);
    await page.goto(shop.url + path);
    if (path !== "/" && !path.startsWith("/blog/")) await listingHydrated(page);
    const violations = await seriousAxeViolations(page);
    expect(violations).toEqual([]);
    await page.close();
  });
});
