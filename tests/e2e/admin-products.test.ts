/**
 * The admin's products (issue 14, docs/contract/admin.md) in Chromium, as an owner works: signed in through
 * wp-login.php, the product list (search, a filter, sorting), the edit screen changing a price that the product page
 * then shows, a refusal shown at the field it names, the unsaved-changes prompt, and two staff saving the same
 * product: the second is refused with 'changed since you opened it'. A customer at /wp-admin/ gets the sign-in page
 * and no admin script; storefront pages never request the admin's bundle. axe-core on every screen; no sideways
 * scrolling at 400 px; screenshots at 1280 and 400 px go to tmp/shots/.
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
const PASSWORD = "admin screens pass 1";
const ADMIN = "owner-admin@example.com";
const MANAGER = "owner-manager@example.com";
const CUSTOMER = "owner-customer@example.com";
let product: { id: number; slug: string; name: string };

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  for (const [email, role] of [
    [ADMIN, "administrator"],
    [MANAGER, "shop_manager"],
    [CUSTOMER, "customer"],
  ] as const) {
    const made = await registerCustomer(shop.services.db, { email, password: PASSWORD, first_name: "Olive", last_name: "Owner" });
    if (!made.ok) throw new Error(made.message);
    await shop.services.db.query(`UPDATE customers SET role = $2 WHERE id = $1`, [made.customerId, role]);
  }
  const [row] = await shop.services.db.query<{ id: number; slug: string; name: string }>(
    `SELECT id, slug, name FROM products WHERE type = 'simple' AND status = 'publish' AND sale_price IS NULL ORDER BY id LIMIT 1`,
  );
  product = row!;
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

const signedIn = (email: string, width = 1280) => signInAs(browser, shop.url, email, PASSWORD, width);

/** The edit screen, loaded: the form's Title field shows the product's name. */
async function openEditor(page: Page, id: number): Promise<void> {
  await page.goto(`${shop.url}/wp-admin/post.php?post=${id}&action=edit`);
  expect(new URL(page.url()).pathname).toBe(`/wp-admin/edit/product/${id}/`);
  await page.getByLabel("Title", { exact: true }).waitFor();
}

describe("the admin for staff, and for no one else", () => {
  it("sends a customer to the sign-in page, with no admin script and no data", async () => {
    const { context, page } = await signedIn(CUSTOMER);
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    for (const path of ["/wp-admin/", "/wp-admin/products/", `/wp-admin/edit/product/${product.id}/`]) {
      await page.goto(`${shop.url}${path}`);
      expect(new URL(page.url()).pathname, path).toBe("/wp-login.php");
      await expect.poll(() => page.locator("#login-message[role=alert]").textContent()).toContain("Sorry, you are not allowed to access this page.");
      expect(await page.locator("#loginform").isVisible()).toBe(true);
    }
    expect(requests.filter((u) => u.includes("/wp-admin-app/") || u.includes("/wp-json/"))).toEqual([]);
    await page.screenshot({ path: "tmp/shots/admin_1280_customer-sign-in.png" });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  it("storefront pages do not load the admin's bundle, even for staff", async () => {
    const { context, page } = await signedIn(ADMIN);
    const scripts: string[] = [];
    page.on("request", (r) => void (r.resourceType() === "script" && scripts.push(new URL(r.url()).pathname)));
    for (const path of ["/", "/shop/", `/product/${product.slug}/`]) await page.goto(`${shop.url}${path}`, { waitUntil: "load" });
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((p) => !p.startsWith("/assets/"))).toEqual([]);
    await context.close();
  });
});

describe("products", () => {
  it("lists, searches, filters and sorts products, keyboard first, at 1280 and 400 px", async () => {
    const { context, page } = await signedIn(ADMIN);
    expect(new URL(page.url()).pathname).toBe("/wp-admin/");
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    await page.getByRole("heading", { level: 2, name: "Figures" }).waitFor(); // tests/e2e/admin-dashboard-customers.test.ts covers the dashboard
    // The first Tab reaches the skip link, and focus is visible.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to main content");
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).not.toBe("none");
    await page.screenshot({ path: "tmp/shots/admin_1280_dashboard.png" });
    expect(await seriousAxeViolations(page)).toEqual([]);

    await Promise.all([
      page.waitForURL(`${shop.url}/wp-admin/products/`),
      page.getByRole("navigation", { name: "Admin menu" }).getByRole("link", { name: "Products" }).click(),
    ]);
    const rows = page.locator(".dataviews-view-table tbody tr");
    await expect.poll(() => rows.count()).toBeGreaterThan(5);
    await page.screenshot({ path: "tmp/shots/admin_1280_products.png" });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Search by name: the list follows the REST API's answer.
    const word = product.name.split(" ")[0]!;
    const answered = page.waitForResponse((r) => r.url().includes("/wp-json/wc/v3/products?") && r.url().includes(`search=${encodeURIComponent(word)}`));
    await page.getByRole("searchbox", { name: "Search products" }).fill(word);
    expect((await answered).status()).toBe(200);
    await expect.poll(() => page.locator(".dataviews-view-table tbody").innerText()).toContain(product.name);
    await page.getByRole("searchbox", { name: "Search products" }).fill("");

    // Sorting by name, ascending: the request asks for it and the rows come in that order.
    const sorted = page.waitForResponse((r) => r.url().includes("orderby=title") && r.url().includes("order=asc"));
    await page.locator(".dataviews-view-table thead").getByRole("button", { name: "Name" }).click();
    await page.getByRole("menuitemradio", { name: /Sort ascending/ }).click();
    expect((await sorted).status()).toBe(200);
    await expect
      .poll(async () => {
        const names = await page.locator(".dataviews-view-table tbody tr .dataviews-title-field").allInnerTexts();
        return names.length > 1 && names.every((n, i) => i === 0 || names[i - 1]!.localeCompare(n, "en", { sensitivity: "base" }) <= 0);
      })
      .toBe(true);

    // The name opens the edit screen.
    await page.goto(`${shop.url}/wp-admin/products/`);
    await page.getByRole("searchbox", { name: "Search products" }).fill(product.name);
    const link = page.locator(".dataviews-view-table tbody").getByRole("link", { name: product.name, exact: true });
    await link.waitFor();
    expect(await link.getAttribute("href")).toBe(`/wp-admin/edit/product/${product.id}/`);

    await page.setViewportSize({ width: 400, height: 900 });
    await page.goto(`${shop.url}/wp-admin/products/`);
    await expect.poll(() => page.locator(".dataviews-view-list__item").count()).toBeGreaterThan(0);
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_products.png", fullPage: true });
    await page.goto(`${shop.url}/wp-admin/`);
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_dashboard.png", fullPage: true });
    await context.close();
  });

  it("filters by stock status through the REST API", async () => {
    const { context, page } = await signedIn(ADMIN);
    await shop.services.db.query(`UPDATE products SET stock_status = 'outofstock' WHERE id = $1`, [product.id]);
    await page.goto(`${shop.url}/wp-admin/products/`);
    await expect.poll(() => page.locator(".dataviews-view-table tbody tr").count()).toBeGreaterThan(1);
    const filtered = page.waitForResponse((r) => r.url().includes("stock_status=outofstock"));
    await page.getByRole("button", { name: "Add filter" }).click();
    await page.getByRole("menuitem", { name: "Stock" }).click();
    await page.getByRole("option", { name: "Out of stock" }).click();
    expect((await filtered).status()).toBe(200);
    await expect.poll(() => page.locator(".dataviews-view-table tbody").innerText()).toContain(product.name);
    const stock = await page.locator(".dataviews-view-table tbody tr").evaluateAll((trs) => trs.map((tr) => tr.textContent ?? ""));
    expect(stock.every((t) => t.includes("Out of stock"))).toBe(true);
    await shop.services.db.query(`UPDATE products SET stock_status = 'instock' WHERE id = $1`, [product.id]);
    await context.close();
  });

  it("changes a price that the product page then shows; shows a refusal at its field; asks before leaving unsaved changes", async () => {
    const { context, page } = await signedIn(ADMIN);
    await openEditor(page, product.id);
    expect(await page.getByLabel("Title", { exact: true }).inputValue()).toBe(product.name);
    await page.screenshot({ path: "tmp/shots/admin_1280_edit-product.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // A sale price above the regular price: the API's refusal appears under the Sale price field, which is marked invalid.
    await page.getByLabel("Regular price").fill("77.00");
    await page.getByLabel("Sale price").fill("80.00");
    await page.getByRole("button", { name: "Update" }).click();
    const sale = page.getByLabel("Sale price");
    await expect.poll(() => sale.getAttribute("aria-invalid")).toBe("true");
    // …and takes the focus, so a keyboard or screen-reader user lands on what to correct.
    await expect.poll(() => sale.evaluate((field) => field === document.activeElement)).toBe(true);
    const describedBy = (await sale.getAttribute("aria-describedby"))!;
    expect(await page.locator(`[id="${describedBy}"]`).innerText()).toBe("Sale price must be lower than Regular price");
    await page.screenshot({ path: "tmp/shots/admin_1280_edit-product-field-error.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Leaving with unsaved changes asks first (the browser's own prompt); staying keeps the edits.
    const asked = new Promise<string>((resolve) => page.once("dialog", (d) => void d.dismiss().then(() => resolve(d.type()))));
    await page.getByRole("navigation", { name: "Admin menu" }).getByRole("link", { name: "Products" }).click();
    expect(await asked).toBe("beforeunload");
    expect(new URL(page.url()).pathname).toBe(`/wp-admin/edit/product/${product.id}/`);

    await sale.fill("");
    await page.getByRole("button", { name: "Update" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Product updated." }).count()).toBe(1);
    expect(await sale.getAttribute("aria-invalid")).toBeNull();
    const [row] = await shop.services.db.query<{ regular_price: number }>(`SELECT regular_price FROM products WHERE id = $1`, [product.id]);
    expect(Number(row!.regular_price)).toBe(7700);

    // 'View product' leads to the product page, which shows the new price (nothing is asked: all is saved).
    await Promise.all([page.waitForURL(`${shop.url}/product/${product.slug}/`), page.getByRole("link", { name: "View product" }).click()]);
    await expect.poll(() => page.locator("div.product p.price").innerText()).toBe("$77");

    await page.setViewportSize({ width: 400, height: 900 });
    await openEditor(page, product.id);
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_edit-product.png", fullPage: true });
    await context.close();
  });

  it("refuses the second of two staff saving the same product: 'changed since you opened it'", async () => {
    const first = await signedIn(ADMIN);
    const second = await signedIn(MANAGER);
    await openEditor(first.page, product.id);
    await openEditor(second.page, product.id);

    await first.page.getByLabel("Regular price").fill("66.00");
    await first.page.getByRole("button", { name: "Update" }).click();
    await expect.poll(() => first.page.getByRole("status").filter({ hasText: "Product updated." }).count()).toBe(1);

    await second.page.getByLabel("Title", { exact: true }).fill(`${product.name} (renamed)`);
    await second.page.getByRole("button", { name: "Update" }).click();
    const alert = second.page.getByRole("alert").filter({ hasText: "changed since you opened it" });
    await alert.waitFor();
    expect(await alert.innerText()).toContain("This product was changed since you opened it.");
    await second.page.screenshot({ path: "tmp/shots/admin_1280_edit-product-conflict.png", fullPage: true });
    expect(await seriousAxeViolations(second.page)).toEqual([]);
    const [row] = await shop.services.db.query<{ name: string; regular_price: number }>(`SELECT name, regular_price FROM products WHERE id = $1`, [product.id]);
    expect(row!.name).toBe(product.name);
    expect(Number(row!.regular_price)).toBe(6600);

    // Reloading shows the first editor's price; the second can then save.
    second.page.once("dialog", (d) => void d.accept());
    await second.page.getByRole("button", { name: /Reload the product/ }).click();
    await expect.poll(() => second.page.getByLabel("Regular price").inputValue()).toBe("66.00");
    await first.context.close();
    await second.context.close();
  });
});
