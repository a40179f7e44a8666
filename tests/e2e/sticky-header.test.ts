// The sticky header (docs/contract/sticky-quick-view.md §1): each mode set through SHOP_SETTINGS, at 1280 px (desktop)
// and 400 px (mobile): released at the top, active once scrolled past the header's height (hide-on-scroll: hidden
// going down, shown going up), released again at the top; no layout shift while it engages (CLS < 0.02, measured with
// a PerformanceObserver); re-evaluated 300 ms after a resize; no animation with prefers-reduced-motion.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser, letPageSettle } from "../support/browser.ts";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

type Mode = "slide" | "fade" | "hide-on-scroll" | "shrink";

async function open(shop: TestShop, width: number, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, ...options });
  await context.addCookies([{ name: "shop_consent", value: `v1.0.0.${Math.floor(Date.now() / 1000)}`, url: shop.url }]);
  const page = await context.newPage();
  page.on("close", () => void context.close().catch(() => undefined));
  await page.addInitScript(() => {
    const w = window as unknown as { __cls: number };
    w.__cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) if (!entry.hadRecentInput) w.__cls += entry.value;
    }).observe({ type: "layout-shift", buffered: true });
  });
  await page.goto(shop.url + "/shop/");
  await page.waitForSelector('.astra-shop-filter-button[data-hydrated="1"]', { state: "attached" });
  return page;
}

const header = (page: Page) => page.locator("#masthead");
const state = (page: Page) => header(page).getAttribute("data-sticky");
const scrollTo = async (page: Page, y: number) => {
  await page.evaluate((y) => window.scrollTo(0, y), y);
  await letPageSettle(page, { frames: 3 });
};
const cls = (page: Page) => page.evaluate(() => (window as unknown as { __cls: number }).__cls);

/** Scrolls down and up and checks the header's state at each step; the layout shift while it engages stays < 0.02. */
async function checkMode(page: Page, mode: Mode, width: number) {
  await expect.poll(() => header(page).getAttribute("data-sticky-mode")).toBe(mode);
  expect(await state(page)).toBe("released");
  expect(await header(page).getAttribute("class")).toContain(`ast-sticky-${mode}`);
  const height = await header(page).evaluate((el) => el.getBoundingClientRect().height);
  const contentTop = () => page.locator("#content").evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
  const topBefore = await contentTop();
  await letPageSettle(page, { frames: 5, ms: 100 });
  const clsBefore = await cls(page);

  // Just inside the threshold: still released.
  await scrollTo(page, Math.floor(height) - 1);
  expect(await state(page)).toBe("released");
  // Down past it: engaged (hide-on-scroll: hidden, since the shopper is going down).
  await scrollTo(page, 700);
  await expect.poll(() => state(page)).toBe(mode === "hide-on-scroll" ? "hidden" : "active");
  expect(await header(page).getAttribute("class")).toContain("ast-header-sticked");
  expect(await header(page).evaluate((el) => getComputedStyle(el).position)).toBe("fixed");
  // The placeholder holds the header's place: the content did not move.
  expect(await page.locator(".ast-sticky-header-placeholder").evaluate((el) => el.getBoundingClientRect().height)).toBeCloseTo(height, 0);
  expect(await contentTop()).toBeCloseTo(topBefore, 0);
  await letPageSettle(page, { frames: 20, ms: 350 });
  expect((await cls(page)) - clsBefore).toBeLessThan(0.02);
  await page.screenshot({ path: `tmp/shots/sticky-${mode}-${width}.png` });

  // Further down: hide-on-scroll stays hidden; up by more than the delta: shown.
  await scrollTo(page, 1100);
  await scrollTo(page, 1097); // 3 px: within the 5 px delta
  expect(await state(page)).toBe(mode === "hide-on-scroll" ? "hidden" : "active");
  await scrollTo(page, 900);
  await expect.poll(() => state(page)).toBe("active");
  if (mode === "hide-on-scroll") {
    await letPageSettle(page, { frames: 3, ms: 350 });
    expect(await header(page).evaluate((el) => el.getBoundingClientRect().top)).toBe(0);
    await page.screenshot({ path: `tmp/shots/sticky-${mode}-shown-${width}.png` });
  }
  if (mode === "shrink") expect(await header(page).evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(height);
  // Back to the top: released, in the flow again.
  await scrollTo(page, 0);
  await expect.poll(() => state(page)).toBe("released");
  expect(await header(page).evaluate((el) => getComputedStyle(el).position)).not.toBe("fixed");
  expect(await page.locator(".ast-sticky-header-placeholder").isVisible()).toBe(false);
}

// Two shops per pair of modes: every mode runs once as the desktop mode and once as the mobile mode.
const PAIRS: [Mode, Mode][] = [
  ["slide", "hide-on-scroll"],
  ["hide-on-scroll", "slide"],
  ["fade", "shrink"],
  ["shrink", "fade"],
];

describe.each(PAIRS)("desktop %s, mobile %s", (desktop, mobile) => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop({ SHOP_SETTINGS: JSON.stringify({ stickyHeader: { desktop, mobile } }) });
  });
  afterAll(async () => {
    await shop?.close();
  });

  it(`at 1280 px: ${desktop}`, async () => {
    const page = await open(shop, 1280);
    await checkMode(page, desktop, 1280);
    await page.close();
  });

  it(`at 400 px: ${mobile}`, async () => {
    const page = await open(shop, 400);
    await checkMode(page, mobile, 400);
    await page.close();
  });

  if (desktop === "slide") {
    it("a resize switches the device's mode 300 ms after it ends", async () => {
      const page = await open(shop, 1280);
      await expect.poll(() => header(page).getAttribute("data-sticky-mode")).toBe("slide");
      await page.setViewportSize({ width: 400, height: 900 });
      // Not before the debounce (the page's own clock), then the mobile mode.
      await letPageSettle(page, { frames: 1, ms: 100 });
      expect(await header(page).getAttribute("data-sticky-mode")).toBe("slide");
      await expect.poll(() => header(page).getAttribute("data-sticky-mode")).toBe("hide-on-scroll");
      await page.close();
    });

    it("with prefers-reduced-motion the header engages without animation", async () => {
      const page = await open(shop, 1280, { reducedMotion: "reduce" });
      await expect.poll(() => header(page).getAttribute("data-sticky-mode")).toBe("slide");
      await scrollTo(page, 700);
      await expect.poll(() => state(page)).toBe("active");
      expect(await header(page).evaluate((el) => getComputedStyle(el).animationName)).toBe("none");
      await page.close();
    });
  }
});

describe("the spec's configuration (none)", () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop();
  });
  afterAll(async () => {
    await shop?.close();
  });

  it.each([1280, 400])("at %i px the header stays in the flow and no sticky script or stylesheet loads", async (width) => {
    const requests: string[] = [];
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(shop.url + "/shop/");
    await page.waitForSelector('.astra-shop-filter-button[data-hydrated="1"]', { state: "attached" });
    await scrollTo(page, 700);
    expect(await header(page).getAttribute("data-sticky")).toBeNull();
    expect(await header(page).evaluate((el) => getComputedStyle(el).position)).not.toBe("fixed");
    expect(requests.some((u) => /sticky-header/.test(u))).toBe(false);
    await context.close();
  });
});
