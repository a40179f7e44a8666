/**
 * Downloadable products in Chromium (issue 14, docs/contract/admin.md 'Downloads', decision 0041): the owner makes a
 * simple product downloadable and adds a file by keyboard only (the checkbox with Space, "Upload a file" with Enter),
 * sets a download limit and updates; a customer who bought it finds it in My account › Downloads, and its link
 * downloads the file's bytes. axe-core on both pages, no sideways scrolling at 400 px, screenshots in tmp/shots/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { mkdirSync, readFileSync } from "node:fs";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { scrollsSideways, signedIn } from "../support/admin-browser.ts";
import { signInAs, TEST_PASSWORD } from "../support/staff.ts";
import { billing, cardFields, openCheckout, submitCheckout } from "../http/checkout-support.ts";

let shop: TestShop;
let browser: Browser;
let productId = 0;
const ADMIN = "dl-admin@example.com";
const BUYER = "dl-buyer@example.com";
const BYTES = Buffer.from("%PDF-1.4\nThe harbour pattern.\n%%EOF\n");

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  await signInAs(shop, ADMIN, "administrator");
  const [row] = await shop.services.db.query<{ id: number }>(
    `INSERT INTO products (type, slug, name, regular_price, price_min, price_max, stock_status)
     VALUES ('simple', 'harbour-pattern', 'Harbour Pattern', 500, 500, 500, 'instock') RETURNING id`,
  );
  productId = row!.id;
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

describe("downloadable products", () => {
  it("the owner marks a product downloadable and adds a file by keyboard", async () => {
    const { context, page } = await signedIn(browser, shop.url, ADMIN, TEST_PASSWORD, 1280);
    await page.goto(`${shop.url}/wp-admin/edit/product/${productId}/`);
    // Listening for the file chooser before any key is pressed: Playwright turns the chooser's interception on when a
    // listener appears, and a chooser opened before that is missed.
    const chooserOpened = page.waitForEvent("filechooser");
    const box = page.getByRole("checkbox", { name: "Downloadable" });
    await box.focus();
    await page.keyboard.press("Space");
    const upload = page.getByRole("button", { name: "Upload a file" });
    await upload.focus();
    expect(await box.isChecked()).toBe(true);
    expect(await upload.evaluate((b) => b === document.activeElement)).toBe(true);
    await page.keyboard.press("Enter");
    const chooser = await chooserOpened;
    await chooser.setFiles({ name: "Harbour Pattern.pdf", mimeType: "application/pdf", buffer: BYTES });
    await expect.poll(() => page.getByLabel("File name 1").inputValue()).toBe("Harbour Pattern");
    expect(await page.getByLabel("File URL 1").inputValue()).toMatch(/\/wp-content\/uploads\/woocommerce_uploads\/\d{4}\/\d{2}\/harbour-pattern\.pdf$/);
    await page.getByLabel("Download limit").fill("3");
    await page.getByLabel("Status", { exact: true }).selectOption("publish");
    await page.getByRole("button", { name: "Update" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Product updated." }).count()).toBe(1);
    const [saved] = await shop.services.db.query<{ type: string; details: { files: { name: string }[]; downloadLimit: number } }>(
      `SELECT type, details FROM products WHERE id = $1`,
      [productId],
    );
    expect(saved).toMatchObject({ type: "downloadable", details: { files: [{ name: "Harbour Pattern" }], downloadLimit: 3 } });
    await page.screenshot({ path: "tmp/shots/admin_1280_edit-downloadable-product.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 400, height: 900 });
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_edit-downloadable-product.png", fullPage: true });
    await context.close();
  });

  it("a customer who bought it downloads the file from My account › Downloads", async () => {
    const buyer = await signInAs(shop, BUYER, "customer");
    await buyer.client.post("/?wc-ajax=add_to_cart", { product_id: String(productId), quantity: "1" });
    const reply = await submitCheckout(buyer.client, await openCheckout(buyer.client), { ...billing(BUYER), ...cardFields() });
    expect(reply.result).toBe("success");

    const { context, page } = await signedIn(browser, shop.url, BUYER, TEST_PASSWORD, 1280);
    await page.goto(`${shop.url}/my-account/downloads/`);
    const row = page.getByRole("row", { name: /Harbour Pattern/ });
    await expect.poll(() => row.getByRole("cell").nth(1).textContent()).toBe("3");
    await page.screenshot({ path: "tmp/shots/storefront_1280_account-downloads.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    const [download] = await Promise.all([page.waitForEvent("download"), row.getByRole("link", { name: "Harbour Pattern" }).last().click()]);
    expect(download.suggestedFilename()).toBe("Harbour Pattern.pdf");
    expect(readFileSync(await download.path()).equals(BYTES)).toBe(true);
    await page.reload();
    await expect.poll(() => row.getByRole("cell").nth(1).textContent()).toBe("2");
    await page.setViewportSize({ width: 400, height: 900 });
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/storefront_400_account-downloads.png", fullPage: true });
    await context.close();
  });
});
