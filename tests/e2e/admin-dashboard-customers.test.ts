/**
 * The admin's Dashboard and Customers (issue 14, docs/contract/admin.md 'Dashboard', 'Customers', 'Customer') in
 * Chromium: the owner sees the period's figures (checked against the orders placed here) with their change from
 * the previous period, switches ranges with the keyboard (presets and custom dates, refused when reversed; the
 * range is in the address and back restores it); finds a customer by e-mail, opens them, sees their orders, lifetime value, address and saved method,
 * and sends a password reset e-mail that lands in the outbox; a shop manager can do the same; a customer gets the
 * sign-in page. axe-core on every screen; no sideways scrolling at 400 px; screenshots to tmp/shots/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { scrollsSideways, signedIn as signInAs } from "../support/admin-browser.ts";
import { registerCustomer, saveCustomerAddress } from "../../core/commerce/accounts.ts";
import { saveToken } from "../../core/db/repositories/orders.ts";
import { billing, cardFields, openCheckout, productWithStock, shopperWithCart, submitCheckout } from "../http/checkout-support.ts";

let shop: TestShop;
let browser: Browser;
const PASSWORD = "dashboard screens pass 1";
const ADMIN = "dash-owner@example.com";
const MANAGER = "dash-manager@example.com";
const CUSTOMER = "dash-shopper@example.com";
const BUYER = "dash-buyer@example.com";
let buyerId: number;
let productId: number;
let lowName: string;
const orderIds: number[] = [];
const today = new Date().toISOString().slice(0, 10);

const usd = (cents: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  for (const [email, role] of [
    [ADMIN, "administrator"],
    [MANAGER, "shop_manager"],
    [CUSTOMER, "customer"],
    [BUYER, "customer"],
  ] as const) {
    const made = await registerCustomer(shop.services.db, { email, password: PASSWORD, first_name: "Bea", last_name: email === BUYER ? "Buyer" : "Staff" });
    if (!made.ok) throw new Error(made.message);
    await shop.services.db.query(`UPDATE customers SET role = $2 WHERE id = $1`, [made.customerId, role]);
    if (email === BUYER) buyerId = made.customerId;
  }
  productId = await productWithStock(shop, "silk-pocket-square", 40, 1500);
  for (const [qty, source] of [
    [1, "google"],
    [2, "newsletter"],
  ] as const) {
    const client = await shopperWithCart(shop, productId, qty);
    const reply = await submitCheckout(client, await openCheckout(client), {
      ...billing(BUYER),
      ...cardFields(),
      wc_order_attribution_source_type: "utm",
      wc_order_attribution_utm_source: source,
    });
    expect(reply.result).toBe("success");
    orderIds.push(Number(/order-received\/(\d+)/.exec(reply.redirect!)![1]));
  }
  // The buyer's account owns both orders, has a saved address and a saved card.
  await shop.services.db.query(`UPDATE orders SET customer_id = $1 WHERE id = ANY($2::int[])`, [buyerId, orderIds]);
  await saveCustomerAddress(shop.services.db, buyerId, "billing", {
    first_name: "Bea",
    last_name: "Buyer",
    company: "",
    country: "US",
    address_1: "7 Ledger Lane",
    address_2: "",
    city: "Springfield",
    state: "IL",
    postcode: "62701",
    phone: "555 000 1111",
    email: BUYER,
  });
  await saveToken(shop.services.db, buyerId, "sandbox_credit_card", {
    kind: "card",
    brand: "visa",
    last4: "4242",
    expMonth: 12,
    expYear: 2034,
    token: "tok_e2e_secret",
  });
  // A product about to run out.
  const [low] = await shop.services.db.query<{ name: string }>(
    `UPDATE products SET stock_quantity = 1, stock_status = 'instock'
      WHERE id = (SELECT min(id) FROM products WHERE id <> $1 AND status = 'publish' AND type = 'simple') RETURNING name`,
    [productId],
  );
  lowName = low!.name;
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

const signedIn = (email: string, width = 1280) => signInAs(browser, shop.url, email, PASSWORD, width);

/** Paid orders placed since `from` (a UTC date): their count and revenue, straight from the table. */
async function paidSince(from: string): Promise<{ n: number; sum: number }> {
  const [row] = await shop.services.db.query<{ n: number; sum: number }>(
    `SELECT count(*)::int AS n, coalesce(sum(total), 0)::int AS sum FROM orders
      WHERE status IN ('processing', 'completed', 'on-hold', 'refunded') AND created_at >= $1::date`,
    [from],
  );
  return row!;
}

const figure = (page: Page, label: string) => page.locator(".admin-figure", { has: page.locator("dt", { hasText: label }) }).locator(".admin-figure-value");

describe("dashboard", () => {
  it("shows the period's figures, compared with the previous period, and switches ranges from the keyboard", async () => {
    const { context, page } = await signedIn(ADMIN);
    expect(new URL(page.url()).pathname).toBe("/wp-admin/");
    await page.getByRole("heading", { level: 2, name: "Figures" }).waitFor();
    const week = await paidSince(new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10));
    expect(await figure(page, "Revenue").innerText()).toBe(usd(week.sum));
    expect(await figure(page, "Orders").innerText()).toBe(String(week.n));
    expect(await figure(page, "Average order value").innerText()).toBe(usd(Math.round(week.sum / week.n)));
    const rangeSelect = page.getByRole("combobox", { name: "Date range" });
    expect(await rangeSelect.inputValue()).toBe("7d");
    // The previous 7 days' revenue, as the figure's comparison says it was.
    const previous = (await paidSince(new Date(Date.now() - 13 * 86_400_000).toISOString().slice(0, 10))).sum - week.sum;
    const change = await page
      .locator(".admin-figure", { has: page.locator("dt", { hasText: "Revenue" }) })
      .locator(".admin-figure-change")
      .textContent();
    expect(change).toBe(
      previous
        ? `+${Math.round(((week.sum - previous) / previous) * 1000) / 10}% compared with the previous period (was ${usd(previous)})`
        : `Previously ${usd(0)}`,
    );
    // The chart's table (for screen readers) has a row per day; the other cards name what was sold and from where.
    expect(await page.locator(".admin-chart table tbody tr").count()).toBe(7);
    expect(await page.locator(".admin-chart figcaption").innerText()).toContain(usd(week.sum));
    const [google] = await shop.services.db.query<{ total: number }>(`SELECT total FROM orders WHERE id = $1`, [orderIds[0]]);
    expect(await page.getByRole("region", { name: "Revenue by traffic source" }).innerText()).toMatch(
      new RegExp(`Source: google\\s+1\\s+\\${usd(google!.total)}`),
    );
    expect(await page.getByRole("region", { name: "Top products" }).innerText()).toContain("Silk Pocket Square");
    expect(await page.getByRole("region", { name: "Low stock" }).innerText()).toMatch(new RegExp(`${lowName.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s+1\\b`));
    expect(await page.getByRole("region", { name: "Orders by status" }).innerText()).toMatch(/Processing\s+\d+/);
    expect(await figure(page, "Live visitors").innerText()).toBe("0");
    await page.screenshot({ path: "tmp/shots/admin_1280_dashboard.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Keyboard: the range select, ArrowUp to "Today"; the figures are asked again for today alone, and the address says so.
    await rangeSelect.focus();
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).not.toBe("none");
    const asked = page.waitForResponse((r) => r.url().includes("/wp-json/shop/v1/dashboard?") && r.url().includes(`date_min=${today}`));
    await rangeSelect.selectOption("today");
    expect((await asked).status()).toBe(200);
    await page.locator('.admin-dashboard[data-period="today"]').waitFor();
    expect(new URL(page.url()).search).toBe("?range=today");
    const day = await paidSince(today);
    expect(await figure(page, "Revenue").innerText()).toBe(usd(day.sum));
    expect(await page.locator(".admin-chart table tbody tr").count()).toBe(1);

    // Custom dates start from the range shown; a reversed range is refused before asking, with the reason.
    await rangeSelect.selectOption("custom");
    const from = page.getByRole("textbox", { name: "From" });
    expect(await from.inputValue()).toBe(today);
    await from.fill("2099-01-01");
    await page.getByRole("alert").getByText("The end date is before the start date.").waitFor();
    expect(await page.getByRole("textbox", { name: "To" }).getAttribute("aria-invalid")).toBe("true");
    await from.fill(new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10));
    await page.locator('.admin-dashboard[data-period="custom"]').waitFor();
    expect(await page.locator(".admin-chart table tbody tr").count()).toBe(30);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Back: the reversed dates, then today's range again, from the address.
    await page.goBack();
    await page.goBack();
    await page.goBack();
    await page.locator('.admin-dashboard[data-period="today"]').waitFor();
    expect(await rangeSelect.inputValue()).toBe("today");

    await page.setViewportSize({ width: 400, height: 900 });
    await page.reload();
    await page.getByRole("heading", { level: 2, name: "Figures" }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_dashboard.png", fullPage: true });
    await context.close();
  });
});

describe("customers", () => {
  it("finds a customer, shows their orders, lifetime value, address and saved method, and sends a password reset e-mail", async () => {
    const { context, page } = await signedIn(ADMIN);
    await Promise.all([
      page.waitForURL(`${shop.url}/wp-admin/customers/`),
      page.getByRole("navigation", { name: "Admin menu" }).getByRole("link", { name: "Customers" }).click(),
    ]);
    const table = page.locator(".dataviews-view-table tbody");
    await expect.poll(() => table.innerText()).toContain(BUYER);
    await page.screenshot({ path: "tmp/shots/admin_1280_customers.png" });
    expect(await seriousAxeViolations(page)).toEqual([]);
    // Staff are not customers: the list is of customers only.
    expect(await table.innerText()).not.toContain(MANAGER);

    const searched = page.waitForResponse((r) => r.url().includes("/wp-json/wc/v3/customers?") && r.url().includes("search=dash-buyer"));
    await page.getByRole("searchbox", { name: "Search customers" }).fill("dash-buyer");
    expect((await searched).status()).toBe(200);
    await expect.poll(() => page.locator(".dataviews-view-table tbody tr").count()).toBe(1);
    const [spent] = await shop.services.db.query<{ cents: number }>(
      `SELECT coalesce(sum(total), 0)::int AS cents FROM orders WHERE customer_id = $1 AND status IN ('processing', 'completed')`,
      [buyerId],
    );
    expect(await table.innerText()).toContain(usd(spent!.cents));

    // Open them by keyboard: the name's link, Enter.
    await table.getByRole("link").first().focus();
    await Promise.all([page.waitForURL(`${shop.url}/wp-admin/customers/${buyerId}/`), page.keyboard.press("Enter")]);
    await page.getByRole("heading", { level: 1, name: "Bea Buyer" }).waitFor();
    await page.getByRole("heading", { level: 2, name: "Orders" }).waitFor();
    const account = await page.getByRole("region", { name: "Account" }).innerText();
    expect(account).toContain(BUYER);
    expect(account).toMatch(new RegExp(`Lifetime value\\s+\\${usd(spent!.cents)}`));
    const orders = await page.getByRole("region", { name: "Orders" }).innerText();
    for (const id of orderIds) expect(orders).toContain(`#${id}`);
    // The addresses are the edit form's (Customer screen's "Profile and addresses").
    expect(await page.getByRole("group", { name: "Billing address" }).getByLabel("Address line 1").inputValue()).toBe("7 Ledger Lane");
    const methods = await page.getByRole("region", { name: "Saved payment methods" }).innerText();
    expect(methods).toContain("Visa ending in 4242 (expires 12/34) · default");
    expect(await page.content()).not.toContain("tok_e2e_secret");
    await page.screenshot({ path: "tmp/shots/admin_1280_customer.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Send password reset, from the keyboard.
    const reset = page.getByRole("button", { name: "Send password reset" });
    await reset.focus();
    const sent = page.waitForResponse((r) => r.url().includes(`/wp-json/shop/v1/customers/${buyerId}/password-reset`));
    await page.keyboard.press("Enter");
    expect((await sent).status()).toBe(200);
    await expect
      .poll(() => page.getByRole("status").filter({ hasText: "password reset" }).innerText())
      .toContain(`A password reset e-mail was sent to ${BUYER}.`);
    const mails = await shop.services.db.query<{ body: string }>(`SELECT body FROM email_outbox WHERE kind = 'password_reset' AND to_address = $1`, [BUYER]);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body).toContain(`id=${buyerId}`);
    await page.screenshot({ path: "tmp/shots/admin_1280_customer-reset-sent.png", fullPage: true });

    await page.setViewportSize({ width: 400, height: 900 });
    await page.reload();
    await page.getByRole("heading", { level: 2, name: "Orders" }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_customer.png", fullPage: true });
    await page.goto(`${shop.url}/wp-admin/customers/`);
    await expect.poll(() => page.locator(".dataviews-view-list__item").count()).toBeGreaterThan(0);
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_customers.png", fullPage: true });
    await context.close();
  });

  it("a shop manager uses both screens; a customer gets the sign-in page and no data", async () => {
    const manager = await signedIn(MANAGER);
    await manager.page.getByRole("heading", { level: 2, name: "Figures" }).waitFor();
    expect(await figure(manager.page, "Orders").innerText()).toMatch(/^\d+$/);
    await manager.page.goto(`${shop.url}/wp-admin/customers/${buyerId}/`);
    await manager.page.getByRole("heading", { level: 2, name: "Saved payment methods" }).waitFor();
    await manager.page.getByRole("button", { name: "Send password reset" }).click();
    await expect.poll(() => manager.page.getByRole("status").filter({ hasText: "password reset" }).innerText()).toContain(BUYER);
    await manager.context.close();

    const { context, page } = await signedIn(CUSTOMER);
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    for (const path of ["/wp-admin/", "/wp-admin/customers/", `/wp-admin/customers/${buyerId}/`]) {
      await page.goto(`${shop.url}${path}`);
      expect(new URL(page.url()).pathname, path).toBe("/wp-login.php");
    }
    expect(requests.filter((u) => u.includes("/wp-admin-app/") || u.includes("/wp-json/"))).toEqual([]);
    expect(await page.content()).not.toContain(BUYER);
    await context.close();
  });
});
