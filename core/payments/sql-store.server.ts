/**
 * `SandboxStore` on the shop's database (tables sandbox_keys and sandbox_records, migration 0004), so the
 * sandbox processor keeps its authorizations, charges and idempotency keys across a restart, as a real
 * processor would — which is what lets the reconciler ask `lookup` after a crash.
 * Records hold summaries only (brand, last four, expiry): never a card number, CSC or bank account number.
 * The statements are in core/db/repositories/payment-records.ts.
 */
import type { Db } from "../db/client.ts";
import {
  claimSandboxKey,
  completeSandboxKey,
  findSandboxKey,
  findSandboxRecord,
  insertSandboxRecord,
  lockSandboxKey,
  releaseSandboxKey,
  updateSandboxRecord,
  type SandboxKey,
} from "../db/repositories/payment-records.ts";
import type { IdempotencyClaim, IdempotencyRecord, SandboxCommit, SandboxRecord, SandboxStore } from "./store.server.ts";

const toRecord = (r: SandboxKey): IdempotencyRecord => {
  const base = {
    key: r.key,
    operation: r.operation as IdempotencyClaim["operation"],
    fingerprint: r.fingerprint,
    claimId: r.claimId,
    claimedAt: r.claimedAt,
  };
  return r.state === "done" ? { ...base, state: "done", result: r.result as never, completedAt: Number(r.completedAt) } : { ...base, state: "pending" };
};

class VersionConflict extends Error {}

export class SqlSandboxStore implements SandboxStore {
  constructor(private readonly db: Db) {}

  async claimKey(claim: IdempotencyClaim, staleBefore: number): Promise<IdempotencyRecord | null> {
    // One statement: insert, or take over a stale pending claim; otherwise report what is there.
    if (await claimSandboxKey(this.db, claim, staleBefore)) return null;
    const existing = await this.getKey(claim.key);
    // Released between the two statements: try once more.
    return existing ?? this.claimKey(claim, staleBefore);
  }

  async getKey(key: string): Promise<IdempotencyRecord | null> {
    const row = await findSandboxKey(this.db, key);
    return row ? toRecord(row) : null;
  }

  async releaseKey(key: string, claimId: string): Promise<void> {
    await releaseSandboxKey(this.db, key, claimId);
  }

  async getRecord(id: string): Promise<SandboxRecord | null> {
    return (await findSandboxRecord(this.db, id)) as SandboxRecord | null;
  }

  async commit(commit: SandboxCommit): Promise<boolean> {
    try {
      return await this.db.transaction(async (tx) => {
        const claim = await lockSandboxKey(tx, commit.key);
        if (claim?.state !== "pending" || claim.claimId !== commit.claimId) return false;
        for (const write of commit.writes) {
          const written =
            write.version === 1
              ? await insertSandboxRecord(tx, { id: write.id, type: write.type, data: write })
              : await updateSandboxRecord(tx, { id: write.id, version: write.version, data: write });
          if (!written) throw new VersionConflict();
        }
        await completeSandboxKey(tx, commit.key, commit.result, commit.completedAt);
        return true;
      });
    } catch (error) {
      if (error instanceof VersionConflict) return false;
      throw error;
    }
  }
}
