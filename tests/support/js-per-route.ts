/**
 * The JavaScript a storefront page makes Chromium download for its first view (issue 18): every script response
 * from the navigation until the page is loaded, the network is quiet and the browser has been idle once (so chunks
 * a page imports "once interactive", such as the popup engine, count; chunks loaded on a click or a scroll do not).
 * Bytes raw (decoded) and gzip (each body compressed with zlib at the default level, what the shop's own
 * compression sends). Shared by bench/js-per-route.ts (figures) and tests/e2e/js-budget.test.ts (budgets).
 */
import { gzipSync } from "node:zlib";
import type { Browser, BrowserContext, Page } from "playwright-core";

export interface RouteToMeasure {
  name: string;
  path: string;
  /** Before the visit, in the same browser context (e.g. put something in the cart for the checkout). */
  prepare?: (context: BrowserContext, baseUrl: string) => Promise<void>;
  /** What the page shows once its first view is complete (e.g. a widget that imports a chunk once in view). */
  ready?: (page: Page) => Promise<void>;
}

export interface ScriptFile {
  url: string;
  raw: number;
  gzip: number;
}

export interface RouteJs {
  name: string;
  path: string;
  raw: number;
  gzip: number;
  files: ScriptFile[];
}

/** A product's id from its page's add-to-cart button (works without knowing the database). */
async function productId(baseUrl: string, slug: string): Promise<string> {
  const html = await (await fetch(`${baseUrl}/product/${slug}/`)).text();
  const id = /name="add-to-cart"[^>]*value="(\d+)"|value="(\d+)"[^>]*name="add-to-cart"/.exec(html);
  if (!id) throw new Error(`no add-to-cart button on /product/${slug}/`);
  return (id[1] ?? id[2])!;
}

async function addToCart(context: BrowserContext, baseUrl: string, slug: string): Promise<void> {
  const res = await context.request.post(`${baseUrl}/?wc-ajax=add_to_cart`, { form: { product_id: await productId(baseUrl, slug), quantity: "1" } });
  if (!res.ok()) throw new Error(`add to cart failed: HTTP ${res.status()}`);
}

/** The storefront routes the bench reports and the budget test checks (the demo catalogue's addresses). */
export const STOREFRONT_ROUTES: RouteToMeasure[] = [
  { name: "home", path: "/" },
  { name: "shop listing", path: "/shop/" },
  { name: "simple product", path: "/product/black-everyday-mask/" },
  { name: "variable product", path: "/product/cotton-face-mask/" },
  { name: "cart", path: "/cart/", prepare: (c, url) => addToCart(c, url, "black-everyday-mask") },
  { name: "checkout", path: "/checkout/", prepare: (c, url) => addToCart(c, url, "black-everyday-mask") },
  { name: "blog post", path: "/blog/how-to-wash-a-face-mask/" },
  {
    name: "live match",
    path: "/live/",
    // The list leaves its loading state only after its connection chunk loaded and answered: on a busy machine that
    // can come after the network first went quiet.
    ready: (page) => page.locator(".live-scores:not(.live-scores--loading)").first().waitFor({ timeout: 20_000 }),
  },
];

export async function measureRouteJs(browser: Browser, baseUrl: string, route: RouteToMeasure): Promise<RouteJs> {
  // A fresh context per route: an empty HTTP cache, as a first visit.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    if (route.prepare) await route.prepare(context, baseUrl);
    const page = await context.newPage();
    const bodies = new Map<string, Promise<ScriptFile | null>>();
    page.on("response", (res) => {
      if (res.request().resourceType() !== "script" || bodies.has(res.url())) return;
      bodies.set(
        res.url(),
        res.body().then(
          (b) => ({ url: res.url(), raw: b.length, gzip: gzipSync(b).length }),
          () => null, // a response without a body (a redirect): nothing downloaded
        ),
      );
    });
    await page.goto(baseUrl + route.path, { waitUntil: "load" });
    await page.waitForLoadState("networkidle");
    if (route.ready) await route.ready(page);
    // Once idle after hydration (where "once interactive" chunks are imported), then quiet again. Two frames first:
    // a widget in view imports its chunk from an IntersectionObserver callback, delivered after a rendering update,
    // which a busy machine may not have reached when the network first went quiet.
    await page.evaluate(
      () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestIdleCallback(() => r(null), { timeout: 5000 })))),
    );
    await page.waitForLoadState("networkidle");
    const files = (await Promise.all(bodies.values())).filter((f): f is ScriptFile => f !== null).sort((a, b) => b.gzip - a.gzip);
    return {
      name: route.name,
      path: route.path,
      raw: files.reduce((n, f) => n + f.raw, 0),
      gzip: files.reduce((n, f) => n + f.gzip, 0),
      files,
    };
  } finally {
    await context.close();
  }
}

export const kb = (bytes: number): string => (bytes / 1024).toFixed(1);
