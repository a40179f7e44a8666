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

/** A staff reply to a message (migration 0037), with who wrote it and how its e-mail is doing. */
export interface ContactReplyRecord {
  id: number;
  messageId: number;
  body: string;
  createdAt: Date;
  author: { id: number; name: string } | null;
  email: { id: number; status: "queued" | "sent" | "failed" } | null;
}

/** The message, locked until the transaction ends (one reply at a time per message), or null. */
export async function lockContactMessage(tx: Queryable, id: number): Promise<ContactMessageRecord | null> {
  const row = await sql(tx).selectFrom("contact_messages").select(columns).where("id", "=", id).forUpdate().executeTakeFirst();
  return row ? toRecord(row as Row) : null;
}

/** Whether the same text was already sent as a reply to this message since `since` (a double click, a resent form). */
export async function hasReplySince(tx: Queryable, messageId: number, body: string, since: Date): Promise<boolean> {
  const row = await sql(tx)
    .selectFrom("contact_message_replies")
    .select("id")
    .where("message_id", "=", messageId)
    .where("body", "=", body)
    .where("created_at", ">=", since)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertContactReply(
  tx: Queryable,
  r: { messageId: number; authorId: number | null; body: string; emailId: number | null; at: Date },
): Promise<number> {
  const row = await sql(tx)
    .insertInto("contact_message_replies")
    .values({ message_id: r.messageId, author_id: r.authorId, body: r.body, email_id: r.emailId, created_at: r.at })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The replies to these messages, oldest first, with their authors' names and their e-mails' status. */
export async function listContactReplies(db: Queryable, messageIds: readonly number[]): Promise<ContactReplyRecord[]> {
  if (messageIds.length === 0) return [];
  const rows = await sql(db)
    .selectFrom("contact_message_replies as r")
    .leftJoin("customers as c", "c.id", "r.author_id")
    .leftJoin("email_outbox as e", "e.id", "r.email_id")
    .select([
      "r.id",
      "r.message_id",
      "r.body",
      "r.created_at",
      "r.author_id",
      "c.display_name",
      "c.email as author_email",
      "e.id as email_id",
      "e.sent_at",
      "e.failed_at",
    ])
    .where("r.message_id", "in", [...messageIds])
    .orderBy("r.created_at")
    .orderBy("r.id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    messageId: r.message_id,
    body: r.body,
    createdAt: new Date(r.created_at),
    author: r.author_id === null ? null : { id: r.author_id, name: r.display_name || r.author_email || `user ${r.author_id}` },
    // The outbox's own rule (email-outbox.ts): sent once sent_at is set, failed once failed_at is, queued before.
    email: r.email_id === null ? null : { id: r.email_id, status: r.sent_at !== null ? "sent" : r.failed_at !== null ? "failed" : "queued" },
  }));
}
