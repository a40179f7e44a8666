/**
 * Cart in the browser, second part: in-place adds from product pages (variable, grouped, bundle), a
 * listing variation add, the mobile drawer at 400 px, the fragments request's time-out and error
 * event, and the free item's 'change product' panel.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
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

/** Body events (they bubble to document) recorded from before any script runs. */
async function recordingContext(width: number): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await context.addInitScript(() => {
    const w = window as unknown as { __cartEvents: string[] };
    w.__cartEvents = [];
    for (const name of ["added_to_cart", "wc_fragments_ajax_error", "wc_fragments_refreshed", "wc_fragments_loaded"])
      document.addEventListener(name, () => w.__cartEvents.push(name));
  });
  return context;
}
const events = (page: Page) => page.evaluate(() => (window as unknown as { __cartEvents: string[] }).__cartEvents);
const cartReady = (page: Page) => page.waitForFunction(() => document.getElementById("wc-cart-announcer") !== null);
const headerCount = (page: Page) => page.locator("#ast-site-header-cart a.cart-contents .count").first().textContent();
const isSingleAdd = (url: string, body: string | null) =>
  url.endsWith("/wp-admin/admin-ajax.php") && (body ?? "").includes("action=astra_add_cart_single_product");

describe("adding from a product page in place", () => {
  it("variable: the browser's validity check runs first; the chosen variation is added, and its free bow tie with it", async () => {
    const context = await recordingContext(1280);
    const page = await context.newPage();
    const sent: string[] = [];
    page.on("request", (r) => isSingleAdd(r.url(), r.postData()) && sent.push(r.postData()!));
    await page.goto(`${shop.url}/product/silk-necktie/`);
    await cartReady(page);
    const addButton = page.locator("form.variations_form button.single_add_to_cart_button");
    await page.selectOption("form.variations_form select#attribute_pa_color", "red");
    await page.waitForFunction(() => (document.querySelector("form.variations_form input.variation_id") as HTMLInputElement).value !== "0");
    // An invalid quantity: the browser's own check stops the add and nothing is sent.
    await page.fill("form.variations_form input.qty", "0");
    await addButton.click();
    expect(await page.evaluate(() => (document.querySelector("form.variations_form input.qty") as HTMLInputElement).validity.rangeUnderflow)).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.matches("form.variations_form input.qty"))).toBe(true);
    expect(sent).toHaveLength(0);
    await page.fill("form.variations_form input.qty", "1");
    const [response] = await Promise.all([page.waitForResponse((r) => isSingleAdd(r.url(), r.request().postData())), addButton.click()]);
    const body = new URLSearchParams(response.request().postData()!);
    expect(body.get("attribute_pa_color")).toBe("red");
    expect(Number(body.get("variation_id"))).toBeGreaterThan(0);
    expect(body.get("add-to-cart")).toBe(body.get("product_id"));
    expect(((await response.json()) as { cart_hash: string }).cart_hash).toMatch(/^[0-9a-f]{32}$/);
    // The necktie and the free bow tie: two units.
    await expect.poll(() => headerCount(page)).toBe("2");
    expect(sent).toHaveLength(1);
    expect(await events(page)).toContain("added_to_cart");
    const mini = page.locator("#ast-site-header-cart .widget_shopping_cart_content");
    expect(await mini.textContent()).toContain("Silk Necktie");
    expect(await mini.locator(".free-item").count()).toBe(1);
    await context.close();
  });

  it("grouped: the children's quantities are sent and added", async () => {
    const context = await recordingContext(1280);
    const page = await context.newPage();
    await page.goto(`${shop.url}/product/office-essentials/`);
    await cartReady(page);
    const inputs = page.locator('form.grouped_form input[name^="quantity["]');
    const name = await inputs.first().getAttribute("name");
    await inputs.first().fill("2");
    const [request] = await Promise.all([
      page.waitForRequest((r) => isSingleAdd(r.url(), r.postData())),
      page.locator("form.grouped_form button.single_add_to_cart_button").click(),
    ]);
    expect(new URLSearchParams(request.postData()!).get(name!)).toBe("2");
    await expect.poll(() => headerCount(page)).toBe("2");
    await context.close();
  });

  it("bundle: the ticked extra is sent, priced into the line and named in the mini-cart", async () => {
    const context = await recordingContext(1280);
    const page = await context.newPage();
    await page.goto(`${shop.url}/product/groomsmen-gift-box/`);
    await cartReady(page);
    const optional = page.locator('form.bundle_form input[type="checkbox"][name^="bundle_selected_optional_"]').first();
    const field = await optional.getAttribute("name");
    await optional.check();
    const [request] = await Promise.all([
      page.waitForRequest((r) => isSingleAdd(r.url(), r.postData())),
      page.locator("form.bundle_form button.single_add_to_cart_button").click(),
    ]);
    const body = new URLSearchParams(request.postData()!);
    expect(body.get(field!)).toBe("yes");
    expect(body.get("add-to-cart")).toMatch(/^\d+$/);
    await expect.poll(() => headerCount(page)).toBe("1");
    expect(await page.locator("#ast-site-header-cart .widget_shopping_cart_content .variation").textContent()).toMatch(/^With /);
    await context.close();
  });
});

describe("a listing variation", () => {
  it("is added from the category archive with all the button's data, and the button shows 'added' and 'View cart'", async () => {
    const context = await recordingContext(1280);
    const page = await context.newPage();
    await page.goto(`${shop.url}/product-category/ties/`);
    await cartReady(page);
    const card = page
      .locator("li.product-type-variable")
      .filter({ has: page.locator(".jck_wssv_add_to_cart") })
      .first();
    await card.locator("details.loop-variations summary").click();
    const button = card.locator("a.jck_wssv_add_to_cart").first();
    const variationId = await button.getAttribute("data-variation_id");
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith("/wp-admin/admin-ajax.php") && (r.postData() ?? "").includes("jck_wssv_add_to_cart")),
      button.click(),
    ]);
    const body = new URLSearchParams(request.postData()!);
    expect(body.get("variation_id")).toBe(variationId);
    expect(body.get("product_id")).toBe(await button.getAttribute("data-product_id"));
    expect([...body.keys()].some((k) => k.startsWith("attribute_"))).toBe(true);
    await expect.poll(() => button.getAttribute("class")).toMatch(/\badded\b/);
    expect(Number(await headerCount(page))).toBeGreaterThanOrEqual(1);
    expect(await card.locator("a.added_to_cart.wc-forward").count()).toBe(1);
    await expect.poll(() => page.locator("#wc-cart-announcer").textContent()).toMatch(/has been added to your cart/);
    await context.close();
  });
});

describe("the mobile cart drawer at 400 px", () => {
  it("the header cart opens the drawer as a dialog; Escape and the close button shut it and give focus back", async () => {
    const context = await recordingContext(400);
    const page = await context.newPage();
    await page.goto(`${shop.url}/product-category/face-masks/`);
    await cartReady(page);
    await page.locator("a.ajax_add_to_cart").first().click();
    await expect.poll(() => headerCount(page)).toBe("1");
    const drawer = page.locator("#astra-mobile-cart-drawer");
    expect(await drawer.isHidden()).toBe(true);
    const cartLink = page.locator("#ast-site-header-cart a.cart-contents").first();
    await cartLink.click();
    await drawer.locator(".astra-cart-drawer").waitFor({ state: "visible" });
    expect(page.url()).not.toContain("/cart/");
    expect(await drawer.locator('[role="dialog"]').getAttribute("aria-modal")).toBe("true");
    expect(await page.evaluate(() => document.activeElement?.classList.contains("astra-cart-drawer"))).toBe(true);
    expect(await drawer.locator("li.woocommerce-mini-cart-item").count()).toBe(1);
    // Once slid in, the drawer fits the narrow screen.
    await expect
      .poll(async () => {
        const box = (await drawer.locator(".astra-cart-drawer").boundingBox())!;
        return box.x >= 0 && box.x + box.width <= 400;
      })
      .toBe(true);
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "hidden" });
    expect(await page.evaluate(() => document.activeElement?.closest("#ast-site-header-cart") !== null)).toBe(true);
    await cartLink.click();
    await drawer.locator(".astra-cart-drawer-close").click();
    await drawer.waitFor({ state: "hidden" });
    await context.close();
  });
});

describe("the fragments request's failures", () => {
  it("a 500 answer fires wc_fragments_ajax_error and replaces nothing", async () => {
    const context = await recordingContext(1280);
    const page = await context.newPage();
    await page.route(/wc-ajax=get_refreshed_fragments/, (route) => route.fulfill({ status: 500, body: "oops" }));
    await page.goto(`${shop.url}/shop/`);
    await expect.poll(() => events(page)).toContain("wc_fragments_ajax_error");
    expect(await events(page)).not.toContain("wc_fragments_refreshed");
    await context.close();
  });

  it("a request slower than 5000 ms is aborted and fires wc_fragments_ajax_error", async () => {
    const context = await recordingContext(1280);
    const page = await context.newPage();
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    let requestedAt = 0;
    await page.route(/wc-ajax=get_refreshed_fragments/, async (route) => {
      requestedAt ||= Date.now();
      await held;
      await route.fulfill({ status: 200, contentType: "application/json", body: '{"fragments":{},"cart_hash":""}' }).catch(() => undefined);
    });
    const started = Date.now();
    await page.goto(`${shop.url}/shop/`);
    // Loading and hydrating the page comes before the request and may take long on a busy machine: the upper bound
    // counts from the request, the lower one (conservatively) from before the page load.
    await page.waitForFunction(() => (window as unknown as { __cartEvents: string[] }).__cartEvents.includes("wc_fragments_ajax_error"), undefined, {
      timeout: 60_000,
    });
    const failedAt = Date.now();
    release();
    expect(failedAt - started).toBeGreaterThanOrEqual(5000);
    expect(requestedAt).toBeGreaterThan(0);
    expect(failedAt - requestedAt).toBeLessThan(9000);
    await context.close();
  });
});

describe("the free item's 'change product' panel", () => {
  it("the toggle slides the panel open; choosing a colour changes the free bow tie and reloads the cart", async () => {
    const context = await recordingContext(1280);
    const page = await context.newPage();
    const necktieVariation = (
      await shop.services.db.query<{ id: number }>(
        `SELECT v.id FROM variations v JOIN products p ON p.id = v.product_id WHERE p.slug = 'silk-necktie' AND v.stock_status = 'instock' ORDER BY v.menu_order, v.id LIMIT 1`,
      )
    )[0]!.id;
    await page.goto(`${shop.url}/cart/?add-to-cart=${necktieVariation}`);
    await page.waitForSelector("tr.awdr-free-item");
    await cartReady(page);
    const toggle = page.locator(".awdr-change-product-toggle");
    const panel = page.locator(".awdr-change-product-panel");
    expect(await panel.isHidden()).toBe(true);
    await toggle.click();
    if ((await toggle.getAttribute("aria-expanded")) !== "true") {
      // Seen once in CI under load and never reproduced: say what was under the pointer and what the row holds.
      const box = (await toggle.boundingBox())!;
      console.error(
        "toggle not opened",
        await page.evaluate(
          ([x, y]) => ({ at: document.elementFromPoint(x!, y!)?.outerHTML.slice(0, 200), rows: document.querySelectorAll("tr.awdr-free-item").length }),
          [box.x + box.width / 2, box.y + box.height / 2],
        ),
      );
    }
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    await panel.waitFor({ state: "visible" });
    const choices = panel.locator("button.awdr-select-free-variant-product-toggle");
    expect(await choices.count()).toBeGreaterThan(1);
    expect(await choices.first().getAttribute("aria-pressed")).toBe("true");
    const target = choices.nth(1);
    const targetId = await target.getAttribute("data-product_id");
    const targetLabel = (await target.textContent())!;
    // The answer is read as it passes: the page navigates away (the update button) right after it.
    let answer = "";
    await page.route("**/wp-admin/admin-ajax.php", async (route) => {
      const res = await route.fetch();
      const text = await res.text();
      if ((route.request().postData() ?? "").includes("awdr_change_discount_product_in_cart")) answer = text;
      await route.fulfill({ response: res, body: text });
    });
    await target.click();
    await expect.poll(() => answer).not.toBe("");
    expect(JSON.parse(answer)).toEqual({ success: true, data: 1 });
    // The update button is pressed: the cart page comes back with the new colour chosen.
    await page.waitForSelector(`button.awdr-select-free-variant-product-toggle[data-product_id="${targetId}"][aria-pressed="true"]`, { state: "attached" });
    expect(await page.locator("tr.awdr-free-item td.product-name").textContent()).toContain(targetLabel.split(" – ").at(-1)!);
    await context.close();
  });
});
