/**
 * The admin's orders (issue 14, docs/contract/admin.md 'Orders', 'Order') in Chromium: a paid order placed at the
 * checkout is found under its status tab and by its e-mail, its view shows the lines, totals, addresses, payment,
 * origin (the checkout's attribution, also a column of the list) and notes, and a full refund with restock goes through the refunds endpoint: the order becomes Refunded and the stock
 * comes back. axe-core on both screens; no sideways scrolling at 400 px; screenshots to tmp/shots/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { scrollsSideways } from "../support/admin-browser.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";
import { billing, cardFields, openCheckout, productWithStock, shopperWithCart, submitCheckout } from "../http/checkout-support.ts";

let shop: TestShop;
let browser: Browser;
const EMAIL = "orders-admin@example.com";
const PASSWORD = "orders screens pass 1";
const BUYER = "orders-buyer@example.com";
let productId: number;
let orderId: number;

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  const made = await registerCustomer(shop.services.db, { email: EMAIL, password: PASSWORD, first_name: "Olive", last_name: "Owner" });
  if (!made.ok) throw new Error(made.message);
  await shop.services.db.query(`UPDATE customers SET role = 'administrator' WHERE id = $1`, [made.customerId]);
  productId = await productWithStock(shop, "silk-pocket-square", 40, 1500);
  const client = await shopperWithCart(shop, productId, 2);
  // The attribution the checkout's hidden inputs carry (sourcebuster's values), as a newsletter click leaves them.
  const attribution = {
    wc_order_attribution_source_type: "utm",
    wc_order_attribution_utm_source: "newsletter",
    wc_order_attribution_utm_medium: "email",
    wc_order_attribution_utm_campaign: "spring-sale",
    wc_order_attribution_session_pages: "4",
    wc_order_attribution_user_agent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148",
  };
  const reply = await submitCheckout(client, await openCheckout(client), { ...billing(BUYER), ...cardFields(), ...attribution });
  expect(reply.result).toBe("success");
  orderId = Number(/order-received\/(\d+)/.exec(reply.redirect!)![1]);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

const stock = async () => (await shop.services.db.query<{ n: number }>(`SELECT stock_quantity AS n FROM products WHERE id = $1`, [productId]))[0]!.n;

describe("orders", () => {
  it("finds the order by status and e-mail, shows it, and refunds it in full with restock", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${shop.url}/wp-login.php?redirect_to=${encodeURIComponent(`${shop.url}/wp-admin/orders/`)}`);
    await page.locator("#user_login").fill(EMAIL);
    await page.locator("#user_pass").fill(PASSWORD);
    await Promise.all([page.waitForURL(`${shop.url}/wp-admin/orders/`), page.locator("#wp-submit").click()]);

    // The Processing tab (with its count) lists the paid order; a search by its e-mail finds it.
    const processing = page.getByRole("tab", { name: /^Processing \(\d+\)$/ });
    await processing.waitFor();
    const listed = page.waitForResponse((r) => r.url().includes("/wp-json/wc/v3/orders?") && r.url().includes("status=processing"));
    await processing.click();
    expect((await listed).status()).toBe(200);
    const table = page.locator(".dataviews-view-table tbody");
    await expect.poll(() => table.innerText()).toContain(BUYER);
    expect(await table.locator("tr", { hasText: BUYER }).innerText()).toContain("Source: newsletter");
    await page.screenshot({ path: "tmp/shots/admin_1280_orders.png" });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole("searchbox", { name: "Search orders" }).fill(BUYER);
    await expect.poll(() => page.locator(".dataviews-view-table tbody tr").count()).toBe(1);

    // The order: lines, totals, addresses, payment, notes.
    await Promise.all([page.waitForURL(`${shop.url}/wp-admin/orders/${orderId}/`), table.getByRole("link").first().click()]);
    await page.getByRole("heading", { level: 2, name: "Items" }).waitFor();
    const items = await page.locator(".admin-table tbody").innerText();
    expect(items).toContain("Silk Pocket Square");
    expect(items).toMatch(/\b2\b/);
    expect(await page.locator(".admin-totals").innerText()).toContain("Order total");
    expect(await page.getByRole("region", { name: "Billing" }).innerText()).toContain("1 Analytical Way");
    expect(await page.locator("#order-summary").innerText()).toContain("Processing");
    expect(await page.locator(".admin-order").innerText()).toMatch(/Payment: .+ · transaction \S+/);
    const origin = await page.getByRole("region", { name: "Origin" }).innerText();
    for (const shown of ["Source: newsletter", "UTM campaign", "spring-sale", "UTM medium", "email", "Pages viewed", "Device type", "Mobile"]) {
      expect(origin).toContain(shown);
    }
    await page.screenshot({ path: "tmp/shots/admin_1280_order.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // A full refund, restocking the two units.
    const before = await stock();
    await page.getByRole("button", { name: /^Refund \$/ }).click();
    await page.getByLabel("Reason (optional)").fill("Changed their mind");
    expect(await page.getByLabel("Put the items back in stock").isChecked()).toBe(true);
    await page.screenshot({ path: "tmp/shots/admin_1280_order-refund-confirm.png", fullPage: true });
    const refunded = page.waitForResponse((r) => r.url().includes(`/wp-json/wc/v3/orders/${orderId}/refunds`) && r.request().method() === "POST");
    await page.getByRole("button", { name: /^Confirm refund of \$/ }).click();
    expect((await refunded).status()).toBe(201);
    await expect.poll(() => page.getByRole("status").innerText()).toContain("Refunded $");
    await expect.poll(() => page.locator("#order-summary").innerText()).toContain("Refunded");
    expect(await stock()).toBe(before + 2);
    const [row] = await shop.services.db.query<{ status: string }>(`SELECT status FROM orders WHERE id = $1`, [orderId]);
    expect(row!.status).toBe("refunded");
    expect(await page.getByRole("button", { name: /^Refund \$/ }).count()).toBe(0); // nothing left to refund
    await page.screenshot({ path: "tmp/shots/admin_1280_order-refunded.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.setViewportSize({ width: 400, height: 900 });
    await page.reload();
    await page.getByRole("heading", { level: 2, name: "Items" }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_order.png", fullPage: true });
    await page.goto(`${shop.url}/wp-admin/orders/`);
    await expect.poll(() => page.locator(".dataviews-view-list__item").count()).toBeGreaterThan(0);
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_orders.png", fullPage: true });
    await context.close();
  });
});
