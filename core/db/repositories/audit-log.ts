/** `audit_log` (migration 0019): one row per staff write. */
import type { Queryable } from "../client.ts";
import { sql } from "../kysely.ts";

export interface AuditEntry {
  actorId: number | null;
  actorLabel: string;
  via: string;
  action: string;
  objectType: string;
  objectId: string | number;
  changes?: Record<string, unknown>;
  address?: string | null;
}

export interface AuditRow extends Omit<AuditEntry, "objectId"> {
  id: number;
  at: Date;
  objectId: string;
  changes: Record<string, unknown>;
}

/** Writes the entry on `db`: pass the transaction of the change so the line and the change stand or fall together. */
export async function insertAuditEntry(db: Queryable, entry: AuditEntry): Promise<void> {
  await sql(db)
    .insertInto("audit_log")
    .values({
      actor_id: entry.actorId,
      actor_label: entry.actorLabel,
      via: entry.via,
      action: entry.action,
      object_type: entry.objectType,
      object_id: String(entry.objectId),
      changes: JSON.stringify(entry.changes ?? {}),
      address: entry.address ?? null,
    })
    .execute();
}

export interface AuditFilter {
  objectType?: string;
  objectId?: string;
  actorId?: number;
  limit: number;
  offset: number;
}

export async function listAuditEntries(db: Queryable, filter: AuditFilter): Promise<{ rows: AuditRow[]; total: number }> {
  let query = sql(db).selectFrom("audit_log");
  if (filter.objectType) query = query.where("object_type", "=", filter.objectType);
  if (filter.objectId) query = query.where("object_id", "=", filter.objectId);
  if (filter.actorId) query = query.where("actor_id", "=", filter.actorId);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy("at", "desc").orderBy("id", "desc").limit(filter.limit).offset(filter.offset).execute(),
    query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.n),
    rows: rows.map((r) => ({
      id: Number(r.id),
      at: new Date(r.at),
      actorId: r.actor_id,
      actorLabel: r.actor_label,
      via: r.via,
      action: r.action,
      objectType: r.object_type,
      objectId: r.object_id,
      changes: (typeof r.changes === "string" ? JSON.parse(r.changes) : r.changes) as Record<string, unknown>,
      address: r.address,
    })),
  };
}
