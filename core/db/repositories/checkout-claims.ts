/**
 * Checkout claims: one row per submitted checkout (its idempotency key), claimed before anything else so a double
 * click, a retry or a second tab never creates a second order or charge. Only SQL lives here.
 */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";

export type ClaimStatus = "processing" | "done" | "failed";

/**
 * Claims `key` for this submission: true when it is ours — a new claim, or one an earlier failure released (then
 * taken again, its attempt counted). False while another submission holds it or after it is done.
 */
export async function claimCheckout(tx: Queryable, key: string): Promise<boolean> {
  const rows = await sql(tx)
    .insertInto("checkout_claims")
    .values({ key, status: "processing" })
    .onConflict((oc) =>
      oc
        .column("key")
        .doUpdateSet((eb) => ({ status: "processing", attempt: eb("checkout_claims.attempt", "+", 1), order_id: null, result: null, updated_at: raw`now()` }))
        .where("checkout_claims.status", "=", "failed"),
    )
    .returning("attempt")
    .execute();
  return rows.length > 0;
}

/** What an earlier submission of `key` produced: its status and order (if one was created). */
export async function findClaim(tx: Queryable, key: string): Promise<{ status: ClaimStatus; orderId: number | null; orderKey: string | null } | null> {
  const row = await sql(tx)
    .selectFrom("checkout_claims as c")
    .leftJoin("orders as o", "o.id", "c.order_id")
    .select(["c.status", "c.order_id", "o.order_key"])
    .where("c.key", "=", key)
    .executeTakeFirst();
  return row ? { status: row.status as ClaimStatus, orderId: row.order_id, orderKey: row.order_key } : null;
}

/** Releases a claim still processing (its checkout was refused or failed), so the shopper may submit again. */
export async function releaseClaim(tx: Queryable, key: string): Promise<void> {
  await sql(tx)
    .updateTable("checkout_claims")
    .set({ status: "failed", updated_at: raw`now()` })
    .where("key", "=", key)
    .where("status", "=", "processing")
    .execute();
}

/** Records the order a claim created. */
export async function setClaimOrder(tx: Queryable, key: string, orderId: number): Promise<void> {
  await sql(tx)
    .updateTable("checkout_claims")
    .set({ order_id: orderId, updated_at: raw`now()` })
    .where("key", "=", key)
    .execute();
}

/** Moves the claim still processing for this order to `done` (paid) or `failed` (released). */
export async function settleOrderClaim(tx: Queryable, orderId: number, status: "done" | "failed"): Promise<void> {
  await sql(tx)
    .updateTable("checkout_claims")
    .set({ status, updated_at: raw`now()` })
    .where("order_id", "=", orderId)
    .where("status", "=", "processing")
    .execute();
}

/** Releases claims whose process died before their order existed (older than `cutoff`). */
export async function releaseAbandonedClaims(tx: Queryable, cutoff: Date): Promise<void> {
  await sql(tx)
    .updateTable("checkout_claims")
    .set({ status: "failed", updated_at: raw`now()` })
    .where("status", "=", "processing")
    .where("order_id", "is", null)
    .where("updated_at", "<", cutoff)
    .execute();
}
