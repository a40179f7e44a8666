/**
 * The anonymous page cache in the browser (docs/decisions/0028-page-cache.md): a kept page runs under its hashed CSP
 * and sets no cookie while browsing; a shopper who then adds to the cart gets their own pages (the cart cookies
 * bypass the cache) with the cart count in the first paint, and nothing in the header's cart shifts when WooCommerce's
 * cart fragments are applied.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";

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

type Probe = { firstCount: string | null; shifts: { value: number; inCart: boolean }[]; fragmentsLoaded: boolean };

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
      const probe: Probe = { firstCount: null, shifts: [], fragmentsLoaded: false };
      (window as unknown as { probe: Probe }).probe = probe;
      document.addEventListener("DOMContentLoaded", () => (probe.firstCount = document.querySelector("a.cart-contents .count")?.textContent ?? null));
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

    // The next page is this shopper's own (their cart cookies), with the count from the first paint on.
    const own = await page.goto(`${shop.url}/shop/`);
    expect(own!.headers()["x-cache"]).toBeUndefined();
    await page.waitForFunction(() => (window as unknown as { probe: Probe }).probe.fragmentsLoaded);
    const probe = await page.evaluate(() => (window as unknown as { probe: Probe }).probe);
    expect(probe.firstCount).toBe("1");
    expect(probe.shifts.filter((s) => s.inCart)).toEqual([]);
    expect(await page.locator("a.cart-contents .count").first().textContent()).toBe("1");
    expect(problems).toEqual([]);
    await context.close();
  });
});
