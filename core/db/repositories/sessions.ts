/** Server-side sessions for guests and customers, kept in the database. */
import type { Queryable } from "../client.ts";

export interface Notice {
  type: "success" | "error" | "notice";
  message: string;
}

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

interface SessionRow {
  id: string;
  customer_id: number | null;
  data: SessionData;
  expires_at: Date | string;
}

const toRecord = (r: SessionRow): SessionRecord => ({
  id: r.id,
  customerId: r.customer_id,
  data: r.data ?? {},
  expiresAt: new Date(r.expires_at),
});

export async function findSession(db: Queryable, id: string, now: Date): Promise<SessionRecord | null> {
  const [row] = await db.query<SessionRow>(`SELECT id, customer_id, data, expires_at FROM sessions WHERE id = $1 AND expires_at > $2`, [id, now]);
  return row ? toRecord(row) : null;
}

export async function createSession(db: Queryable, s: SessionRecord): Promise<void> {
  await db.query(`INSERT INTO sessions (id, customer_id, data, expires_at) VALUES ($1, $2, $3, $4)`, [s.id, s.customerId, JSON.stringify(s.data), s.expiresAt]);
}

export async function saveSession(db: Queryable, s: SessionRecord): Promise<void> {
  await db.query(`UPDATE sessions SET customer_id = $2, data = $3, expires_at = $4, updated_at = now() WHERE id = $1`, [s.id, s.customerId, JSON.stringify(s.data), s.expiresAt]);
}

/** Gives the session a new id (at login), keeping its data: stops session fixation. */
export async function rotateSessionId(db: Queryable, oldId: string, newId: string): Promise<void> {
  await db.query(`UPDATE sessions SET id = $2, updated_at = now() WHERE id = $1`, [oldId, newId]);
}

export async function deleteSession(db: Queryable, id: string): Promise<void> {
  await db.query(`DELETE FROM sessions WHERE id = $1`, [id]);
}

export async function deleteExpiredSessions(db: Queryable, now: Date): Promise<number> {
  const rows = await db.query(`DELETE FROM sessions WHERE expires_at <= $1 RETURNING id`, [now]);
  return rows.length;
}
