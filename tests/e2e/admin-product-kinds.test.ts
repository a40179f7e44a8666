/**
 * External and grouped products in Chromium, as an owner works (issue 14, docs/contract/admin.md 'Add product' and
 * 'Edit Product'): the owner adds an external product (its address refused when missing, at the field, which takes
 * the focus), sets its button text and price, makes it "Shop only" and publishes it; then adds a grouped product,
 * picks two simple products as its children and publishes it; then a bundle of the two (one twice, one optional at
 * 10% off) with a base price. A shopper then finds the external product's button linking out (no add to cart), adds
 * two of one child and one of the other from the grouped product's page, and sees the bundle's items and price.
 * axe-core on the editor, no sideways scrolling at 400 px, screenshots at 1280 and 400 px in tmp/shots/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { scrollsSideways, signedIn as signInAs } from "../support/admin-browser.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let browser: Browser;
/** The owner's one signed-in tab, shared by the admin steps (signing in once keeps the file short). */
let owner: { context: BrowserContext; page: Page };
const PASSWORD = "admin product kinds 1";
const ADMIN = "kinds-admin@example.com";

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  const made = await registerCustomer(shop.services.db, { email: ADMIN, password: PASSWORD, first_name: "Olive", last_name: "Owner" });
  if (!made.ok) throw new Error(made.message);
  await shop.services.db.query(`UPDATE customers SET role = 'administrator' WHERE id = $1`, [made.customerId]);
  // Two simple products to group.
  await shop.services.db.query(
    `INSERT INTO products (type, slug, name, regular_price, price_min, price_max, stock_quantity, stock_status)
     VALUES ('simple', 'harbour-mug', 'Harbour Mug', 900, 900, 900, 10, 'instock'),
            ('simple', 'harbour-cap', 'Harbour Cap', 1500, 1500, 1500, 10, 'instock')`,
  );
  owner = await signInAs(browser, shop.url, ADMIN, PASSWORD, 1280);
});
afterAll(async () => {
  await owner?.context.close();
  await browser?.close();
  await shop?.close();
});

const row = async (id: number) =>
  (
    await shop.services.db.query<{ type: string; status: string; catalog_visibility: string; regular_price: number | null; details: Record<string, unknown> }>(
      `SELECT type, status, catalog_visibility, regular_price, details FROM products WHERE id = $1`,
      [id],
    )
  )[0]!;

describe("an owner adds an external and a grouped product; a shopper uses them", () => {
  let externalId = 0;
  let groupedId = 0;

  it("external: the address is required, then the button text, price and visibility, published", async () => {
    const { page } = owner;
    await page.goto(`${shop.url}/wp-admin/products/new/`);
    const title = page.getByLabel("Title", { exact: true });
    await title.waitFor();
    await title.fill("Harbour Umbrella");
    await page.getByRole("radio", { name: /^External\/affiliate product/ }).check();
    const url = page.getByLabel("Product URL");
    await page.getByRole("button", { name: "Create draft and continue" }).click();
    await expect.poll(() => url.getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => url.evaluate((f) => f === document.activeElement)).toBe(true);
    await page.screenshot({ path: "tmp/shots/admin_1280_add-external-product.png", fullPage: true });
    await url.fill("https://partner.example/umbrella");
    await Promise.all([page.waitForURL(/\/wp-admin\/edit\/product\/\d+\/$/), page.getByRole("button", { name: "Create draft and continue" }).click()]);
    externalId = Number(/product\/(\d+)\//.exec(page.url())![1]);

    await expect.poll(() => page.getByLabel("Product URL").inputValue()).toBe("https://partner.example/umbrella");
    expect(await page.getByLabel("Manage stock").count()).toBe(0); // sold elsewhere: no stock here
    await page.getByLabel("Button text").fill("Buy at Harbour & Co");
    await page.getByLabel("Regular price", { exact: true }).fill("49");
    await page.getByLabel("Catalog visibility").selectOption("catalog");
    await page.getByLabel("Status", { exact: true }).selectOption("publish");
    await page.getByRole("button", { name: "Update" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Product updated." }).count()).toBe(1);
    expect(await row(externalId)).toMatchObject({
      type: "external",
      status: "publish",
      catalog_visibility: "catalog",
      regular_price: 4900,
      details: { productUrl: "https://partner.example/umbrella", buttonText: "Buy at Harbour & Co" },
    });
    await page.screenshot({ path: "tmp/shots/admin_1280_edit-external-product.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it("grouped: two simple products picked as its children, published", async () => {
    const { page } = owner;
    await page.goto(`${shop.url}/wp-admin/products/new/`);
    await page.getByLabel("Title", { exact: true }).fill("Harbour Set");
    await page.getByRole("radio", { name: /^Grouped product/ }).check();
    expect(await page.getByLabel("Product URL").count()).toBe(0);
    await Promise.all([page.waitForURL(/\/wp-admin\/edit\/product\/\d+\/$/), page.getByRole("button", { name: "Create draft and continue" }).click()]);
    groupedId = Number(/product\/(\d+)\//.exec(page.url())![1]);

    const children = page.getByRole("combobox", { name: "Grouped products" });
    await children.waitFor();
    expect(await page.getByLabel("Regular price", { exact: true }).count()).toBe(0);
    for (const name of ["Harbour Mug", "Harbour Cap"]) {
      await children.fill(name);
      await expect.poll(() => page.getByRole("option", { name, exact: true }).count()).toBe(1);
      await children.press("Enter");
    }
    await page.getByLabel("Status", { exact: true }).selectOption("publish");
    await page.getByRole("button", { name: "Update" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Product updated." }).count()).toBe(1);
    const links = await shop.services.db.query<{ slug: string }>(
      `SELECT p.slug FROM product_links l JOIN products p ON p.id = l.linked_id WHERE l.product_id = $1 AND l.kind = 'grouped_child' ORDER BY l.position`,
      [groupedId],
    );
    expect(links.map((l) => l.slug)).toEqual(["harbour-mug", "harbour-cap"]);
    expect(await row(groupedId)).toMatchObject({ type: "grouped", status: "publish", catalog_visibility: "visible" });
    await page.screenshot({ path: "tmp/shots/admin_1280_edit-grouped-product.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // At 400 px: nothing scrolls sideways, on either editor.
    await page.setViewportSize({ width: 400, height: 900 });
    for (const [id, name] of [
      [groupedId, "grouped"],
      [externalId, "external"],
    ] as const) {
      await page.goto(`${shop.url}/wp-admin/edit/product/${id}/`);
      await page.getByRole("button", { name: "Update" }).waitFor();
      expect(await scrollsSideways(page), name).toBe(false);
      await page.screenshot({ path: `tmp/shots/admin_400_edit-${name}-product.png`, fullPage: true });
    }
  });

  it("bundle: two items (one optional, one twice) and a base price, published", async () => {
    const { page } = owner;
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${shop.url}/wp-admin/products/new/`);
    await page.getByLabel("Title", { exact: true }).fill("Harbour Box");
    await page.getByRole("radio", { name: /^Bundle/ }).check();
    await Promise.all([page.waitForURL(/\/wp-admin\/edit\/product\/\d+\/$/), page.getByRole("button", { name: "Create draft and continue" }).click()]);
    const bundleId = Number(/product\/(\d+)\//.exec(page.url())![1]);
    const add = page.getByRole("button", { name: "Add an item" });
    await expect.poll(() => add.isEnabled()).toBe(true); // the simple products are loaded
    await add.click();
    await page.getByLabel("Product (item 1)").selectOption({ label: "Harbour Mug" });
    await page.getByLabel("Quantity (Harbour Mug)").fill("2");
    await add.click();
    await page.getByLabel("Product (item 2)").selectOption({ label: "Harbour Cap" });
    await page.getByLabel("Optional (Harbour Cap)").check();
    await page.getByLabel("Discount % (Harbour Cap)").fill("10");
    await page.getByLabel("Base price").fill("5");
    await page.getByLabel("Status", { exact: true }).selectOption("publish");
    await page.getByRole("button", { name: "Update" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Product updated." }).count()).toBe(1);
    const saved = await row(bundleId);
    expect(saved).toMatchObject({ type: "bundle", status: "publish", regular_price: 500 });
    expect(saved.details.bundledItems).toMatchObject([
      { product: "harbour-mug", quantity: 2, optional: false, discountPercent: 0 },
      { product: "harbour-cap", quantity: 1, optional: true, discountPercent: 10 },
    ]);
    await page.screenshot({ path: "tmp/shots/admin_1280_edit-bundle-product.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it("a shopper: the external product links out, the grouped one adds the chosen children", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    // "Shop only": listed in the shop, not in search results.
    await page.goto(`${shop.url}/shop/?orderby=date`);
    expect(await page.locator("ul.products").innerText()).toContain("Harbour Umbrella");
    await page.goto(`${shop.url}/?s=umbrella&post_type=product`);
    const results = (await page.content()).split("search-suggestions")[0]!; // the results, not the suggestions after them
    expect(results).toContain("Search results");
    expect(results).not.toContain("Harbour Umbrella");

    await page.goto(`${shop.url}/product/harbour-umbrella/`);
    const button = page.locator("form.cart a.single_add_to_cart_button");
    expect(await button.innerText()).toBe("Buy at Harbour & Co");
    expect(await button.getAttribute("href")).toBe("https://partner.example/umbrella");
    expect(await page.locator('button[name="add-to-cart"], input[name="quantity"]').count()).toBe(0);

    await page.goto(`${shop.url}/product/harbour-set/`);
    await page.waitForFunction(() => document.getElementById("wc-cart-announcer") !== null);
    const ids = (
      await shop.services.db.query<{ id: number; slug: string }>(`SELECT id, slug FROM products WHERE slug IN ('harbour-mug', 'harbour-cap')`)
    ).reduce<Record<string, number>>((all, r) => ({ ...all, [r.slug]: r.id }), {});
    await page.locator(`form.grouped_form input[name="quantity[${ids["harbour-mug"]}]"]`).fill("2");
    await page.locator(`form.grouped_form input[name="quantity[${ids["harbour-cap"]}]"]`).fill("1");
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/wp-admin/admin-ajax.php") && r.request().method() === "POST"),
      page.locator("form.grouped_form button.single_add_to_cart_button").click(),
    ]);
    await expect.poll(() => page.locator("#ast-site-header-cart a.cart-contents .count").first().textContent()).toBe("3");
    await page.goto(`${shop.url}/cart/`);
    const cart = await page.locator("form.woocommerce-cart-form").innerText();
    expect(cart).toContain("Harbour Mug");
    expect(cart).toContain("Harbour Cap");
    expect(await page.locator("form.woocommerce-cart-form input.qty").evaluateAll((qs) => qs.map((q) => (q as HTMLInputElement).value).sort())).toEqual([
      "1",
      "2",
    ]);
    await page.screenshot({ path: "tmp/shots/storefront_1280_grouped-cart.png", fullPage: true });

    // The bundle: base price plus two mugs ($5 + 2 × $9), the cap an optional extra at 10% off.
    await page.goto(`${shop.url}/product/harbour-box/`);
    const form = page.locator("form.bundle_form");
    expect(await form.innerText()).toContain("Harbour Mug");
    expect(await form.locator('input[type="checkbox"][name^="bundle_selected_optional_"]').count()).toBe(1);
    expect(await page.locator(".summary .price").first().innerText()).toContain("$23");
    await context.close();
  });
});
