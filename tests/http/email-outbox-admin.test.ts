/**
 * Settings › E-mails and the mail outbox for staff (docs/contract/rest/shop-v1.md 'E-mail outbox', decision 0032),
 * against a real SMTP peer: the sender saved in the settings is the From: of the next real delivery (no restart);
 * a refused e-mail is recorded as failed with its error, and "Retry now" delivers it; two retries at once send it
 * once; "Resend" queues one copy at a time; a kind turned off is kept unsent until staff ask for it; staff only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";
import { startSmtpPeer, type SmtpPeer } from "../support/smtp-peer.ts";

const MAIL_FROM = "Maskerade Tests <shop@maskerade.test>";
const DELIVERY_TIMEOUT_MS = 15_000;

let peer: SmtpPeer;
let shop: TestShop;
let admin: SignedIn;
let manager: SignedIn;
let customer: SignedIn;

beforeAll(async () => {
  peer = await startSmtpPeer();
  // The sender looks every 250 ms instead of 5 s: rows queued straight into the table go out without a long wait.
  shop = await startTestShop({ SMTP_URL: peer.url, MAIL_FROM, MAIL_SEND_EVERY_MS: "250" });
  admin = await signInAs(shop, "outbox-admin@example.com", "administrator");
  manager = await signInAs(shop, "outbox-manager@example.com", "shop_manager");
  customer = await signInAs(shop, "outbox-customer@example.com", "customer");
});
afterAll(async () => {
  await shop?.close();
  await peer?.close();
});

type Json = Record<string, unknown>;
const call = (who: SignedIn, method: string, path: string, json?: unknown, headers: Record<string, string> = {}) =>
  who.client.request(`/wp-json/${path}`, { method, headers: { "X-WP-Nonce": who.nonce, ...headers }, ...(json === undefined ? {} : { json }) });

/** Queues an e-mail as the shop's flows do (one row of email_outbox). */
async function queue(kind: string, to: string, subject = `Hello ${to}`): Promise<number> {
  const [row] = await shop.services.db.query<{ id: number }>(
    `INSERT INTO email_outbox (kind, to_address, subject, body) VALUES ($1, $2, $3, $4) RETURNING id`,
    [kind, to, subject, `Text for ${to}.`],
  );
  return row!.id;
}
const message = async (id: number) => (await (await call(admin, "GET", `shop/v1/email-outbox/${id}`)).json()) as Json;
const delivered = (to: string) => peer.received.filter((m) => m.envelopeTo.includes(to));

describe("who may", () => {
  it("a guest gets 401 and a customer 403 on every route; a shop manager may", async () => {
    const id = await queue("order_note", "nobody-yet@example.com");
    const guest = new TestClient(shop.url);
    const routes: [string, string][] = [
      ["GET", "shop/v1/email-outbox"],
      ["GET", "shop/v1/email-outbox/status"],
      ["GET", `shop/v1/email-outbox/${id}`],
      ["POST", `shop/v1/email-outbox/${id}/retry`],
      ["POST", `shop/v1/email-outbox/${id}/resend`],
      ["GET", "shop/v1/settings/emails"],
      ["PUT", "shop/v1/settings/emails"],
    ];
    for (const [method, path] of routes) {
      expect((await guest.request(`/wp-json/${path}`, { method, ...(method === "GET" ? {} : { json: {} }) })).status, `${method} ${path}`).toBe(401);
      const refused = await call(customer, method, path, method === "GET" ? undefined : {});
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(((await refused.json()) as Json).code).toMatch(/^rest_(forbidden|cannot_)/);
    }
    expect((await call(manager, "GET", "shop/v1/email-outbox")).status).toBe(200);
    expect((await call(manager, "GET", "shop/v1/email-outbox/status")).status).toBe(200);
    expect((await call(manager, "GET", "shop/v1/settings/emails")).status).toBe(200);
    // The admin's screens: a customer is sent to sign in; a shop manager gets them and the menu entry.
    for (const path of ["/wp-admin/outbox/", `/wp-admin/outbox/${id}/`, "/wp-admin/settings/emails/"]) {
      const page = await customer.client.request(path, { redirect: "manual" });
      expect(page.status, path).toBe(302);
      expect(page.headers.get("location")).toContain("/wp-login.php");
      const staff = await manager.client.get(path);
      expect(staff.status, path).toBe(200);
      expect(await staff.text()).toContain('href="/wp-admin/outbox/"');
    }
  });
});

describe("Settings › E-mails", () => {
  it("the saved sender is the From: of the next real delivery; a bad address and a stale save are refused", async () => {
    const read = await call(admin, "GET", "shop/v1/settings/emails");
    const etag = read.headers.get("ETag")!;
    expect(await read.json()).toEqual({
      fromName: "",
      fromAddress: "",
      orderReceived: true,
      orderFailed: true,
      orderRefunded: true,
      orderNote: true,
      contactMessage: true,
    });
    const bad = await call(admin, "PUT", "shop/v1/settings/emails", { fromAddress: "not an address" }, { "If-Match": etag });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "rest_invalid_param", data: { params: { fromAddress: expect.stringContaining("an e-mail address") } } });
    const quote = await call(admin, "PUT", "shop/v1/settings/emails", { fromName: 'Evil" <x@y.z>' }, { "If-Match": etag });
    expect(quote.status).toBe(400);

    const saved = await call(admin, "PUT", "shop/v1/settings/emails", { fromName: "Masks & Co.", fromAddress: "orders@maskerade.test" }, { "If-Match": etag });
    expect(saved.status).toBe(200);
    expect(saved.headers.get("ETag")).not.toBe(etag);
    // A second tab that read the old version: 412, nothing stored.
    const stale = await call(manager, "PUT", "shop/v1/settings/emails", { fromName: "Other" }, { "If-Match": etag });
    expect(stale.status).toBe(412);
    expect(((await stale.json()) as Json).code).toBe("rest_setting_changed");

    const status = (await (await call(admin, "GET", "shop/v1/email-outbox/status")).json()) as Json;
    expect(status).toMatchObject({
      smtp: { configured: true, host: "127.0.0.1", port: peer.port, secure: false, authenticated: false },
      sender_running: true,
      mail_from: MAIL_FROM,
      sender: '"Masks & Co." <orders@maskerade.test>',
    });
    expect(JSON.stringify(status)).not.toMatch(/password|pass@/i);

    await queue("order_note", "from-check@example.com");
    const mail = await peer.waitFor((m) => m.envelopeTo.includes("from-check@example.com"), DELIVERY_TIMEOUT_MS);
    expect(mail.headers.from).toMatch(/^"?Masks & Co\."? <orders@maskerade\.test>$/);
    expect(mail.envelopeFrom).toBe("orders@maskerade.test");
    expect(mail.headers["message-id"]).toMatch(/@maskerade\.test>$/);
  });
});

describe("the outbox", () => {
  it("a refused e-mail is failed with its error (SMTP status too); Retry now delivers it", async () => {
    peer.rcptPolicy = (a) => (a === "bounce-once@example.com" ? 550 : null);
    const id = await queue("order_received", "bounce-once@example.com", "Your order #77 has been received");
    await expect.poll(async () => (await message(id)).status, { timeout: DELIVERY_TIMEOUT_MS }).toBe("failed");
    const failed = await message(id);
    expect(failed).toMatchObject({
      to: "bounce-once@example.com",
      subject: "Your order #77 has been received",
      kind: "order_received",
      kind_label: "Order received",
      attempts: 1,
      last_error: expect.stringContaining("550"),
      can_retry: true,
      can_resend: false,
      body: "Text for bounce-once@example.com.",
    });
    const list = await call(admin, "GET", "shop/v1/email-outbox?status=failed&per_page=100");
    expect(((await list.json()) as Json[]).map((m) => m.id)).toContain(id);
    expect(Number(list.headers.get("X-WP-Total"))).toBeGreaterThanOrEqual(1);
    const status = (await (await call(admin, "GET", "shop/v1/email-outbox/status")).json()) as Json;
    expect(status.last_error).toMatchObject({ id, message: expect.stringContaining("550") });
    expect(status.last_sent_gmt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(delivered("bounce-once@example.com")).toHaveLength(0);

    peer.rcptPolicy = () => null;
    const retried = await call(admin, "POST", `shop/v1/email-outbox/${id}/retry`);
    expect(retried.status).toBe(200);
    expect(await retried.json()).toMatchObject({ id, status: "queued", attempts: 0 });
    // Woken at once: well before the sender's next five-second round.
    await peer.waitFor((m) => m.envelopeTo.includes("bounce-once@example.com"), DELIVERY_TIMEOUT_MS);
    await expect.poll(async () => (await message(id)).status).toBe("sent");
    expect(await message(id)).toMatchObject({ can_retry: false, can_resend: true, requested_gmt: expect.any(String) });
    // Retrying a sent e-mail is refused, and so is resending a failed one (each names what it is).
    const again = await call(admin, "POST", `shop/v1/email-outbox/${id}/retry`);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: "rest_email_not_failed", data: { status: 409, email_status: "sent" } });
    expect((await call(admin, "POST", "shop/v1/email-outbox/999999/retry")).status).toBe(404);
  });

  it("two Retry now at once: one is taken, the other refused, and the e-mail is delivered once", async () => {
    peer.rcptPolicy = (a) => (a === "double@example.com" ? 550 : null);
    const id = await queue("order_note", "double@example.com");
    await expect.poll(async () => (await message(id)).status, { timeout: DELIVERY_TIMEOUT_MS }).toBe("failed");
    peer.rcptPolicy = () => null;
    const replies = await Promise.all([call(admin, "POST", `shop/v1/email-outbox/${id}/retry`), call(manager, "POST", `shop/v1/email-outbox/${id}/retry`)]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
    await expect.poll(async () => (await message(id)).status, { timeout: DELIVERY_TIMEOUT_MS }).toBe("sent");
    // Past one more of the sender's rounds: still one copy delivered.
    await new Promise((r) => setTimeout(r, 5_500));
    expect(delivered("double@example.com")).toHaveLength(1);
    const [audited] = await shop.services.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE object_type = 'email' AND object_id = $1 AND action = 'retry'`,
      [String(id)],
    );
    expect(audited!.n).toBe(1);
  });

  it("Resend queues one new copy of a sent e-mail at a time; a password reset is never resent and its key is hidden", async () => {
    const id = await queue("order_refunded", "resend@example.com");
    await peer.waitFor((m) => m.envelopeTo.includes("resend@example.com"), DELIVERY_TIMEOUT_MS);
    await expect.poll(async () => (await message(id)).status).toBe("sent");
    // The copy's delivery is held at the peer, so it stays waiting while the second click arrives.
    peer.dataDelayMs = 2_000;
    try {
      const first = await call(admin, "POST", `shop/v1/email-outbox/${id}/resend`);
      expect(first.status).toBe(201);
      const copy = (await first.json()) as Json;
      expect(copy).toMatchObject({ status: "queued", resend_of: id, to: "resend@example.com", kind: "order_refunded" });
      const second = await call(admin, "POST", `shop/v1/email-outbox/${id}/resend`);
      expect(second.status).toBe(409);
      expect(await second.json()).toMatchObject({ code: "rest_email_copy_waiting", data: { copy_id: copy.id } });
      await expect.poll(async () => (await message(Number(copy.id))).status, { timeout: DELIVERY_TIMEOUT_MS }).toBe("sent");
      expect(delivered("resend@example.com")).toHaveLength(2);
    } finally {
      peer.dataDelayMs = 0;
    }
    const queued = await queue("order_note", "not-yet@example.com");
    await shop.services.db.query(`UPDATE email_outbox SET next_attempt_at = now() + interval '1 hour' WHERE id = $1`, [queued]);
    expect(await (await call(admin, "POST", `shop/v1/email-outbox/${queued}/resend`)).json()).toMatchObject({ code: "rest_email_not_sent" });

    const reset = await queue("password_reset", "reset@example.com");
    await shop.services.db.query(`UPDATE email_outbox SET body = $2 WHERE id = $1`, [
      reset,
      "Open this link within an hour:\nhttp://shop.test/my-account/lost-password/?key=SECRETKEY123&id=5\n",
    ]);
    await expect.poll(async () => (await message(reset)).status, { timeout: DELIVERY_TIMEOUT_MS }).toBe("sent");
    const shown = await message(reset);
    expect(shown.body).toContain("?key=(hidden)&id=5");
    expect(shown.body).not.toContain("SECRETKEY123");
    expect(shown.can_resend).toBe(false);
    const refused = await call(admin, "POST", `shop/v1/email-outbox/${reset}/resend`);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as Json).code).toBe("rest_email_cannot_resend");
  });

  it("a kind turned off is kept unsent (not a delivery error); Retry now sends it anyway; the password reset cannot be turned off", async () => {
    const etag = (await call(admin, "GET", "shop/v1/settings/emails")).headers.get("ETag")!;
    expect((await call(admin, "PUT", "shop/v1/settings/emails", { contactMessage: false }, { "If-Match": etag })).status).toBe(200);
    expect((await call(admin, "PUT", "shop/v1/settings/emails", { passwordReset: false })).status).toBe(400);
    const id = await queue("contact_message", "owner-off@example.com");
    await expect.poll(async () => (await message(id)).status, { timeout: DELIVERY_TIMEOUT_MS }).toBe("failed");
    expect(await message(id)).toMatchObject({ attempts: 0, last_error: expect.stringContaining("turned off"), last_error_gmt: null, can_retry: true });
    const status = (await (await call(admin, "GET", "shop/v1/email-outbox/status")).json()) as Json;
    expect(status.turned_off).toEqual(["contact_message"]);
    expect((status.last_error as Json | null)?.id).not.toBe(id);
    expect(delivered("owner-off@example.com")).toHaveLength(0);

    expect((await call(admin, "POST", `shop/v1/email-outbox/${id}/retry`)).status).toBe(200);
    await peer.waitFor((m) => m.envelopeTo.includes("owner-off@example.com"), DELIVERY_TIMEOUT_MS);
    await expect.poll(async () => (await message(id)).status).toBe("sent");

    const list = await call(admin, "GET", "shop/v1/email-outbox?status=sent&per_page=2&page=1");
    expect(list.headers.get("X-WP-TotalPages")).not.toBe("1");
    expect(((await list.json()) as Json[]).every((m) => m.status === "sent")).toBe(true);
    expect((await call(admin, "GET", "shop/v1/email-outbox?status=lost")).status).toBe(400);
  });
});
