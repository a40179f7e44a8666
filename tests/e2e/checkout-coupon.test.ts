/** The custom coupon box on the checkout page: apply (click and Enter) and remove, through wc-ajax, then the refresh. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";

let shop: TestShop;
let browser: Browser;
let productId: number;

beforeAll(async () => {
  shop = await startTestShop();
  browser = await launchBrowser();
  const [row] = await shop.services.db.query<{ id: number }>(
    `UPDATE products SET stock_quantity = 500, regular_price = 2000, sale_price = NULL WHERE slug = 'silk-pocket-square' RETURNING id`,
  );
  productId = row!.id;
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

async function checkoutWithCart(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(shop.url + "/shop/");
  expect((await page.request.post(shop.url + "/?wc-ajax=add_to_cart", { form: { product_id: String(productId), quantity: "2" } })).ok()).toBe(true);
  await page.goto(shop.url + "/checkout/");
  await page.waitForSelector('form.checkout[data-hydrated="1"]');
  return page;
}

const orderTotal = (page: Page) => page.locator("#order_review .order-total").innerText();

describe("checkout coupon box", () => {
  it("the trigger reveals the input; 'apply' sends code, nonce and billing e-mail; notices shown; totals refresh; remove works", async () => {
    const page = await checkoutWithCart();
    await page.fill("#billing_email", "coupon-shopper@example.com");
    expect(await orderTotal(page)).toMatch(/\$45(\.00)?(\D|$)/);
    const trigger = page.locator("#ast-coupon-trigger");
    await expect.poll(() => page.locator("#ast-coupon-code").isVisible()).toBe(false);
    await trigger.click();
    await expect.poll(() => trigger.isVisible()).toBe(false);
    await expect.poll(() => page.locator("#ast-coupon-code").isVisible()).toBe(true);

    await page.fill("#ast-coupon-code", "welcome10");
    const [applied, review] = await Promise.all([
      page.waitForRequest((r) => r.url().includes("wc-ajax=apply_coupon")),
      page.waitForRequest((r) => r.url().includes("wc-ajax=update_order_review")),
      page.click("#ast-apply-coupon"),
    ]);
    const sent = new URLSearchParams(applied.postData() ?? "");
    expect(sent.get("coupon_code")).toBe("welcome10");
    expect(sent.get("billing_email")).toBe("coupon-shopper@example.com");
    expect(sent.get("security")).toMatch(/^[0-9a-f]{10}$/);
    // update_shipping_method false: no chosen rate goes with this refresh.
    expect(new URLSearchParams(review.postData() ?? "").has("shipping_method[0]")).toBe(false);
    await page.locator(".checkout-coupon-notices").getByText("Coupon code applied successfully.").waitFor();
    await page.locator("#order_review .coupon-welcome10").waitFor();
    await expect.poll(() => orderTotal(page)).toMatch(/\$41(\.00)?(\D|$)/);
    expect(await page.inputValue("#checkout_coupon_code")).toBe("welcome10");

    // An unknown code by Enter: the server's error notice, totals unchanged.
    await page.fill("#ast-coupon-code", "nosuchcode");
    await Promise.all([page.waitForResponse((r) => r.url().includes("wc-ajax=apply_coupon")), page.press("#ast-coupon-code", "Enter")]);
    await expect.poll(() => page.locator(".checkout-coupon-notices .woocommerce-error").count()).toBe(1);
    expect(await orderTotal(page)).toMatch(/\$41(\.00)?(\D|$)/);

    const [removed] = await Promise.all([
      page.waitForRequest((r) => r.url().includes("wc-ajax=remove_coupon")),
      page.locator("#order_review .woocommerce-remove-coupon").click(),
    ]);
    expect(new URLSearchParams(removed.postData() ?? "").get("coupon")).toBe("welcome10");
    await page.locator(".checkout-coupon-notices").getByText("Coupon has been removed.").waitFor();
    await expect.poll(() => orderTotal(page)).toMatch(/\$45(\.00)?(\D|$)/);
    expect(page.url()).toContain("/checkout/");
    await page.close();
  });
});
