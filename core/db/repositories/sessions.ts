/** Server-side sessions for guests and customers, kept in the database. */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";
import type { Notice } from "../../domain/notice.ts";

export type { Notice };

export interface SessionData {
  notices?: Notice[];
  [key: string]: unknown;
}

export interface SessionRecord {
  id: string;
  customerId: number | null;
  data: SessionData;
  expiresAt: Date;
}

const toRecord = (r: { id: string; customer_id: number | null; data: unknown; expires_at: Date }): SessionRecord => ({
  id: r.id,
  customerId: r.customer_id,
  data: (r.data as SessionData | null) ?? {},
  expiresAt: new Date(r.expires_at),
});

export async function findSession(db: Queryable, id: string, now: Date): Promise<SessionRecord | null> {
  const row = await sql(db)
    .selectFrom("sessions")
    .select(["id", "customer_id", "data", "expires_at"])
    .where("id", "=", id)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return row ? toRecord(row) : null;
}

export async function createSession(db: Queryable, s: SessionRecord): Promise<void> {
  await sql(db)
    .insertInto("sessions")
    .values({ id: s.id, customer_id: s.customerId, data: JSON.stringify(s.data), expires_at: s.expiresAt })
    .execute();
}

export async function saveSession(db: Queryable, s: SessionRecord): Promise<void> {
  await sql(db)
    .updateTable("sessions")
    .set({ customer_id: s.customerId, data: JSON.stringify(s.data), expires_at: s.expiresAt, updated_at: raw`now()` })
    .where("id", "=", s.id)
    .execute();
}

/** Gives the session a new id (at login), keeping its data: stops session fixation. */
export async function rotateSessionId(db: Queryable, oldId: string, newId: string): Promise<void> {
  await sql(db)
    .updateTable("sessions")
    .set({ id: newId, updated_at: raw`now()` })
    .where("id", "=", oldId)
    .execute();
}

export async function deleteSession(db: Queryable, id: string): Promise<void> {
  await sql(db).deleteFrom("sessions").where("id", "=", id).execute();
}

/** Ends every session of a customer but `keepId` (a password change keeps the session that made it). */
export async function deleteCustomerSessions(db: Queryable, customerId: number, keepId?: string): Promise<void> {
  let q = sql(db).deleteFrom("sessions").where("customer_id", "=", customerId);
  if (keepId !== undefined) q = q.where("id", "<>", keepId);
  await q.execute();
}

/**
 * The purge: deletes up to `batch` sessions that expired before `before` and returns how many (a guest session's
 * cart goes with it: carts.session_id cascades). Rows another process is deleting are skipped (SKIP LOCKED).
 */
export async function deleteExpiredSessions(db: Queryable, before: Date, batch = 1000): Promise<number> {
  const rows = await sql(db)
    .deleteFrom("sessions")
    .where("id", "in", (eb) => eb.selectFrom("sessions").select("id").where("expires_at", "<=", before).limit(batch).forUpdate().skipLocked())
    .returning("id")
    .execute();
  return rows.length;
}
