/**
 * Settings › E-mails' test e-mail and deleting from the e-mail outbox (issue 14, docs/contract/admin.md, decision
 * 0044) in Chromium by keyboard, against a real SMTP peer: a bad address is refused at its field (focused); a test
 * e-mail is delivered and the result announced; one the SMTP server refuses is announced with its code; in the outbox
 * a search is kept in the address (reload and back restore the view), one e-mail is deleted after confirming, two
 * ticked ones together, one of which a sender holds: refused, it comes back with an alert. axe-core on both screens; 1280 and 400 px without sideways scrolling.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { mkdirSync } from "node:fs";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { launchBrowser } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe-scan.ts";
import { scrollsSideways, signedIn } from "../support/admin-browser.ts";
import { startSmtpPeer, type SmtpPeer } from "../support/smtp-peer.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";

let shop: TestShop;
let peer: SmtpPeer;
let browser: Browser;
const PASSWORD = "admin mail test pass 12";
const ADMIN = "mail-tester@example.com";
const REFUSED = "no-mailbox@example.com";

/** Rows that wait a day before their first attempt: the sender leaves them alone while the owner deletes them. */
async function queueLater(to: string, subject: string): Promise<number> {
  const [row] = await shop.services.db.query<{ id: number }>(
    `INSERT INTO email_outbox (kind, to_address, subject, body, next_attempt_at) VALUES ('order_note', $1, $2, 'Text.', now() + interval '1 day') RETURNING id`,
    [to, subject],
  );
  return row!.id;
}
const exists = async (id: number) => (await shop.services.db.query(`SELECT 1 FROM email_outbox WHERE id = $1`, [id])).length > 0;
const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent ?? "");

/** Tabs forward until the focused element's accessible text starts with `text` (at most 40 presses). */
async function tabTo(page: Page, text: string | RegExp) {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press("Tab");
    const now = (await focused(page)).trim();
    if (typeof text === "string" ? now.startsWith(text) : text.test(now)) return;
  }
  throw new Error(`no focusable element named ${String(text)}`);
}

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  peer = await startSmtpPeer();
  peer.rcptPolicy = (a) => (a === REFUSED ? 550 : null);
  [shop, browser] = await Promise.all([startTestShop({ SMTP_URL: peer.url, MAIL_FROM: "Maskerade Tests <shop@maskerade.test>" }), launchBrowser()]);
  const made = await registerCustomer(shop.services.db, { email: ADMIN, password: PASSWORD, first_name: "Tess", last_name: "Mail" });
  if (!made.ok) throw new Error(made.message);
  await shop.services.db.query(`UPDATE customers SET role = 'administrator' WHERE id = $1`, [made.customerId]);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
  await peer?.close();
});

describe("a test e-mail and deleting outbox rows", () => {
  it("the owner sends a test e-mail and sees the result; deletes outbox rows; reload and back keep the outbox's view", async () => {
    const { context, page } = await signedIn(browser, shop.url, ADMIN, PASSWORD);
    await page.goto(`${shop.url}/wp-admin/settings/emails/`);
    const to = page.getByLabel("Send the test e-mail to");
    // The sender in use is the default address.
    await expect.poll(() => to.inputValue()).toBe("shop@maskerade.test");

    await to.focus();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("not an address");
    await page.keyboard.press("Enter");
    await expect.poll(() => to.getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => to.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByText("Enter one e-mail address", { exact: false }).waitFor();

    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("owner-inbox@example.com");
    await tabTo(page, "Send test e-mail");
    await page.keyboard.press("Enter");
    const section = page.locator(".admin-test-email");
    await section.getByRole("status").getByText("to owner-inbox@example.com was delivered", { exact: false }).waitFor({ timeout: 20_000 });
    const mail = await peer.waitFor((m) => m.envelopeTo.includes("owner-inbox@example.com"));
    expect(mail.headers.subject).toMatch(/^Test e-mail from /);
    await page.screenshot({ path: "tmp/shots/admin_1280_settings_emails_test.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    await to.focus();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type(REFUSED);
    await page.keyboard.press("Enter");
    const refusal = section.getByRole("alert");
    await refusal.getByText(`to ${REFUSED} was not delivered`, { exact: false }).waitFor({ timeout: 20_000 });
    expect(await refusal.textContent()).toContain("550");

    // The outbox: a search kept in the address.
    const one = await queueLater("delete-one@example.com", "Old note to delete");
    const two = await queueLater("delete-two@example.com", "Another note to delete");
    const three = await queueLater("delete-three@example.com", "A third note to delete");
    await page.goto(`${shop.url}/wp-admin/outbox/`);
    await page.locator(".admin-outbox__item").first().waitFor();
    const search = page.getByRole("searchbox", { name: "Search e-mails" });
    await search.focus();
    await page.keyboard.type("to delete");
    await expect.poll(() => new URL(page.url()).searchParams.get("s")).toBe("to delete");
    const items = page.locator(".admin-outbox__item");
    await expect.poll(() => items.count()).toBe(3);
    await page.reload();
    await expect.poll(() => search.inputValue()).toBe("to delete");
    await expect.poll(() => items.count()).toBe(3);
    await page.screenshot({ path: "tmp/shots/admin_1280_outbox_delete.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // One, by its Delete button: asked first; Cancel keeps it.
    await search.focus();
    await tabTo(page, `Delete: e-mail #${three} `);
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: `Delete e-mail #${three}?` });
    await dialog.waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(await exists(three)).toBe(true);
    await expect.poll(() => focused(page)).toContain(`Delete: e-mail #${three}`);
    await page.keyboard.press("Enter");
    await dialog.waitFor();
    await tabTo(page, /^Delete$/);
    await page.keyboard.press("Enter");
    await page.getByRole("status").getByText(`E-mail #${three} deleted.`).waitFor();
    await expect.poll(() => items.count()).toBe(2);
    expect(await exists(three)).toBe(false);

    // Two ticked, then Delete selected; meanwhile a sender has claimed one of them (its lease set behind the
    // screen's back): that one is refused and comes back with an alert, the other goes.
    await search.focus();
    await tabTo(page, `Select e-mail #${two} `);
    await page.keyboard.press("Space");
    await tabTo(page, `Select e-mail #${one} `);
    await page.keyboard.press("Space");
    await page.getByText("2 selected.", { exact: false }).waitFor();
    await shop.services.db.query(`UPDATE email_outbox SET claimed_until = now() + interval '10 minutes' WHERE id = $1`, [two]);
    await search.focus();
    await tabTo(page, "Delete selected");
    await page.keyboard.press("Enter");
    const bulk = page.getByRole("dialog", { name: "Delete 2 e-mails?" });
    await bulk.waitFor();
    await tabTo(page, /^Delete$/);
    await page.keyboard.press("Enter");
    const refused = page.getByRole("alert").filter({ hasText: "1 e-mail deleted." });
    await refused.waitFor();
    expect(await refused.textContent()).toContain(`1 e-mail could not be deleted: #${two}: E-mail #${two} is being sent right now`);
    await expect.poll(() => items.count()).toBe(1);
    const held = items.filter({ hasText: "delete-two@example.com" });
    await held.getByText("Being sent right now.").waitFor();
    expect(await exists(one)).toBe(false);
    expect(await exists(two)).toBe(true);

    // The lease ends: after Refresh it can be deleted.
    await shop.services.db.query(`UPDATE email_outbox SET claimed_until = NULL WHERE id = $1`, [two]);
    await page.getByRole("button", { name: "Refresh" }).click();
    await held.getByRole("button", { name: /^Delete/ }).click();
    await page
      .getByRole("dialog", { name: `Delete e-mail #${two}?` })
      .getByRole("button", { name: "Delete", exact: true })
      .click();
    await page.getByRole("status").getByText(`E-mail #${two} deleted.`).waitFor();
    expect(await exists(two)).toBe(false);
    await page.getByText("No e-mails here.").waitFor();

    // Show › Failed is a new view in the address; back returns to the search.
    await page.getByLabel("Show").selectOption("failed");
    await expect.poll(() => new URL(page.url()).searchParams.get("status")).toBe("failed");
    await page.goBack();
    await expect.poll(() => new URL(page.url()).searchParams.get("status")).toBe(null);
    await expect.poll(() => search.inputValue()).toBe("to delete");
    await expect.poll(() => page.getByLabel("Show").inputValue()).toBe("all");

    await page.setViewportSize({ width: 400, height: 900 });
    await page.goto(`${shop.url}/wp-admin/outbox/?s=example.com`);
    await items.first().waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_outbox_delete.png", fullPage: true });
    await page.goto(`${shop.url}/wp-admin/settings/emails/`);
    await expect.poll(() => to.inputValue()).toBe("shop@maskerade.test");
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_settings_emails_test.png", fullPage: true });
    await context.close();
  });
});
