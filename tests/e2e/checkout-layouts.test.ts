/** The two-step 'modern' checkout layout and the one-page layout (SHOP_SETTINGS checkout.layout). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { fillBillingDetails, openCheckoutWithCart } from "../support/checkout-page.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

async function shopWithLayout(layout: "modern" | "one-page"): Promise<{ shop: TestShop; productId: number }> {
  const shop = await startTestShop({ SHOP_SETTINGS: JSON.stringify({ checkout: { layout } }) });
  const [row] = await shop.services.db.query<{ id: number }>(
    `UPDATE products SET stock_quantity = 50, regular_price = 1500, sale_price = NULL WHERE slug = 'silk-pocket-square' RETURNING id`,
  );
  return { shop, productId: row!.id };
}

const checkoutWithCart = (shop: TestShop, productId: number): Promise<Page> => openCheckoutWithCart(browser, shop.url, productId);

const fillDetails = fillBillingDetails;

async function fillCard(page: Page): Promise<void> {
  await page.locator("#wc-sandbox-credit-card-account-number").pressSequentially("4242424242424242");
  await page.locator("#wc-sandbox-credit-card-expiry").pressSequentially("1234");
  await page.fill("#wc-sandbox-credit-card-csc", "123");
}

describe("the two-step modern layout", () => {
  let shop: TestShop;
  let productId: number;
  beforeAll(async () => {
    ({ shop, productId } = await shopWithLayout("modern"));
    await registerCustomer(shop.services.db, { email: "modern-returning@example.com", password: "returning pass 1", first_name: "Mo", last_name: "Dern" });
  });
  afterAll(async () => shop?.close());

  it("has no login toggle; a known e-mail opens the login section by itself", async () => {
    const page = await checkoutWithCart(shop, productId);
    expect(await page.locator("form.checkout.layout-modern").count()).toBe(1);
    expect(await page.locator(".woocommerce-form-login-toggle, .showlogin").count()).toBe(0);
    expect(await page.locator("#ast-customer-login-section").isVisible()).toBe(false);
    await page.locator("#billing_email").pressSequentially("modern-returning@example.com");
    await page.getByText("This user is already registered. Please enter the password to continue.").waitFor();
    await expect.poll(() => page.locator("#ast-customer-login-section").isVisible()).toBe(true);
    await page.close();
  });

  it("two steps: details, then 'Proceed to payment' to the payment step, 'Back to my details', then 'Place order'", async () => {
    const page = await checkoutWithCart(shop, productId);
    const steps = page.locator(".checkout-steps li");
    expect(await steps.count()).toBe(2);
    expect(await page.locator("#payment").isVisible()).toBe(false);
    expect(await page.locator(".checkout-steps li[aria-current=step]").innerText()).toContain("Details");
    await fillDetails(page, "modern-guest@example.com");
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    await page.locator("#payment").waitFor({ state: "visible" });
    expect(await page.locator("#customer_details").isVisible()).toBe(false);
    expect(await page.locator(".checkout-steps li[aria-current=step]").innerText()).toContain("Payment");
    await page.getByRole("button", { name: "Back to my details" }).click();
    await page.locator("#customer_details").waitFor({ state: "visible" });
    expect(await page.inputValue("#billing_city")).toBe("Springfield");
    await page.getByRole("button", { name: "Proceed to payment" }).click();
    await fillCard(page);
    await page.screenshot({ path: "tmp/shots/checkout-modern-1280.png", fullPage: true });
    await Promise.all([page.waitForURL(/\/checkout\/order-received\/\d+\/\?key=/), page.getByRole("button", { name: "Place order" }).click()]);
    const [order] = await shop.services.db.query<{ status: string }>(
      `SELECT o.status FROM orders o JOIN order_addresses a ON a.order_id = o.id AND a.kind = 'billing' WHERE a.email = 'modern-guest@example.com'`,
    );
    expect(order?.status).toBe("processing");
    await page.close();
  });
});

describe("the one-page layout", () => {
  let shop: TestShop;
  let productId: number;
  beforeAll(async () => {
    ({ shop, productId } = await shopWithLayout("one-page"));
  });
  afterAll(async () => shop?.close());

  it("details and payment on one page, no step buttons; the login toggle opens and closes the login section; one 'Place order'", async () => {
    const page = await checkoutWithCart(shop, productId);
    expect(await page.locator("form.checkout.layout-one-page").count()).toBe(1);
    expect(await page.locator(".checkout-steps").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Proceed to payment" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Back to my details" }).count()).toBe(0);
    expect(await page.locator("#customer_details").isVisible()).toBe(true);
    expect(await page.locator("#payment").isVisible()).toBe(true);
    const toggle = page.locator(".showlogin");
    await toggle.click();
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    expect(await page.locator("#ast-customer-login-section").isVisible()).toBe(true);
    await toggle.click();
    expect(await page.locator("#ast-customer-login-section").isVisible()).toBe(false);
    await fillDetails(page, "one-page@example.com");
    await fillCard(page);
    await page.screenshot({ path: "tmp/shots/checkout-one-page-1280.png", fullPage: true });
    await Promise.all([page.waitForURL(/\/checkout\/order-received\/\d+\/\?key=/), page.getByRole("button", { name: "Place order" }).click()]);
    expect(await page.locator(".woocommerce-thankyou-order-received").innerText()).toContain("Thank you. Your order has been received.");
    await page.close();
  });
});
