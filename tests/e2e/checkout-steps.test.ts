/**
 * The multi-step checkout (the default layout): 'Proceed to payment' checks the details first, focus moves to each
 * step's heading, a signed-in customer can change the order's e-mail, the payment step uses the page's width at
 * 1280 px, and the in-checkout login shows that it is working.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { fillBillingDetails, openCheckoutWithCart } from "../support/checkout-page.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let browser: Browser;
let productId: number;
const PASSWORD = "steps pass 123";

beforeAll(async () => {
  shop = await startTestShop();
  browser = await launchBrowser();
  const [row] = await shop.services.db.query<{ id: number }>(
    `UPDATE products SET stock_quantity = 500, regular_price = 1500, sale_price = NULL WHERE slug = 'silk-pocket-square' RETURNING id`,
  );
  productId = row!.id;
  await registerCustomer(shop.services.db, { email: "steps-customer@example.com", password: PASSWORD, first_name: "Stef", last_name: "Step" });
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

const activeId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? document.activeElement?.tagName ?? "");

async function fillCard(page: Page): Promise<void> {
  await page.locator("#wc-sandbox-credit-card-account-number").pressSequentially("4242424242424242");
  await page.locator("#wc-sandbox-credit-card-expiry").pressSequentially("1234");
  await page.fill("#wc-sandbox-credit-card-csc", "123");
}

describe("the checkout's steps", () => {
  it("'Proceed to payment' with empty details lists the errors, marks the fields and stays on the details step", async () => {
    const page = await openCheckoutWithCart(browser, shop.url, productId);
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    const errors = page.locator(".woocommerce-NoticeGroup-checkout .woocommerce-error li");
    await errors.first().waitFor();
    const texts = await errors.allInnerTexts();
    expect(texts).toContain("Billing First name is a required field.");
    expect(texts).toContain("Billing Email address is a required field.");
    expect(await page.locator("#customer_details").isVisible()).toBe(true);
    expect(await page.locator("#payment").isVisible()).toBe(false);
    expect(await page.getAttribute("#billing_first_name", "aria-invalid")).toBe("true");
    expect(await page.locator(".checkout-steps li[aria-current=step]").innerText()).toContain("Details");
    // A bad postcode is refused before the payment step too.
    await fillBillingDetails(page, "steps-guest@example.com");
    await page.fill("#billing_postcode", "ABCDE");
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    await expect.poll(() => errors.allInnerTexts()).toEqual(["Billing ZIP Code is not a valid postcode / ZIP."]);
    expect(await page.locator("#payment").isVisible()).toBe(false);
    await page.close();
  });

  it("Canada: 'Postal code' and a list of provinces; a US ZIP code is refused before the payment step", async () => {
    const page = await openCheckoutWithCart(browser, shop.url, productId);
    await fillBillingDetails(page, "steps-canada@example.com");
    expect(await page.locator("label[for=billing_postcode]").innerText()).toContain("ZIP Code");
    await page.selectOption("#billing_country", "CA");
    await expect.poll(() => page.locator("label[for=billing_postcode]").innerText()).toContain("Postal code");
    expect(await page.locator("label[for=billing_state]").innerText()).toContain("Province");
    expect(await page.locator("select#billing_state option").allInnerTexts()).toContain("Ontario");
    expect(await page.locator("select#billing_state option").allInnerTexts()).not.toContain("Illinois");
    expect(await page.locator("body").innerText()).not.toContain("ZIP Code");
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    const errors = page.locator(".woocommerce-NoticeGroup-checkout .woocommerce-error li");
    await expect.poll(() => errors.allInnerTexts()).toEqual(["Billing Province is a required field.", "Billing Postal code is not a valid postcode / ZIP."]);
    await page.selectOption("#billing_state", "ON");
    await page.fill("#billing_postcode", "K1A 0B1");
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    await page.locator("#payment").waitFor({ state: "visible" });
    // Germany has no state field at all.
    await page.getByRole("button", { name: "Back to my details" }).click();
    await page.selectOption("#billing_country", "DE");
    await expect.poll(() => page.locator("#billing_state").count()).toBe(0);
    await page.screenshot({ path: "tmp/shots/checkout-steps-germany-1280.png", fullPage: true });
    await page.close();
  });

  it("focus moves to the payment step's heading, and back to the details heading; axe finds nothing serious", async () => {
    const page = await openCheckoutWithCart(browser, shop.url, productId);
    await fillBillingDetails(page, "steps-focus@example.com");
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    await page.locator("#payment").waitFor({ state: "visible" });
    await expect.poll(() => activeId(page)).toBe("checkout-payment-heading");
    expect(await page.locator("#checkout-payment-heading").innerText()).toBe("Payment");
    expect(await page.locator(".woocommerce-NoticeGroup-checkout .woocommerce-error").count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Back to my details" }).click();
    await expect.poll(() => activeId(page)).toBe("checkout-details-heading");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.close();
  });

  it("at 1280 px the payment step puts the payment form and the order review side by side", async () => {
    const page = await openCheckoutWithCart(browser, shop.url, productId, { width: 1280 });
    await fillBillingDetails(page, "steps-layout@example.com");
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    await page.locator("#payment").waitFor({ state: "visible" });
    const payment = (await page.locator("#payment").boundingBox())!;
    const review = (await page.locator("#order_review").boundingBox())!;
    const content = (await page.locator(".checkout-columns").boundingBox())!;
    expect(review.x).toBeGreaterThanOrEqual(payment.x + payment.width);
    expect(review.x + review.width).toBeGreaterThan(content.x + content.width * 0.9);
    await page.screenshot({ path: "tmp/shots/checkout-steps-payment-1280.png", fullPage: true });
    await page.close();
  });

  it("a signed-in customer can change the order's e-mail address; the login shows that it is working", async () => {
    const page = await openCheckoutWithCart(browser, shop.url, productId);
    await page.locator("#billing_email").pressSequentially("steps-customer@example.com");
    await page.locator("#ast-customer-login-section").waitFor({ state: "visible" });
    await page.fill("#billing_password", PASSWORD);
    // While the sign-in is under way the button says so and is disabled, and the section is aria-busy: the request is
    // held until the test has seen that, however long that takes on a busy machine.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/wp-admin/admin-ajax.php", async (route) => {
      if (!route.request().postData()?.includes("astra_woocommerce_login_user")) return route.continue();
      await held;
      await route.continue();
    });
    const button = page.locator(".ast-customer-login-section__login-button");
    const reloaded = page.waitForEvent("load");
    await button.click();
    await expect.poll(() => button.innerText()).toBe("Signing in…");
    expect(await button.isDisabled()).toBe(true);
    expect(await page.getAttribute("#ast-customer-login-section", "aria-busy")).toBe("true");
    release();
    await reloaded;
    await page.waitForSelector('form.checkout[data-hydrated="1"]');
    const email = page.locator("#billing_email");
    expect(await email.inputValue()).toBe("steps-customer@example.com");
    expect(await email.isEditable()).toBe(true);
    await email.fill("orders-go-here@example.com");
    await fillBillingDetails(page, "orders-go-here@example.com");
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    await fillCard(page);
    await Promise.all([page.waitForURL(/\/checkout\/order-received\/\d+\/\?key=/), page.getByRole("button", { name: "Place order" }).click()]);
    const [order] = await shop.services.db.query<{ billing_email: string; customer_id: number | null }>(
      `SELECT billing_email, customer_id FROM orders ORDER BY id DESC LIMIT 1`,
    );
    expect(order!.billing_email).toBe("orders-go-here@example.com");
    expect(order!.customer_id).not.toBeNull();
    await page.close();
  });
});
