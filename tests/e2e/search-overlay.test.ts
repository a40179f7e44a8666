/**
 * The header's search overlay (docs/contract/search-overlay.md), keyboard only, in both box types
 * (SHOP_SETTINGS searchOverlay.boxType) at 1280 and 400 px: the icon opens it, focus arrives in the field after the
 * focus delay, results as you type form a navigable listbox (combobox), Enter opens a product or the results page,
 * Escape collapses the list, then closes the overlay and gives focus back to the icon; axe finds nothing serious.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser, letPageSettle } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const SUGGEST = "**/wp-json/shop/v1/search/suggest?*";

/**
 * The suggest endpoint is the server search's (docs/contract/search-overlay.md 'Suggestions'). Where this build has
 * none yet, the browser's requests to it are answered here from the shop's own products, in the same shape, so the
 * overlay is still tested against real names and product pages.
 */
async function answerSuggestionsIfMissing(shop: TestShop, context: BrowserContext): Promise<void> {
  const probe = await fetch(`${shop.url}/wp-json/shop/v1/search/suggest?q=mask&limit=8`);
  if (probe.status !== 404) return;
  await context.route(SUGGEST, async (route) => {
    const url = new URL(route.request().url());
    const rows = await shop.services.db.query<{ id: number; name: string; slug: string; regular_price: number | null; image: string | null }>(
      `SELECT id, name, slug, regular_price, (SELECT m.slug FROM media m WHERE m.id = products.image_ids[1]) AS image FROM products WHERE status = 'publish' AND name ILIKE '%' || $1 || '%' ORDER BY name LIMIT $2`,
      [url.searchParams.get("q") ?? "", Number(url.searchParams.get("limit") ?? 8)],
    );
    const body = rows.map((r) => ({
      id: r.id,
      name: r.name,
      permalink: `${shop.url}/product/${r.slug}/`,
      price_html: r.regular_price === null ? "" : `<span class="woocommerce-Price-amount amount"><bdi>$${(r.regular_price / 100).toFixed(2)}</bdi></span>`,
      image: r.image === null ? null : { src: `${shop.url}/media/${r.image}.svg`, alt: "" },
    }));
    await route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(body) });
  });
}

async function openHome(
  shop: TestShop,
  width: number,
  reducedMotion: "reduce" | "no-preference" = "no-preference",
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, reducedMotion });
  await context.addCookies([{ name: "shop_consent", value: `v1.0.0.${Math.floor(Date.now() / 1000)}`, url: shop.url }]);
  await answerSuggestionsIfMissing(shop, context);
  const page = await context.newPage();
  await page.goto(`${shop.url}/`);
  await page.waitForSelector('.search-overlay-toggle[data-hydrated="1"]');
  return { context, page };
}

const activeIs = (page: Page, selector: string) => page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector);

/** Tabs from the top of the page to the search icon, as a keyboard user would. */
async function tabToSearchIcon(page: Page): Promise<void> {
  for (let i = 0; i < 40 && !(await activeIs(page, ".search-overlay-toggle")); i++) await page.keyboard.press("Tab");
  expect(await activeIs(page, ".search-overlay-toggle")).toBe(true);
}

const FIELD = '.search-overlay input[role="combobox"]';

/** Opens the overlay from the focused icon with Enter; returns the ms between the key and the field's focus. */
async function openWithKeyboard(page: Page): Promise<number> {
  await page.evaluate(() => {
    const w = window as unknown as { __t0?: number; __tFocus?: number };
    delete w.__tFocus;
    document.addEventListener("keydown", () => (w.__t0 = performance.now()), { once: true, capture: true });
    document.addEventListener("focusin", (e) => {
      if ((e.target as Element).matches('[role="combobox"]')) w.__tFocus ??= performance.now();
    });
  });
  await page.keyboard.press("Enter");
  await page.locator(".search-overlay").waitFor();
  await expect.poll(() => activeIs(page, FIELD)).toBe(true);
  return page.evaluate(() => {
    const w = window as unknown as { __t0: number; __tFocus: number };
    return w.__tFocus - w.__t0;
  });
}

const BOX_TYPES = ["header-cover", "full-screen"] as const;

describe.each(BOX_TYPES)("the search overlay as '%s'", (boxType) => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop({ SHOP_SETTINGS: JSON.stringify({ searchOverlay: { boxType } }) });
  });
  afterAll(async () => shop?.close());

  it.each([1280, 400])("at %i px, keyboard only: open, type, choose a result, Escape, Enter on a product", async (width) => {
    // At 400 px the visitor asked for reduced motion: no fade.
    const { context, page } = await openHome(shop, width, width === 400 ? "reduce" : "no-preference");
    const suggestRequests: string[] = [];
    page.on("request", (r) => r.url().includes("/search/suggest") && suggestRequests.push(r.url()));

    // The overlay's code is not part of the page's first load.
    const scripts = await page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name));
    expect(scripts.some((s) => /SearchPanel/.test(s))).toBe(false);

    await tabToSearchIcon(page);
    const focusAfterMs = await openWithKeyboard(page);
    expect(focusAfterMs).toBeGreaterThanOrEqual(190); // the spec's 200 ms focus delay (timer granularity aside)
    const overlay = page.locator(".search-overlay");
    expect(await overlay.getAttribute("class")).toContain(boxType === "full-screen" ? "search-overlay--full-screen" : "search-overlay--cover");
    expect(await page.locator(".search-overlay-toggle").getAttribute("aria-expanded")).toBe("true");
    const transition = await overlay.evaluate((el) => getComputedStyle(el).transitionDuration);
    expect(transition).toBe(width === 400 ? "0s" : "0.2s");
    await expect.poll(() => overlay.evaluate((el) => getComputedStyle(el).opacity)).toBe("1");
    if (boxType === "header-cover") {
      // The bar covers the header, not the page.
      const [bar, header] = await Promise.all([overlay.boundingBox(), page.locator("#masthead").boundingBox()]);
      expect(bar?.y).toBeCloseTo(header!.y, 0);
      expect(bar?.height).toBeLessThanOrEqual(header!.height + 1);
    }

    // Results as you type: one request for the whole word (debounced), a listbox of products, the count announced.
    const field = page.locator(FIELD);
    await page.keyboard.type("mask");
    const listbox = page.locator('.search-overlay [role="listbox"]');
    await listbox.waitFor();
    expect(await field.getAttribute("aria-expanded")).toBe("true");
    expect(await field.getAttribute("aria-controls")).toBe(await listbox.getAttribute("id"));
    const options = listbox.locator('[role="option"]');
    const count = (await options.count()) - 1; // the last option is "See all results"
    expect(count).toBeGreaterThan(1);
    expect(await options.last().innerText()).toContain("See all results for “mask”");
    await expect.poll(() => page.locator('.search-overlay [role="status"]').innerText()).toBe(`${count} results`);
    expect(suggestRequests.map((u) => new URL(u).searchParams.get("q"))).toEqual(["mask"]);

    // ArrowDown/ArrowUp move the active option (aria-activedescendant + aria-selected); focus stays in the field.
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    const second = await options.nth(1).getAttribute("id");
    expect(await field.getAttribute("aria-activedescendant")).toBe(second);
    expect(await options.nth(1).getAttribute("aria-selected")).toBe("true");
    await page.keyboard.press("ArrowUp");
    expect(await field.getAttribute("aria-activedescendant")).toBe(await options.nth(0).getAttribute("id"));
    expect(await options.nth(1).getAttribute("aria-selected")).toBe("false");
    expect(await activeIs(page, FIELD)).toBe(true);

    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: `tmp/shots/search-overlay-${boxType}-${width}.png` });

    // Escape: first the list collapses, then the overlay closes and focus is back on the icon.
    await page.keyboard.press("Escape");
    expect(await field.getAttribute("aria-expanded")).toBe("false");
    expect(await overlay.isVisible()).toBe(true);
    await page.keyboard.press("Escape");
    await overlay.waitFor({ state: "detached" });
    expect(await activeIs(page, ".search-overlay-toggle")).toBe(true);
    expect(await page.locator(".search-overlay-toggle").getAttribute("aria-expanded")).toBe("false");

    // Open again from the icon (focus is on it), type, pick the first product with Enter: its page opens.
    await openWithKeyboard(page);
    await page.keyboard.type("mask");
    await listbox.waitFor();
    const name = (await options.first().locator(".search-overlay__name").innerText()).trim();
    await page.keyboard.press("ArrowDown");
    await Promise.all([page.waitForURL(/\/product\/[^/]+\/$/), page.keyboard.press("Enter")]);
    expect((await page.locator("h1").first().innerText()).trim()).toBe(name);
    await context.close();
  });

  it("Enter on 'See all results' opens the results page; Enter without an active option submits the form", async () => {
    const { context, page } = await openHome(shop, 1280);
    await tabToSearchIcon(page);
    await openWithKeyboard(page);
    await page.keyboard.type("mask");
    await page.locator('.search-overlay [role="listbox"]').waitFor();
    await page.keyboard.press("ArrowUp"); // from nothing active, ArrowUp goes to the last option
    await Promise.all([
      page.waitForURL((u) => u.pathname === "/" && u.searchParams.get("s") === "mask" && u.searchParams.get("post_type") === "product"),
      page.keyboard.press("Enter"),
    ]);

    await page.waitForSelector('.search-overlay-toggle[data-hydrated="1"]');
    await tabToSearchIcon(page);
    await openWithKeyboard(page);
    await page.keyboard.type("silk tie");
    await Promise.all([
      page.waitForURL((u) => u.searchParams.get("s") === "silk tie" && u.searchParams.get("post_type") === "product"),
      page.keyboard.press("Enter"),
    ]);
    await context.close();
  });
});

describe("results as you type", () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop();
  });
  afterAll(async () => shop?.close());

  it("cancel the request for an older term and never show its answer", async () => {
    const { context, page } = await openHome(shop, 1280);
    // The answer for "mas" is marked and held back until the shopper has typed "mask" and the page has dropped it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let answeredLate!: () => void;
    const lateAnswer = new Promise<void>((resolve) => (answeredLate = resolve));
    await context.route(SUGGEST, async (route) => {
      if (new URL(route.request().url()).searchParams.get("q") !== "mas") return route.fallback();
      await held;
      const stale = [{ id: 999_999, name: "STALE ANSWER", permalink: `${shop.url}/`, price_html: "", image: null }];
      await route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(stale) }).catch(() => undefined);
      answeredLate();
    });
    const aborted: string[] = [];
    page.on("requestfailed", (r) => r.url().includes("/search/suggest") && aborted.push(new URL(r.url()).searchParams.get("q") ?? ""));
    const asked = page.waitForRequest((r) => r.url().includes("/search/suggest") && r.url().includes("q=mas&"));
    await tabToSearchIcon(page);
    await openWithKeyboard(page);
    await page.keyboard.type("mas");
    await asked;
    await page.keyboard.type("k");
    const options = page.locator('.search-overlay [role="option"]');
    await page.locator('.search-overlay [role="listbox"]').waitFor();
    await expect.poll(() => aborted).toEqual(["mas"]);
    release();
    await lateAnswer;
    await letPageSettle(page); // the page has had its turn at the late answer
    expect(await options.allInnerTexts()).not.toContain("STALE ANSWER");
    expect((await options.first().innerText()).toLowerCase()).toContain("mask");
    await context.close();
  });
});

describe("the search icon without JavaScript", () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop();
  });
  afterAll(async () => shop?.close());

  it("is a link to the results page, at 400 px too", async () => {
    const context = await browser.newContext({ viewport: { width: 400, height: 900 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${shop.url}/`);
    const icon = page.getByRole("link", { name: "Search", exact: true });
    expect(await icon.isVisible()).toBe(true);
    expect(await icon.getAttribute("href")).toBe("/?s=&post_type=product");
    await context.close();
  });
});
