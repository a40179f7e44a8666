/**
 * The sending side of `email_outbox` (order and account mails), for core/mail/outbox-sender.ts: claiming due rows
 * under a lease, storing each send's result while the lease still holds, handing rows back. And the owner's side
 * (server/features/email-outbox.ts, decision 0032): listing, one message, "Retry now" and "Resend", each one
 * statement, and the delivery status. Only SQL lives here.
 */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";

export interface ClaimedEmail {
  id: number;
  kind: string;
  toAddress: string;
  subject: string;
  body: string;
  attempts: number;
  createdAt: Date;
  /** Staff asked for this send ("Retry now", "Resend"): a kind the owner turned off still goes. */
  requestedAt: Date | null;
}

/**
 * Claims up to `limit` due rows nobody holds: one UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED LIMIT n)
 * RETURNING, which sets the lease (`claimed_until = leaseEnd`), so two processes never claim one row. A row is due
 * when neither sent nor failed, its next attempt is at or before `now`, and its lease (if any) has run out.
 */
export async function claimDueEmails(db: Queryable, opts: { now: Date; leaseEnd: Date; limit: number }): Promise<ClaimedEmail[]> {
  const b = sql(db);
  const rows = await b
    .updateTable("email_outbox")
    .set({ claimed_until: opts.leaseEnd })
    .where("id", "in", (eb) =>
      eb
        .selectFrom("email_outbox")
        .select("id")
        .where("sent_at", "is", null)
        .where("failed_at", "is", null)
        .where("next_attempt_at", "<=", opts.now)
        .where((w) => w.or([w("claimed_until", "is", null), w("claimed_until", "<=", opts.now)]))
        .orderBy("next_attempt_at")
        .orderBy("id")
        .limit(opts.limit)
        .forUpdate()
        .skipLocked(),
    )
    .returning(["id", "kind", "to_address", "subject", "body", "attempts", "created_at", "requested_at"])
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    toAddress: r.to_address,
    subject: r.subject,
    body: r.body,
    attempts: r.attempts,
    createdAt: new Date(r.created_at),
    requestedAt: r.requested_at ? new Date(r.requested_at) : null,
  }));
}

/**
 * What one send changed: delivered, given up, deferred to a later attempt, or not sent because the owner turned its
 * kind off (kept as failed with the reason, no attempt counted, not a delivery error).
 */
export type EmailOutcome =
  | { sentAt: Date }
  | { attempts: number; lastError: string; failedAt: Date }
  | { attempts: number; lastError: string; nextAttemptAt: Date; erroredAt: Date }
  | { turnedOff: string; failedAt: Date };

/**
 * Stores a send's outcome and clears the lease, only while the lease `leaseEnd` still holds the unsent row (after a
 * lost lease another process owns it). False when nothing was written.
 */
export async function finishClaimedEmail(db: Queryable, id: number, leaseEnd: Date, outcome: EmailOutcome): Promise<boolean> {
  const set =
    "sentAt" in outcome
      ? { sent_at: outcome.sentAt }
      : "turnedOff" in outcome
        ? { last_error: outcome.turnedOff, failed_at: outcome.failedAt }
        : "failedAt" in outcome
          ? { attempts: outcome.attempts, last_error: outcome.lastError, last_error_at: outcome.failedAt, failed_at: outcome.failedAt }
          : { attempts: outcome.attempts, last_error: outcome.lastError, last_error_at: outcome.erroredAt, next_attempt_at: outcome.nextAttemptAt };
  const updated = await sql(db)
    .updateTable("email_outbox")
    .set({ ...set, claimed_until: null })
    .where("id", "=", id)
    .where("claimed_until", "=", leaseEnd)
    .where("sent_at", "is", null)
    .returning("id")
    .execute();
  return updated.length > 0;
}

/** Hands rows back unsent (clears the lease) where the lease `leaseEnd` still holds them. */
export async function releaseClaimedEmails(db: Queryable, ids: readonly number[], leaseEnd: Date): Promise<void> {
  if (!ids.length) return;
  await sql(db)
    .updateTable("email_outbox")
    .set({ claimed_until: null })
    .where("id", "=", raw<number>`ANY(${[...ids]}::int[])`)
    .where("claimed_until", "=", leaseEnd)
    .execute();
}

/** The database server's clock now (clock_timestamp(), not the transaction's start). */
export async function databaseNow(db: Queryable): Promise<Date> {
  const row = await sql(db)
    .selectNoFrom(raw<Date | string>`clock_timestamp()`.as("t"))
    .executeTakeFirstOrThrow();
  return new Date(row.t);
}

// ---------------------------------------------------------------------------------------------------------------
// The owner's side (decision 0032)
// ---------------------------------------------------------------------------------------------------------------

export type OutboxStatus = "queued" | "sent" | "failed";

export interface OutboxMessage {
  id: number;
  kind: string;
  toAddress: string;
  subject: string;
  status: OutboxStatus;
  attempts: number;
  lastError: string | null;
  lastErrorAt: Date | null;
  createdAt: Date;
  sentAt: Date | null;
  failedAt: Date | null;
  nextAttemptAt: Date;
  orderId: number | null;
  resendOf: number | null;
  requestedAt: Date | null;
  /** A sender's lease on it: while this is in the future, the message may be on its way (it cannot be deleted). */
  claimedUntil: Date | null;
}

const MESSAGE_COLUMNS = [
  "id",
  "kind",
  "to_address",
  "subject",
  "attempts",
  "last_error",
  "last_error_at",
  "created_at",
  "sent_at",
  "failed_at",
  "next_attempt_at",
  "order_id",
  "resend_of",
  "requested_at",
  "claimed_until",
] as const;

type MessageRow = {
  id: number;
  kind: string;
  to_address: string;
  subject: string;
  attempts: number;
  last_error: string | null;
  last_error_at: Date | string | null;
  created_at: Date | string;
  sent_at: Date | string | null;
  failed_at: Date | string | null;
  next_attempt_at: Date | string;
  order_id: number | null;
  resend_of: number | null;
  requested_at: Date | string | null;
  claimed_until: Date | string | null;
};

const date = (v: Date | string) => new Date(v);
const dateOrNull = (v: Date | string | null) => (v === null ? null : new Date(v));

function messageOf(r: MessageRow): OutboxMessage {
  return {
    id: r.id,
    kind: r.kind,
    toAddress: r.to_address,
    subject: r.subject,
    status: r.sent_at !== null ? "sent" : r.failed_at !== null ? "failed" : "queued",
    attempts: r.attempts,
    lastError: r.last_error,
    lastErrorAt: dateOrNull(r.last_error_at),
    createdAt: date(r.created_at),
    sentAt: dateOrNull(r.sent_at),
    failedAt: dateOrNull(r.failed_at),
    nextAttemptAt: date(r.next_attempt_at),
    orderId: r.order_id,
    resendOf: r.resend_of,
    requestedAt: dateOrNull(r.requested_at),
    claimedUntil: dateOrNull(r.claimed_until),
  };
}

/**
 * Newest first; `status` as the screen's filter names it (sent, failed, or queued: neither); `search`: a part of the
 * recipient's address or of the subject, any case.
 */
export async function listOutboxMessages(
  db: Queryable,
  q: { status: OutboxStatus | "all"; search?: string; limit: number; offset: number },
): Promise<{ rows: OutboxMessage[]; total: number }> {
  const b = sql(db);
  let list = b.selectFrom("email_outbox");
  if (q.search) {
    const like = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    list = list.where((eb) => eb.or([eb("to_address", "ilike", like), eb("subject", "ilike", like)]));
  }
  if (q.status === "sent") list = list.where("sent_at", "is not", null);
  if (q.status === "failed") list = list.where("sent_at", "is", null).where("failed_at", "is not", null);
  if (q.status === "queued") list = list.where("sent_at", "is", null).where("failed_at", "is", null);
  const [rows, count] = await Promise.all([
    list.select(MESSAGE_COLUMNS).orderBy("id", "desc").limit(q.limit).offset(q.offset).execute(),
    list.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(messageOf), total: Number(count.n) };
}

/** One message with its text. */
export async function findOutboxMessage(db: Queryable, id: number): Promise<(OutboxMessage & { body: string }) | null> {
  const row = await sql(db)
    .selectFrom("email_outbox")
    .select([...MESSAGE_COLUMNS, "body"])
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? { ...messageOf(row), body: row.body } : null;
}

/**
 * "Retry now": puts a failed message back in the queue, due at once, with the retry policy started over
 * (attempts 0) and marked as asked for by staff. One UPDATE that matches only a failed, unsent row, so of two
 * clicks at once exactly one changes it (the second sees it queued): null then, and nothing changed.
 */
export async function retryFailedEmail(db: Queryable, id: number): Promise<OutboxMessage | null> {
  const row = await sql(db)
    .updateTable("email_outbox")
    .set({ failed_at: null, attempts: 0, next_attempt_at: raw<Date>`now()`, claimed_until: null, requested_at: raw<Date>`now()` })
    .where("id", "=", id)
    .where("failed_at", "is not", null)
    .where("sent_at", "is", null)
    .returning(MESSAGE_COLUMNS)
    .executeTakeFirst();
  return row ? messageOf(row) : null;
}

/**
 * "Resend": a new queued copy of a sent message (same recipient, subject, text, order), naming its original. One
 * INSERT … SELECT that copies only a sent row, and at most one copy waits at a time (a partial unique index,
 * migration 0032): null when the original is not sent or a copy is already waiting.
 */
export async function resendSentEmail(db: Queryable, id: number): Promise<OutboxMessage | null> {
  const row = await sql(db)
    .insertInto("email_outbox")
    .columns(["kind", "to_address", "subject", "body", "order_id", "resend_of", "requested_at"])
    .expression((eb) =>
      eb
        .selectFrom("email_outbox")
        .select((s) => ["kind", "to_address", "subject", "body", "order_id", "id", s.val(raw<Date>`now()`).as("requested_at")])
        .where("id", "=", id)
        .where("sent_at", "is not", null),
    )
    .onConflict((oc) => oc.column("resend_of").where("resend_of", "is not", null).where("sent_at", "is", null).where("failed_at", "is", null).doNothing())
    .returning(MESSAGE_COLUMNS)
    .executeTakeFirst();
  return row ? messageOf(row) : null;
}

/** The copy of `id` waiting to be sent, if any. */
export async function waitingCopyOf(db: Queryable, id: number): Promise<number | null> {
  const row = await sql(db)
    .selectFrom("email_outbox")
    .select("id")
    .where("resend_of", "=", id)
    .where("sent_at", "is", null)
    .where("failed_at", "is", null)
    .executeTakeFirst();
  return row?.id ?? null;
}

/**
 * Deletes a message unless a sender holds it right now (its lease, `claimed_until`, has not run out: it may be on
 * its way to the SMTP server). One DELETE, so a sender's claim and a deletion never both win: "deleted", "sending"
 * (nothing changed) or "missing". A copy's `resend_of` and a contact reply's `email_id` become NULL (their keys).
 */
export async function deleteOutboxEmail(db: Queryable, id: number): Promise<"deleted" | "sending" | "missing"> {
  const b = sql(db);
  const deleted = await b
    .deleteFrom("email_outbox")
    .where("id", "=", id)
    .where((w) => w.or([w("claimed_until", "is", null), w("claimed_until", "<=", raw<Date>`clock_timestamp()`)]))
    .returning("id")
    .execute();
  if (deleted.length) return "deleted";
  const still = await b.selectFrom("email_outbox").select("id").where("id", "=", id).executeTakeFirst();
  return still ? "sending" : "missing";
}

export interface OutboxSummary {
  counts: Record<OutboxStatus, number>;
  lastSentAt: Date | null;
  /** The newest failed delivery attempt (a kind turned off is not one). */
  lastError: { id: number; message: string; at: Date } | null;
}

export async function outboxSummary(db: Queryable): Promise<OutboxSummary> {
  const b = sql(db);
  const [counts, error] = await Promise.all([
    b
      .selectFrom("email_outbox")
      .select((eb) => [
        eb.fn.countAll<number>().filterWhere("sent_at", "is not", null).as("sent"),
        eb.fn.countAll<number>().filterWhere("sent_at", "is", null).filterWhere("failed_at", "is not", null).as("failed"),
        eb.fn.countAll<number>().filterWhere("sent_at", "is", null).filterWhere("failed_at", "is", null).as("queued"),
        eb.fn.max("sent_at").as("last_sent"),
      ])
      .executeTakeFirstOrThrow(),
    b
      .selectFrom("email_outbox")
      .select(["id", "last_error", "last_error_at"])
      .where("last_error_at", "is not", null)
      .orderBy("last_error_at", "desc")
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst(),
  ]);
  return {
    counts: { queued: Number(counts.queued), sent: Number(counts.sent), failed: Number(counts.failed) },
    lastSentAt: counts.last_sent ? new Date(counts.last_sent as Date | string) : null,
    lastError: error && error.last_error_at ? { id: error.id, message: error.last_error ?? "", at: new Date(error.last_error_at) } : null,
  };
}
