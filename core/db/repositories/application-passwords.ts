/** `application_passwords` (migration 0020): an account's passwords for integrations, stored as a keyed hash only. */
import type { Queryable } from "../client.ts";
import { sql } from "../kysely.ts";

export interface ApplicationPasswordRow {
  uuid: string;
  customerId: number;
  appId: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  lastIp: string | null;
}

const COLUMNS = ["uuid", "customer_id", "app_id", "name", "created_at", "last_used_at", "last_ip"] as const;

type Raw = { uuid: string; customer_id: number; app_id: string; name: string; created_at: Date; last_used_at: Date | null; last_ip: string | null };

const toRow = (r: Raw): ApplicationPasswordRow => ({
  uuid: r.uuid,
  customerId: r.customer_id,
  appId: r.app_id,
  name: r.name,
  createdAt: new Date(r.created_at),
  lastUsedAt: r.last_used_at === null ? null : new Date(r.last_used_at),
  lastIp: r.last_ip,
});

export async function insertApplicationPassword(
  db: Queryable,
  p: { uuid: string; customerId: number; appId: string; name: string; passwordHash: string; now: Date },
): Promise<ApplicationPasswordRow> {
  const row = await sql(db)
    .insertInto("application_passwords")
    .values({ uuid: p.uuid, customer_id: p.customerId, app_id: p.appId, name: p.name, password_hash: p.passwordHash, created_at: p.now })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toRow(row);
}

/** The account's application passwords, oldest first (WordPress lists them in creation order). */
export async function listApplicationPasswords(db: Queryable, customerId: number): Promise<ApplicationPasswordRow[]> {
  const rows = await sql(db)
    .selectFrom("application_passwords")
    .select(COLUMNS)
    .where("customer_id", "=", customerId)
    .orderBy("created_at")
    .orderBy("uuid")
    .execute();
  return rows.map(toRow);
}

export async function findApplicationPassword(db: Queryable, customerId: number, uuid: string): Promise<ApplicationPasswordRow | null> {
  const row = await sql(db)
    .selectFrom("application_passwords")
    .select(COLUMNS)
    .where("customer_id", "=", customerId)
    .where("uuid", "=", uuid)
    .executeTakeFirst();
  return row ? toRow(row) : null;
}

/** The account's application password with this hash (the Basic sign-in), or null. */
export async function findApplicationPasswordByHash(db: Queryable, customerId: number, passwordHash: string): Promise<ApplicationPasswordRow | null> {
  const row = await sql(db)
    .selectFrom("application_passwords")
    .select(COLUMNS)
    .where("customer_id", "=", customerId)
    .where("password_hash", "=", passwordHash)
    .executeTakeFirst();
  return row ? toRow(row) : null;
}

/** Whether the account has an application password of this name (case-insensitively), other than `exceptUuid`. */
export async function applicationPasswordNameTaken(db: Queryable, customerId: number, name: string, exceptUuid?: string): Promise<boolean> {
  let q = sql(db)
    .selectFrom("application_passwords")
    .select("uuid")
    .where("customer_id", "=", customerId)
    .where((eb) => eb(eb.fn("lower", ["name"]), "=", name.toLowerCase()));
  if (exceptUuid) q = q.where("uuid", "<>", exceptUuid);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function renameApplicationPassword(db: Queryable, customerId: number, uuid: string, name: string): Promise<ApplicationPasswordRow | null> {
  const row = await sql(db)
    .updateTable("application_passwords")
    .set({ name })
    .where("customer_id", "=", customerId)
    .where("uuid", "=", uuid)
    .returning(COLUMNS)
    .executeTakeFirst();
  return row ? toRow(row) : null;
}

export async function deleteApplicationPassword(db: Queryable, customerId: number, uuid: string): Promise<ApplicationPasswordRow | null> {
  const row = await sql(db)
    .deleteFrom("application_passwords")
    .where("customer_id", "=", customerId)
    .where("uuid", "=", uuid)
    .returning(COLUMNS)
    .executeTakeFirst();
  return row ? toRow(row) : null;
}

export async function deleteAllApplicationPasswords(db: Queryable, customerId: number): Promise<number> {
  const rows = await sql(db).deleteFrom("application_passwords").where("customer_id", "=", customerId).returning("uuid").execute();
  return rows.length;
}

/** Records a use; the caller decides how often (at most once a minute). */
export async function touchApplicationPassword(db: Queryable, uuid: string, at: Date, ip: string): Promise<void> {
  await sql(db).updateTable("application_passwords").set({ last_used_at: at, last_ip: ip }).where("uuid", "=", uuid).execute();
}
