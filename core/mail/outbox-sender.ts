/**
 * Delivers the e-mails queued in `email_outbox` (order and account mails) through a transport, in batches.
 *
 * - Claim: one UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED LIMIT n) RETURNING sets a lease
 *   (`claimed_until`) on due rows nobody holds, so several server processes never send the same row at once;
 *   a process that dies mid-batch only delays its rows until the lease runs out.
 * - Each row is sent on its own; the result is written only while this claim still holds the row.
 * - A failure counts an attempt and backs off exponentially; a permanent one (a 5xx answer to the recipient or
 *   the message, a bad address, too many attempts) marks the row failed and keeps it. A failure to reach the
 *   peer at all ends the run and hands the rest of the batch back, so an SMTP outage costs one attempt per run,
 *   not one per queued e-mail.
 *
 * - The sender and the kinds the owner turned off (Settings › E-mails, decision 0032) are read through `settings`
 *   before every send, so a saved change applies from the next e-mail without a restart. A row of a kind turned off
 *   is kept as failed ("turned off"), no attempt counted, unless staff asked for it (Retry now, Resend).
 *
 * Delivery is exactly once while processes live; a crash between the peer's "250 OK" and the UPDATE sends the
 * row again after its lease, with the same Message-ID so the receiving side can tell.
 * No I/O but the database and the transport passed in; no nodemailer import (server/features/mail.ts makes it).
 * The statements are in core/db/repositories/email-outbox.ts.
 */
import type { Queryable } from "../db/client.ts";
import {
  claimDueEmails,
  databaseNow,
  finishClaimedEmail,
  releaseClaimedEmails,
  type ClaimedEmail,
  type EmailOutcome,
} from "../db/repositories/email-outbox.ts";
import { isDeliverableAddress } from "./address.ts";
import { PASSWORD_RESET_KIND } from "./templates/password-reset.ts";
import { NEW_ACCOUNT_KIND, NEW_ACCOUNT_LINK_MS } from "./templates/new-account.ts";

/** The fields of one plain-text e-mail; nodemailer's Transporter.sendMail accepts exactly this shape. */
export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  messageId: string;
  headers: Record<string, string>;
}

export interface MailTransport {
  /** Resolves once the peer accepted the message; rejects with nodemailer's error shape otherwise. */
  sendMail(mail: OutgoingMail): Promise<unknown>;
}

/** The logger's shape (server/log.ts). Fields never carry bodies or addresses: ids, kinds and codes only. */
export interface MailLog {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
}

export interface OutboxSenderOptions {
  db: Queryable;
  transport: MailTransport;
  /** The From: header (MAIL_FROM), e.g. `Maskerade <shop@example.com>`, when `settings` is not given. */
  from: string;
  /**
   * Read before every send: the From: header in effect and the kinds turned off (Settings › E-mails). Cheap
   * (core/commerce/site-settings.ts caches it and clears the cache on a save).
   */
  settings?: () => Promise<{ from: string; turnedOff: readonly string[] }>;
  /**
   * The sender's clock. Default: the database's, read at the start of each run, so every process of a shop
   * compares leases and due times on one clock whatever the skew between their hosts. Tests pass their own.
   */
  now?: () => Date;
  log?: MailLog;
  /** Rows claimed per run. */
  batchSize?: number;
  /** How long a claim holds its rows. Must be well above `sendBudgetMs`. */
  leaseMs?: number;
  /** The longest one send may take (the transport's timeouts must keep to it): no row is started later than
   *  this before the lease ends; the rest of the batch is handed back instead. */
  sendBudgetMs?: number;
  /** A row is given up after this many failed attempts. */
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Stops the run between two messages (shutdown); the rows not started are handed back. */
  signal?: AbortSignal;
}

export const MAIL_DEFAULTS = {
  batchSize: 20,
  leaseMs: 10 * 60_000,
  sendBudgetMs: 3 * 60_000,
  maxAttempts: 12,
  baseDelayMs: 60_000,
  maxDelayMs: 6 * 3_600_000,
} as const;

export interface RunResult {
  claimed: number;
  sent: number;
  /** Failed this time, to be tried again later. */
  deferred: number;
  /** Given up: permanent rejection, bad address or too many attempts. */
  failed: number;
  /** Claimed but handed back unsent (the lease would not cover another send, or the run was stopped). */
  released: number;
}

/** Delay before the next try after `attempts` failed ones: base × 2^(attempts−1), capped. */
export function backoffMs(attempts: number, baseDelayMs: number = MAIL_DEFAULTS.baseDelayMs, maxDelayMs: number = MAIL_DEFAULTS.maxDelayMs): number {
  return Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, Math.min(attempts - 1, 30)));
}

export interface Failure {
  permanent: boolean;
  /** The peer could not be reached or refused the session (not this message): the next sends would fail alike. */
  session: boolean;
  /** Short and single-line, for `last_error`: the SMTP reply or error code and message, never the body. */
  reason: string;
  /** For logs: the reply code or error code only (a reply's text may quote the address). */
  code: string;
}

// Replies to these commands are about this message or its recipient; a 5xx to anything else (greeting, AUTH,
// MAIL FROM) is about the shop's SMTP set-up, which an operator fixes, so those are retried, not given up.
const MESSAGE_COMMANDS = new Set(["RCPT TO", "DATA"]);
const ENVELOPE_COMMANDS = new Set(["MAIL FROM", "RCPT TO", "DATA"]);

/** Sorts a transport error: a 5xx reply (except 503, a session-state error) to RCPT TO or DATA is permanent. */
export function classifyFailure(error: unknown): Failure {
  const e = (error ?? {}) as { message?: unknown; code?: unknown; responseCode?: unknown; command?: unknown };
  const responseCode = typeof e.responseCode === "number" ? e.responseCode : null;
  const command = typeof e.command === "string" ? e.command : null;
  const code = responseCode !== null ? String(responseCode) : typeof e.code === "string" ? e.code : "error";
  const permanent =
    responseCode !== null && responseCode >= 500 && responseCode < 600 && responseCode !== 503 && command !== null && MESSAGE_COMMANDS.has(command);
  // No reply at all (refused, timed out, TLS), 421 (closing), or a refusal before the envelope (greeting, AUTH).
  const session = !permanent && (responseCode === null || responseCode === 421 || command === null || !ENVELOPE_COMMANDS.has(command));
  const message = typeof e.message === "string" ? e.message : String(error);
  return { permanent, session, code, reason: shortReason(`${[typeof e.code === "string" ? e.code : null, command].filter(Boolean).join(" ")}: ${message}`) };
}

const shortReason = (s: string) =>
  s
    .replace(/[^\P{Cc}\x80-\x9f]+/gu, " ")
    .trim()
    .slice(0, 300);

const messageIdDomain = (from: string) => /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? "localhost";

/**
 * One run: claims up to `batchSize` due rows and tries each once. Safe to call from several processes (and
 * several times at once in one process) on one database.
 */
/** A password-reset e-mail is useless once its link has expired (RESET_TTL_MS in core/commerce/accounts.ts). */
export const PASSWORD_RESET_MAIL_TTL_MS = 3_600_000;

/**
 * The e-mails that carry a one-use key into a customer's account (the link to set a password), with how long that link
 * works: staff never see the key (the outbox shows it hidden), such an e-mail is never resent (a new one is asked
 * for), and it is not delivered once its link has expired.
 */
export const ACCOUNT_LINK_MAIL_TTL_MS: Readonly<Record<string, number>> = {
  [PASSWORD_RESET_KIND]: PASSWORD_RESET_MAIL_TTL_MS,
  [NEW_ACCOUNT_KIND]: NEW_ACCOUNT_LINK_MS,
};
/** Whether a message's account link has expired by `at` (false for an e-mail without one). */
export const accountLinkExpired = (m: { kind: string; createdAt: Date }, at: Date): boolean => {
  const ttl = ACCOUNT_LINK_MAIL_TTL_MS[m.kind];
  return ttl !== undefined && at.getTime() - m.createdAt.getTime() > ttl;
};

export async function deliverDueEmails(opts: OutboxSenderOptions): Promise<RunResult> {
  const o = { ...MAIL_DEFAULTS, ...definedOnly(opts) };
  const result: RunResult = { claimed: 0, sent: 0, deferred: 0, failed: 0, released: 0 };
  if (opts.signal?.aborted) return result;
  const now = opts.now ?? (await databaseClock(opts.db));

  const claimedAt = now();
  const leaseEnd = new Date(claimedAt.getTime() + o.leaseMs);
  const rows = await claimDueEmails(opts.db, { now: claimedAt, leaseEnd, limit: o.batchSize });
  rows.sort((a, b) => a.id - b.id);
  result.claimed = rows.length;

  // Every write below is guarded by "still our claim": after a lost lease, another process owns the row.
  const finish = async (row: ClaimedEmail, outcome: EmailOutcome) => {
    const updated = await finishClaimedEmail(opts.db, row.id, leaseEnd, outcome);
    if (!updated) opts.log?.warn("mail lease lost before the result was stored", { outboxId: row.id, kind: row.kind });
  };

  const release = async (from: number) => {
    const rest = rows.slice(from).map((r) => r.id);
    await releaseClaimedEmails(opts.db, rest, leaseEnd);
    result.released = rest.length;
  };

  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (opts.signal?.aborted || now().getTime() + o.sendBudgetMs > leaseEnd.getTime()) {
      await release(i);
      break;
    }
    const attempts = row.attempts + 1;
    let failure: Failure | null = null;
    const settings = opts.settings ? await opts.settings() : { from: opts.from, turnedOff: [] as readonly string[] };
    if (row.requestedAt === null && settings.turnedOff.includes(row.kind)) {
      await finish(row, { turnedOff: "not sent: this e-mail is turned off in Settings › E-mails", failedAt: now() });
      result.failed++;
      opts.log?.info("mail not sent: its kind is turned off", { outboxId: row.id, kind: row.kind });
      continue;
    }
    if (!isDeliverableAddress(row.toAddress)) {
      failure = { permanent: true, session: false, code: "EADDRESS", reason: "invalid recipient address" };
    } else if (accountLinkExpired(row, claimedAt)) {
      // Its link has expired: delivering it now would only confuse (e.g. SMTP configured later).
      failure = {
        permanent: true,
        session: false,
        code: "EEXPIRED",
        reason: `${row.kind === PASSWORD_RESET_KIND ? "password reset" : "account"} link expired before delivery`,
      };
    } else {
      try {
        const createdMs = row.createdAt.getTime();
        await opts.transport.sendMail({
          from: settings.from,
          to: row.toAddress,
          subject: row.subject,
          text: row.body,
          // Stable per row, so a copy sent twice (crash after the peer's OK) can be recognised downstream.
          messageId: `<outbox.${row.id}.${createdMs}@${messageIdDomain(settings.from)}>`,
          headers: { "Auto-Submitted": "auto-generated" },
        });
      } catch (error) {
        failure = classifyFailure(error);
      }
    }

    if (!failure) {
      await finish(row, { sentAt: now() });
      result.sent++;
      opts.log?.debug("mail sent", { outboxId: row.id, kind: row.kind });
    } else if (failure.permanent || attempts >= o.maxAttempts) {
      await finish(row, { attempts, lastError: failure.reason, failedAt: now() });
      result.failed++;
      opts.log?.warn(failure.permanent ? "mail refused, not retried" : "mail given up after too many attempts", {
        outboxId: row.id,
        kind: row.kind,
        attempts,
        code: failure.code,
      });
    } else {
      const erroredAt = now();
      const next = new Date(erroredAt.getTime() + backoffMs(attempts, o.baseDelayMs, o.maxDelayMs));
      await finish(row, { attempts, lastError: failure.reason, nextAttemptAt: next, erroredAt });
      result.deferred++;
      const fields = { outboxId: row.id, kind: row.kind, attempts, code: failure.code, retryAt: next.toISOString() };
      // An unreachable or refusing SMTP server is the operator's business; a busy mailbox is routine.
      if (failure.session) opts.log?.warn("mail deferred: SMTP server unreachable or refused the session", fields);
      else opts.log?.info("mail deferred", fields);
    }
    // A peer that is down or refuses the session would fail the rest the same way: hand them back untouched
    // rather than spend one of each one's attempts.
    if (failure?.session) {
      await release(i + 1);
      break;
    }
  }
  return result;
}

/** The database's time now, moving on with this process's monotonic clock. */
async function databaseClock(db: Queryable): Promise<() => Date> {
  // +1 ms: the driver cuts microseconds off, and a row stamped earlier in the same millisecond must be due.
  const base = (await databaseNow(db)).getTime() + 1;
  const started = performance.now();
  return () => new Date(base + Math.round(performance.now() - started));
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
