/**
 * The sandbox processor's state behind a deliberately small async interface, so a SQL implementation
 * (three tables: idempotency keys, records, and nothing else) can replace the in-memory one.
 *
 * Nothing here ever holds a card number, a CSC or a bank account number: records carry a summary (brand, last
 * four, expiry) and the test scenario the sandbox derived from the number.
 */
import type { Cents } from "../domain/money/money.ts";
import type { CurrencyCode, GatewayOperation, GatewayResult, PaymentMethodSummary } from "./gateway.ts";
import type { SandboxScenario } from "./test-numbers.ts";

export interface IdempotencyClaim {
  key: string;
  operation: GatewayOperation;
  /** The request's non-sensitive fields; a second call with the same key must match it. */
  fingerprint: string;
  /** Identifies the claimant, so a call that lost a stale claim cannot commit. */
  claimId: string;
  claimedAt: number;
}

export type IdempotencyRecord = (IdempotencyClaim & { state: "pending" }) | (IdempotencyClaim & { state: "done"; result: GatewayResult; completedAt: number });

interface Versioned {
  id: string;
  /** 1 on insert; each update writes version + 1 (optimistic concurrency). */
  version: number;
  createdAt: number;
}

export interface AuthorizationRecord extends Versioned {
  type: "authorization";
  amount: Cents;
  currency: CurrencyCode;
  method: PaymentMethodSummary;
  status: "authorized" | "captured" | "voided";
  expiresAt: number;
  chargeId?: string;
}

export interface ChargeRecord extends Versioned {
  type: "charge";
  /** Set when the charge is the capture of an authorization. */
  authId?: string;
  amount: Cents;
  currency: CurrencyCode;
  method: PaymentMethodSummary;
  refunded: Cents;
}

export interface RefundRecord extends Versioned {
  type: "refund";
  chargeId: string;
  amount: Cents;
  currency: CurrencyCode;
}

export interface TokenRecord extends Versioned {
  type: "token";
  /** The token string is the id. */
  method: PaymentMethodSummary;
  customerRef: string;
  scenario: SandboxScenario;
}

export type SandboxRecord = AuthorizationRecord | ChargeRecord | RefundRecord | TokenRecord;

export interface SandboxCommit {
  key: string;
  claimId: string;
  result: GatewayResult;
  completedAt: number;
  /** Version 1 inserts (fails if the id exists); version n updates (fails unless the stored version is n − 1). */
  writes: readonly SandboxRecord[];
}

export interface SandboxStore {
  /**
   * Atomically claims an idempotency key. Returns null when this call now owns the key, or the existing record.
   * A pending claim older than `staleBefore` (its call died) is taken over.
   */
  claimKey(claim: IdempotencyClaim, staleBefore: number): Promise<IdempotencyRecord | null>;
  getKey(key: string): Promise<IdempotencyRecord | null>;
  /** Drops a pending claim held by `claimId` (the call ended without a result worth remembering). */
  releaseKey(key: string, claimId: string): Promise<void>;
  getRecord(id: string): Promise<SandboxRecord | null>;
  /**
   * In one transaction: checks the claim is still ours and every write's version, applies the writes and marks
   * the key done with its result. Returns false and changes nothing when any check fails.
   */
  commit(commit: SandboxCommit): Promise<boolean>;
}

/** The default store: plain maps. Values are copied in and out, so no caller can mutate stored state. */
export class MemorySandboxStore implements SandboxStore {
  readonly #keys = new Map<string, IdempotencyRecord>();
  readonly #records = new Map<string, SandboxRecord>();

  async claimKey(claim: IdempotencyClaim, staleBefore: number): Promise<IdempotencyRecord | null> {
    const existing = this.#keys.get(claim.key);
    if (existing && !(existing.state === "pending" && existing.claimedAt < staleBefore)) {
      return structuredClone(existing);
    }
    this.#keys.set(claim.key, { ...structuredClone(claim), state: "pending" });
    return null;
  }

  async getKey(key: string): Promise<IdempotencyRecord | null> {
    const record = this.#keys.get(key);
    return record ? structuredClone(record) : null;
  }

  async releaseKey(key: string, claimId: string): Promise<void> {
    const record = this.#keys.get(key);
    if (record?.state === "pending" && record.claimId === claimId) this.#keys.delete(key);
  }

  async getRecord(id: string): Promise<SandboxRecord | null> {
    const record = this.#records.get(id);
    return record ? structuredClone(record) : null;
  }

  async commit(commit: SandboxCommit): Promise<boolean> {
    const claim = this.#keys.get(commit.key);
    if (claim?.state !== "pending" || claim.claimId !== commit.claimId) return false;
    for (const write of commit.writes) {
      const stored = this.#records.get(write.id);
      if (write.version === 1 ? stored !== undefined : stored?.version !== write.version - 1) return false;
    }
    for (const write of commit.writes) this.#records.set(write.id, structuredClone(write));
    this.#keys.set(commit.key, {
      ...claim,
      state: "done",
      result: structuredClone(commit.result),
      completedAt: commit.completedAt,
    });
    return true;
  }

  /** Everything held, for tests and debugging. */
  snapshot(): { keys: IdempotencyRecord[]; records: SandboxRecord[] } {
    return structuredClone({ keys: [...this.#keys.values()], records: [...this.#records.values()] });
  }
}
