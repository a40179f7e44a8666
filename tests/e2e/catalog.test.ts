import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";

let shop: TestShop;
let browser: Browser;
const WIDTHS = [1280, 400] as const;

/** A variable product with 8 colours × 25 patterns = 200 variations: too many to print, so loaded on demand. */
async function createManyVariationProduct(): Promise<string> {
  const db = shop.services.db;
  const colors = (await db.query<{ slug: string }>(`SELECT slug FROM terms WHERE taxonomy = 'pa_color' ORDER BY menu_order, id`)).map((r) => r.slug);
  const attributes = [
    { name: "pa_color", label: "Color", options: colors, variation: true },
    { name: "pa_pattern", label: "Pattern", options: Array.from({ length: 25 }, (_, i) => `pattern-${i + 1}`), variation: true },
  ];
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO products (type, slug, name, regular_price, price_min, price_max, attributes) VALUES ('variable', 'many-variations-mask', 'Many Variations Mask', 500, 400, 500, $1::jsonb) RETURNING id`,
    [JSON.stringify(attributes)],
  );
  await db.query(
    `INSERT INTO variations (product_id, sku, attributes, regular_price, sale_price, stock_quantity, stock_status, menu_order)
     SELECT $1, 'MANY-' || c || '-' || n, jsonb_build_object('attribute_pa_color', c, 'attribute_pa_pattern', 'pattern-' || n), 500, NULL, 10, 'instock', n
     FROM unnest($2::text[]) AS c, generate_series(1, 25) AS n`,
    [row!.id, colors],
  );
  return "many-variations-mask";
}
let manySlug: string;

beforeAll(async () => {
  shop = await startTestShop();
  browser = await launchBrowser();
  manySlug = await createManyVariationProduct();
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

async function open(width: number, path: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  await page.goto(shop.url + path);
  // Hydrated: the enhanced controls exist only once React has run.
  await page.waitForSelector('.astra-shop-filter-button[data-hydrated="1"], .cfvsw-swatches-list, .gallery-static, .gallery-slider', { state: "attached" });
  // The server's swatches are there before React: wait for the cart scripts, which mount after hydration.
  await page.waitForSelector("#wc-cart-announcer", { state: "attached" });
  return page;
}

const resultCount = (page: Page) => page.locator(".woocommerce-result-count").innerText();

describe.each(WIDTHS)("catalogue at %i px", (width) => {
  it("swatches set the selects with the mouse and the keyboard, and respect disabled items", async () => {
    const page = await open(width, "/product/pleated-face-mask/");
    const color = page.locator('ul[aria-labelledby="attribute_pa_color-label"] [role="radio"]:not([aria-disabled="true"])').first();
    const value = await color.getAttribute("data-value");
    await color.click();
    await expect.poll(() => page.locator("#attribute_pa_color").inputValue()).toBe(value);
    await expect.poll(() => color.getAttribute("aria-checked")).toBe("true");
    // Keyboard: Space, then Enter, on size items.
    const sizes = page.locator('ul[aria-labelledby="attribute_pa_size-label"] [role="radio"]:not([aria-disabled="true"])');
    const first = sizes.first();
    await first.focus();
    await page.keyboard.press("Space");
    await expect.poll(() => page.locator("#attribute_pa_size").inputValue()).toBe(await first.getAttribute("data-value"));
    const second = sizes.nth(1);
    if ((await sizes.count()) > 1) {
      await second.focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => page.locator("#attribute_pa_size").inputValue()).toBe(await second.getAttribute("data-value"));
      expect(await first.getAttribute("aria-checked")).toBe("false");
    }
    // A complete choice picks the variation.
    await expect.poll(() => page.locator('input[name="variation_id"]').inputValue()).not.toBe("0");
    expect(await page.locator(".chosen-summary").getAttribute("data-chosen-count")).toBe("2");
    // The sticky bar appears once the form has scrolled away.
    const sticky = page.locator(".ast-sticky-add-to-cart");
    expect(await sticky.getAttribute("class")).not.toContain("is-visible");
    await page.locator(".site-footer, footer").first().scrollIntoViewIfNeeded();
    await expect.poll(() => sticky.getAttribute("class")).toContain("is-visible");
    await page.evaluate(() => window.scrollTo(0, 0));
    // Disabled items carry the tooltip and ignore clicks.
    const disabled = page.locator('[role="radio"][aria-disabled="true"]');
    if (await disabled.count()) {
      const before = await page.locator("#attribute_pa_color").inputValue();
      const tooltip = await disabled.first().getAttribute("data-tooltip");
      expect(["(Unavailable)", "(Out of Stock)"]).toContain(tooltip);
      await disabled.first().click({ force: true });
      expect(await page.locator("#attribute_pa_color").inputValue()).toBe(before);
    }
    await page.close();
  });

  it("loads variations on demand when there are many, and shows the 'more' control", async () => {
    const page = await open(width, `/product/${manySlug}/`);
    expect(await page.locator("form.variations_form").getAttribute("data-product_variations")).toBe("false");
    const colors = page.locator('ul[aria-labelledby="attribute_pa_color-label"]');
    // The 'more' control follows the radiogroup (inside it, its list item would belong to no list).
    const more = page.locator('ul[aria-labelledby="attribute_pa_color-label"] + .cfvsw-more-link');
    await expect.poll(() => more.count()).toBe(1);
    const before = await colors.locator('[role="radio"]').count();
    await more.click();
    await expect.poll(() => colors.locator('[role="radio"]').count()).toBeGreaterThan(before);
    await colors.locator('[role="radio"]').last().click();
    const answer = page.waitForResponse((r) => r.url().includes("wc-ajax=get_variation"));
    await page.locator('ul[aria-labelledby="attribute_pa_pattern-label"] [role="radio"]').first().click();
    const body = await (await answer).json();
    expect(body.attributes.attribute_pa_pattern).toBe("pattern-1");
    await expect.poll(() => page.locator('input[name="variation_id"]').inputValue()).toBe(String(body.variation_id));
    await page.close();
  });

  it("the off-canvas sidebar opens, traps focus, and closes on Escape and a click outside", async () => {
    const page = await open(width, "/shop/");
    const button = page.locator(".astra-shop-filter-button");
    const sidebar = page.locator("#astra-off-canvas-sidebar");
    await expect.poll(() => sidebar.isVisible()).toBe(false);
    await button.click();
    await expect.poll(() => sidebar.isVisible()).toBe(true);
    expect(await page.evaluate(() => document.getElementById("astra-off-canvas-sidebar")!.contains(document.activeElement))).toBe(true);
    for (let i = 0; i < 40; i++) await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.getElementById("astra-off-canvas-sidebar")!.contains(document.activeElement))).toBe(true);
    await page.keyboard.press("Escape");
    await expect.poll(() => sidebar.isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.classList.contains("astra-shop-filter-button"))).toBe(true);
    await button.click();
    await expect.poll(() => sidebar.isVisible()).toBe(true);
    await page.mouse.click(width - 5, 450); // the overlay, outside the panel
    await expect.poll(() => sidebar.isVisible()).toBe(false);
    // Accordion: a widget folds.
    await button.click();
    const toggle = page.locator(".ast-filter-accordion .widget-title button").nth(1);
    await toggle.click();
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    await page.close();
  });

  it("the price slider moves by keyboard and pointer within the range and filters the listing", async () => {
    const page = await open(width, "/shop/");
    await page.locator(".astra-shop-filter-button").click();
    const from = page.locator('[role="slider"][data-handle="from"]');
    const to = page.locator('[role="slider"][data-handle="to"]');
    const min = Number(await from.getAttribute("aria-valuemin"));
    const max = Number(await to.getAttribute("aria-valuemax"));
    await from.focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    expect(Number(await from.getAttribute("aria-valuenow"))).toBe(min + 2);
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("Home");
    await page.keyboard.press("ArrowLeft");
    expect(Number(await from.getAttribute("aria-valuenow"))).toBe(min); // clamped
    await page.keyboard.press("ArrowRight");
    await to.focus();
    await page.keyboard.press("Home"); // stops at the other handle
    expect(Number(await to.getAttribute("aria-valuenow"))).toBe(min + 1);
    await page.keyboard.press("End");
    expect(Number(await to.getAttribute("aria-valuenow"))).toBe(max);
    // Pointer: press near the middle of the track moves the closer handle to a whole step.
    const box = (await page.locator(".price_slider").boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.9, box.y + box.height / 2);
    const now = Number(await to.getAttribute("aria-valuenow"));
    expect(Number.isInteger(now)).toBe(true);
    expect(now).toBeLessThan(max);
    expect(await page.locator(".price_label .to").innerText()).toBe(`$${now}`);
    await Promise.all([page.waitForURL(/max_price=/), page.locator(".widget_price_filter button[type=submit]").click()]);
    const url = new URL(page.url());
    expect(url.searchParams.get("min_price")).toBe(String(min + 1));
    expect(url.searchParams.get("max_price")).toBe(String(now));
    await page.close();
  });

  it("taxonomy filters go into the address, refresh in place, and back and forward work", async () => {
    const page = await open(width, "/shop/");
    const unfiltered = await resultCount(page);
    await page.locator(".astra-shop-filter-button").click();
    const refresh = () => page.waitForResponse((r) => r.url().includes("/refresh-loop") && r.request().method() === "POST");
    let done = refresh();
    await page.locator('.e-filter-pa_color [data-filter="red"]').click();
    await done;
    expect(new URL(page.url()).searchParams.get("e-filter-shop-pa_color")).toBe("red");
    await expect.poll(() => resultCount(page)).not.toBe(unfiltered);
    const redCount = await resultCount(page);
    done = refresh();
    await page.locator('.e-filter-pa_color [data-filter="navy"]').click();
    await done;
    expect(new URL(page.url()).searchParams.get("e-filter-shop-pa_color")).toBe("red~navy");
    await expect.poll(() => page.locator('.e-filter-pa_color [data-filter="navy"]').getAttribute("aria-checked")).toBe("true");
    // A shared address renders the same filtered page on the server.
    const shared = await browser.newPage({ viewport: { width, height: 900 } });
    await shared.goto(page.url());
    const bothCount = await resultCount(page);
    expect(await resultCount(shared)).toBe(bothCount);
    await shared.close();
    await page.goBack();
    await expect.poll(() => new URL(page.url()).searchParams.get("e-filter-shop-pa_color")).toBe("red");
    await expect.poll(() => resultCount(page)).toBe(redCount);
    await page.goBack();
    await expect.poll(() => page.url()).toBe(`${shop.url}/shop/`);
    await expect.poll(() => resultCount(page)).toBe(unfiltered);
    await page.goForward();
    await expect.poll(() => resultCount(page)).toBe(redCount);
    await page.close();
  });

  it("infinite loading appends products on click until 'No more products to show.'", async () => {
    const page = await open(width, "/shop/");
    const total = Number(/of (\d+) results/.exec(await resultCount(page))![1]);
    const more = page.locator(".ast-load-more");
    expect(await more.getAttribute("href")).toBe("/shop/page/2/");
    await more.click();
    await expect.poll(() => page.locator("ul.products > li.product").count()).toBe(24);
    await expect.poll(() => more.getAttribute("href")).toBe("/shop/page/3/");
    await expect.poll(() => page.locator("li.product.ast-fade-up.is-shown").count()).toBe(12);
    await expect.poll(() => resultCount(page)).toBe(`Showing 1–24 of ${total} results`);
    // The live region says it again after the spec's 2000 ms.
    await expect.poll(() => page.locator(".woocommerce-result-count").getAttribute("data-announced")).toBe("1");
    for (let shown = 24; shown < total; shown = Math.min(total, shown + 12)) {
      await more.click();
      await expect.poll(() => page.locator("ul.products > li.product").count()).toBe(Math.min(total, shown + 12));
    }
    await page.waitForSelector("text=No more products to show.");
    expect(await page.locator("ul.products > li.product").count()).toBe(total);
    await page.close();
  });

  it("the sort select submits on change, and the view toggle is remembered", async () => {
    const page = await open(width, "/shop/");
    await Promise.all([page.waitForURL(/orderby=price-desc/), page.locator("select.orderby").selectOption("price-desc")]);
    await page.locator('.ast-view-trigger[data-view="list"]').click();
    await expect.poll(() => page.locator("ul.products").getAttribute("class")).toContain("view-list");
    await page.goto(shop.url + "/product-category/ties/");
    expect(await page.locator("ul.products").getAttribute("class")).toContain("view-list");
    expect(await page.locator('.ast-view-trigger[data-view="list"]').getAttribute("aria-pressed")).toBe("true");
    await page.close();
  });
});

describe("product gallery", () => {
  it("at 400 px the server's gallery takes the slider's height, so the summary does not move when the slider takes over", async () => {
    const page = await browser.newPage({ viewport: { width: 400, height: 900 } });
    await page.addInitScript(() => {
      const w = window as unknown as { shifted: number; shifts: string[] };
      w.shifted = 0;
      w.shifts = [];
      type Shift = { value: number; startTime: number; sources: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[] };
      // From the parsed page on: the slider takes over after hydration. A slow CPU can paint the half-read page while
      // it streams in, which is not what this test is about.
      let parsedAt = Infinity;
      document.addEventListener("DOMContentLoaded", () => (parsedAt = performance.now()));
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as Shift[]) {
          if (entry.startTime < parsedAt) continue;
          w.shifted += entry.value;
          // What moved, for the failure message: the element, and its box before and after.
          for (const s of entry.sources)
            w.shifts.push(
              `${entry.value.toFixed(4)} at ${Math.round(entry.startTime)} ms: ${(s.node as Element | undefined)?.outerHTML?.slice(0, 120) ?? s.node?.nodeName} ` +
                `${JSON.stringify(s.previousRect)} -> ${JSON.stringify(s.currentRect)}`,
            );
        }
      }).observe({ type: "layout-shift", buffered: true });
    });
    await page.goto(shop.url + "/product/pleated-face-mask/");
    await page.waitForSelector("[data-testid=gallery-slider] img");
    const summaryTop = await page.locator(".summary").evaluate((el) => el.getBoundingClientRect().top);
    // Before: the thumbnails' row (about 75 px) left when the slider came, and everything below it moved up (0.017).
    const { shifted, shifts } = await page.evaluate(() => {
      const w = window as unknown as { shifted: number; shifts: string[] };
      return { shifted: w.shifted, shifts: w.shifts };
    });
    expect(shifted, shifts.join("\n")).toBeLessThan(0.005);
    expect(await page.locator(".gallery-dots").evaluate((el) => el.getBoundingClientRect().bottom)).toBeLessThanOrEqual(summaryTop);
    await page.close();
  });

  it("is a slider below 922 px, removed at 922 px and wider after the resize debounce, and jumps to the variation's slide", async () => {
    const page = await open(1280, "/product/pleated-face-mask/");
    expect(await page.locator("[data-testid=gallery-slider]").count()).toBe(0);
    await page.setViewportSize({ width: 900, height: 900 });
    await page.waitForSelector("[data-testid=gallery-slider]");
    await page.setViewportSize({ width: 922, height: 900 });
    await page.waitForSelector("[data-testid=gallery-slider]", { state: "detached" });
    // Wide: thumbnails switch the main image; a chosen variation jumps to its first slide.
    await page.locator(".flex-control-thumbs button").nth(1).click();
    expect(await page.locator(".woocommerce-product-gallery").getAttribute("data-active")).toBe("1");
    await page.locator('ul[aria-labelledby="attribute_pa_color-label"] [role="radio"]:not([aria-disabled="true"])').first().click();
    await page.locator('ul[aria-labelledby="attribute_pa_size-label"] [role="radio"]:not([aria-disabled="true"])').first().click();
    await expect.poll(() => page.locator(".woocommerce-product-gallery").getAttribute("data-active")).toBe("0");
    // Narrow: the slider, driven by its dots and by drag.
    await page.setViewportSize({ width: 400, height: 900 });
    await page.waitForSelector("[data-testid=gallery-slider]");
    await page.locator(".gallery-dots button").nth(1).click();
    await expect.poll(() => page.locator(".woocommerce-product-gallery").getAttribute("data-active")).toBe("1");
    const box = (await page.locator(".gallery-viewport").boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => page.locator(".woocommerce-product-gallery").getAttribute("data-active")).toBe("0");
    // The lightbox opens on the image, with its counter.
    await page.locator(".gallery-track a").first().click();
    await page.waitForSelector(".yarl__counter");
    expect(await page.locator(".yarl__counter").innerText()).toMatch(/1 \/ \d/);
    await page.close();
  });
});
