/**
 * The product editor's rich-text Description in Chromium (issue 14, docs/contract/admin.md 'Edit Product', decision
 * 0046): an owner opens a product's editor (the editor's chunk is fetched then, not on the product list), types a
 * description, makes a word bold with Ctrl+B, makes a bulleted list with the toolbar button pressed from the keyboard,
 * adds a link through the Link button's address field, and saves with Update; the product page then shows <strong>,
 * <ul><li> and the link. axe-core on the editor, screenshots at 1280 and 400 px in tmp/shots/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { richTextChunkRequests, scrollsSideways, signedIn as signInAs } from "../support/admin-browser.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let browser: Browser;
let owner: { context: BrowserContext; page: Page };
const PASSWORD = "admin rich text 1";
const ADMIN = "rich-admin@example.com";
let productId = 0;

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  const made = await registerCustomer(shop.services.db, { email: ADMIN, password: PASSWORD, first_name: "Rita", last_name: "Rich" });
  if (!made.ok) throw new Error(made.message);
  await shop.services.db.query(`UPDATE customers SET role = 'administrator' WHERE id = $1`, [made.customerId]);
  const [row] = await shop.services.db.query<{ id: number }>(
    `INSERT INTO products (type, slug, name, regular_price, price_min, price_max, stock_quantity, stock_status, description)
     VALUES ('simple', 'rich-scarf', 'Rich Scarf', 900, 900, 900, 10, 'instock', 'Old text.') RETURNING id`,
  );
  productId = row!.id;
  owner = await signInAs(browser, shop.url, ADMIN, PASSWORD, 1280);
});
afterAll(async () => {
  await owner?.context.close();
  await browser?.close();
  await shop?.close();
});

describe("the product editor's rich-text description", () => {
  it("formats with the keyboard and the toolbar, saves, and the product page shows the markup", async () => {
    const { page } = owner;
    const chunks = richTextChunkRequests(page);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => (m.type() === "error" ? errors.push(m.text()) : undefined));
    await page.goto(`${shop.url}/wp-admin/products/`);
    await expect.poll(() => page.locator(".dataviews-view-table tbody tr").count()).toBeGreaterThan(0);
    expect(chunks).toEqual([]); // the list screen does not fetch the editor

    await page.goto(`${shop.url}/wp-admin/edit/product/${productId}/`);
    const description = page.getByRole("textbox", { name: "Description", exact: true });
    // Its toolbar (the Product short description has one of its own, decision 0049).
    const toolbar = page.getByRole("toolbar", { name: "Description formatting", exact: true });
    await page.getByLabel("Title", { exact: true }).waitFor();
    await expect.poll(async () => (await description.count()) + errors.join(" ")).toBe("1");
    expect(chunks.length).toBe(1); // one chunk for both rich-text fields
    expect(await description.getAttribute("aria-multiline")).toBe("true");
    await expect.poll(() => description.innerText()).toBe("Old text.");

    // Replace the text; Ctrl+B makes the next word bold, and the Bold button says so (aria-pressed).
    await description.click();
    await page.keyboard.press("Control+A");
    await page.keyboard.type("Soft and ");
    await page.keyboard.press("Control+B");
    const bold = toolbar.getByRole("button", { name: "Bold" });
    await expect.poll(() => bold.getAttribute("aria-pressed")).toBe("true");
    await page.keyboard.type("warm");
    await page.keyboard.press("Control+B");
    await expect.poll(() => bold.getAttribute("aria-pressed")).toBe("false");
    await page.keyboard.type(" cotton.");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Hand sewn");
    await expect.poll(() => page.getByText("Unsaved changes.").count()).toBe(1);

    // A bulleted list from the toolbar, by keyboard: focus the button, press Space.
    const bullets = toolbar.getByRole("button", { name: "Bulleted list" });
    await bullets.focus();
    await page.keyboard.press("Space");
    await expect.poll(() => bullets.getAttribute("aria-pressed")).toBe("true");
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Washable ");

    // A link: the Link button opens an address field; Enter applies it where the cursor is.
    await toolbar.getByRole("button", { name: "Link", exact: true }).click();
    const address = page.getByLabel("Link URL");
    await address.fill("https://example.com/care");
    await page.screenshot({ path: "tmp/shots/admin_1280_product-description-editor.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await address.press("Enter");
    await expect.poll(() => description.locator('a[href="https://example.com/care"]').count()).toBe(1);

    await page.getByRole("button", { name: "Update" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Product updated." }).count()).toBe(1);
    const [saved] = await shop.services.db.query<{ description: string }>(`SELECT description FROM products WHERE id = $1`, [productId]);
    expect(saved!.description).toContain("<strong>warm</strong>");
    expect(saved!.description).toMatch(/<ul><li><p>Hand sewn<\/p><\/li><li><p>Washable <a [^>]*href="https:\/\/example\.com\/care"/);
    expect(await page.getByText("Unsaved changes.").count()).toBe(0);

    // The product page prints the markup.
    await page.goto(`${shop.url}/product/rich-scarf/`);
    const tab = page.locator(".woocommerce-product-description");
    await expect.poll(() => tab.locator("strong").innerText()).toBe("warm");
    await expect.poll(() => tab.locator("ul > li").count()).toBe(2);
    expect(await tab.getByRole("link", { name: "https://example.com/care" }).getAttribute("href")).toBe("https://example.com/care");

    // The editor at 400 px: the toolbar wraps, nothing scrolls sideways.
    await page.setViewportSize({ width: 400, height: 900 });
    await page.goto(`${shop.url}/wp-admin/edit/product/${productId}/`);
    await expect.poll(() => description.locator("strong").count()).toBe(1);
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_product-description-editor.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
