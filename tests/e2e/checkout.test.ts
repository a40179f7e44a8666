import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { fillBillingDetails, openCheckoutWithCart, waitForPaymentErrorsFocus } from "../support/checkout-page.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let browser: Browser;
let productId: number;

beforeAll(async () => {
  shop = await startTestShop();
  browser = await launchBrowser();
  const [row] = await shop.services.db.query<{ id: number }>(
    `UPDATE products SET stock_quantity = 500, regular_price = 1500, sale_price = NULL WHERE slug = 'silk-pocket-square' RETURNING id`,
  );
  productId = row!.id;
  await registerCustomer(shop.services.db, { email: "returning@example.com", password: "returning pass 1", first_name: "Rita", last_name: "Turner" });
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

const checkoutWithCart = (width = 1280): Promise<Page> => openCheckoutWithCart(browser, shop.url, productId, { width, quantity: 2 });

const fillDetails = fillBillingDetails;

describe("checkout in the browser", () => {
  it("a guest pays by card: details, 'Proceed to payment', formatted card fields, 'Place order', order received", async () => {
    const page = await checkoutWithCart();
    await fillDetails(page, "guest-card@example.com");
    await page.screenshot({ path: "tmp/shots/checkout-details-1280.png", fullPage: true });
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    await page.getByText("Back to my details").waitFor();
    await page.locator("#wc-sandbox-credit-card-account-number").pressSequentially("4242424242424242");
    expect(await page.inputValue("#wc-sandbox-credit-card-account-number")).toBe("4242 4242 4242 4242");
    await page.locator("#wc-sandbox-credit-card-expiry").pressSequentially("1234");
    expect(await page.inputValue("#wc-sandbox-credit-card-expiry")).toBe("12 / 34");
    await page.fill("#wc-sandbox-credit-card-csc", "123");
    await expect.poll(() => page.locator(".sandbox-test-mode").first().innerText()).toContain("Test mode");
    await page.screenshot({ path: "tmp/shots/checkout-payment-1280.png", fullPage: true });
    await Promise.all([page.waitForURL(/\/checkout\/order-received\/\d+\/\?key=/), page.getByRole("button", { name: "Place order" }).click()]);
    expect(await page.locator(".woocommerce-thankyou-order-received").innerText()).toContain("Thank you. Your order has been received.");
    await page.screenshot({ path: "tmp/shots/order-received-1280.png", fullPage: true });
    await page.close();
  });

  it("a guest pays by e-check, with the sample-check hint", async () => {
    const page = await checkoutWithCart();
    await fillDetails(page, "guest-echeck@example.com");
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    await page.locator("label[for=payment_method_sandbox_echeck]").click();
    const hint = page.getByRole("button", { name: /sample check/ });
    await hint.click();
    expect(await hint.getAttribute("aria-expanded")).toBe("true");
    await page.fill("#wc-sandbox-echeck-routing-number", "110000000");
    await page.fill("#wc-sandbox-echeck-account-number", "000123456789");
    await Promise.all([page.waitForURL(/order-received/), page.getByRole("button", { name: "Place order" }).click()]);
    await page.close();
  });

  it("bad card data is listed at the top of the payment form without a request; a declined card shows the server's message", async () => {
    const page = await checkoutWithCart(400);
    await fillDetails(page, "declined@example.com");
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    let posted = 0;
    page.on("request", (r) => {
      if (r.url().includes("wc-ajax=checkout")) posted++;
    });
    await page.getByRole("button", { name: "Place order" }).click();
    const errors = page.locator(".payment-form-errors li");
    await errors.first().waitFor();
    expect(await errors.allInnerTexts()).toEqual(["Card security code is missing", "Card number is missing", "Card expiration date is invalid"]);
    expect(posted).toBe(0);
    await waitForPaymentErrorsFocus(page);
    await page.locator("#wc-sandbox-credit-card-account-number").pressSequentially("4000000000000002");
    await page.locator("#wc-sandbox-credit-card-expiry").pressSequentially("1234");
    await page.fill("#wc-sandbox-credit-card-csc", "123");
    const reply = page.waitForResponse((r) => r.url().includes("wc-ajax=checkout"));
    await page.getByRole("button", { name: "Place order" }).click();
    await reply;
    await page.locator(".woocommerce-NoticeGroup-checkout .woocommerce-error").waitFor();
    expect(await page.locator(".woocommerce-NoticeGroup-checkout").innerText()).toMatch(/declined/i);
    await page.screenshot({ path: "tmp/shots/checkout-declined-400.png", fullPage: true });
    await page.close();
  });

  it("a returning customer is detected by e-mail and logs in inside the checkout", async () => {
    const page = await checkoutWithCart();
    await page.locator("#billing_email").pressSequentially("returning@example.com");
    await page.getByText("This user is already registered. Please enter the password to continue.").waitFor();
    expect(await page.locator("#ast-customer-login-section").isVisible()).toBe(true);
    expect(await page.locator("#createaccount").count()).toBe(0);
    expect(await page.context().cookies()).toContainEqual(
      expect.objectContaining({ name: "ast_modern_checkout_useremail", value: encodeURIComponent("returning@example.com") }),
    );
    await page.fill("#billing_password", "wrong");
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await page.locator(".ast-login-notice .woocommerce-error").waitFor();
    await page.getByRole("button", { name: "Show password" }).click();
    expect(await page.locator("#billing_password").getAttribute("type")).toBe("text");
    await page.fill("#billing_password", "returning pass 1");
    await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: "Login", exact: true }).click()]);
    await page.waitForSelector('form.checkout[data-hydrated="1"]');
    expect(await page.locator("#customer_info").count()).toBe(0);
    expect(await page.inputValue("#billing_first_name")).toBe("Rita");
    await page.close();
  });

  it("the order summary toggles between 'Hide Order Summary' and 'Show Order Summary'", async () => {
    const page = await checkoutWithCart();
    const toggle = page.locator(".order-summary-toggle");
    expect(await toggle.innerText()).toBe("Hide Order Summary");
    await toggle.click();
    expect(await toggle.innerText()).toBe("Show Order Summary");
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    await page.close();
  });

  it("a guest creates an account at checkout and saves the card, then pays with the saved card (the new-card form slides away)", async () => {
    const page = await checkoutWithCart();
    const email = `saver${Date.now()}@example.com`;
    await fillDetails(page, email);
    // 'save payment method' appears only once 'create account' is ticked.
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    expect(await page.locator("#wc-sandbox-credit-card-tokenize-payment-method").count()).toBe(0);
    await page.getByRole("button", { name: "Back to my details" }).click();
    await page.locator("#createaccount").check();
    await page.fill("#account_password", "a strong password 1");
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    await page.locator("#wc-sandbox-credit-card-tokenize-payment-method").check();
    await page.locator("#wc-sandbox-credit-card-account-number").pressSequentially("5555555555554444");
    await page.locator("#wc-sandbox-credit-card-expiry").pressSequentially("1234");
    await page.fill("#wc-sandbox-credit-card-csc", "123");
    await Promise.all([page.waitForURL(/order-received/), page.getByRole("button", { name: "Place order" }).click()]);
    // Signed in now; buy again with the saved card.
    await page.request.post(shop.url + "/?wc-ajax=add_to_cart", { form: { product_id: String(productId), quantity: "1" } });
    await page.goto(shop.url + "/checkout/");
    await page.waitForSelector('form.checkout[data-hydrated="1"]');
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    const saved = page.getByLabel(/Mastercard ending in 4444/);
    expect(await saved.isChecked()).toBe(true);
    expect(await page.locator(".wc-new-payment-method-form").first().getAttribute("class")).toContain("is-collapsed");
    await page.getByLabel("Use a new card").check();
    expect(await page.locator(".wc-new-payment-method-form").first().getAttribute("class")).not.toContain("is-collapsed");
    await saved.check();
    await Promise.all([page.waitForURL(/order-received/), page.getByRole("button", { name: "Place order" }).click()]);
    expect(await page.locator(".woocommerce-thankyou-order-received").innerText()).toContain("Thank you.");
    expect(await page.locator(".order_details").first().innerText()).toContain("ending in 4444");
    // The account lists the saved card; another one can be added on the add-payment-method page.
    await page.goto(shop.url + "/my-account/add-payment-method/");
    await page.locator("#wc-sandbox-credit-card-account-number").pressSequentially("4242424242424242");
    await page.locator("#wc-sandbox-credit-card-expiry").pressSequentially("1230");
    await page.fill("#wc-sandbox-credit-card-csc", "123");
    await Promise.all([page.waitForURL(/\/my-account\/payment-methods\//), page.getByRole("button", { name: "Add payment method" }).click()]);
    const list = await page.locator(".woocommerce-MyAccount-paymentMethods").innerText();
    expect(list).toContain("Mastercard ending in 4444");
    expect(list).toContain("Visa ending in 4242");
    await page.screenshot({ path: "tmp/shots/payment-methods-1280.png", fullPage: true });
    await page.close();
  });

  it("a declined order is paid on the order-pay page", async () => {
    const page = await checkoutWithCart(400);
    await fillDetails(page, "orderpay@example.com");
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    await page.locator("#wc-sandbox-credit-card-account-number").pressSequentially("4000000000000002");
    await page.locator("#wc-sandbox-credit-card-expiry").pressSequentially("1234");
    await page.fill("#wc-sandbox-credit-card-csc", "123");
    await page.getByRole("button", { name: "Place order" }).click();
    await page.locator(".woocommerce-NoticeGroup-checkout .woocommerce-error").waitFor();
    const [order] = await shop.services.db.query<{ id: number; order_key: string }>(
      `SELECT id, order_key FROM orders WHERE billing_email = 'orderpay@example.com' ORDER BY id DESC LIMIT 1`,
    );
    await page.goto(`${shop.url}/checkout/order-pay/${order!.id}/?pay_for_order=true&key=${order!.order_key}`);
    await page.locator("#wc-sandbox-credit-card-account-number").pressSequentially("4242424242424242");
    await page.locator("#wc-sandbox-credit-card-expiry").pressSequentially("1234");
    await page.fill("#wc-sandbox-credit-card-csc", "123");
    await page.screenshot({ path: "tmp/shots/order-pay-400.png", fullPage: true });
    await Promise.all([page.waitForURL(/order-received/), page.getByRole("button", { name: "Pay for order" }).click()]);
    expect(await page.locator(".woocommerce-thankyou-order-received").innerText()).toContain("Thank you.");
    await page.close();
  });
});
