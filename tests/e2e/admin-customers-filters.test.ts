/**
 * The Customers list's filters by spend and last order, and its sorts (docs/contract/admin.md 'Customers') in
 * Chromium: the owner adds a "Total spend" filter from the keyboard, types an amount, and sees only the customers who
 * spent that much; the filter is in the address, so a reload keeps it; a sort by total spend and a Last order filter
 * read from the address ask the API for them. axe-core; 1280 and 400 px without sideways scrolling; screenshots to
 * tmp/shots/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { scrollsSideways, signedIn as signInAs } from "../support/admin-browser.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let browser: Browser;
const PASSWORD = "customer filters pass 1";
const ADMIN = "cfe-owner@example.org";

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  const made = await registerCustomer(shop.services.db, { email: ADMIN, password: PASSWORD, first_name: "Olive", last_name: "Owner" });
  if (!made.ok) throw new Error(made.message);
  await shop.services.db.query(`UPDATE customers SET role = 'administrator' WHERE id = $1`, [made.customerId]);
  // big: 250.00 paid on 5 October; small: 20.00 paid on 15 November; none: never ordered.
  for (const [who, cents, at] of [
    ["big", 25000, "2026-10-05T10:00:00Z"],
    ["small", 2000, "2026-11-15T10:00:00Z"],
    ["none", 0, null],
  ] as const) {
    const c = await registerCustomer(shop.services.db, { email: `cfe-${who}@example.com`, password: PASSWORD, first_name: who, last_name: "Shopper" });
    if (!c.ok) throw new Error(c.message);
    if (at)
      await shop.services.db.query(
        `INSERT INTO orders (order_key, status, customer_id, billing_email, currency, subtotal, discount_total, shipping_total, total, payment_method, created_at, paid_at)
         VALUES ($1, 'completed', $2, $3, 'USD', $4, 0, 0, $4, 'bacs', $5, $5)`,
        [`wc_order_cfe_${who}`, c.customerId, `cfe-${who}@example.com`, cents, at],
      );
  }
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

const rows = (page: Page) => page.locator(".dataviews-view-table tbody tr").evaluateAll((trs) => trs.map((tr) => /cfe-(\w+)@/.exec(tr.textContent ?? "")?.[1]));

describe("filtering customers by spend and last order", () => {
  it("filters by total spend from the keyboard, keeps it in the address over a reload, and sorts and filters by last order", async () => {
    const { context, page } = await signInAs(browser, shop.url, ADMIN, PASSWORD);
    await page.goto(`${shop.url}/wp-admin/customers/?s=cfe-`);
    await expect.poll(() => rows(page)).toHaveLength(3);
    expect(await page.locator(".dataviews-view-table thead").innerText()).toMatch(/Total spend[\s\S]*Last order/i);

    // Add filter → Total spend → type 100, all from the keyboard.
    await page.getByRole("button", { name: "Add filter" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("menuitem", { name: "Total spend" }).waitFor();
    for (let i = 0; i < 10 && !(await page.getByRole("menuitem", { name: "Total spend" }).evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    const amount = page.getByRole("spinbutton", { name: "Total spend" });
    await amount.waitFor();
    expect(await page.getByRole("combobox", { name: "Conditions" }).inputValue()).toBe("greaterThanOrEqual");
    const filtered = page.waitForResponse((r) => r.url().includes("/wp-json/wc/v3/customers?") && r.url().includes("total_spend_min=100"));
    await amount.focus();
    await page.keyboard.type("100");
    expect((await filtered).status()).toBe(200);
    await expect.poll(() => rows(page)).toEqual(["big"]);
    expect(new URL(page.url()).searchParams.get("total_spend_min")).toBe("100");
    expect(await page.locator(".dataviews-view-table tbody").innerText()).toContain("$250.00");
    await page.screenshot({ path: "tmp/shots/admin_1280_customers-filter-open.png" });
    // Escape closes the filter's popover and gives the focus back to its chip. (axe runs once it is closed: DataViews'
    // filter popover is a dialog without a name, as on every list's filters.)
    await page.keyboard.press("Escape");
    const chip = page.locator(".dataviews-filters__summary-chip").first();
    await expect.poll(() => chip.innerText()).toMatch(/Total spend.*\$100\.00/s);
    await expect.poll(() => chip.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.screenshot({ path: "tmp/shots/admin_1280_customers-filtered.png" });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // A reload keeps the filter (it is in the address).
    // (DataViews then shows the filters collapsed behind its Filter button, which counts them.)
    const again = page.waitForResponse((r) => r.url().includes("/wp-json/wc/v3/customers?") && r.url().includes("total_spend_min=100"));
    await page.reload();
    expect((await again).status()).toBe(200);
    await expect.poll(() => rows(page)).toEqual(["big"]);

    // Sorted by total spend, lowest first: the customer who never ordered, then 20.00, then 250.00.
    const sorted = page.waitForResponse((r) => r.url().includes("orderby=total_spend&order=asc"));
    await page.goto(`${shop.url}/wp-admin/customers/?s=cfe-&orderby=total_spent&order=asc`);
    expect((await sorted).status()).toBe(200);
    await expect.poll(() => rows(page)).toEqual(["none", "small", "big"]);

    // Last order after 1 November (the whole day is before): only the November order's customer.
    const after = page.waitForResponse((r) => r.url().includes("last_order_after=2026-11-01T23%3A59%3A59.999Z"));
    await page.goto(`${shop.url}/wp-admin/customers/?s=cfe-&last_order_after=2026-11-01`);
    expect((await after).status()).toBe(200);
    await expect.poll(() => rows(page)).toEqual(["small"]);
    expect(await page.locator(".dataviews-view-table tbody").innerText()).toContain("2026-11-15");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  }, 180_000);

  it("fits 400 px with a filter on, in the list layout", async () => {
    const { context, page } = await signInAs(browser, shop.url, ADMIN, PASSWORD, 400);
    await page.goto(`${shop.url}/wp-admin/customers/?s=cfe-&total_spend_min=10&total_spend_max=100`);
    await expect.poll(() => page.locator(".dataviews-view-list__item").count()).toBe(1);
    expect(await page.locator(".dataviews-view-list").innerText()).toContain("cfe-small@example.com");
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_customers-filtered.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });
});
