/**
 * Pages, the contact form and Messages (issue 14; docs/contract/admin.md 'Pages and posts', 'Messages';
 * docs/contract/storefront.md §4 'Contact form') in Chromium: a guest without JavaScript sends the contact form — a
 * bad one gets field errors —, the owner sees the message in Messages and marks it read, edits the About page's text
 * and the storefront page shows it; a second editor's save is refused as "changed since you opened it"; a customer is
 * sent to sign in. axe-core on the new screens; screenshots at 1280 and 400 px to tmp/shots/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { scrollsSideways, signedIn as signInAs } from "../support/admin-browser.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

const PASSWORD = "pages screens pass 1";
const ADMIN = "pages-owner@example.com";
const MANAGER = "pages-manager@example.com";
const CUSTOMER = "pages-shopper@example.com";
const MESSAGE = "Do you make masks in a child's size? We need six for a school trip.";
const NEW_TEXT = "We are six people in a small workshop, and we answer every letter.";

let shop: TestShop;
let browser: Browser;

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  [shop, browser] = await Promise.all([startTestShop(), launchBrowser()]);
  for (const [email, role] of [
    [ADMIN, "administrator"],
    [MANAGER, "shop_manager"],
    [CUSTOMER, "customer"],
  ] as const) {
    const made = await registerCustomer(shop.services.db, { email, password: PASSWORD, first_name: "Pat", last_name: "Pages" });
    if (!made.ok) throw new Error(made.message);
    await shop.services.db.query(`UPDATE customers SET role = $2 WHERE id = $1`, [made.customerId, role]);
  }
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

const signedIn = (email: string, width = 1280) => signInAs(browser, shop.url, email, PASSWORD, width);

describe("the contact form and Messages", () => {
  it("a guest without JavaScript gets field errors, then sends; the owner reads it in Messages", async () => {
    const guest = await browser.newContext({ viewport: { width: 400, height: 900 }, javaScriptEnabled: false });
    const page = await guest.newPage();
    await page.goto(`${shop.url}/`);
    // The footer links the shop's pages.
    await page.locator(".site-footer").getByRole("link", { name: "Contact" }).click();
    await page.waitForURL(`${shop.url}/contact/`);
    await page.getByLabel("Name").fill("Ada");
    await page.getByLabel("E-mail address").fill("ada@example");
    await page.locator("#contact_message").fill("Hi");
    await page.getByRole("button", { name: "Send message" }).click();
    const alert = page.locator(".contact-form [role=alert]");
    await expect.poll(() => alert.textContent()).toContain("please correct these 2 fields");
    await expect.poll(() => page.getByLabel("E-mail address").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#contact_message").getAttribute("aria-describedby")).toBe("contact_message-error contact_message-hint");
    expect(await page.locator("#contact_message-error").textContent()).toBe("Your message is too short: write at least 10 characters.");
    expect(await page.getByLabel("Name").getAttribute("aria-invalid")).toBeNull();
    expect(await page.getByLabel("Name").inputValue()).toBe("Ada"); // kept
    await page.screenshot({ path: "tmp/shots/contact_400_errors.png", fullPage: true });
    // axe needs scripts: the same refusal in a browser with JavaScript (the form posts the same way).
    const scripted = await browser.newContext({ viewport: { width: 400, height: 900 } });
    const checked = await scripted.newPage();
    await checked.goto(`${shop.url}/contact/`);
    await checked.locator("#contact_message").fill("Hi");
    await checked.getByRole("button", { name: "Send message" }).click();
    await checked.locator(".contact-form [role=alert]").waitFor();
    expect(await seriousAxeViolations(checked)).toEqual([]);
    expect(await scrollsSideways(checked)).toBe(false);
    await scripted.close();

    await page.getByLabel("E-mail address").fill("ada@example.com");
    await page.locator("#contact_message").fill(MESSAGE);
    await page.getByRole("button", { name: "Send message" }).click();
    await expect.poll(() => page.locator(".contact-form [role=status]").textContent()).toContain("Thank you: your message was sent.");
    await guest.close();

    const { context, page: admin } = await signedIn(ADMIN);
    await admin.goto(`${shop.url}/wp-admin/messages/`);
    const card = admin.locator(".admin-message").filter({ hasText: MESSAGE });
    await card.waitFor();
    expect(await card.textContent()).toContain("ada@example.com");
    expect(await card.textContent()).toContain("Unread");
    expect(await admin.locator('.admin-menu a[aria-current="page"]').textContent()).toBe("Messages");
    expect(await seriousAxeViolations(admin)).toEqual([]);
    await admin.screenshot({ path: "tmp/shots/admin_1280_messages.png", fullPage: true });
    await card.getByRole("button", { name: /^Mark as read/ }).click();
    await expect.poll(() => admin.getByRole("status").filter({ hasText: "Message from Ada marked as read." }).count()).toBe(1);
    expect(await card.textContent()).not.toContain("Unread");

    // A reply from the keyboard: the box takes the focus, an empty reply is refused at it, a written one is e-mailed
    // and listed under the message, and the focus comes back to Reply.
    await card.getByRole("button", { name: "Reply to Ada" }).focus();
    await admin.keyboard.press("Enter");
    const box = card.getByRole("textbox", { name: "Your reply to Ada" });
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    await card.getByRole("button", { name: "Send reply" }).click();
    await expect.poll(() => box.getAttribute("aria-invalid")).toBe("true");
    expect(await card.textContent()).toContain("Write a reply before sending it.");
    await box.fill("Thank you, Ada: yes, we do.");
    expect(await seriousAxeViolations(admin)).toEqual([]);
    await card.getByRole("button", { name: "Send reply" }).click();
    await expect.poll(() => admin.getByRole("status").filter({ hasText: "Reply to Ada is on its way to ada@example.com." }).count()).toBe(1);
    await expect.poll(() => card.getByRole("list", { name: "Replies to Ada" }).textContent()).toContain("Thank you, Ada: yes, we do.");
    await expect.poll(() => card.getByRole("button", { name: "Reply to Ada" }).evaluate((el) => el === document.activeElement)).toBe(true);
    const [mail] = await shop.services.db.query<{ to_address: string; body: string }>(
      `SELECT to_address, body FROM email_outbox WHERE kind = 'contact_reply' ORDER BY id DESC LIMIT 1`,
    );
    expect(mail).toMatchObject({ to_address: "ada@example.com", body: expect.stringContaining("Thank you, Ada: yes, we do.") });
    await admin.setViewportSize({ width: 400, height: 900 });
    await admin.screenshot({ path: "tmp/shots/admin_400_messages-reply.png", fullPage: true });
    await context.close();
  });
});

describe("pages", () => {
  it("the owner edits the About page and the storefront shows it; a second editor's save is refused", async () => {
    const { context, page } = await signedIn(ADMIN);
    await page.goto(`${shop.url}/wp-admin/pages/`);
    const about = page.getByRole("link", { name: "About us", exact: true });
    await about.waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: "tmp/shots/admin_1280_pages.png", fullPage: true });
    await about.click();
    await page.waitForURL(/\/wp-admin\/edit\/page\/\d+\/$/);
    const body = page.getByRole("textbox", { name: "Content", exact: true }); // the rich-text editor (decision 0049)
    await expect.poll(() => body.innerText()).toContain("Maskerade began in 2020");
    expect(await page.locator('.admin-menu a[aria-current="page"]').textContent()).toBe("Pages");
    expect(await seriousAxeViolations(page)).toEqual([]);

    // A second editor opens the same page before the first saves.
    const other = await context.newPage();
    await other.goto(page.url());
    await expect.poll(() => other.getByRole("textbox", { name: "Content", exact: true }).innerText()).toContain("Maskerade began in 2020");

    // A new first paragraph, typed at the start of the content.
    await body.click();
    await page.keyboard.press("Control+Home");
    await page.keyboard.type(NEW_TEXT);
    await page.keyboard.press("Enter");
    await page.getByText("Unsaved changes.").waitFor();
    await page.getByRole("button", { name: "Update" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Page updated: it is published." }).count()).toBe(1);
    await page.screenshot({ path: "tmp/shots/admin_1280_page_edit.png", fullPage: true });

    // The storefront shows the new text (the page cache drops the page with the write).
    const shopper = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const storefront = await shopper.newPage();
    await storefront.goto(`${shop.url}/about/`);
    expect(await storefront.locator(".entry-content").textContent()).toContain(NEW_TEXT);
    await shopper.close();

    await other.getByLabel("Title").fill("About Maskerade");
    await other.getByRole("button", { name: "Update" }).click();
    const refused = other.getByRole("alert").filter({ hasText: "This page was changed since you opened it." });
    await refused.waitFor();
    await other.getByRole("button", { name: "Reload the page (your changes are discarded)" }).click();
    await expect.poll(() => other.getByRole("textbox", { name: "Content", exact: true }).innerText()).toContain(NEW_TEXT);
    expect(await other.getByLabel("Title").inputValue()).toBe("About us");
    await context.close();
  });

  it("a shop manager adds a draft page at 400 px, with a refusal at its field; a customer is sent to sign in", async () => {
    const { context, page } = await signedIn(MANAGER, 400);
    await page.goto(`${shop.url}/wp-admin/pages/new/`);
    // Nothing typed: the API refuses (empty_content), shown at the title, which gets the focus.
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByRole("alert").filter({ hasText: "The page was not saved: a field needs correcting." }).waitFor();
    await expect.poll(() => page.getByLabel("Title").getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(await page.getByLabel("Title").getAttribute("id"));
    expect(await page.getByText("Give it a title, some content or an excerpt.").count()).toBe(1);
    await page.getByLabel("Title").fill("Size guide");
    await page.getByLabel("Address (slug)").fill("shop"); // the storefront's own address: made 'shop-2' by the API
    await page.getByRole("textbox", { name: "Content", exact: true }).click();
    await page.keyboard.type("Measure from ear to ear.");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.waitForURL(/\/wp-admin\/edit\/page\/\d+\/\?saved=created$/);
    await expect.poll(() => page.getByLabel("Address (slug)").inputValue()).toBe("shop-2");
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: "tmp/shots/admin_400_page_new.png", fullPage: true });
    await context.close();

    const customer = await signedIn(CUSTOMER);
    for (const path of ["/wp-admin/pages/", "/wp-admin/edit/page/1/", "/wp-admin/messages/"]) {
      await customer.page.goto(`${shop.url}${path}`);
      expect(new URL(customer.page.url()).pathname, path).toBe("/wp-login.php");
    }
    await customer.context.close();
  });
});
