// The outbox sender against a real database (a copy of the migrated template: PGlite, or a database of its own on
// TEST_DATABASE_URL) and a real SMTP peer. Its pure parts are tested in core/mail/outbox-sender.test.ts.
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, openPostgres, type Db } from "../../core/db/client.ts";
import { migrate } from "../../core/db/migrate.ts";
import { startSmtpPeer, type SmtpPeer } from "../support/smtp-peer.ts";
import { copyTemplateDatabase, tempDir, type TestDatabase } from "../support/database.ts";
import { backoffMs, deliverDueEmails, type MailLog, type OutboxSenderOptions } from "../../core/mail/outbox-sender.ts";
import { createSmtpTransport, type SmtpTransport } from "../../core/mail/smtp.ts";

const FROM = "Maskerade Tests <shop@maskerade.test>";

/** A database for one "process": PGlite is one per test file; PostgreSQL gets a pool per call on the file's database. */
let folder: ReturnType<typeof tempDir>;
let copy: TestDatabase;
const dbs: Db[] = [];
async function openDb(): Promise<Db> {
  const db = copy.databaseUrl ? await openPostgres(copy.databaseUrl, 4) : await openDatabase({ dataDir: copy.pgliteDir });
  dbs.push(db);
  return db;
}

let db: Db;
let peer: SmtpPeer;
let transport: SmtpTransport;
let offset = 0; // the sender's clock runs ahead of the real one by this much
// +1 ms: Date.now() has no microseconds, and a row stamped by the database earlier in the same millisecond is due.
const now = () => new Date(Date.now() + 1 + offset);
const logLines: string[] = [];
const log: MailLog = {
  debug: (msg, f) => logLines.push(JSON.stringify({ level: "debug", msg, ...f })),
  info: (msg, f) => logLines.push(JSON.stringify({ level: "info", msg, ...f })),
  warn: (msg, f) => logLines.push(JSON.stringify({ level: "warn", msg, ...f })),
};
const run = (extra: Partial<OutboxSenderOptions> = {}) => deliverDueEmails({ db, transport, from: FROM, now, log, ...extra });

beforeAll(async () => {
  folder = tempDir("outbox-test-");
  copy = await copyTemplateDatabase(path.join(folder.dir, "pglite"));
  db = await openDb();
  await migrate(db); // a no-op on the migrated template's copy
  peer = await startSmtpPeer();
  transport = createSmtpTransport(peer.url);
}, 60_000);
afterAll(async () => {
  transport?.close();
  await peer?.close();
  for (const d of dbs) await d.close();
  await copy?.drop();
  folder?.remove();
});
beforeEach(async () => {
  await db.query(`DELETE FROM email_outbox`);
  peer.received.length = 0;
  peer.rcptSeen.length = 0;
  peer.rcptPolicy = () => null;
  peer.dataDelayMs = 0;
  logLines.length = 0;
  offset = 0;
});

async function queue(
  to: string,
  subject = "Your order #7 has been received",
  body = "Thank you for your order.\n\nSilk Pocket Square × 2: €30.00\nTotal: €35.00\n",
  kind = "order_received",
): Promise<number> {
  const [row] = await db.query<{ id: number }>(`INSERT INTO email_outbox (kind, to_address, subject, body) VALUES ($1, $2, $3, $4) RETURNING id`, [
    kind,
    to,
    subject,
    body,
  ]);
  return row!.id;
}
interface OutboxRow {
  sent_at: Date | null;
  failed_at: Date | null;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date;
  claimed_until: Date | null;
}
const row = async (id: number) =>
  (await db.query<OutboxRow>(`SELECT sent_at, failed_at, attempts, last_error, next_attempt_at, claimed_until FROM email_outbox WHERE id = $1`, [id]))[0]!;

describe("delivery through a real SMTP peer", () => {
  it("sends a queued e-mail with its To, From, Subject and plain-text body, marks it sent and never sends it again", async () => {
    const body = "Thank you for your order.\n\nOrder #7\nSilk Pocket Square × 2: €30.00\nShipping: €5.00\nTotal: €35.00\n";
    const id = await queue("ada@example.com", "Your order #7 has been received — thanks", body);
    expect(await run()).toEqual({ claimed: 1, sent: 1, deferred: 0, failed: 0, released: 0 });
    expect(peer.received).toHaveLength(1);
    const mail = peer.received[0]!;
    expect(mail.envelopeTo).toEqual(["ada@example.com"]);
    expect(mail.envelopeFrom).toBe("shop@maskerade.test");
    expect(mail.headers.to).toBe("ada@example.com");
    expect(mail.headers.from).toBe(FROM);
    expect(mail.headers.subject).toBe("Your order #7 has been received — thanks");
    expect(mail.headers["content-type"]).toMatch(/^text\/plain; charset=utf-8/i);
    expect(mail.headers["message-id"]).toMatch(new RegExp(`^<outbox\\.${id}\\.\\d+@maskerade\\.test>$`));
    expect(mail.headers["auto-submitted"]).toBe("auto-generated");
    expect(mail.text).toBe(body.replace(/\n$/, ""));
    const r = await row(id);
    expect(r.sent_at).toBeInstanceOf(Date);
    expect(r).toMatchObject({ attempts: 0, failed_at: null, claimed_until: null });
    expect(await run()).toMatchObject({ claimed: 0 });
    expect(peer.received).toHaveLength(1);
  });

  it("a 451 from the peer defers the mail with back-off; it goes out once due again", async () => {
    const id = await queue("busy@example.com");
    peer.rcptPolicy = () => 451;
    expect(await run()).toMatchObject({ claimed: 1, sent: 0, deferred: 1 });
    let r = await row(id);
    expect(r).toMatchObject({ attempts: 1, sent_at: null, failed_at: null, claimed_until: null });
    expect(r.last_error).toContain("451");
    expect(r.next_attempt_at.getTime() - Date.now()).toBeGreaterThan(50_000);
    expect(r.next_attempt_at.getTime() - Date.now()).toBeLessThanOrEqual(60_000);
    peer.rcptPolicy = () => null;
    expect(await run()).toMatchObject({ claimed: 0 }); // not due yet
    offset = 61_000;
    expect(await run()).toMatchObject({ claimed: 1, sent: 1 });
    r = await row(id);
    expect(r.sent_at).toBeInstanceOf(Date);
    expect(r.attempts).toBe(1);
    expect(peer.rcptSeen).toEqual(["busy@example.com", "busy@example.com"]);
    expect(peer.received.map((m) => m.headers.to)).toEqual(["busy@example.com"]);
  });

  it("a 550 from the peer fails the mail at once: kept, never retried, a warning logged", async () => {
    const id = await queue("gone@example.com");
    peer.rcptPolicy = (a) => (a === "gone@example.com" ? 550 : null);
    expect(await run()).toMatchObject({ claimed: 1, failed: 1 });
    const r = await row(id);
    expect(r.failed_at).toBeInstanceOf(Date);
    expect(r).toMatchObject({ attempts: 1, sent_at: null });
    expect(r.last_error).toMatch(/550/);
    offset = 7 * 3_600_000;
    expect(await run()).toMatchObject({ claimed: 0 });
    expect(peer.rcptSeen).toEqual(["gone@example.com"]);
    expect(logLines.some((l) => l.includes('"warn"') && l.includes(`"outboxId":${id}`) && l.includes('"code":"550"'))).toBe(true);
  });

  it("a bad stored address is a permanent failure that never reaches the peer, and the rest of the batch still goes", async () => {
    const bad = [await queue("not an address"), await queue("a@example.com, eve@example.com"), await queue("ada@example.com\r\nBcc: eve@example.com")];
    const good = await queue("fine@example.com");
    expect(await run()).toMatchObject({ claimed: 4, sent: 1, failed: 3 });
    for (const id of bad) expect(await row(id)).toMatchObject({ last_error: "invalid recipient address", attempts: 1, sent_at: null });
    expect((await row(good)).sent_at).toBeInstanceOf(Date);
    expect(peer.rcptSeen).toEqual(["fine@example.com"]);
  });

  it("a password-reset e-mail whose link expired before it could be sent is dropped, not delivered", async () => {
    const stale = await queue("late@example.com", "Password reset request", "link", "password_reset");
    const fresh = await queue("fresh@example.com", "Password reset request", "link", "password_reset");
    await db.query(`UPDATE email_outbox SET created_at = now() - interval '61 minutes' WHERE id = $1`, [stale]);
    expect(await run()).toMatchObject({ claimed: 2, sent: 1, failed: 1 });
    expect(await row(stale)).toMatchObject({ last_error: "password reset link expired before delivery", sent_at: null });
    expect((await row(stale)).failed_at).toBeInstanceOf(Date);
    expect(peer.rcptSeen).toEqual(["fresh@example.com"]);
    expect((await row(fresh)).sent_at).toBeInstanceOf(Date);
  });

  it("connection errors are retried with back-off and given up after maxAttempts", async () => {
    const dead = await startSmtpPeer();
    await dead.close(); // nothing listens on its port any more
    const down = createSmtpTransport(dead.url);
    const id = await queue("later@example.com");
    const others = [await queue("next@example.com"), await queue("last@example.com")];
    const attempt = () => deliverDueEmails({ db, transport: down, from: FROM, now, log, maxAttempts: 3 });
    // The first failure to reach the peer ends the run: the others are handed back without spending an attempt.
    expect(await attempt()).toMatchObject({ claimed: 3, deferred: 1, released: 2 });
    expect((await row(id)).last_error).toMatch(/ECONNECTION|ECONNREFUSED/);
    for (const other of others) expect(await row(other)).toMatchObject({ attempts: 0, claimed_until: null, last_error: null });
    await db.query(`DELETE FROM email_outbox WHERE id = ANY($1::int[])`, [others]);
    offset += backoffMs(1) + 1000;
    expect(await attempt()).toMatchObject({ deferred: 1 });
    expect(await attempt()).toMatchObject({ claimed: 0 }); // backing off
    offset += backoffMs(2) + 1000;
    expect(await attempt()).toMatchObject({ failed: 1 });
    expect(await row(id)).toMatchObject({ attempts: 3, sent_at: null });
    expect((await row(id)).failed_at).toBeInstanceOf(Date);
    expect(logLines.some((l) => l.includes("given up") && l.includes(`"outboxId":${id}`))).toBe(true);
    down.close();
  });

  it("without a clock of its own the sender uses the database's: a row queued just now is due, one due in a minute is not", async () => {
    const dbClock = (extra: Partial<OutboxSenderOptions> = {}) => deliverDueEmails({ db, transport, from: FROM, log, ...extra });
    const later = await queue("later@example.com");
    await db.query(`UPDATE email_outbox SET next_attempt_at = now() + interval '1 minute' WHERE id = $1`, [later]);
    const fresh = await queue("fresh@example.com");
    expect(await dbClock()).toMatchObject({ claimed: 1, sent: 1 });
    expect((await row(fresh)).sent_at).toBeInstanceOf(Date);
    expect((await row(later)).sent_at).toBeNull();
  });

  it("a row leased by a dead process waits for its lease to end, then goes out once", async () => {
    const id = await queue("leased@example.com");
    await db.query(`UPDATE email_outbox SET claimed_until = $2 WHERE id = $1`, [id, new Date(Date.now() + 10 * 60_000)]);
    expect(await run()).toMatchObject({ claimed: 0 });
    offset = 10 * 60_000 + 1000;
    expect(await run()).toMatchObject({ claimed: 1, sent: 1 });
    expect(peer.received).toHaveLength(1);
  });

  it("a stopped run hands the rows it has not started back; a lease too short for another send does the same", async () => {
    const ids = [await queue("one@example.com"), await queue("two@example.com"), await queue("three@example.com")];
    const stop = new AbortController();
    const stopping = { sendMail: async (m: Parameters<SmtpTransport["sendMail"]>[0]) => (await transport.sendMail(m), stop.abort()) };
    expect(await deliverDueEmails({ db, transport: stopping, from: FROM, now, log, signal: stop.signal })).toMatchObject({ claimed: 3, sent: 1, released: 2 });
    expect((await row(ids[1]!)).claimed_until).toBeNull();
    expect(await run({ leaseMs: 60_000, sendBudgetMs: 120_000 })).toMatchObject({ claimed: 2, sent: 0, released: 2 });
    expect(await run()).toMatchObject({ claimed: 2, sent: 2 });
    expect(peer.received.map((m) => m.headers.to).sort()).toEqual(["one@example.com", "three@example.com", "two@example.com"]);
  });

  it("two senders on the same database, running at once, deliver every message exactly once", async () => {
    const total = 30;
    for (let i = 0; i < total; i++) await queue(`buyer${i}@example.com`, `Order ${i}`);
    // A second "process": its own connection pool on PostgreSQL (the same PGlite otherwise), its own transport.
    const otherDb = copy.databaseUrl ? await openDb() : db;
    const otherTransport = createSmtpTransport(peer.url);
    peer.dataDelayMs = 15; // each send takes a moment, so the two overlap
    const counts: [number, number] = [0, 0];
    const worker = async (n: 0 | 1) => {
      const options = { db: n === 0 ? db : otherDb, transport: n === 0 ? transport : otherTransport, from: FROM, now, log, batchSize: 4 };
      for (;;) {
        const r = await deliverDueEmails(options);
        counts[n] += r.sent;
        if (r.claimed === 0) {
          const [left] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM email_outbox WHERE sent_at IS NULL`);
          if (left!.n === 0) return;
          await new Promise((res) => setTimeout(res, 5));
        }
      }
    };
    await Promise.all([worker(0), worker(1)]);
    otherTransport.close();
    expect(counts[0]! + counts[1]!).toBe(total);
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts[1]).toBeGreaterThan(0);
    expect(peer.received).toHaveLength(total);
    expect(new Set(peer.received.map((m) => m.headers["message-id"])).size).toBe(total);
    expect(peer.received.map((m) => m.headers.subject).sort()).toEqual(Array.from({ length: total }, (_, i) => `Order ${i}`).sort());
    expect(logLines.filter((l) => l.includes("lease lost"))).toEqual([]);
  });

  it("logs carry ids, kinds and codes, never an address or a body", async () => {
    await queue("private.person@example.com", "Password reset request", "secret link https://shop/?key=abc", "password_reset");
    peer.rcptPolicy = () => 451;
    await run();
    offset = 61_000;
    peer.rcptPolicy = () => 550;
    await run();
    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) {
      expect(line).not.toContain("private.person");
      expect(line).not.toContain("secret link");
    }
  });
});
