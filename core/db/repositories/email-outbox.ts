/**
 * The sending side of `email_outbox` (order and account mails), for core/mail/outbox-sender.ts: claiming due rows
 * under a lease, storing each send's result while the lease still holds, handing rows back. Only SQL lives here.
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
    .returning(["id", "kind", "to_address", "subject", "body", "attempts", "created_at"])
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    toAddress: r.to_address,
    subject: r.subject,
    body: r.body,
    attempts: r.attempts,
    createdAt: new Date(r.created_at),
  }));
}

/** What one send changed: delivered, given up, or deferred to a later attempt. */
export type EmailOutcome =
  { sentAt: Date } | { attempts: number; lastError: string; failedAt: Date } | { attempts: number; lastError: string; nextAttemptAt: Date };

/**
 * Stores a send's outcome and clears the lease, only while the lease `leaseEnd` still holds the unsent row (after a
 * lost lease another process owns it). False when nothing was written.
 */
export async function finishClaimedEmail(db: Queryable, id: number, leaseEnd: Date, outcome: EmailOutcome): Promise<boolean> {
  const set =
    "sentAt" in outcome
      ? { sent_at: outcome.sentAt }
      : "failedAt" in outcome
        ? { attempts: outcome.attempts, last_error: outcome.lastError, failed_at: outcome.failedAt }
        : { attempts: outcome.attempts, last_error: outcome.lastError, next_attempt_at: outcome.nextAttemptAt };
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
