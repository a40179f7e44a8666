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

const isFragmentsRequest = (url: string) => url.includes("wc-ajax=get_refreshed_fragments");

describe("cart in the browser", () => {
  it("adds from a listing in place, stores the fragments cache, and a reload makes no cart request", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${shop.url}/product-category/face-masks/`);
    const button = page.locator("a.ajax_add_to_cart").first();
    await page.waitForFunction(() => document.getElementById("wc-cart-announcer") !== null);
    const addedEvent = page.evaluate(
      () =>
        new Promise<{ hash: string }>((resolve) =>
          document.body.addEventListener("added_to_cart", (e) => resolve({ hash: (e as CustomEvent).detail.cart_hash }), { once: true }),
        ),
    );
    const [request] = await Promise.all([page.waitForRequest((r) => r.url().includes("wc-ajax=add_to_cart")), button.click()]);
    expect(request.postData()).toMatch(/product_id=\d+/);
    expect(request.postData()).toContain("quantity=1");
    const { hash } = await addedEvent;
    await expect.poll(() => page.locator("a.cart-contents .count").first().textContent()).toBe("1");
    expect(await button.getAttribute("class")).toMatch(/\badded\b/);
    expect(await page.locator("a.added_to_cart.wc-forward").count()).toBe(1);
    const cookies = await page.evaluate(() => document.cookie);
    expect(cookies).toContain(`woocommerce_cart_hash=${hash}`);
    expect(cookies).toContain("woocommerce_items_in_cart=1");
    await expect.poll(() => page.locator("#wc-cart-announcer").textContent()).toMatch(/has been added to your cart/);
    const keys = await page.evaluate(() => Object.keys(sessionStorage));
    expect(keys.some((k) => k.startsWith("wc_fragments_"))).toBe(true);
    expect(keys.some((k) => k.startsWith("wc_cart_hash_"))).toBe(true);
    expect(keys).toContain("wc_cart_created");

    // A page rendered for this shopper (the account page, never kept), and its reload: the cached fragments are
    // current, so no cart request is made.
    const fragmentRequests: string[] = [];
    page.on("request", (r) => isFragmentsRequest(r.url()) && fragmentRequests.push(r.url()));
    // The cart script fires wc_fragments_loaded once it has put fragments in place: from the cache at once, or
    // after a request (which the listener above would have seen first).
    await page.addInitScript(() =>
      document.addEventListener("wc_fragments_loaded", () => ((window as unknown as { fragmentsLoaded: boolean }).fragmentsLoaded = true)),
    );
    for (const open of [() => page.goto(`${shop.url}/my-account/`), () => page.reload()]) {
      await open();
      await page.waitForFunction(() => (window as unknown as { fragmentsLoaded?: boolean }).fragmentsLoaded === true);
    }
    expect(fragmentRequests).toHaveLength(0);
    // Back on the listing, a page kept for everyone (decision 0042): the count from the cache, the mini-cart's prices
    // always asked for (one request).
    await page.goto(`${shop.url}/product-category/face-masks/`);
    await page.waitForFunction(() => !document.querySelector("[data-cart-placeholder]"));
    expect(fragmentRequests).toHaveLength(1);
    expect(await page.locator("a.cart-contents .count").first().textContent()).toBe("1");

    // Another tab changes the cart: this tab refreshes on the storage event.
    const other = await context.newPage();
    await other.goto(`${shop.url}/product-category/face-masks/`);
    await other.waitForFunction(() => document.getElementById("wc-cart-announcer") !== null);
    const refreshed = page.waitForRequest((r) => isFragmentsRequest(r.url()));
    await other.locator("a.ajax_add_to_cart").nth(1).click();
    await refreshed;
    await expect.poll(() => page.locator("a.cart-contents .count").first().textContent()).toBe("2");
    await context.close();
  });

  it("queues three fast clicks one at a time, in order, and removes from the mini-cart", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${shop.url}/product-category/face-masks/`);
    await page.waitForFunction(() => document.getElementById("wc-cart-announcer") !== null);
    let inFlight = 0;
    let maxInFlight = 0;
    page.on("request", (r) => {
      if (r.url().includes("wc-ajax=add_to_cart")) maxInFlight = Math.max(maxInFlight, ++inFlight);
    });
    page.on("requestfinished", (r) => {
      if (r.url().includes("wc-ajax=add_to_cart")) inFlight--;
    });
    const buttons = page.locator("a.ajax_add_to_cart");
    await buttons.nth(0).click();
    await buttons.nth(1).click();
    await buttons.nth(2).click();
    await expect.poll(() => page.locator("a.cart-contents .count").first().textContent()).toBe("3");
    expect(maxInFlight).toBe(1);

    // Removal from the mini-cart (hover opens it).
    await page.hover("#ast-site-header-cart");
    const items = page.locator("#ast-site-header-cart li.woocommerce-mini-cart-item");
    await expect.poll(() => items.count()).toBe(3);
    const [removal] = await Promise.all([
      page.waitForResponse((r) => r.url().includes("wc-ajax=remove_from_cart")),
      items.first().locator("a.remove_from_cart_button").click(),
    ]);
    expect(removal.status()).toBe(200);
    await expect.poll(() => page.locator("a.cart-contents .count").first().textContent()).toBe("2");
    await context.close();
  });

  it("the coupon box reveals its input and submits the standard coupon field", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${shop.url}/product-category/face-masks/`);
    await page.waitForFunction(() => document.getElementById("wc-cart-announcer") !== null);
    await page.locator("a.ajax_add_to_cart").first().click();
    await expect.poll(() => page.locator("a.cart-contents .count").first().textContent()).toBe("1");
    await page.goto(`${shop.url}/cart/`);
    await page.waitForFunction(() => document.getElementById("wc-cart-announcer") !== null);
    await page.click("#ast-coupon-trigger");
    expect(await page.locator("#ast-coupon-trigger").isHidden()).toBe(true);
    await page.fill("#ast-coupon-code", "welcome10");
    await Promise.all([page.waitForURL(`${shop.url}/cart/`), page.press("#ast-coupon-code", "Enter")]);
    await page.waitForSelector(".cart_totals .coupon-welcome10");
    await context.close();
  });

  it("works without JavaScript: ?add-to-cart links, the cart form and the remove link", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${shop.url}/product-category/face-masks/`);
    await page.locator("a.ajax_add_to_cart").first().click();
    await page.waitForSelector(".woocommerce-message");
    expect(await page.locator("a.cart-contents .count").first().textContent()).toBe("1");
    await page.goto(`${shop.url}/cart/`);
    await page.fill("input.qty", "2");
    await page.click('button[name="update_cart"]');
    await page.waitForSelector("text=Cart updated.");
    expect(await page.inputValue("input.qty")).toBe("2");
    await page.locator("td.product-remove a.remove").first().click();
    await page.waitForSelector("text=Your cart is currently empty.");
    await context.close();
  });
});
