/**
 * Sliding-window limits kept in the database (`auth_events`), so they hold across every process of a shop and
 * across restarts. A check and its record are one atomic step: the check runs in a transaction that first takes
 * an advisory lock on each limit's key (pg_advisory_xact_lock, on PGlite and PostgreSQL alike), so concurrent
 * requests against one key are counted one after another and never all pass the same count.
 * The policy built on them (sign-in, reset e-mails): docs/decisions/0009-account-limits.md.
 */
import type { Db, Queryable } from "../db/client.ts";
import { countEvents, deleteEvents, recordEvents, type EventKey } from "../db/repositories/auth-events.ts";
import { lockKey } from "../db/repositories/locks.ts";

export interface Limit extends EventKey {
  /** Events allowed in the window; the next one is refused. */
  max: number;
  windowMs: number;
}

const lockName = (k: EventKey) => `limit:${k.kind}:${k.scope}:${k.subject}`;

/** Runs `fn` in a transaction that holds the locks of these keys (taken in sorted order: two checks never deadlock). */
export async function withLimitLocks<T>(db: Db, keys: readonly EventKey[], fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    for (const name of [...new Set(keys.map(lockName))].sort()) await lockKey(tx, name);
    return fn(tx);
  });
}

export type Consumed = { ok: true; ids: number[] } | { ok: false; limit: Limit };

/**
 * Check-and-record: when every limit has room, records one event for each (with the client address when given)
 * and returns their ids; otherwise records nothing and returns the first limit that is full.
 */
export async function consumeLimits(db: Db, now: Date, limits: readonly Limit[], address?: string): Promise<Consumed> {
  return withLimitLocks(db, limits, async (tx): Promise<Consumed> => {
    for (const limit of limits) {
      if ((await countEvents(tx, limit, new Date(now.getTime() - limit.windowMs))) >= limit.max) return { ok: false, limit };
    }
    const ids = await recordEvents(
      tx,
      limits.map((l) => ({ kind: l.kind, scope: l.scope, subject: l.subject, at: now, address: address ?? null })),
    );
    return { ok: true, ids };
  });
}

/** Takes back events recorded by `consumeLimits` (a reserved failure that turned out to be a success). */
export async function releaseEvents(db: Queryable, ids: readonly number[]): Promise<void> {
  await deleteEvents(db, ids);
}
