/**
 * Settings › E-mails and the e-mail outbox (issue 14, docs/contract/admin.md, decision 0032) in Chromium, against a
 * real SMTP peer: the owner's bad sender address is refused at its field (focused), the good one saved shows as the
 * sender in use; in the outbox the failed e-mail is found under Failed, "Retry now" delivers it from the new sender,
 * and its view shows its text. axe-core on both screens; the outbox at 400 px does not scroll sideways.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
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
let failedId = 0;
const PASSWORD = "admin email pass 12";
const ADMIN = "mail-owner@example.com";
const REFUSED = "refused-once@example.com";

const row = async (id: number) =>
  (await shop.services.db.query<{ sent_at: Date | null; failed_at: Date | null }>(`SELECT sent_at, failed_at FROM email_outbox WHERE id = $1`, [id]))[0]!;

beforeAll(async () => {
  mkdirSync("tmp/shots", { recursive: true });
  peer = await startSmtpPeer();
  peer.rcptPolicy = (a) => (a === REFUSED ? 550 : null);
  [shop, browser] = await Promise.all([startTestShop({ SMTP_URL: peer.url, MAIL_FROM: "Maskerade Tests <shop@maskerade.test>" }), launchBrowser()]);
  const made = await registerCustomer(shop.services.db, { email: ADMIN, password: PASSWORD, first_name: "Mo", last_name: "Mail" });
  if (!made.ok) throw new Error(made.message);
  await shop.services.db.query(`UPDATE customers SET role = 'administrator' WHERE id = $1`, [made.customerId]);
  const [queued] = await shop.services.db.query<{ id: number }>(
    `INSERT INTO email_outbox (kind, to_address, subject, body) VALUES ('order_note', $1, 'A note about your order', 'Your masks ship tomorrow.') RETURNING id`,
    [REFUSED],
  );
  failedId = queued!.id;
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
  await peer?.close();
});

describe("E-mails", () => {
  it("the owner changes the sender, finds the failed e-mail in the outbox and retries it: delivered from the new sender", async () => {
    // The sender has refused it (550) by the time the owner looks.
    await expect.poll(async () => (await row(failedId)).failed_at, { timeout: 15_000 }).toBeInstanceOf(Date);
    const { context, page } = await signedIn(browser, shop.url, ADMIN, PASSWORD);
    await page.goto(`${shop.url}/wp-admin/settings/emails/`);
    await page.getByLabel("Sender name").fill("Masks Mail");
    await page.getByLabel("Sender e-mail address").fill("not-an-address");
    await page.getByRole("button", { name: "Save e-mails settings" }).click();
    const address = page.getByLabel("Sender e-mail address");
    await expect.poll(() => address.getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => address.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByText("an e-mail address like shop@example.com", { exact: false }).waitFor();
    await address.fill("hello@maskerade.test");
    await page.getByRole("button", { name: "Save e-mails settings" }).click();
    await page.locator(".components-notice").getByText("Settings saved.", { exact: false }).waitFor();
    await expect.poll(() => page.getByTestId("sender-in-use").textContent()).toContain('"Masks Mail" <hello@maskerade.test>');
    expect(await page.getByTestId("smtp-server").textContent()).toContain(`127.0.0.1:${peer.port}`);
    expect(await page.getByTestId("last-error").textContent()).toContain("550");
    await page.screenshot({ path: "tmp/shots/admin_1280_settings_emails.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole("navigation", { name: "Admin menu" }).getByRole("link", { name: "E-mail outbox" }).click();
    await page.getByLabel("Show").selectOption("failed");
    const item = page.locator(".admin-outbox__item", { hasText: REFUSED });
    await item.waitFor();
    expect(await item.textContent()).toContain("No such user here");
    await page.screenshot({ path: "tmp/shots/admin_1280_outbox.png", fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    peer.rcptPolicy = () => null;
    const retry = item.getByRole("button", { name: /^Retry now/ });
    // Its name says which e-mail it retries (the number and recipient in screen-reader text).
    expect(await retry.textContent()).toBe(`Retry now: e-mail #${failedId} to ${REFUSED}`);
    await retry.click();
    await page.getByRole("status").getByText(`E-mail #${failedId} to ${REFUSED} is queued again`).waitFor();
    const mail = await peer.waitFor((m) => m.envelopeTo.includes(REFUSED), 15_000);
    expect(mail.headers.from).toMatch(/^"?Masks Mail"? <hello@maskerade\.test>$/);
    await expect.poll(async () => (await row(failedId)).sent_at).toBeInstanceOf(Date);

    await item.getByRole("link", { name: `#${failedId} A note about your order` }).click();
    await page.getByText("Your masks ship tomorrow.").waitFor();
    await expect.poll(() => page.locator(".admin-outbox__status").textContent()).toBe("Sent");
    expect(await page.getByRole("button", { name: /^Resend/ }).count()).toBe(1);
    await page.screenshot({ path: "tmp/shots/admin_1280_outbox_message.png", fullPage: true });

    await page.setViewportSize({ width: 400, height: 900 });
    await page.goto(`${shop.url}/wp-admin/outbox/`);
    await page.locator(".admin-outbox__item").first().waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_outbox.png", fullPage: true });
    await page.goto(`${shop.url}/wp-admin/settings/emails/`);
    await page.getByTestId("sender-in-use").waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: "tmp/shots/admin_400_settings_emails.png", fullPage: true });
    await context.close();
  });
});
