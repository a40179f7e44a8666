/**
 * The sandbox payment processor's state (tables sandbox_keys and sandbox_records, migration 0004): idempotency keys
 * and versioned records, for the SandboxStore in core/payments/sql-store.server.ts. Only SQL lives here; the store
 * keeps the transaction and the checks. Records hold summaries only (brand, last four, expiry).
 */
import type { Queryable } from "../client.ts";
import { sql } from "../kysely.ts";

export interface SandboxKey {
  key: string;
  state: "pending" | "done";
  operation: string;
  fingerprint: string;
  claimId: string;
  claimedAt: number;
  /** The stored result (parsed JSON) once done, else null. */
  result: unknown;
  completedAt: number | null;
}

export interface SandboxKeyClaim {
  key: string;
  operation: string;
  fingerprint: string;
  claimId: string;
  claimedAt: number;
}

/**
 * One statement: inserts a pending claim, or takes over a pending claim older than `staleBefore`.
 * True when this claim now holds the key; false when another (live or done) claim is there.
 */
export async function claimSandboxKey(db: Queryable, claim: SandboxKeyClaim, staleBefore: number): Promise<boolean> {
  const taken = await sql(db)
    .insertInto("sandbox_keys")
    .values({
      key: claim.key,
      state: "pending",
      operation: claim.operation,
      fingerprint: claim.fingerprint,
      claim_id: claim.claimId,
      claimed_at: claim.claimedAt,
    })
    .onConflict((oc) =>
      oc
        .column("key")
        .doUpdateSet((eb) => ({
          operation: eb.ref("excluded.operation"),
          fingerprint: eb.ref("excluded.fingerprint"),
          claim_id: eb.ref("excluded.claim_id"),
          claimed_at: eb.ref("excluded.claimed_at"),
        }))
        .where("sandbox_keys.state", "=", "pending")
        .where("sandbox_keys.claimed_at", "<", staleBefore),
    )
    .returning("key")
    .execute();
  return taken.length > 0;
}

export async function findSandboxKey(db: Queryable, key: string): Promise<SandboxKey | null> {
  const row = await sql(db)
    .selectFrom("sandbox_keys")
    .select(["key", "state", "operation", "fingerprint", "claim_id", "claimed_at", "result", "completed_at"])
    .where("key", "=", key)
    .executeTakeFirst();
  if (!row) return null;
  return {
    key: row.key,
    state: row.state as SandboxKey["state"],
    operation: row.operation,
    fingerprint: row.fingerprint,
    claimId: row.claim_id,
    claimedAt: Number(row.claimed_at),
    result: row.result,
    completedAt: row.completed_at === null ? null : Number(row.completed_at),
  };
}

/** Drops the key while it is pending and held by `claimId`. */
export async function releaseSandboxKey(db: Queryable, key: string, claimId: string): Promise<void> {
  await sql(db).deleteFrom("sandbox_keys").where("key", "=", key).where("claim_id", "=", claimId).where("state", "=", "pending").execute();
}

/** Locks the key's row (FOR UPDATE) until the transaction ends and tells who holds it. */
export async function lockSandboxKey(tx: Queryable, key: string): Promise<{ claimId: string; state: string } | undefined> {
  const row = await sql(tx).selectFrom("sandbox_keys").select(["claim_id", "state"]).where("key", "=", key).forUpdate().executeTakeFirst();
  return row && { claimId: row.claim_id, state: row.state };
}

/** Marks the key done with its result. */
export async function completeSandboxKey(tx: Queryable, key: string, result: unknown, completedAt: number): Promise<void> {
  await sql(tx)
    .updateTable("sandbox_keys")
    .set({ state: "done", result: JSON.stringify(result), completed_at: completedAt })
    .where("key", "=", key)
    .execute();
}

/** The record's data (parsed JSON), or null. */
export async function findSandboxRecord(db: Queryable, id: string): Promise<unknown> {
  const row = await sql(db).selectFrom("sandbox_records").select("data").where("id", "=", id).executeTakeFirst();
  return row ? row.data : null;
}

/** Inserts version 1 of a record; false when the id exists already (nothing written). */
export async function insertSandboxRecord(tx: Queryable, record: { id: string; type: string; data: unknown }): Promise<boolean> {
  const rows = await sql(tx)
    .insertInto("sandbox_records")
    .values({ id: record.id, type: record.type, version: 1, data: JSON.stringify(record.data) })
    .onConflict((oc) => oc.column("id").doNothing())
    .returning("id")
    .execute();
  return rows.length > 0;
}

/** Writes version `version` of a record; false unless the stored version is `version − 1` (nothing written). */
export async function updateSandboxRecord(tx: Queryable, record: { id: string; version: number; data: unknown }): Promise<boolean> {
  const rows = await sql(tx)
    .updateTable("sandbox_records")
    .set({ version: record.version, data: JSON.stringify(record.data) })
    .where("id", "=", record.id)
    .where("version", "=", record.version - 1)
    .returning("id")
    .execute();
  return rows.length > 0;
}
