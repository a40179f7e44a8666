/**
 * The account pages, order received and order pay for a signed-in customer with orders: nothing scrolls sideways
 * at 400 px (account tables stack their rows), the order overview lists one item a line on phones, the order-pay
 * addresses keep their distance from the payment list, 'Make default' names its method, and a refused sign-in
 * on /my-account/ moves focus to its alert after the spec's 500 ms.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let browser: Browser;
let productId: number;
const EMAIL = "ly@example.com";
const PASSWORD = "layout pass 123";

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  shop = await startTestShop();
  browser = await launchBrowser();
  const [row] = await shop.services.db.query<{ id: number }>(
    `UPDATE products SET stock_quantity = 500, regular_price = 1500, sale_price = NULL WHERE slug = 'silk-pocket-square' RETURNING id`,
  );
  productId = row!.id;
  await registerCustomer(shop.services.db, { email: EMAIL, password: PASSWORD, first_name: "Layla", last_name: "Outland" });
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

async function signIn(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(shop.url + "/my-account/");
  await page.fill("#username", EMAIL);
  await page.fill("#password", PASSWORD);
  await Promise.all([page.waitForURL(/\/my-account\/$/), page.getByRole("button", { name: "Log in" }).click()]);
  await page.getByText("Recent orders").or(page.getByText("From your account dashboard")).first().waitFor();
  return page;
}

async function checkout(page: Page, card: string, opts: { save?: boolean; fill?: boolean } = {}): Promise<void> {
  expect((await page.request.post(shop.url + "/?wc-ajax=add_to_cart", { form: { product_id: String(productId), quantity: "1" } })).ok()).toBe(true);
  await page.goto(shop.url + "/checkout/");
  await page.waitForSelector('form.checkout[data-hydrated="1"]');
  if (opts.fill) {
    await page.fill("#billing_address_1", "1 Long Street Name With Many Words");
    await page.fill("#billing_city", "Springfield");
    await page.selectOption("#billing_state", "IL");
    await page.fill("#billing_postcode", "62701");
    await page.fill("#billing_phone", "555 123 4567");
    await page.locator("#ship-to-different-address-checkbox").check();
    await page.fill("#shipping_first_name", "Layla");
    await page.fill("#shipping_last_name", "Outland");
    await page.fill("#shipping_address_1", "22 Harbour Road");
    await page.fill("#shipping_city", "Portland");
    await page.selectOption("#shipping_state", "OR");
    await page.fill("#shipping_postcode", "97201");
  }
  await page.getByRole("button", { name: "Proceed to payment" }).click();
  // Once a card is saved, the new-card form is behind 'Use a new card'.
  const useNew = page.getByLabel("Use a new card");
  if (await useNew.count()) await useNew.check();
  await page.locator("#wc-sandbox-credit-card-account-number").pressSequentially(card);
  await page.locator("#wc-sandbox-credit-card-expiry").pressSequentially("1234");
  await page.fill("#wc-sandbox-credit-card-csc", "123");
  if (opts.save) await page.locator("#wc-sandbox-credit-card-tokenize-payment-method").check();
}

/** Nothing wider than the viewport: no sideways scroll, and every button and link inside the visible width. */
async function expectNoSidewaysScroll(page: Page, width: number): Promise<void> {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, `${page.url()} scrollWidth`).toBeLessThanOrEqual(width);
  const overflowing = await page.evaluate((w) => {
    return [...document.querySelectorAll<HTMLElement>("main .button, main button, main td, main th")]
      .filter((el) => el.offsetParent !== null)
      .filter((el) => el.getBoundingClientRect().right > w + 0.5)
      .map((el) => el.outerHTML.slice(0, 80));
  }, width);
  expect(overflowing, `${page.url()} elements past the right edge`).toEqual([]);
}

describe("account pages at 400 px and 1280 px", () => {
  let context: BrowserContext;
  let page: Page;
  let paidOrder: { id: number; key: string };
  let failedOrder: { id: number; key: string };

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await signIn(context);
    // A paid order (card saved), then a declined one left to pay on the order-pay page.
    await checkout(page, "4242424242424242", { save: true, fill: true });
    await Promise.all([page.waitForURL(/order-received/), page.getByRole("button", { name: "Place order" }).click()]);
    await checkout(page, "4000000000000002");
    await page.getByRole("button", { name: "Place order" }).click();
    await page.locator(".woocommerce-NoticeGroup-checkout .woocommerce-error").waitFor();
    const orders = await shop.services.db.query<{ id: number; order_key: string; status: string }>(
      `SELECT o.id, o.order_key, o.status FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.email = $1 ORDER BY o.id`,
      [EMAIL],
    );
    const paid = orders.find((o) => o.status === "processing");
    const failed = orders.find((o) => o.status === "failed" || o.status === "pending");
    expect(paid && failed).toBeTruthy();
    paidOrder = { id: paid!.id, key: paid!.order_key };
    failedOrder = { id: failed!.id, key: failed!.order_key };
    // A second saved card, so one of them offers 'Make default'.
    await page.goto(shop.url + "/my-account/add-payment-method/");
    await page.locator("#wc-sandbox-credit-card-account-number").pressSequentially("5555555555554444");
    await page.locator("#wc-sandbox-credit-card-expiry").pressSequentially("1230");
    await page.fill("#wc-sandbox-credit-card-csc", "123");
    await Promise.all([page.waitForURL(/\/my-account\/payment-methods\//), page.getByRole("button", { name: "Add payment method" }).click()]);
  });
  afterAll(async () => context?.close());

  const pages = () => [
    { name: "dashboard", path: "/my-account/" },
    { name: "orders", path: "/my-account/orders/" },
    { name: "view-order", path: `/my-account/view-order/${paidOrder.id}/` },
    { name: "payment-methods", path: "/my-account/payment-methods/" },
    { name: "order-received", path: `/checkout/order-received/${paidOrder.id}/?key=${paidOrder.key}` },
    { name: "order-pay", path: `/checkout/order-pay/${failedOrder.id}/?pay_for_order=true&key=${failedOrder.key}` },
  ];

  it("no page scrolls sideways at 400 px; the orders tables stack with labelled cells and the View buttons are whole", async () => {
    for (const width of [400, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      for (const p of pages()) {
        await page.goto(shop.url + p.path);
        await page.screenshot({ path: `tmp/shots/account-${p.name}-${width}.png`, fullPage: true });
        await expectNoSidewaysScroll(page, width);
      }
    }
    await page.setViewportSize({ width: 400, height: 900 });
    for (const path of ["/my-account/", "/my-account/orders/"]) {
      await page.goto(shop.url + path);
      const view = page.getByRole("link", { name: "View" }).first();
      const box = (await view.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(400);
      // Stacked rows: each cell says which column it belongs to.
      const labels = await page
        .locator(".account-orders-table tbody tr")
        .first()
        .locator("td")
        .evaluateAll((tds) => tds.map((td) => td.getAttribute("data-title")));
      expect(labels.slice(0, 4)).toEqual(["Order", "Date", "Status", "Total"]);
      const firstCell = await page
        .locator(".account-orders-table tbody tr")
        .first()
        .locator("td")
        .first()
        .evaluate((td) => getComputedStyle(td, "::before").content);
      expect(firstCell).toContain("Order");
    }
  });

  it("order received at 400 px: each overview item on its own line", async () => {
    await page.setViewportSize({ width: 400, height: 900 });
    await page.goto(`${shop.url}/checkout/order-received/${paidOrder.id}/?key=${paidOrder.key}`);
    const tops = await page.locator(".woocommerce-order-overview > li").evaluateAll((lis) => lis.map((li) => Math.round(li.getBoundingClientRect().top)));
    expect(tops.length).toBeGreaterThanOrEqual(5);
    expect(new Set(tops).size).toBe(tops.length);
    const email = (await page.locator(".woocommerce-order-overview__email").boundingBox())!;
    const total = (await page.locator(".woocommerce-order-overview__total").boundingBox())!;
    expect(total.y).toBeGreaterThanOrEqual(email.y + email.height - 1);
  });

  it("order pay at 400 px: the address boxes are spaced from the payment list", async () => {
    await page.setViewportSize({ width: 400, height: 900 });
    await page.goto(`${shop.url}/checkout/order-pay/${failedOrder.id}/?pay_for_order=true&key=${failedOrder.key}`);
    const lastAddress = (await page.locator(".woocommerce-customer-details address").last().boundingBox())!;
    const methods = (await page.locator("#payment .wc_payment_methods").boundingBox())!;
    expect(methods.y - (lastAddress.y + lastAddress.height)).toBeGreaterThanOrEqual(16);
  });

  it("'Make default' names its payment method, like 'Delete'", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(shop.url + "/my-account/payment-methods/");
    const rows = page.locator(".woocommerce-MyAccount-paymentMethods tbody tr");
    expect(await rows.count()).toBe(2);
    const notDefault = rows.filter({ hasNot: page.locator("strong", { hasText: "(default)" }) });
    const label = (await notDefault.locator("td").first().innerText()).trim();
    expect(label).toMatch(/ending in \d{4}/);
    const button = page.getByRole("button", { name: `Make ${label} default` });
    expect(await button.count()).toBe(1);
    expect(await page.getByRole("button", { name: `Delete ${label}` }).count()).toBe(1);
    await button.click();
    await page.getByText("This payment method was successfully set as your default.").waitFor();
  });
});

describe("a refused sign-in on /my-account/", () => {
  it("the error alert takes focus 500 ms after it appears (docs/contract/storefront.md §9)", async () => {
    const page = await browser.newPage({ viewport: { width: 400, height: 900 } });
    await page.goto(shop.url + "/my-account/");
    await page.waitForFunction(() => !!(window as unknown as { __reactRouterDataRouter?: unknown }).__reactRouterDataRouter);
    await page.evaluate(() => {
      const w = window as unknown as { noticeAt?: number; focusAt?: number };
      new MutationObserver(() => {
        if (w.noticeAt === undefined && document.querySelector(".woocommerce-form-login .woocommerce-error")) w.noticeAt = performance.now();
      }).observe(document.body, { childList: true, subtree: true });
      document.addEventListener("focusin", (e) => {
        if ((e.target as Element).matches?.('[role="alert"]')) w.focusAt = performance.now();
      });
    });
    await page.fill("#username", EMAIL);
    await page.fill("#password", "not the password");
    await page.getByRole("button", { name: "Log in" }).click();
    await page.locator(".woocommerce-form-login .woocommerce-error").waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.matches('.woocommerce-form-login [role="alert"]') ?? false)).toBe(true);
    const { noticeAt, focusAt } = await page.evaluate(() => {
      const w = window as unknown as { noticeAt: number; focusAt: number };
      return { noticeAt: w.noticeAt, focusAt: w.focusAt };
    });
    expect(focusAt - noticeAt).toBeGreaterThanOrEqual(450);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain("incorrect");
    await page.close();
  });
});
