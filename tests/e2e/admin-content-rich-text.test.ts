/**
 * Rich text in pages and in a product's short description, in Chromium (issue 14, docs/contract/admin.md 'Pages and
 * posts', 'Edit Product'; decision 0049). The Pages and Posts lists do not fetch the editor's chunk. A page stored as
 * text without tags opens as paragraphs; the owner makes a word bold with Ctrl+B and a bulleted list with the toolbar
 * button pressed from the keyboard, Update, and the storefront page shows <strong> and the list. Leaving with unsaved
 * content asks first; a content the API refuses (too long) shows its error at the field, which gets the focus. A
 * product's short description with a link shows on the product page. axe-core, screenshots at 1280 and 400 px.
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
const PASSWORD = "content rich text 1";
const ADMIN = "rich-pages@example.com";
let pageId = 0;
let productId = 0;

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  const made = await registerCustomer(shop.services.db, { email: ADMIN, password: PASSWORD, first_name: "Paula", last_name: "Pages" });
  if (!made.ok) throw new Error(made.message);
  await shop.services.db.query(`UPDATE customers SET role = 'administrator' WHERE id = $1`, [made.customerId]);
  // A page written before the editor: text without tags.
  const [page] = await shop.services.db.query<{ id: number }>(
    `INSERT INTO posts (type, slug, title, excerpt, content, author, status, comment_status, published_at, modified_at)
     VALUES ('page', 'size-guide', 'Size guide', '', $1, 'Maskerade', 'publish', 'closed', now(), now()) RETURNING id`,
    ["Our masks come in three sizes.\n\nMeasure from ear to ear."],
  );
  pageId = page!.id;
  const [product] = await shop.services.db.query<{ id: number }>(
    `INSERT INTO products (type, slug, name, regular_price, price_min, price_max, stock_quantity, stock_status, short_description)
     VALUES ('simple', 'short-rich-mask', 'Short Rich Mask', 900, 900, 900, 10, 'instock', '') RETURNING id`,
  );
  productId = product!.id;
  owner = await signInAs(browser, shop.url, ADMIN, PASSWORD, 1280);
});
afterAll(async () => {
  await owner?.context.close();
  await browser?.close();
  await shop?.close();
});

describe("rich text in a page's content", () => {
  it("the lists do not fetch the editor; a page's bold text and list by keyboard reach the storefront", async () => {
    const { page } = owner;
    const chunks = richTextChunkRequests(page);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    for (const kind of ["pages", "posts"]) {
      await page.goto(`${shop.url}/wp-admin/${kind}/`);
      await expect.poll(() => page.locator(".dataviews-view-table tbody tr").count()).toBeGreaterThan(0);
    }
    expect(chunks).toEqual([]); // the list screens do not fetch the editor

    await page.goto(`${shop.url}/wp-admin/edit/page/${pageId}/`);
    const content = page.getByRole("textbox", { name: "Content", exact: true });
    await expect.poll(async () => (await content.count()) + errors.join(" ")).toBe("1");
    expect(chunks.length).toBe(1);
    expect(await content.getAttribute("aria-multiline")).toBe("true");
    // The text without tags opens as two paragraphs.
    await expect.poll(() => content.locator("p").allInnerTexts()).toEqual(["Our masks come in three sizes.", "Measure from ear to ear."]);
    expect(await page.getByText("Unsaved changes.").count()).toBe(0);

    // At the end: a paragraph with a bold word (Ctrl+B), then a bulleted list from the toolbar by keyboard.
    const toolbar = page.getByRole("toolbar", { name: "Content formatting" });
    const bold = toolbar.getByRole("button", { name: "Bold" });
    await content.click();
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Sizes for ");
    await page.keyboard.press("Control+B");
    await expect.poll(() => bold.getAttribute("aria-pressed")).toBe("true");
    await page.keyboard.type("everyone");
    await page.keyboard.press("Control+B");
    await expect.poll(() => bold.getAttribute("aria-pressed")).toBe("false");
    await page.keyboard.type(":");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Small");
    await page.getByText("Unsaved changes.").waitFor();
    // Shift+Tab from the editable region walks back into its toolbar (Redo, Undo, Link, Numbered list, Bulleted list).
    const bullets = toolbar.getByRole("button", { name: "Bulleted list" });
    for (let i = 0; i < 8 && !(await bullets.evaluate((b) => b === document.activeElement)); i++) await page.keyboard.press("Shift+Tab");
    expect(await bullets.evaluate((b) => b === document.activeElement)).toBe(true);
    await page.keyboard.press("Space");
    await expect.poll(() => bullets.getAttribute("aria-pressed")).toBe("true");
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Large");
    await expect.poll(() => content.locator("ul > li").allInnerTexts()).toEqual(["Small", "Large"]);
    await page.screenshot({ path: "tmp/shots/admin_1280_page-content-editor.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Leaving with unsaved changes asks first; staying keeps the edits.
    const asked = new Promise<string>((resolve) => page.once("dialog", (d) => void d.dismiss().then(() => resolve(d.type()))));
    await page.getByRole("navigation", { name: "Admin menu" }).getByRole("link", { name: "Pages" }).click();
    expect(await asked).toBe("beforeunload");
    expect(new URL(page.url()).pathname).toBe(`/wp-admin/edit/page/${pageId}/`);
    expect(await content.locator("strong").innerText()).toBe("everyone");

    await page.getByRole("button", { name: "Update" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Page updated: it is published." }).count()).toBe(1);
    expect(await page.getByText("Unsaved changes.").count()).toBe(0);
    const [saved] = await shop.services.db.query<{ content: string }>(`SELECT content FROM posts WHERE id = $1`, [pageId]);
    expect(saved!.content).toBe(
      "<p>Our masks come in three sizes.</p><p>Measure from ear to ear.</p><p>Sizes for <strong>everyone</strong>:</p>" +
        "<ul><li><p>Small</p></li><li><p>Large</p></li></ul>",
    );

    // The storefront page prints the markup.
    const shopper = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const storefront = await shopper.newPage();
    await storefront.goto(`${shop.url}/size-guide/`);
    const body = storefront.locator(".entry-content");
    expect(await body.locator("strong").innerText()).toBe("everyone");
    expect(await body.locator("ul > li").allInnerTexts()).toEqual(["Small", "Large"]);
    await storefront.screenshot({ path: "tmp/shots/storefront_1280_page-rich-content.png", fullPage: true });
    await shopper.close();

    // A content the API refuses (over 900,000 characters, pasted) is shown at the field, which gets the focus.
    await content.click();
    await page.keyboard.press("Control+End");
    await content.evaluate((el) => {
      const data = new DataTransfer();
      data.setData("text/plain", "x".repeat(900_001));
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await page.getByRole("button", { name: "Update" }).click();
    await page.getByRole("alert").filter({ hasText: "The page was not saved: a field needs correcting." }).waitFor();
    await expect.poll(() => content.getAttribute("aria-invalid")).toBe("true");
    expect(await content.evaluate((el) => el === document.activeElement)).toBe(true);
    const described = (await content.getAttribute("aria-describedby"))!;
    expect(await page.locator(`[id="${described}"]`).innerText()).toMatch(/^Content\b.*900000/);
    await page.screenshot({ path: "tmp/shots/admin_1280_page-content-error.png" });
    expect(await seriousAxeViolations(page)).toEqual([]);
    // Undo takes the paste back; the error goes with the change.
    await page.keyboard.press("Control+Z");
    await expect.poll(() => content.getAttribute("aria-invalid")).toBeNull();
    await expect.poll(async () => (await content.innerText()).length).toBeLessThan(200);

    // At 400 px: the toolbar wraps, nothing scrolls sideways.
    await page.setViewportSize({ width: 400, height: 900 });
    page.once("dialog", (d) => void d.accept());
    await page.goto(`${shop.url}/wp-admin/edit/page/${pageId}/`);
    await expect.poll(() => content.locator("ul > li").count()).toBe(2);
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_page-content-editor.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});

describe("a product's rich-text short description", () => {
  it("takes a link from the keyboard and the product page shows it", async () => {
    const { page } = owner;
    await page.goto(`${shop.url}/wp-admin/edit/product/${productId}/`);
    const short = page.getByRole("textbox", { name: "Product short description" });
    await short.waitFor();
    const toolbar = page.getByRole("toolbar", { name: "Product short description formatting" });
    await short.click();
    await page.keyboard.type("Cotton, in three sizes: see the ");
    await toolbar.getByRole("button", { name: "Link", exact: true }).focus();
    await page.keyboard.press("Enter");
    const address = page.getByLabel("Link URL");
    await expect.poll(() => address.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type("https://example.com/size-guide");
    await page.keyboard.press("Enter");
    await expect.poll(() => short.locator('a[href="https://example.com/size-guide"]').count()).toBe(1);
    await page.screenshot({ path: "tmp/shots/admin_1280_product-short-description.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Update" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Product updated." }).count()).toBe(1);
    const [saved] = await shop.services.db.query<{ short_description: string }>(`SELECT short_description FROM products WHERE id = $1`, [productId]);
    expect(saved!.short_description).toMatch(
      /^<p>Cotton, in three sizes: see the <a [^>]*href="https:\/\/example\.com\/size-guide"[^>]*>https:\/\/example\.com\/size-guide<\/a><\/p>$/,
    );

    for (const width of [1280, 400]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${shop.url}/product/short-rich-mask/`);
      const summary = page.locator(".woocommerce-product-details__short-description");
      expect(await summary.getByRole("link", { name: "https://example.com/size-guide" }).getAttribute("href")).toBe("https://example.com/size-guide");
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `tmp/shots/storefront_${width}_product-short-description.png` });
    }
    await page.setViewportSize({ width: 400, height: 900 });
    await page.goto(`${shop.url}/wp-admin/edit/product/${productId}/`);
    await expect.poll(() => short.locator("a").count()).toBe(1);
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_product-short-description.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
