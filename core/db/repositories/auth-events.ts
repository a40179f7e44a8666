/**
 * `auth_events`: one row per counted event (a failed login, an e-mail check, a reset request or e-mail, a
 * script-error report), the memory of the sliding-window limits in core/commerce/rate-limits.ts. Only SQL lives here;
 * the check-and-record is made atomic by the caller's transaction and an advisory lock on the key (locks.ts).
 */
import type { Queryable } from "../client.ts";
import { sql } from "../kysely.ts";

export type EventScope = "account" | "address" | "session";

export interface EventKey {
  kind: string;
  scope: EventScope;
  subject: string;
}

/** Events of a key since a time; with `address`, only those recorded from that client address. */
export async function countEvents(db: Queryable, key: EventKey, since: Date, address?: string): Promise<number> {
  let q = sql(db)
    .selectFrom("auth_events")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("kind", "=", key.kind)
    .where("scope", "=", key.scope)
    .where("subject", "=", key.subject)
    .where("at", ">", since);
  if (address !== undefined) q = q.where("address", "=", address);
  const row = await q.executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Records events; returns their ids (to take them back with `deleteEvents`). */
export async function recordEvents(db: Queryable, events: readonly (EventKey & { at: Date; address?: string | null })[]): Promise<number[]> {
  if (!events.length) return [];
  const rows = await sql(db)
    .insertInto("auth_events")
    .values(events.map((e) => ({ kind: e.kind, scope: e.scope, subject: e.subject, at: e.at, address: e.address ?? null })))
    .returning("id")
    .execute();
  return rows.map((r) => r.id);
}

export async function deleteEvents(db: Queryable, ids: readonly number[]): Promise<void> {
  if (!ids.length) return;
  await sql(db).deleteFrom("auth_events").where("id", "in", ids).execute();
}

/** Forgets every event of these keys (kind and scope, any of the subjects): how a password reset lifts a lock. */
export async function clearEvents(db: Queryable, kind: string, scope: EventScope, subjects: readonly string[]): Promise<number> {
  if (!subjects.length) return 0;
  const rows = await sql(db)
    .deleteFrom("auth_events")
    .where("kind", "=", kind)
    .where("scope", "=", scope)
    .where("subject", "in", subjects)
    .returning("id")
    .execute();
  return rows.length;
}

/**
 * The purge: deletes up to `batch` events older than `before` and returns how many. Rows another process is
 * deleting at the same moment are skipped (SKIP LOCKED), so several processes purge side by side without waiting.
 */
export async function deleteEventsBefore(db: Queryable, before: Date, batch: number): Promise<number> {
  const rows = await sql(db)
    .deleteFrom("auth_events")
    .where("id", "in", (eb) => eb.selectFrom("auth_events").select("id").where("at", "<", before).limit(batch).forUpdate().skipLocked())
    .returning("id")
    .execute();
  return rows.length;
}
