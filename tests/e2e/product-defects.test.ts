/**
 * Issue 20, the product and cart pages in the browser: the bundle's real price and running total, the variation's
 * stock as the quantity's maximum, one price request per change, the 'added to your cart' notice, one coupon entry
 * point, the sale pill, the swatches' radio-group keys, axe-core on the product and cart pages, the gallery dots'
 * target size. One shop and one browser for the file.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";

let shop: TestShop;
let browser: Browser;

beforeAll(async () => {
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

async function open(path: string, width = 1280): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${shop.url}${path}`);
  // Hydrated: the swatches, the cart script and the discount script are all React effects.
  await expect.poll(() => page.evaluate(() => Boolean((window as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules))).toBe(true);
  return { context, page };
}

const isPriceRequest = (url: string, body: string | null) => url.endsWith("/wp-admin/admin-ajax.php") && (body ?? "").includes("method=get_price_html");

describe("bundle price on the product page", () => {
  it("shows the box with its mandatory items from the start, and a running total as extras are ticked", async () => {
    const { context, page } = await open("/product/groomsmen-gift-box/");
    const answers: number[] = [];
    page.on("response", (r) => isPriceRequest(r.url(), r.request().postData()) && answers.push(r.status()));
    // $20 box + tie $19.80 + 2 masks $6 = $45.80, printed "$46".
    expect(await page.locator("div.product p.price").innerText()).toBe("$46");
    expect(await page.locator("form.bundle_form .bundle_total").innerText()).toContain("$46");
    // Each item shows its picture and links to its page.
    expect(await page.locator("form.bundle_form li.bundled_product img").count()).toBe(4);
    expect(await page.locator('form.bundle_form li.bundled_product a[href="/product/silk-pocket-square/"]').count()).toBeGreaterThan(0);

    const priced = page.waitForResponse(
      (r) => isPriceRequest(r.url(), r.request().postData()) && (r.request().postData() ?? "").includes("bundle_selected_optional_3=yes"),
    );
    await page.locator('input[name="bundle_selected_optional_3"]').check();
    // The running total follows at once; the price area follows with the server's answer (the cart's price).
    await expect.poll(() => page.locator("form.bundle_form .bundle_total").innerText()).toContain("$58");
    expect((await priced).status()).toBe(200);
    await expect.poll(() => page.locator("div.product p.price").innerText()).toBe("$58");
    await page.locator("form.bundle_form input.qty").fill("2");
    await expect.poll(() => page.locator("form.bundle_form .bundle_total").innerText()).toBe("Total for 2 bundles: $116");
    expect(answers.filter((s) => s !== 200)).toEqual([]);
    await context.close();
  });
});

describe("a variable product's quantity", () => {
  it("takes the chosen variation's max_qty as its maximum, with an inline message above it", async () => {
    const { context, page } = await open("/product/silk-necktie/");
    const qty = page.locator("form.variations_form input.qty");
    await page.locator('.cfvsw-swatches-list [role="radio"][data-value="navy"]').click();
    await expect.poll(() => qty.getAttribute("max")).toBe("17");
    await qty.fill("18");
    const message = page.locator("form.variations_form .quantity-stock-message");
    await expect.poll(() => message.innerText()).toBe("Only 17 in stock: please choose 17 or fewer.");
    expect(await message.getAttribute("role")).toBe("status");
    expect(await qty.getAttribute("aria-invalid")).toBe("true");
    // Another variation with more stock: the maximum moves and the message goes.
    await page.locator('.cfvsw-swatches-list [role="radio"][data-value="red"]').click();
    await expect.poll(() => qty.getAttribute("max")).toBe("24");
    await expect.poll(() => message.innerText()).toBe("");
    await context.close();
  });
});

describe("the discount price request", () => {
  it("is sent once per quantity change", async () => {
    const { context, page } = await open("/product/black-everyday-mask/");
    const sent: string[] = [];
    page.on("request", (r) => isPriceRequest(r.url(), r.postData()) && sent.push(new URLSearchParams(r.postData()!).get("qty")!));
    const qty = page.locator("form.cart input.qty");
    // fill raises 'input', leaving the field raises 'change': one change of the value.
    await qty.fill("2");
    await qty.blur();
    await page.waitForResponse((r) => isPriceRequest(r.url(), r.request().postData()) && (r.request().postData() ?? "").includes("qty=2&"));
    // A later change's answer: everything the first change sent has been sent by then.
    await qty.fill("3");
    await qty.blur();
    await page.waitForResponse((r) => isPriceRequest(r.url(), r.request().postData()) && (r.request().postData() ?? "").includes("qty=3&"));
    expect(sent).toEqual(["2", "3"]);
    await context.close();
  });
});

describe("after an in-place add on the product page", () => {
  it("a polite live region says the product was added, with a 'View cart' link", async () => {
    const { context, page } = await open("/product/black-everyday-mask/");
    await page.waitForFunction(() => document.getElementById("wc-cart-announcer") !== null);
    const notice = page.locator(".product-added-notice");
    expect(await notice.getAttribute("role")).toBe("status");
    expect(await notice.getAttribute("aria-live")).toBe("polite");
    await page.locator("form.cart input.qty").fill("2");
    await page.locator("form.cart button.single_add_to_cart_button").click();
    await expect.poll(() => notice.innerText()).toContain("2 × “Black Everyday Mask” have been added to your cart.");
    const link = notice.getByRole("link", { name: "View cart" });
    expect(new URL((await link.getAttribute("href"))!, shop.url).pathname).toBe("/cart/");
    await context.close();
  });
});

describe("the cart page", () => {
  /** A cart with one mask, on the cart page. */
  async function cartWithAMask(): Promise<{ context: BrowserContext; page: Page }> {
    const { context, page } = await open("/product/black-everyday-mask/");
    await page.waitForFunction(() => document.getElementById("wc-cart-announcer") !== null);
    await page.locator("form.cart button.single_add_to_cart_button").click();
    await expect.poll(() => page.locator("#ast-site-header-cart a.cart-contents .count").first().textContent()).toBe("1");
    await page.goto(`${shop.url}/cart/`);
    await page.waitForSelector(".woocommerce-cart-form td.product-thumbnail a");
    return { context, page };
  }

  it("offers one coupon entry point, which applies the coupon", async () => {
    const { context, page } = await cartWithAMask();
    const entryPoints = [await page.locator("#coupon_code").isVisible(), await page.locator("#ast-coupon-trigger").isVisible()];
    expect(entryPoints.filter(Boolean)).toHaveLength(1);
    await page.click("#ast-coupon-trigger");
    await page.fill("#ast-coupon-code", "welcome10");
    await Promise.all([page.waitForURL(`${shop.url}/cart/`), page.press("#ast-coupon-code", "Enter")]);
    await page.waitForSelector(".cart_totals .coupon-welcome10");
    await context.close();
  });

  it("axe-core finds no serious issue (the thumbnail link included)", async () => {
    const { context, page } = await cartWithAMask();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });
});

describe("the variation's sale badge", () => {
  it("stays a pill when an on-sale variation is chosen", async () => {
    const { context, page } = await open("/product/silk-necktie/");
    await page.locator('.cfvsw-swatches-list [role="radio"][data-value="green"]').click();
    const badge = page.locator(".woocommerce-product-gallery .onsale, .product-layout .onsale").first();
    await expect.poll(() => badge.innerText()).toBe("-17%");
    const box = (await badge.boundingBox())!;
    expect(box.width).toBeLessThan(120);
    await context.close();
  });
});

describe("swatches as an ARIA radio group", () => {
  it("one tab stop on the checked item; arrow keys move and select, skipping disabled items", async () => {
    const { context, page } = await open("/product/silk-necktie/");
    const group = page.locator('.cfvsw-swatches-list[role="radiogroup"]').first();
    const radios = group.locator('[role="radio"]');
    await radios.first().waitFor();
    const values = await radios.evaluateAll((els) => els.map((e) => e.getAttribute("data-value")));
    const tabStops = () => radios.evaluateAll((els) => els.filter((e) => e.getAttribute("tabindex") === "0").map((e) => e.getAttribute("data-value")));
    // Nothing checked: the first enabled item is the tab stop.
    expect(await tabStops()).toEqual([values[0]]);
    await radios.nth(1).click();
    expect(await tabStops()).toEqual([values[1]]);
    // Tab from the element before the group lands on the checked item.
    await page.evaluate(() => document.querySelector(".product_title")!.setAttribute("tabindex", "-1"));
    await page.locator(".product_title").focus();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-value"))).toBe(values[1]);
    // navy, red, green, floral (out of stock, disabled): Right from green wraps past floral to navy.
    expect(values).toEqual(["navy", "red", "green", "floral"]);
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-value"))).toBe("green");
    expect(await radios.nth(2).getAttribute("aria-checked")).toBe("true");
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-value"))).toBe("navy");
    expect(await radios.nth(0).getAttribute("aria-checked")).toBe("true");
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-value"))).toBe("green");
    expect(await page.locator("select#attribute_pa_color").inputValue()).toBe("green");
    await context.close();
  });

  it("axe-core finds no serious issue on a product with a '+2 more' control", async () => {
    const { context, page } = await open("/product/cotton-face-mask/");
    await page.locator(".cfvsw-more-link").first().waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });
});

describe("the gallery's dots at 400 px", () => {
  it("are targets of at least 24 × 24 px", async () => {
    const { context, page } = await open("/product/cotton-face-mask/", 400);
    const dots = page.locator(".gallery-dots button");
    await dots.first().waitFor();
    for (const box of await dots.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as { width: number; height: number }))) {
      expect(box.width).toBeGreaterThanOrEqual(24);
      expect(box.height).toBeGreaterThanOrEqual(24);
    }
    await context.close();
  });
});
