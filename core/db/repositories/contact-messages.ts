/** `contact_messages` (migration 0030): what visitors send through the contact form, read by staff. Only SQL lives here. */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";

export interface ContactMessageRecord {
  id: number;
  name: string;
  email: string;
  message: string;
  createdAt: Date;
  readAt: Date | null;
}

const columns = ["id", "name", "email", "message", "created_at", "read_at"] as const;
type Row = { id: number; name: string; email: string; message: string; created_at: Date; read_at: Date | null };
const toRecord = (r: Row): ContactMessageRecord => ({
  id: r.id,
  name: r.name,
  email: r.email,
  message: r.message,
  createdAt: new Date(r.created_at),
  readAt: r.read_at ? new Date(r.read_at) : null,
});

export async function insertContactMessage(
  db: Queryable,
  m: { name: string; email: string; message: string; clientAddress: string | null; at: Date },
): Promise<number> {
  const row = await sql(db)
    .insertInto("contact_messages")
    .values({ name: m.name, email: m.email, message: m.message, client_address: m.clientAddress, created_at: m.at })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Newest first; `status` 'unread' or 'read' filters, 'all' does not. */
export async function listContactMessages(
  db: Queryable,
  f: { status: "all" | "unread" | "read"; limit: number; offset: number },
): Promise<{ rows: ContactMessageRecord[]; total: number }> {
  const b = sql(db);
  let list = b.selectFrom("contact_messages").select(columns);
  let count = b.selectFrom("contact_messages").select(raw<number>`count(*)::int`.as("n"));
  if (f.status !== "all") {
    list = list.where("read_at", f.status === "unread" ? "is" : "is not", null);
    count = count.where("read_at", f.status === "unread" ? "is" : "is not", null);
  }
  const [rows, total] = await Promise.all([
    list.orderBy("created_at", "desc").orderBy("id", "desc").limit(f.limit).offset(f.offset).execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { rows: (rows as Row[]).map(toRecord), total: total.n };
}

export async function findContactMessage(db: Queryable, id: number): Promise<ContactMessageRecord | null> {
  const row = await sql(db).selectFrom("contact_messages").select(columns).where("id", "=", id).executeTakeFirst();
  return row ? toRecord(row as Row) : null;
}

/** Marks read (`at`) or unread (null); the message as it is now, or null when there is none. */
export async function setContactMessageRead(db: Queryable, id: number, at: Date | null): Promise<ContactMessageRecord | null> {
  const row = await sql(db).updateTable("contact_messages").set({ read_at: at }).where("id", "=", id).returning(columns).executeTakeFirst();
  return row ? toRecord(row as Row) : null;
}

/** The address of the first administrator (the shop's owner): where contact messages go when the site has no `email` setting. */
export async function ownerAccountEmail(db: Queryable): Promise<string | null> {
  const row = await sql(db).selectFrom("customers").select("email").where("role", "=", "administrator").orderBy("id").limit(1).executeTakeFirst();
  return row?.email ?? null;
}
