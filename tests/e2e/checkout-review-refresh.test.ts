/**
 * The discounts add-on's OrderReviewRefresh on the checkout: with refresh_order_review '1' a change of any billing
 * field or of the payment method refreshes the order review; with '0' only the checkout's watched fields do.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page, Request } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser, letPageSettle } from "../support/browser.ts";
import { fillBillingDetails } from "../support/checkout-page.ts";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

async function openCheckout(shop: TestShop): Promise<{ page: Page; reviews: Request[]; settled: () => Promise<void> }> {
  const [row] = await shop.services.db.query<{ id: number }>(
    `UPDATE products SET stock_quantity = 50, regular_price = 1500, sale_price = NULL WHERE slug = 'silk-pocket-square' RETURNING id`,
  );
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(shop.url + "/shop/");
  expect((await page.request.post(shop.url + "/?wc-ajax=add_to_cart", { form: { product_id: String(row!.id), quantity: "1" } })).ok()).toBe(true);
  // The checkout refreshes once after it loads; count from after that one.
  const first = page.waitForResponse((r) => r.url().includes("wc-ajax=update_order_review"));
  await page.goto(shop.url + "/checkout/");
  await page.waitForSelector('form.checkout[data-hydrated="1"]');
  await first;
  const reviews: Request[] = [];
  let answered = 0;
  page.on("request", (r) => {
    if (r.url().includes("wc-ajax=update_order_review")) reviews.push(r);
  });
  // Only the refreshes counted above: the load's own refresh may finish (its body read) after its response event.
  page.on("requestfinished", (r) => {
    if (reviews.includes(r)) answered++;
  });
  /** Every refresh asked for so far has been answered (a coalesced one is scheduled with setTimeout(0): let it start). */
  const settled = async () => {
    await letPageSettle(page, { ms: 200 });
    await expect.poll(() => answered).toBe(reviews.length);
  };
  return { page, reviews, settled };
}

describe("refresh_order_review '1'", () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop({ SHOP_SETTINGS: JSON.stringify({ discounts: { refreshOrderReview: "1" } }) });
  });
  afterAll(async () => shop?.close());

  it("a billing field the checkout does not watch (first name) raises the refresh, with update_shipping_method false", async () => {
    const { page, reviews, settled } = await openCheckout(shop);
    expect(await page.evaluate(() => (window as unknown as { awdr_params: { refresh_order_review: string } }).awdr_params.refresh_order_review)).toBe("1");
    await page.fill("#billing_first_name", "Ada");
    const [req] = await Promise.all([page.waitForRequest((r) => r.url().includes("wc-ajax=update_order_review")), page.locator("#billing_first_name").blur()]);
    expect(new URLSearchParams(req.postData() ?? "").has("shipping_method[0]")).toBe(false);
    // A watched field changes: the checkout and the add-on both ask, and one call goes out.
    await page.fill("#billing_city", "Springfield");
    const before = reviews.length;
    await Promise.all([page.waitForResponse((r) => r.url().includes("wc-ajax=update_order_review")), page.locator("#billing_city").blur()]);
    await settled();
    expect(reviews.length).toBe(before + 1);
    await page.close();
  });
});

describe("refresh_order_review '0' (the default)", () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop();
  });
  afterAll(async () => shop?.close());

  it("the first name does not refresh the order review; a watched field does, once", async () => {
    const { page, reviews, settled } = await openCheckout(shop);
    await page.fill("#billing_first_name", "Ada");
    await page.locator("#billing_first_name").blur();
    await page.fill("#billing_city", "Springfield");
    await Promise.all([page.waitForResponse((r) => r.url().includes("wc-ajax=update_order_review")), page.locator("#billing_city").blur()]);
    await settled();
    expect(reviews).toHaveLength(1);
    // The e-mail: one refresh once the value is committed, none while typing.
    await page.locator("#billing_email").pressSequentially("someone@example.com");
    await settled();
    expect(reviews).toHaveLength(1);
    await Promise.all([page.waitForResponse((r) => r.url().includes("wc-ajax=update_order_review")), page.locator("#billing_email").blur()]);
    await settled();
    expect(reviews).toHaveLength(2);
    // The payment method: one refresh (its radio handler and the change listener coalesce). The details step must be
    // complete before the payment step opens, and those fields (state, postcode) raise refreshes of their own: count
    // from once every refresh asked for so far has been answered. (Not `waitForLoadState("networkidle")`: the page
    // reached that state once, at load, so it would not wait.)
    await fillBillingDetails(page, "someone@example.com");
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    await page.locator("label[for=payment_method_sandbox_echeck]").waitFor();
    await settled();
    const beforePayment = reviews.length;
    await Promise.all([
      page.waitForResponse((r) => r.url().includes("wc-ajax=update_order_review")),
      page.locator("label[for=payment_method_sandbox_echeck]").click(),
    ]);
    await settled();
    expect(reviews).toHaveLength(beforePayment + 1);
    expect(new URLSearchParams(reviews.at(-1)!.postData() ?? "").get("payment_method")).toBe("sandbox_echeck");
    await page.close();
  });
});
