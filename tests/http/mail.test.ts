/**
 * Mail delivery end to end: a shop with SMTP_URL pointing at a real SMTP peer delivers the e-mails its real flows
 * queue (lost password, a paid order); a shop without SMTP_URL keeps them in the outbox.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient, pageGlobal } from "../support/client.ts";
import { startSmtpPeer, type SmtpPeer } from "../support/smtp-peer.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";
import { parseEnv } from "../../core/config/env.server.ts";
import { mailFeature } from "../../server/features/mail.ts";
import { createLogger } from "../../server/log.ts";
import { billing, cardFields, openCheckout, productWithStock, shopperWithCart, submitCheckout } from "./checkout-support.ts";

const MAIL_FROM = "Maskerade Tests <shop@maskerade.test>";
/** The sender runs every 5 s; a mail should arrive well within this. */
const DELIVERY_TIMEOUT_MS = 20_000;

let peer: SmtpPeer;
let shop: TestShop;
let quiet: TestShop; // no SMTP_URL
let quietQueuedAt = 0;

const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? "";

async function requestReset(s: TestShop, email: string): Promise<void> {
  const client = new TestClient(s.url);
  const form = await (await client.get("/my-account/lost-password/")).text();
  const reply = await (await client.post("/my-account/lost-password/", { _wpnonce: hidden(form, "_wpnonce"), user_login: email, intent: "request" })).text();
  expect(reply).toContain("If an account matches, a password reset e-mail has been sent");
}

beforeAll(async () => {
  peer = await startSmtpPeer();
  [shop, quiet] = await Promise.all([
    startTestShop({ SMTP_URL: peer.url, MAIL_FROM, MAIL_SEND_EVERY_MS: "250" }),
    startTestShop({ MAIL_SEND_EVERY_MS: "250" }),
  ]);
  // Queued first, so the whole file's run is the window in which a sender would have had to pick it up.
  await registerCustomer(quiet.services.db, { email: "kept@example.com", password: "old password 1", first_name: "", last_name: "" });
  await requestReset(quiet, "kept@example.com");
  quietQueuedAt = Date.now();
});
afterAll(async () => {
  await Promise.all([shop?.close(), quiet?.close()]);
  await peer?.close();
});

describe("with SMTP_URL", () => {
  it("the lost-password e-mail reaches the peer, and its link sets a new password", async () => {
    await registerCustomer(shop.services.db, { email: "forgot@example.com", password: "old password 1", first_name: "", last_name: "" });
    await requestReset(shop, "forgot@example.com");
    const mail = await peer.waitFor((m) => m.envelopeTo.includes("forgot@example.com"), DELIVERY_TIMEOUT_MS);
    expect(mail.headers.to).toBe("forgot@example.com");
    expect(mail.headers.from).toBe(MAIL_FROM);
    expect(mail.envelopeFrom).toBe("shop@maskerade.test");
    expect(mail.headers.subject).toBe("Password reset request");
    expect(mail.text).toContain("To choose a new password, open this link within an hour:");
    const outboxRow = async () =>
      (
        await shop.services.db.query<{ body: string; sent_at: Date | null; attempts: number; claimed_until: Date | null }>(
          `SELECT body, sent_at, attempts, claimed_until FROM email_outbox WHERE kind = 'password_reset' AND to_address = 'forgot@example.com'`,
        )
      )[0];
    // The sender marks the row sent once the peer has accepted the message: a moment after the peer has it.
    await expect.poll(async () => (await outboxRow())?.sent_at).toBeInstanceOf(Date);
    const row = await outboxRow();
    expect(mail.text).toBe(row!.body);
    expect(row).toMatchObject({ attempts: 0, claimed_until: null });

    // The link as the customer reads it in the delivered e-mail.
    const link = new URL(/(http\S+lost-password\/\?key=\S+)/.exec(mail.text)![1]!);
    const client = new TestClient(shop.url);
    const resetPage = await (await client.get(link.pathname + link.search)).text();
    expect(resetPage).toContain("Enter a new password below.");
    const fields = {
      _wpnonce: hidden(resetPage, "_wpnonce"),
      key: link.searchParams.get("key")!,
      id: link.searchParams.get("id")!,
      password_1: "mailed new password",
      intent: "reset",
    };
    expect((await client.post("/my-account/lost-password/", fields)).status).toBe(302);
    const astra = pageGlobal(await (await client.get("/checkout/")).text(), "astra");
    const login = await (
      await client.post("/wp-admin/admin-ajax.php", {
        action: "astra_woocommerce_login_user",
        user_name_email: "forgot@example.com",
        password: "mailed new password",
        security: String(astra.woocommerce_login_nonce),
      })
    ).json();
    expect(login).toEqual({ success: true, data: { success: true } });
    expect(peer.received.filter((m) => m.envelopeTo.includes("forgot@example.com"))).toHaveLength(1);
  });

  it("a paid order's confirmation reaches the buyer with the order's lines and total", async () => {
    const productId = await productWithStock(shop, "silk-pocket-square", 100, 1500);
    const client = await shopperWithCart(shop, productId, 2);
    const reply = await submitCheckout(client, await openCheckout(client), { ...billing("buyer@example.com"), ...cardFields() });
    expect(reply.result).toBe("success");
    const orderId = Number(/order-received\/(\d+)/.exec(reply.redirect!)![1]);
    const mail = await peer.waitFor((m) => m.envelopeTo.includes("buyer@example.com"), DELIVERY_TIMEOUT_MS);
    expect(mail.headers.to).toBe("buyer@example.com");
    expect(mail.headers.from).toBe(MAIL_FROM);
    expect(mail.headers.subject).toBe(`Your order #${orderId} has been received`);
    expect(mail.text).toContain(`Order #${orderId}`);
    expect(mail.text).toContain("Silk Pocket Square × 2");
    const outboxRow = async () =>
      (await shop.services.db.query<{ body: string; sent_at: Date | null }>(`SELECT body, sent_at FROM email_outbox WHERE order_id = $1`, [orderId]))[0];
    // The sender marks the row sent once the peer has accepted the message: a moment after the peer has it.
    await expect.poll(async () => (await outboxRow())?.sent_at).toBeInstanceOf(Date);
    const row = await outboxRow();
    expect(mail.text).toBe(row!.body.replace(/\n$/, ""));
    expect(mail.text).toMatch(/^Total: \$35(\.00)?$/m);
  });
});

describe("without SMTP_URL", () => {
  it("the e-mail stays in the outbox, unsent and unclaimed, and never reaches any peer", async () => {
    // Watch the row for at least six of a sender's periods (250 ms here) since it was queued: nothing may touch it.
    const watchUntil = quietQueuedAt + 1_600;
    do {
      const rows = await quiet.services.db.query<{ sent_at: Date | null; attempts: number; claimed_until: Date | null; failed_at: Date | null }>(
        `SELECT sent_at, attempts, claimed_until, failed_at FROM email_outbox WHERE to_address = 'kept@example.com'`,
      );
      expect(rows).toEqual([{ sent_at: null, attempts: 0, claimed_until: null, failed_at: null }]);
      await new Promise((r) => setTimeout(r, 250));
    } while (Date.now() < watchUntil);
    expect(peer.rcptSeen).not.toContain("kept@example.com");
  });

  it("says so in one info line and starts nothing; a MAIL_FROM without an address is refused the same way", async () => {
    for (const [extra, level, text] of [
      [{}, "info", "SMTP_URL not set"],
      [{ SMTP_URL: peer.url, MAIL_FROM: "Maskerade" }, "error", "MAIL_FROM names no single e-mail address"],
    ] as const) {
      const lines: string[] = [];
      const logger = createLogger("debug", (l) => lines.push(l));
      const env = parseEnv({ NODE_ENV: "production", DATA_DIR: quiet.dataDir, ...extra });
      const stop = await mailFeature.start!({ services: { ...quiet.services, logger }, realtime: quiet.realtime, env });
      await stop();
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ level });
      expect(lines[0]).toContain(text);
    }
  });
});
