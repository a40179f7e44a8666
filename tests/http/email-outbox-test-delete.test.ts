/**
 * Settings › E-mails' test e-mail and deleting outbox rows (docs/contract/rest/shop-v1.md 'E-mail outbox',
 * docs/contract/admin.md, decision 0044), against a real SMTP peer, on PGlite or TEST_DATABASE_URL's PostgreSQL:
 * the test e-mail goes through the outbox and the same transport as real mail (delivered, or failed with the peer's
 * refusal); a bad address is refused at `to`; a few a minute per staff user, then 429; a row is deleted (404 after),
 * not while a sender holds it (409); the list's search; staff only.
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
  admin = await signInAs(shop, "mailtest-admin@example.com", "administrator");
  manager = await signInAs(shop, "mailtest-manager@example.com", "shop_manager");
  customer = await signInAs(shop, "mailtest-customer@example.com", "customer");
});
afterAll(async () => {
  await shop?.close();
  await peer?.close();
});

type Json = Record<string, unknown>;
const call = (who: SignedIn, method: string, path: string, json?: unknown) =>
  who.client.request(`/wp-json/${path}`, { method, headers: { "X-WP-Nonce": who.nonce }, ...(json === undefined ? {} : { json }) });
const message = async (id: number) => (await (await call(admin, "GET", `shop/v1/email-outbox/${id}`)).json()) as Json;

async function queue(kind: string, to: string, subject = `Hello ${to}`, later = false): Promise<number> {
  const [row] = await shop.services.db.query<{ id: number }>(
    `INSERT INTO email_outbox (kind, to_address, subject, body, next_attempt_at) VALUES ($1, $2, $3, $4, now() + ($5 || ' hours')::interval) RETURNING id`,
    [kind, to, subject, `Text for ${to}.`, later ? "24" : "0"],
  );
  return row!.id;
}

describe("who may", () => {
  it("a guest gets 401 and a customer 403 for the test e-mail and a deletion; nothing is sent or deleted", async () => {
    const id = await queue("order_note", "keep-me@example.com", "Keep me", true);
    const guest = new TestClient(shop.url);
    for (const [method, path] of [
      ["POST", "shop/v1/email-outbox/test"],
      ["DELETE", `shop/v1/email-outbox/${id}`],
    ] as const) {
      const json = { to: "victim@example.com" };
      expect((await guest.request(`/wp-json/${path}`, { method, json })).status, `${method} ${path}`).toBe(401);
      const refused = await call(customer, method, path, json);
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(((await refused.json()) as Json).code).toMatch(/^rest_(forbidden|cannot_)/);
    }
    expect((await message(id)).id).toBe(id);
    expect(peer.rcptSeen).not.toContain("victim@example.com");
  });
});

describe("the test e-mail", () => {
  it("is delivered through the outbox and the SMTP transport, with the shop's sender", async () => {
    const bad = await call(admin, "POST", "shop/v1/email-outbox/test", { to: "not an address" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "rest_invalid_param", data: { status: 400, params: { to: expect.stringContaining("e-mail address") } } });
    const header = await call(admin, "POST", "shop/v1/email-outbox/test", { to: "a@example.com\r\nBcc: b@example.com" });
    expect(header.status).toBe(400);
    const missing = await call(admin, "POST", "shop/v1/email-outbox/test", {});
    expect(missing.status).toBe(400);

    const sent = await call(admin, "POST", "shop/v1/email-outbox/test", { to: "owner-test@example.com" });
    expect(sent.status).toBe(201);
    const queued = (await sent.json()) as Json;
    expect(queued).toMatchObject({ kind: "test_email", kind_label: "Test e-mail", to: "owner-test@example.com", can_resend: false });
    const mail = await peer.waitFor((m) => m.envelopeTo.includes("owner-test@example.com"), DELIVERY_TIMEOUT_MS);
    expect(mail.headers.subject).toMatch(/^Test e-mail from /);
    expect(mail.headers.from).toMatch(/shop@maskerade\.test/);
    expect(mail.text).toContain("the shop's e-mails are delivered");
    await expect.poll(async () => (await message(Number(queued.id))).status, { timeout: DELIVERY_TIMEOUT_MS }).toBe("sent");
    const [audited] = await shop.services.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE object_type = 'email' AND object_id = $1 AND action = 'test'`,
      [String(queued.id)],
    );
    expect(audited!.n).toBe(1);
  });

  it("a refusal by the SMTP server is the e-mail's result, with its code", async () => {
    peer.rcptPolicy = (a) => (a === "no-such-owner@example.com" ? 550 : null);
    try {
      const sent = await call(admin, "POST", "shop/v1/email-outbox/test", { to: "no-such-owner@example.com" });
      expect(sent.status).toBe(201);
      const id = Number(((await sent.json()) as Json).id);
      await expect.poll(async () => (await message(id)).status, { timeout: DELIVERY_TIMEOUT_MS }).toBe("failed");
      expect(await message(id)).toMatchObject({ attempts: 1, last_error: expect.stringContaining("550") });
    } finally {
      peer.rcptPolicy = () => null;
    }
  });

  it("a few a minute per staff user: the next is 429 in the REST error shape, queues nothing; another user still may", async () => {
    for (let i = 0; i < 3; i++) expect((await call(manager, "POST", "shop/v1/email-outbox/test", { to: `burst-${i}@example.com` })).status).toBe(201);
    const limited = await call(manager, "POST", "shop/v1/email-outbox/test", { to: "burst-3@example.com" });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ code: "rest_email_test_limited", message: expect.stringContaining("minute"), data: { status: 429 } });
    const [rows] = await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM email_outbox WHERE to_address = 'burst-3@example.com'`);
    expect(rows!.n).toBe(0);
    // The administrator has sent two (above): their own count.
    expect((await call(admin, "POST", "shop/v1/email-outbox/test", { to: "still-mine@example.com" })).status).toBe(201);
  });
});

describe("deleting", () => {
  it("a row is deleted (audited; 404 after and for an unknown id); a copy that named it keeps going", async () => {
    const id = await queue("order_note", "delete-me@example.com", "Delete me", true);
    const removed = await call(manager, "DELETE", `shop/v1/email-outbox/${id}`);
    expect(removed.status).toBe(200);
    expect(await removed.json()).toMatchObject({ deleted: true, previous: { id, to: "delete-me@example.com" } });
    expect((await call(admin, "GET", `shop/v1/email-outbox/${id}`)).status).toBe(404);
    const again = await call(admin, "DELETE", `shop/v1/email-outbox/${id}`);
    expect(again.status).toBe(404);
    expect(((await again.json()) as Json).code).toBe("rest_email_invalid_id");
    expect((await call(admin, "DELETE", "shop/v1/email-outbox/999999")).status).toBe(404);
    const [audited] = await shop.services.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE object_type = 'email' AND object_id = $1 AND action = 'delete'`,
      [String(id)],
    );
    expect(audited!.n).toBe(1);
  });

  it("a row a sender holds right now is refused with 409 and kept; once sent it may go", async () => {
    peer.dataDelayMs = 3_000;
    try {
      const id = await queue("order_note", "in-flight@example.com");
      await expect.poll(async () => (await message(id)).sending, { timeout: DELIVERY_TIMEOUT_MS }).toBe(true);
      const refused = await call(admin, "DELETE", `shop/v1/email-outbox/${id}`);
      expect(refused.status).toBe(409);
      expect(await refused.json()).toMatchObject({ code: "rest_email_sending", data: { status: 409 } });
      await expect.poll(async () => (await message(id)).status, { timeout: DELIVERY_TIMEOUT_MS }).toBe("sent");
      expect((await call(admin, "DELETE", `shop/v1/email-outbox/${id}`)).status).toBe(200);
    } finally {
      peer.dataDelayMs = 0;
    }
  });
});

describe("the list", () => {
  it("searches the recipient and the subject", async () => {
    const a = await queue("order_note", "findable-xq@example.com", "Plain subject", true);
    const b = await queue("order_note", "other@example.com", "Subject with XQ-word", true);
    await queue("order_note", "unrelated@example.com", "Nothing", true);
    const list = await call(admin, "GET", "shop/v1/email-outbox?search=xq&per_page=100");
    expect(list.status).toBe(200);
    expect(((await list.json()) as Json[]).map((m) => m.id).sort()).toEqual([a, b].sort());
    const none = await call(admin, "GET", "shop/v1/email-outbox?search=%25_nomatch");
    expect(await none.json()).toEqual([]);
  });
});
