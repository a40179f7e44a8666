/**
 * Catalogue settings the spec turns off (or sets to the other value), turned on through
 * SHOP_SETTINGS: the 'scroll' infinite mode and the docs/contract/storefront.md §9 swatch settings.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser, letPageSettle } from "../support/browser.ts";

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
      const page = await open(shop, width, "/shop/", '.astra-shop-filter-button[data-hydrated="1"]');
      const total = Number(/of (\d+) results/.exec(await page.locator(".woocommerce-result-count").innerText())![1]);
      const pages = Math.ceil(total / 12);
      const requested: string[] = [];
      let inFlight = 0;
      let maxInFlight = 0;
      // The network answers a page only when the test lets it, so the repeated scrolling below surely happens while
      // a page is on its way (a fixed delay is not enough on a busy machine).
      let gate: { opened: Promise<void>; open(): void } = { opened: Promise.resolve(), open: () => undefined };
      const closeGate = () => {
        let open = () => undefined as void;
        const opened = new Promise<void>((resolve) => (open = resolve));
        gate = { opened, open };
      };
      await page.route(/\/shop\/page\/\d+\//, async (route) => {
        requested.push(new URL(route.request().url()).pathname);
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await gate.opened;
        await route.continue().catch(() => undefined);
        inFlight--;
      });
      expect(await page.locator(".ast-pagination-infinite").getAttribute("data-infinite-event")).toBe("scroll");
      // Only part of the last product in view: nothing yet.
      await scrollLastTo(page, 40);
      // Nothing to await for an absence: let the page's scroll handler (run on the next animation frame) have its
      // chance to fire, then check that it started no load.
      await letPageSettle(page, { frames: 3, ms: 100 });
      expect(await page.locator(".ast-loader.is-loading").count()).toBe(0);
      expect(requested).toEqual([]);
      for (let n = 2; n <= pages; n++) {
        const shown = Math.min(total, n * 12);
        // Scroll repeatedly while the page loads: still one request for it.
        closeGate();
        await scrollLastTo(page, -1);
        await page.mouse.wheel(0, 30);
        await expect.poll(() => requested.length).toBe(n - 1);
        for (let i = 1; i < 5; i++) {
          await scrollLastTo(page, -1 - i);
          await page.mouse.wheel(0, 30);
        }
        await letPageSettle(page, { frames: 3 });
        gate.open();
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

describe("swatch settings turned on (clear_on_reselect, deselect_unavailable, clickable_out_of_stock, show_variation_stock; disable_out_of_stock off)", () => {
  let shop: TestShop;
  let colors: string[];
  let sizes: string[];
  const SLUG = "settings-mask";

  beforeAll(async () => {
    shop = await startTestShop({
      SHOP_SETTINGS: JSON.stringify({
        swatches: {
          clear_on_reselect: true,
          deselect_unavailable: true,
          clickable_out_of_stock: true,
          show_variation_stock: true,
          disable_out_of_stock: false,
        },
      }),
    });
    const db = shop.services.db;
    const slugs = async (taxonomy: string) =>
      (await db.query<{ slug: string }>(`SELECT slug FROM terms WHERE taxonomy = $1 ORDER BY menu_order, id LIMIT 2`, [taxonomy])).map((r) => r.slug);
    colors = await slugs("pa_color");
    sizes = await slugs("pa_size");
    const attributes = [
      { name: "pa_color", label: "Color", options: colors, variation: true },
      { name: "pa_size", label: "Size", options: sizes, variation: true },
    ];
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO products (type, slug, name, regular_price, price_min, price_max, attributes) VALUES ('variable', $1, 'Settings Mask', 500, 500, 500, $2::jsonb) RETURNING id`,
      [SLUG, JSON.stringify(attributes)],
    );
    // colour 1 + size 2 is out of stock; colour 2 + size 1 has 3 left (at or below the threshold of 5).
    const stock: [string, string, number][] = [
      [colors[0]!, sizes[0]!, 10],
      [colors[0]!, sizes[1]!, 0],
      [colors[1]!, sizes[0]!, 3],
      [colors[1]!, sizes[1]!, 10],
    ];
    for (const [i, [c, s, q]] of stock.entries()) {
      await db.query(
        `INSERT INTO variations (product_id, sku, attributes, regular_price, stock_quantity, stock_status, menu_order) VALUES ($1, $2, $3::jsonb, 500, $4, $5, $6)`,
        [row!.id, `SET-${i}`, JSON.stringify({ attribute_pa_color: c, attribute_pa_size: s }), q, q === 0 ? "outofstock" : "instock", i],
      );
    }
  });
  afterAll(async () => {
    await shop?.close();
  });

  const item = (page: Page, attribute: string, value: string) =>
    page.locator(`ul[aria-labelledby="attribute_${attribute}-label"] [role="radio"][data-value="${value}"]`);
  const select = (page: Page, attribute: string) => page.locator(`#attribute_${attribute}`);

  describe.each([1280, 400])("at %i px", (width) => {
    it("reselecting a selected swatch clears it (mouse and keyboard)", async () => {
      const page = await open(shop, width, `/product/${SLUG}/`, ".cfvsw-swatches-list");
      const color = item(page, "pa_color", colors[0]!);
      await color.click();
      await expect.poll(() => select(page, "pa_color").inputValue()).toBe(colors[0]);
      expect(await color.getAttribute("aria-checked")).toBe("true");
      await color.click();
      await expect.poll(() => select(page, "pa_color").inputValue()).toBe("");
      expect(await color.getAttribute("aria-checked")).toBe("false");
      await color.focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => select(page, "pa_color").inputValue()).toBe(colors[0]);
      await page.keyboard.press("Space");
      await expect.poll(() => select(page, "pa_color").inputValue()).toBe("");
      await page.close();
    });

    it("an out-of-stock item is 'no-stock' and clickable, and choosing it (unavailable with the other choice) clears the other attributes", async () => {
      const page = await open(shop, width, `/product/${SLUG}/`, ".cfvsw-swatches-list");
      await item(page, "pa_color", colors[0]!).click();
      await expect.poll(() => select(page, "pa_color").inputValue()).toBe(colors[0]);
      const noStock = item(page, "pa_size", sizes[1]!);
      await expect.poll(() => noStock.getAttribute("class")).toContain("is-no-stock");
      expect(await noStock.getAttribute("aria-disabled")).toBeNull();
      expect(await noStock.getAttribute("data-tooltip")).toBe("(Out of Stock)");
      // Not disabled: in the radio group's roving tabindex it is reached with the arrow keys (the checked item holds the tab stop).
      expect(await noStock.getAttribute("tabindex")).toBe("-1");
      // The in-stock size is an ordinary item.
      expect(await item(page, "pa_size", sizes[0]!).getAttribute("class")).not.toContain("is-no-stock");
      await noStock.click();
      await expect.poll(() => select(page, "pa_size").inputValue()).toBe(sizes[1]);
      // No in-stock variation has colour 1 and size 2: the colour is cleared.
      await expect.poll(() => select(page, "pa_color").inputValue()).toBe("");
      expect(await item(page, "pa_color", colors[0]!).getAttribute("aria-checked")).toBe("false");
      // An available combination keeps both.
      await item(page, "pa_color", colors[1]!).click();
      await expect.poll(() => select(page, "pa_color").inputValue()).toBe(colors[1]);
      expect(await select(page, "pa_size").inputValue()).toBe(sizes[1]);
      await page.close();
    });

    it("the stock-left info appears for a low-stock variation only", async () => {
      const page = await open(shop, width, `/product/${SLUG}/`, ".cfvsw-swatches-list");
      expect(await page.locator(".cfvsw-stock-left").count()).toBe(0);
      await item(page, "pa_color", colors[1]!).click();
      await expect.poll(() => item(page, "pa_size", sizes[0]!).locator(".cfvsw-stock-left").innerText()).toBe("3 left");
      // Announced with the item, whose aria-label stands in for its content.
      expect(await item(page, "pa_size", sizes[0]!).getAttribute("aria-label")).toMatch(/\(3 left\)$/);
      expect(await item(page, "pa_size", sizes[1]!).locator(".cfvsw-stock-left").count()).toBe(0);
      // Colour 1: its sizes have 10 (above the threshold) and none.
      await item(page, "pa_color", colors[0]!).click();
      await expect.poll(() => page.locator(".cfvsw-stock-left").count()).toBe(0);
      await page.close();
    });
  });

  it("quantity inputs below their minimum are raised to it on load; a minimum of 0 is kept", async () => {
    const db = shop.services.db;
    const [simple] = await db.query<{ slug: string }>(`SELECT slug FROM products WHERE type = 'simple' AND stock_status = 'instock' ORDER BY id LIMIT 1`);
    const [grouped] = await db.query<{ slug: string }>(`SELECT slug FROM products WHERE type = 'grouped' ORDER BY id LIMIT 1`);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // The server never prints a value below the minimum, so the test lowers it in the page it receives.
    const lowered: string[] = [];
    await page.route(/\/product\/[^/]+\/$/, async (route) => {
      const response = await route.fetch();
      const original = await response.text();
      const html = original.replace(/(<input[^>]*class="input-text qty text"[^>]*name="quantity"[^>]*?)value="1"/, '$1value="-2"');
      if (html !== original) lowered.push(new URL(route.request().url()).pathname);
      await route.fulfill({ response, body: html });
    });
    await page.goto(`${shop.url}/product/${simple!.slug}/`);
    expect(lowered).toEqual([`/product/${simple!.slug}/`]);
    await expect.poll(() => page.locator('input.qty[name="quantity"]').inputValue()).toBe("1");
    await page.goto(`${shop.url}/product/${grouped!.slug}/`);
    await page.waitForSelector('input.qty[name^="quantity["]');
    const values = await page.locator('input.qty[name^="quantity["]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
    expect(values.length).toBeGreaterThan(0);
    expect(values.every((v) => v === "0")).toBe(true);
    await page.close();
  });
});
