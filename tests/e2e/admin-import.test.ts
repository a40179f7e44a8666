/**
 * Moving in (docs/contract/admin.md 'Import and export'): the owner imports a small WooCommerce product CSV with a
 * variable product in Products → Import — the preview lists every row and the refused one with its reason, Import
 * says what it did in a live region — and the product is on the storefront with its variations; then downloads the
 * orders as CSV. axe on the screen; no sideways scrolling at 400 px; screenshots at 1280 and 400 px in tmp/shots/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { scrollsSideways, signedIn as signInAs } from "../support/admin-browser.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let browser: Browser;
const PASSWORD = "import screens pass 1";
const OWNER = "import-owner@example.com";

const CSV = [
  'ID,Type,SKU,Name,Published,"Is featured?","Visibility in catalog","Short description",Description,"In stock?",Stock,"Sale price","Regular price",Categories,Parent,"Attribute 1 name","Attribute 1 value(s)","Attribute 1 visible","Attribute 1 global"',
  '71,variable,MOVE-TEE,Moving Day Tee,1,0,visible,"Brought over from WooCommerce",A tee.,1,,,,Moving,,Color,"Red, Green",1,1',
  "72,variation,MOVE-TEE-RED,Moving Day Tee - Red,1,0,visible,,,1,4,,19.00,,MOVE-TEE,Color,Red,,1",
  "73,variation,MOVE-TEE-GREEN,Moving Day Tee - Green,1,0,visible,,,1,2,,19.50,,MOVE-TEE,Color,Green,,1",
  "74,simple,MOVE-CAP,Moving Day Cap,1,0,visible,,,1,3,12.00,10.00,Moving,,,,,",
].join("\n");

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  const made = await registerCustomer(shop.services.db, { email: OWNER, password: PASSWORD, first_name: "Olive", last_name: "Owner" });
  if (!made.ok) throw new Error(made.message);
  await shop.services.db.query(`UPDATE customers SET role = 'administrator' WHERE id = $1`, [made.customerId]);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

describe("Products → Import", () => {
  it("previews, imports and shows the variable product on the storefront", async () => {
    const { context, page } = await signInAs(browser, shop.url, OWNER, PASSWORD, 1280);
    await page.goto(`${shop.url}/wp-admin/products/`);
    await page.getByRole("link", { name: "Import", exact: true }).click();
    await page.getByRole("heading", { name: "Import products", level: 1 }).waitFor();
    await page.getByLabel("CSV file").setInputFiles({ name: "woo-products.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) });

    const status = page.getByRole("status").filter({ hasText: /Preview|Import finished/ });
    await expect.poll(() => status.textContent()).toBe("Preview of 4 rows: 3 to create, 0 to update, 1 refused. Nothing has been imported yet.");
    const refused = page.getByRole("region", { name: "Refused rows (1)" });
    expect(await refused.getByRole("listitem").textContent()).toBe("Row 5 (Moving Day Cap): Sale price: sale_price must be lower than regular_price");
    expect(await page.getByRole("row").count()).toBe(5);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: "tmp/shots/admin_1280_product-import-preview.png", fullPage: true });
    expect(await shop.services.db.query(`SELECT id FROM products WHERE sku = 'MOVE-TEE'`)).toEqual([]);

    await page.getByRole("button", { name: "Import 3 rows" }).click();
    await expect.poll(() => status.textContent()).toBe("Import finished: 3 products and variations created, 0 updated, 1 row refused.");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: "tmp/shots/admin_1280_product-import-done.png", fullPage: true });

    // On the storefront at once: the variable product with its two colours.
    await page.goto(`${shop.url}/product/moving-day-tee/`);
    await page.getByRole("heading", { name: "Moving Day Tee", level: 1 }).waitFor();
    const colour = page.getByLabel("Color");
    expect(await colour.locator("option").allTextContents()).toEqual(["Choose an option", "Red", "Green"]);
    expect(await page.locator("main").textContent()).toContain("Price range: $19 through");
    await context.close();
  });

  it("at 400 px: no sideways scrolling; Orders → Export CSV downloads the orders", async () => {
    const { context, page } = await signInAs(browser, shop.url, OWNER, PASSWORD, 400);
    await page.goto(`${shop.url}/wp-admin/products/import/`);
    await page.getByLabel("CSV file").setInputFiles({ name: "again.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) });
    await expect
      .poll(() => page.getByRole("status").filter({ hasText: "Preview" }).textContent())
      .toBe("Preview of 4 rows: 0 to create, 3 to update, 1 refused. Nothing has been imported yet.");
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_product-import-preview.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.goto(`${shop.url}/wp-admin/products/export/`);
    await page.getByRole("button", { name: "Download products CSV" }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: "tmp/shots/admin_400_product-export.png" });

    await page.goto(`${shop.url}/wp-admin/orders/`);
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    expect((await download).suggestedFilename()).toMatch(/^orders-export-\d{4}-\d{2}-\d{2}\.csv$/);
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Downloaded" }).textContent()).toMatch(/^Downloaded orders-export-/);
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_orders-export.png" });
    await context.close();
  });
});
