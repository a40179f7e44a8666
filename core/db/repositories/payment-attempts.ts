/**
 * Payment attempts: written BEFORE the gateway is called, moved along as its answers come in, and finished by the
 * reconciler when a process died in between. Only SQL lives here; the flow is in core/commerce/orders.ts.
 */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";

export type AttemptOperation = "authorize_capture" | "charge_token" | "echeck_debit";
export type AttemptStatus = "started" | "authorized" | "captured" | "voided" | "declined" | "failed" | "late_captured" | "refunded";

/** An attempt whose gateway call may still be under way. */
const OPEN: readonly AttemptStatus[] = ["started", "authorized"];

export async function insertAttempt(
  tx: Queryable,
  a: { orderId: number; key: string; gateway: string; operation: AttemptOperation; amount: number; currency: string },
): Promise<number> {
  const row = await sql(tx)
    .insertInto("payment_attempts")
    .values({
      order_id: a.orderId,
      idempotency_key: a.key,
      gateway: a.gateway,
      operation: a.operation,
      amount: a.amount,
      currency: a.currency,
      status: "started",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Records an approved authorization on an attempt still 'started'; false when the attempt was closed meanwhile. */
export async function markAuthorized(tx: Queryable, attemptId: number, authId: string, method: unknown): Promise<boolean> {
  const rows = await sql(tx)
    .updateTable("payment_attempts")
    .set({ status: "authorized", auth_id: authId, method: method == null ? null : JSON.stringify(method), updated_at: raw`now()` })
    .where("id", "=", attemptId)
    .where("status", "=", "started")
    .returning("id")
    .execute();
  return rows.length > 0;
}

/** Captures an attempt still open with its charge (keeping the recorded method when none is given); false when it was closed. */
export async function markCaptured(tx: Queryable, attemptId: number, chargeId: string | null, method: unknown): Promise<boolean> {
  const rows = await sql(tx)
    .updateTable("payment_attempts")
    .set((eb) => ({
      status: "captured",
      charge_id: chargeId,
      method: eb.fn.coalesce(eb.val(method == null ? null : JSON.stringify(method)), "method"),
      updated_at: raw`now()`,
    }))
    .where("id", "=", attemptId)
    .where("status", "in", OPEN)
    .returning("id")
    .execute();
  return rows.length > 0;
}

/** The attempt's status, locked until the transaction ends. */
export async function lockAttempt(tx: Queryable, attemptId: number): Promise<{ status: AttemptStatus; chargeId: string | null } | null> {
  const row = await sql(tx).selectFrom("payment_attempts").select(["status", "charge_id"]).where("id", "=", attemptId).forUpdate().executeTakeFirst();
  return row ? { status: row.status as AttemptStatus, chargeId: row.charge_id } : null;
}

/** A charge that landed after its attempt was closed: recorded to be refunded. */
export async function markLateCaptured(tx: Queryable, attemptId: number, chargeId: string | null): Promise<void> {
  await sql(tx)
    .updateTable("payment_attempts")
    .set({ status: "late_captured", charge_id: chargeId, error_code: null, updated_at: raw`now()` })
    .where("id", "=", attemptId)
    .execute();
}

/** Closes an attempt still open as declined, failed or voided. */
export async function closeAttempt(tx: Queryable, attemptId: number, status: "declined" | "failed" | "voided", errorCode: string | null): Promise<void> {
  await sql(tx)
    .updateTable("payment_attempts")
    .set({ status, error_code: errorCode, updated_at: raw`now()` })
    .where("id", "=", attemptId)
    .where("status", "in", OPEN)
    .execute();
}

export async function attemptState(tx: Queryable, attemptId: number): Promise<{ status: AttemptStatus; authId: string | null } | null> {
  const row = await sql(tx).selectFrom("payment_attempts").select(["status", "auth_id"]).where("id", "=", attemptId).executeTakeFirst();
  return row ? { status: row.status as AttemptStatus, authId: row.auth_id } : null;
}

/** Whether a payment for the order is under way. */
export async function hasOpenAttempt(tx: Queryable, orderId: number): Promise<boolean> {
  const rows = await sql(tx)
    .selectFrom("payment_attempts")
    .select((eb) => eb.lit(1).as("one"))
    .where("order_id", "=", orderId)
    .where("status", "in", OPEN)
    .execute();
  return rows.length > 0;
}

export interface OpenAttempt {
  id: number;
  orderId: number;
  idempotencyKey: string;
  operation: AttemptOperation;
  status: AttemptStatus;
  authId: string | null;
  updatedAt: Date;
}

/** Open attempts last touched before `cutoff`, oldest first (the reconciler's batch). */
export async function staleOpenAttempts(tx: Queryable, cutoff: Date, limit = 500): Promise<OpenAttempt[]> {
  const rows = await sql(tx)
    .selectFrom("payment_attempts")
    .select(["id", "order_id", "idempotency_key", "operation", "status", "auth_id", "updated_at"])
    .where("status", "in", OPEN)
    .where("updated_at", "<", cutoff)
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    orderId: r.order_id,
    idempotencyKey: r.idempotency_key,
    operation: r.operation as AttemptOperation,
    status: r.status as AttemptStatus,
    authId: r.auth_id,
    updatedAt: new Date(r.updated_at),
  }));
}

/** A late charge waiting for its refund; null when the attempt is not (or no longer) 'late_captured'. */
export async function lateCapture(tx: Queryable, attemptId: number): Promise<{ idempotencyKey: string; chargeId: string; amount: number } | null> {
  const row = await sql(tx)
    .selectFrom("payment_attempts")
    .select(["idempotency_key", "charge_id", "amount"])
    .where("id", "=", attemptId)
    .where("status", "=", "late_captured")
    .executeTakeFirst();
  return row ? { idempotencyKey: row.idempotency_key, chargeId: row.charge_id as string, amount: row.amount } : null;
}

/** Late charges whose refund has not finished and needs no person: the reconciler retries them. */
export async function unrefundedLateCaptures(tx: Queryable, limit = 100): Promise<number[]> {
  const rows = await sql(tx)
    .selectFrom("payment_attempts")
    .select("id")
    .where("status", "=", "late_captured")
    .where("error_code", "is", null)
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export async function markRefunded(tx: Queryable, attemptId: number, refundId: string): Promise<void> {
  await sql(tx)
    .updateTable("payment_attempts")
    .set({ status: "refunded", refund_id: refundId, updated_at: raw`now()` })
    .where("id", "=", attemptId)
    .where("status", "=", "late_captured")
    .execute();
}

/** Notes why an attempt needs a person (e.g. a refund the processor refused). */
export async function setAttemptError(tx: Queryable, attemptId: number, errorCode: string): Promise<void> {
  await sql(tx)
    .updateTable("payment_attempts")
    .set({ error_code: errorCode, updated_at: raw`now()` })
    .where("id", "=", attemptId)
    .execute();
}
