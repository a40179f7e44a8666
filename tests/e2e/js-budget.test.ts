/**
 * JavaScript budgets per storefront route (issue 18): the bytes (gzip) Chromium downloads for a route's first view,
 * measured as bench/js-per-route.ts does (tests/support/js-per-route.ts). A size budget, not a timing: a change that
 * ships more on first view than its route allows fails here, and so does one that brings back, on first view, a
 * chunk that must load only on demand.
 *
 * The budgets are today's figures plus a little room, not issue 18's targets (product ≤ 110 KB, /shop/ ≤ 100 KB):
 * React DOM and React Router alone are about 107 KB gzip of every page (docs/decisions/0025-javascript-on-demand.md).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { kb, measureRouteJs, STOREFRONT_ROUTES, type RouteJs } from "../support/js-per-route.ts";

/** KB (1024 bytes) of gzip per route: the figures of decision 0025 plus about 3 KB. */
const BUDGET_KB: Record<string, number> = {
  home: 157,
  "shop listing": 148,
  "simple product": 157,
  "variable product": 157,
  cart: 143,
  checkout: 165,
  "blog post": 142,
  "live match": 194,
};

/** Chunks only an interaction, a scroll or a trigger loads: never part of a first view. */
const ON_DEMAND = [
  "GalleryLightbox", // the lightbox, on a click on the main image
  "GallerySlider", // the gallery slider: on narrow screens only (the measure is at 1280 px)
  "dynamic-pricing", // the discount price and table refresh, on the first touch of the product form
  "PopupEngine", // the popups, on the shopper's first move (the demo popups wait for a scroll or an exit)
  "SearchPanel", // the search overlay, on a click on the search icon
  "QuickViewDialog", // quick view, on a click on its button
  "tracker.client", // the tracker, with consent only
  "attribution.client", // order attribution after hydration, where a form has attribution inputs or on navigation
  "wp-admin", // never on a storefront page
];
const ON_DEMAND_EXCEPT: Record<string, string[]> = {
  // The checkout's form carries the attribution inputs, filled after hydration.
  checkout: ["attribution.client"],
};
/** The live widgets' connection (centrifuge, zod): only where a widget is in view at first. */
const LIVE_RUNTIME = "live-runtime";

let shop: TestShop;
let browser: Browser;
const measured = new Map<string, RouteJs>();

beforeAll(async () => {
  shop = await startTestShop();
  browser = await launchBrowser();
  for (const route of STOREFRONT_ROUTES) measured.set(route.name, await measureRouteJs(browser, shop.url, route));
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

const chunkNames = (r: RouteJs) => r.files.map((f) => new URL(f.url).pathname.replace(/^.*\//, "").replace(/-[\w-]{8}\.js$/, ""));

describe("JavaScript per route, first view", () => {
  it.each(STOREFRONT_ROUTES.map((r) => r.name))("%s stays within its gzip budget", (name) => {
    const r = measured.get(name)!;
    expect(r.files.length, "scripts were measured").toBeGreaterThan(0);
    expect(Number(kb(r.gzip)), `${name} ${r.path}: ${kb(r.gzip)} KB gzip`).toBeLessThanOrEqual(BUDGET_KB[name]!);
  });

  it.each(STOREFRONT_ROUTES.map((r) => r.name))("%s loads no on-demand chunk on first view", (name) => {
    const names = chunkNames(measured.get(name)!);
    const forbidden = ON_DEMAND.filter((c) => !(ON_DEMAND_EXCEPT[name] ?? []).includes(c));
    expect(names.filter((n) => forbidden.includes(n))).toEqual([]);
  });

  it("the live widgets' connection loads where a widget is in view (/live/), not below the home page's fold", () => {
    expect(chunkNames(measured.get("live match")!)).toContain(LIVE_RUNTIME);
    expect(chunkNames(measured.get("home")!)).not.toContain(LIVE_RUNTIME);
  });

  it("scrolling the home page's live widgets into view loads their connection and fills them", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await page.goto(shop.url + "/");
      await page.waitForLoadState("networkidle");
      const runtime = page.waitForResponse((res) => new URL(res.url()).pathname.includes(`/${LIVE_RUNTIME}-`));
      await page.locator(".home-live").scrollIntoViewIfNeeded();
      expect((await runtime).ok()).toBe(true);
      // The list leaves its loading state once the connection answered (empty or not: the simulator is off).
      await page.locator(".home-live .live-scores:not(.live-scores--loading)").waitFor();
    } finally {
      await page.close();
    }
  });
});
