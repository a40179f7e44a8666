/**
 * The order-pay page in the browser: the customer's default saved card is chosen from the start, the payment form
 * runs the checkout's own checks before posting, and an order declined by e-check and then paid by card records
 * the card as its payment method.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { fillBillingDetails, openCheckoutWithCart, waitForPaymentErrorsFocus } from "../support/checkout-page.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let browser: Browser;
let productId: number;
const EMAIL = "order-pay-browser@example.com";
const PASSWORD = "order pay pass 9";

beforeAll(async () => {
  shop = await startTestShop();
  browser = await launchBrowser();
  const [row] = await shop.services.db.query<{ id: number }>(
    `UPDATE products SET stock_quantity = 500, regular_price = 1500, sale_price = NULL WHERE slug = 'silk-pocket-square' RETURNING id`,
  );
  productId = row!.id;
  await registerCustomer(shop.services.db, { email: EMAIL, password: PASSWORD, first_name: "Opal", last_name: "Payne" });
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

describe("/checkout/order-pay/{id}/ in the browser", () => {
  it("default card pre-selected, empty new card refused without a request, and the card that paid is the order's method", async () => {
    const page = await openCheckoutWithCart(browser, shop.url, productId);
    // Sign in at the checkout, then save a card (the first one becomes the default).
    await page.locator("#billing_email").pressSequentially(EMAIL);
    await page.locator("#ast-customer-login-section").waitFor({ state: "visible" });
    await page.fill("#billing_password", PASSWORD);
    await Promise.all([page.waitForEvent("load"), page.locator(".ast-customer-login-section__login-button").click()]);
    await page.goto(shop.url + "/my-account/add-payment-method/");
    await page.locator("#wc-sandbox-credit-card-account-number").pressSequentially("4242424242424242");
    await page.locator("#wc-sandbox-credit-card-expiry").pressSequentially("1230");
    await page.fill("#wc-sandbox-credit-card-csc", "123");
    await Promise.all([page.waitForURL(/\/my-account\/payment-methods\//), page.getByRole("button", { name: "Add payment method" }).click()]);
    const [token] = await shop.services.db.query<{ id: number }>(`SELECT id FROM payment_tokens WHERE is_default AND kind = 'card' ORDER BY id DESC LIMIT 1`);

    // A checkout paid by e-check, declined: the order fails with eCheck as its method.
    await page.goto(shop.url + "/checkout/");
    await page.waitForSelector('form.checkout[data-hydrated="1"]');
    await fillBillingDetails(page, EMAIL);
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    await page.locator("label[for=payment_method_sandbox_echeck]").click();
    await page.fill("#wc-sandbox-echeck-routing-number", "110000000");
    await page.fill("#wc-sandbox-echeck-account-number", "000111111116");
    await page.getByRole("button", { name: "Place order" }).click();
    await page.locator(".woocommerce-NoticeGroup-checkout .woocommerce-error").waitFor();
    const [order] = await shop.services.db.query<{ id: number; order_key: string; status: string; payment_method_title: string }>(
      `SELECT id, order_key, status, payment_method_title FROM orders ORDER BY id DESC LIMIT 1`,
    );
    expect(order).toMatchObject({ status: "failed", payment_method_title: "eCheck" });

    await page.goto(`${shop.url}/checkout/order-pay/${order!.id}/?pay_for_order=true&key=${order!.order_key}`);
    await page.waitForSelector("#place_order");
    const saved = page.locator(`#wc-sandbox-credit-card-payment-token-${token!.id}`);
    await expect.poll(() => saved.isChecked()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // A new, empty card: the form's own check lists the errors and nothing is posted.
    let posted = 0;
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().includes("/order-pay/")) posted++;
    });
    await page.locator("label[for=wc-sandbox-credit-card-use-new-payment-method]").click();
    await page.getByRole("button", { name: "Pay for order" }).click();
    const errors = page.locator(".payment-form-errors li");
    await errors.first().waitFor();
    expect(await errors.allInnerTexts()).toContain("Card number is missing");
    expect(await page.getAttribute("#wc-sandbox-credit-card-account-number", "aria-invalid")).toBe("true");
    await waitForPaymentErrorsFocus(page);
    expect(posted).toBe(0);

    // The saved card pays.
    await page.locator(`label[for=wc-sandbox-credit-card-payment-token-${token!.id}]`).click();
    const csc = page.locator(".wc-saved-payment-methods #wc-sandbox-credit-card-csc");
    if (await csc.count()) await csc.fill("123");
    await Promise.all([page.waitForURL(/\/checkout\/order-received\/\d+\/\?key=/), page.getByRole("button", { name: "Pay for order" }).click()]);
    expect(await page.locator(".woocommerce-order-overview__payment-method").innerText()).toBe("Payment method: Credit Card (visa ending in 4242)");
    const [paid] = await shop.services.db.query<{ status: string; payment_method: string; payment_method_title: string }>(
      `SELECT status, payment_method, payment_method_title FROM orders WHERE id = $1`,
      [order!.id],
    );
    expect(paid).toEqual({ status: "processing", payment_method: "sandbox_credit_card", payment_method_title: "Credit Card" });
    await page.close();
  });
});
