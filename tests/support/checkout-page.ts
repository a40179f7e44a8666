/** Browser-test steps shared by the checkout suites: a hydrated checkout with something in the cart, and the billing details. */
import type { Browser, Page } from "playwright-core";
import { expect } from "vitest";

export async function openCheckoutWithCart(
  browser: Browser,
  shopUrl: string,
  productId: number,
  opts: { width?: number; quantity?: number } = {},
): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: opts.width ?? 1280, height: 900 } });
  await page.goto(shopUrl + "/shop/");
  const added = await page.request.post(shopUrl + "/?wc-ajax=add_to_cart", { form: { product_id: String(productId), quantity: String(opts.quantity ?? 1) } });
  expect(added.ok()).toBe(true);
  await page.goto(shopUrl + "/checkout/");
  await page.waitForSelector('form.checkout[data-hydrated="1"]');
  return page;
}

export async function fillBillingDetails(page: Page, email: string): Promise<void> {
  await page.fill("#billing_email", email);
  await page.fill("#billing_first_name", "Ada");
  await page.fill("#billing_last_name", "Lovelace");
  await page.fill("#billing_address_1", "1 Analytical Way");
  await page.fill("#billing_city", "Springfield");
  await page.selectOption("#billing_state", "IL");
  await page.fill("#billing_postcode", "62701");
  await page.fill("#billing_phone", "555 123 4567");
}

/**
 * After the payment form refuses a submit, its error list takes focus 500 ms later (docs/contract/storefront.md §4
 * 'Payment form'). A test that types before then can lose keystrokes to that focus move on a loaded machine, as a
 * person typing that fast would: wait until the list has focus.
 */
export async function waitForPaymentErrorsFocus(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains("payment-form-errors") ?? false)).toBe(true);
}
