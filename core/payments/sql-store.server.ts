/**
 * `SandboxStore` on the shop's database (tables sandbox_keys and sandbox_records, migration 0004), so the
 * sandbox processor keeps its authorizations, charges and idempotency keys across a restart, as a real
 * processor would — which is what lets the reconciler ask `lookup` after a crash.
 * Records hold summaries only (brand, last four, expiry): never a card number, CSC or bank account number.
 */
import type { Db } from "../db/client.ts";
import type { IdempotencyClaim, IdempotencyRecord, SandboxCommit, SandboxRecord, SandboxStore } from "./store.server.ts";

interface KeyRow {
  key: string;
  state: "pending" | "done";
  operation: string;
  fingerprint: string;
  claim_id: string;
  claimed_at: string | number;
  result: unknown;
  completed_at: string | number | null;
}

const toRecord = (r: KeyRow): IdempotencyRecord => {
  const base = {
    key: r.key,
    operation: r.operation as IdempotencyClaim["operation"],
    fingerprint: r.fingerprint,
    claimId: r.claim_id,
    claimedAt: Number(r.claimed_at),
  };
  return r.state === "done"
    ? { ...base, state: "done", result: r.result as never, completedAt: Number(r.completed_at) }
    : { ...base, state: "pending" };
};

class VersionConflict extends Error {}

export class SqlSandboxStore implements SandboxStore {
  constructor(private readonly db: Db) {}

  async claimKey(claim: IdempotencyClaim, staleBefore: number): Promise<IdempotencyRecord | null> {
    // One statement: insert, or take over a stale pending claim; otherwise report what is there.
    const taken = await this.db.query<{ key: string }>(
      `INSERT INTO sandbox_keys (key, state, operation, fingerprint, claim_id, claimed_at)
       VALUES ($1, 'pending', $2, $3, $4, $5)
       ON CONFLICT (key) DO UPDATE SET operation = EXCLUDED.operation, fingerprint = EXCLUDED.fingerprint,
         claim_id = EXCLUDED.claim_id, claimed_at = EXCLUDED.claimed_at
       WHERE sandbox_keys.state = 'pending' AND sandbox_keys.claimed_at < $6
       RETURNING key`,
      [claim.key, claim.operation, claim.fingerprint, claim.claimId, claim.claimedAt, staleBefore],
    );
    if (taken.length) return null;
    const existing = await this.getKey(claim.key);
    // Released between the two statements: try once more.
    return existing ?? this.claimKey(claim, staleBefore);
  }

  async getKey(key: string): Promise<IdempotencyRecord | null> {
    const [row] = await this.db.query<KeyRow>(`SELECT * FROM sandbox_keys WHERE key = $1`, [key]);
    return row ? toRecord(row) : null;
  }

  async releaseKey(key: string, claimId: string): Promise<void> {
    await this.db.query(`DELETE FROM sandbox_keys WHERE key = $1 AND claim_id = $2 AND state = 'pending'`, [key, claimId]);
  }

  async getRecord(id: string): Promise<SandboxRecord | null> {
    const [row] = await this.db.query<{ data: SandboxRecord }>(`SELECT data FROM sandbox_records WHERE id = $1`, [id]);
    return row ? row.data : null;
  }

  async commit(commit: SandboxCommit): Promise<boolean> {
    try {
      return await this.db.transaction(async (tx) => {
        const [claim] = await tx.query<{ claim_id: string; state: string }>(
          `SELECT claim_id, state FROM sandbox_keys WHERE key = $1 FOR UPDATE`,
          [commit.key],
        );
        if (claim?.state !== "pending" || claim.claim_id !== commit.claimId) return false;
        for (const write of commit.writes) {
          const rows =
            write.version === 1
              ? await tx.query(`INSERT INTO sandbox_records (id, type, version, data) VALUES ($1, $2, 1, $3) ON CONFLICT (id) DO NOTHING RETURNING id`, [
                  write.id,
                  write.type,
                  JSON.stringify(write),
                ])
              : await tx.query(`UPDATE sandbox_records SET version = $2, data = $3 WHERE id = $1 AND version = $4 RETURNING id`, [
                  write.id,
                  write.version,
                  JSON.stringify(write),
                  write.version - 1,
                ]);
          if (rows.length === 0) throw new VersionConflict();
        }
        await tx.query(`UPDATE sandbox_keys SET state = 'done', result = $2, completed_at = $3 WHERE key = $1`, [
          commit.key,
          JSON.stringify(commit.result),
          commit.completedAt,
        ]);
        return true;
      });
    } catch (error) {
      if (error instanceof VersionConflict) return false;
      throw error;
    }
  }
}
