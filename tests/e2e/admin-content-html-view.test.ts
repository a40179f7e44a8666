/**
 * The rich-text field's HTML view, in Chromium (docs/contract/admin.md 'Pages and posts', decision 0049). A page whose
 * content has an image and a table (written to the database, as the API or an import would) opens as HTML with a
 * notice; an edit there and Update keep both; switching to the visual editor asks first and Cancel (focused) keeps the
 * HTML; a refused save shows its error at the text area. An ordinary page opens in the visual editor, goes to HTML and
 * back by keyboard, and an edit made in the HTML is saved. axe-core, screenshots at 1280 and 400 px.
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
let owner: { context: BrowserContext; page: Page };
const PASSWORD = "content html view 1";
const ADMIN = "html-view@example.com";
const RICH = '<p>Our workshop.</p><img src="https://example.com/mask.jpg" alt="A mask"><table><tbody><tr><td>Small</td><td>54 cm</td></tr></tbody></table>';

async function addPage(slug: string, content: string): Promise<number> {
  const [row] = await shop.services.db.query<{ id: number }>(
    `INSERT INTO posts (type, slug, title, excerpt, content, author, status, comment_status, published_at, modified_at)
     VALUES ('page', $1, $1, '', $2, 'Maskerade', 'publish', 'closed', now(), now()) RETURNING id`,
    [slug, content],
  );
  return row!.id;
}
const stored = async (id: number) => (await shop.services.db.query<{ content: string }>(`SELECT content FROM posts WHERE id = $1`, [id]))[0]!.content;
const focused = (page: Page, name: string) =>
  page.evaluate((n) => document.activeElement?.textContent === n || document.activeElement?.getAttribute("aria-label") === n, name);

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  const made = await registerCustomer(shop.services.db, { email: ADMIN, password: PASSWORD, first_name: "Hedda", last_name: "Html" });
  if (!made.ok) throw new Error(made.message);
  await shop.services.db.query(`UPDATE customers SET role = 'administrator' WHERE id = $1`, [made.customerId]);
  owner = await signInAs(browser, shop.url, ADMIN, PASSWORD, 1280);
});
afterAll(async () => {
  await owner?.context.close();
  await browser?.close();
  await shop?.close();
});

describe("the rich-text field's HTML view", () => {
  it("opens content with an image and a table as HTML, keeps both on Update, and asks before the visual editor", async () => {
    const { page } = owner;
    const id = await addPage("workshop", RICH);
    await page.goto(`${shop.url}/wp-admin/edit/page/${id}/`);
    const source = page.getByRole("textbox", { name: "Content", exact: true });
    await source.waitFor();
    expect(await source.evaluate((el) => el.tagName)).toBe("TEXTAREA");
    expect(await source.inputValue()).toBe(RICH);
    expect(await source.evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/monospace/);
    const notice = page
      .locator(".admin-rich-text__notice")
      .getByText("This content has formatting the visual editor cannot keep (images and tables). It is shown as HTML so nothing is lost.");
    expect(await notice.isVisible()).toBe(true);
    const toggle = page.getByRole("toolbar", { name: "Content formatting" }).getByRole("button", { name: "Edit as HTML" });
    expect(await toggle.getAttribute("aria-pressed")).toBe("true");
    expect(await page.getByRole("button", { name: "Bold" }).count()).toBe(0);
    expect(await page.getByText("Unsaved changes.").count()).toBe(0);
    await page.screenshot({ path: "tmp/shots/admin_1280_page-content-html-notice.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // An edit in the HTML view marks the page changed; Update sends it as typed and keeps the image and the table.
    await source.click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type("<p>Open on Saturdays.</p>");
    await page.getByText("Unsaved changes.").waitFor();
    await page.getByRole("button", { name: "Update" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Page updated: it is published." }).count()).toBe(1);
    const saved = await stored(id);
    expect(saved).toContain('<img src="https://example.com/mask.jpg" alt="A mask"');
    expect(saved).toContain("<table><tbody><tr><td>Small</td><td>54 cm</td></tr></tbody></table>");
    expect(saved).toMatch(/<p>Open on Saturdays\.<\/p>$/);
    expect(await source.inputValue()).toBe(saved);
    expect(await page.getByText("Unsaved changes.").count()).toBe(0);

    // Switching to the visual editor asks first, Cancel has the focus and keeps the HTML.
    await toggle.focus();
    await page.keyboard.press("Enter");
    const question = page.getByRole("group", { name: /Switching to the visual editor will remove images and tables\. Switch anyway\?/ });
    await question.waitFor();
    expect(await focused(page, "Cancel")).toBe(true);
    await page.screenshot({ path: "tmp/shots/admin_1280_page-content-html-question.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press("Enter");
    await expect.poll(() => question.count()).toBe(0);
    expect(await toggle.evaluate((b) => b === document.activeElement)).toBe(true);
    expect(await toggle.getAttribute("aria-pressed")).toBe("true");
    expect(await source.inputValue()).toBe(saved);
    expect(await page.getByText("Unsaved changes.").count()).toBe(0);
    // Escape cancels as well.
    await page.keyboard.press("Space");
    await question.waitFor();
    await page.keyboard.press("Escape");
    await expect.poll(() => question.count()).toBe(0);
    expect(await source.inputValue()).toBe(saved);

    // A save the API refuses (too long) shows its error at the text area, which gets the focus.
    await source.fill("x".repeat(900_001));
    await page.getByRole("button", { name: "Update" }).click();
    await page.getByRole("alert").filter({ hasText: "The page was not saved: a field needs correcting." }).waitFor();
    await expect.poll(() => source.getAttribute("aria-invalid")).toBe("true");
    expect(await source.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await source.getAttribute("aria-describedby")).toBeTruthy();
    expect(await page.locator(".admin-rich-text .admin-field-error").innerText()).toMatch(/^Content\b.*900000/);
    expect(await stored(id)).toBe(saved);

    // At 400 px, opened afresh: the notice and the text area fit, nothing scrolls sideways.
    await page.setViewportSize({ width: 400, height: 900 });
    page.once("dialog", (d) => void d.accept());
    await page.goto(`${shop.url}/wp-admin/edit/page/${id}/`);
    await notice.waitFor();
    expect(await source.inputValue()).toBe(saved);
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_page-content-html-notice.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("an ordinary page goes to HTML and back by keyboard, and an edit made in the HTML is saved", async () => {
    const { page } = owner;
    const id = await addPage("plain-words", "<p>Plain words.</p>");
    await page.goto(`${shop.url}/wp-admin/edit/page/${id}/`);
    const content = page.getByRole("textbox", { name: "Content", exact: true });
    await expect.poll(() => content.getAttribute("aria-multiline")).toBe("true");
    const toggle = page.getByRole("toolbar", { name: "Content formatting" }).getByRole("button", { name: "Edit as HTML" });
    expect(await toggle.getAttribute("aria-pressed")).toBe("false");
    expect(await page.getByText(/formatting the visual editor cannot keep/).count()).toBe(0);

    // Shift+Tab from the editable region reaches the toggle (the toolbar's last button); Space shows the HTML.
    await content.click();
    await page.keyboard.press("Shift+Tab");
    expect(await toggle.evaluate((b) => b === document.activeElement)).toBe(true);
    await page.keyboard.press("Space");
    await expect.poll(() => toggle.getAttribute("aria-pressed")).toBe("true");
    expect(await toggle.evaluate((b) => b === document.activeElement)).toBe(true);
    expect(await content.evaluate((el) => el.tagName)).toBe("TEXTAREA");
    expect(await content.inputValue()).toBe("<p>Plain words.</p>");
    await page.keyboard.press("Tab");
    expect(await content.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press("Control+End");
    await page.keyboard.type("<p>Typed <em>here</em>.</p>");
    await page.getByText("Unsaved changes.").waitFor();
    await page.screenshot({ path: "tmp/shots/admin_1280_page-content-html-view.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Back to the visual editor without a question (nothing would be lost): it shows the edit.
    await page.keyboard.press("Shift+Tab");
    expect(await toggle.evaluate((b) => b === document.activeElement)).toBe(true);
    await page.keyboard.press("Enter");
    await expect.poll(() => toggle.getAttribute("aria-pressed")).toBe("false");
    expect(await page.getByRole("group", { name: /Switching to the visual editor/ }).count()).toBe(0);
    expect(await toggle.evaluate((b) => b === document.activeElement)).toBe(true);
    await expect.poll(() => content.locator("em").innerText()).toBe("here");
    expect(await content.getAttribute("aria-multiline")).toBe("true");
    expect(await page.getByText("Unsaved changes.").count()).toBe(1);

    await page.getByRole("button", { name: "Update" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Page updated: it is published." }).count()).toBe(1);
    expect(await stored(id)).toBe("<p>Plain words.</p><p>Typed <em>here</em>.</p>");

    await page.setViewportSize({ width: 400, height: 900 });
    await toggle.click();
    await expect.poll(() => content.evaluate((el) => el.tagName)).toBe("TEXTAREA");
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_page-content-html-view.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
