/**
 * The page cache in the browser (docs/decisions/0028-page-cache.md, 0042-cart-shoppers-cached.md): a kept page runs
 * under its hashed CSP and sets no cookie while browsing; a shopper who then adds to the cart is given kept pages too,
 * whose cart count is a placeholder (its box kept, unseen) that the cart fragments fill without a layout shift, and
 * whose mini-cart opens with their line.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";

let shop: TestShop;
let browser: Browser;

beforeAll(async () => {
  shop = await startTestShop();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

type Probe = {
  firstCount: string | null;
  /** The count's box and visibility once the document is parsed, before any fragment. */
  firstBox: { width: number; height: number; x: number; visibility: string } | null;
  shifts: { value: number; inCart: boolean }[];
  fragmentsLoaded: boolean;
};

describe("cached pages in the browser", () => {
  it("a visitor browses kept pages under their hashed CSP, with no cookie set, then a cart shows its count without a shift", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("console", (m) => m.type() === "error" && /Content Security Policy|Refused to/.test(m.text()) && problems.push(m.text()));
    page.on("pageerror", (e) => problems.push(String(e)));
    // Before any script of the page: the header cart's count as first parsed, and every layout shift with whether
    // it moved something in the header's cart.
    await context.addInitScript(() => {
      const probe: Probe = { firstCount: null, firstBox: null, shifts: [], fragmentsLoaded: false };
      (window as unknown as { probe: Probe }).probe = probe;
      document.addEventListener("DOMContentLoaded", () => {
        const count = document.querySelector("a.cart-contents .count");
        probe.firstCount = count?.textContent ?? null;
        if (!count) return;
        const box = count.getBoundingClientRect();
        probe.firstBox = { width: box.width, height: box.height, x: box.x, visibility: getComputedStyle(count).visibility };
      });
      document.addEventListener("wc_fragments_loaded", () => (probe.fragmentsLoaded = true));
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as { value: number; sources?: { node?: Node | null }[] }[]) {
          const cart = document.getElementById("ast-site-header-cart");
          probe.shifts.push({ value: entry.value, inCart: (entry.sources ?? []).some((s) => !!s.node && !!cart?.contains(s.node)) });
        }
      }).observe({ type: "layout-shift", buffered: true });
    });

    // Warm the cache, then browse it: the same page comes from the cache and runs.
    await fetch(`${shop.url}/product-category/face-masks/`);
    const kept = await page.goto(`${shop.url}/product-category/face-masks/`);
    expect(kept!.headers()["x-cache"]).toBe("HIT");
    expect(kept!.headers()["content-security-policy"]).toMatch(/'sha256-/);
    await page.waitForFunction(() => (window as unknown as { probe: Probe }).probe.fragmentsLoaded);
    await page.waitForFunction(() => document.getElementById("wc-cart-announcer") !== null); // hydrated
    expect((await context.cookies()).map((c) => c.name)).toEqual([]);

    // Add to the cart from the kept page (WooCommerce's own script): the count updates in place.
    const button = page.locator("a.ajax_add_to_cart").first();
    await Promise.all([page.waitForResponse((r) => r.url().includes("wc-ajax=add_to_cart")), button.click()]);
    await expect.poll(() => page.locator("a.cart-contents .count").first().textContent()).toBe("1");

    // Twelve in all (two digits: a box sized for "0" would grow), added through the shop's own endpoint.
    const productId = await button.getAttribute("data-product_id");
    const more = await context.request.post(`${shop.url}/?wc-ajax=add_to_cart`, { form: { product_id: productId!, quantity: "11" } });
    expect(more.ok()).toBe(true);

    // Another page, kept for everyone (warmed by an anonymous visitor), is this shopper's page too.
    await fetch(`${shop.url}/product/wool-knit-tie/`);
    const kept2 = await page.goto(`${shop.url}/product/wool-knit-tie/`);
    expect(kept2!.headers()["x-cache"]).toBe("HIT");
    await expect.poll(() => page.locator("a.cart-contents .count").first().textContent()).toBe("12");
    const probe = await page.evaluate(() => (window as unknown as { probe: Probe }).probe);
    // As parsed: the placeholder's "0", unseen (the cart cookie says items), in the box the "12" now fills.
    expect(probe.firstCount).toBe("0");
    expect(probe.firstBox?.visibility).toBe("hidden");
    const filled = await page
      .locator("a.cart-contents .count")
      .first()
      .evaluate((el) => {
        const box = el.getBoundingClientRect();
        return { width: box.width, height: box.height, x: box.x, visibility: getComputedStyle(el).visibility };
      });
    expect(filled.visibility).toBe("visible");
    expect({ width: filled.width, height: filled.height, x: filled.x }).toEqual({
      width: probe.firstBox!.width,
      height: probe.firstBox!.height,
      x: probe.firstBox!.x,
    });
    expect(probe.shifts.filter((s) => s.inCart)).toEqual([]);
    expect(probe.shifts.reduce((sum, s) => sum + s.value, 0)).toBeLessThan(0.01);

    // The mini-cart opens from the keyboard (focus on the cart link) with the shopper's line, from the fragments.
    await page.waitForFunction(() => !document.querySelector(".widget_shopping_cart_content[data-cart-placeholder]"));
    await page.locator("a.cart-contents").first().focus();
    const line = page.locator("#ast-site-header-cart .widget_shopping_cart .mini_cart_item");
    await expect.poll(() => line.first().isVisible()).toBe(true);
    expect(await line.first().textContent()).toContain("12 ×");
    expect(await seriousAxeViolations(page, "#ast-site-header-cart")).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
