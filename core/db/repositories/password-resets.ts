/** `password_resets`: the lost-password keys. Only a key's SHA-256 is stored; one live key per account. */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";

export async function insertResetKey(db: Queryable, k: { tokenHash: string; customerId: number; expiresAt: Date }): Promise<void> {
  await sql(db).insertInto("password_resets").values({ token_hash: k.tokenHash, customer_id: k.customerId, expires_at: k.expiresAt }).execute();
}

/** Uses up a live key of this account; false when it is unknown, used or expired. */
export async function useResetKey(db: Queryable, k: { tokenHash: string; customerId: number; now: Date }): Promise<boolean> {
  const rows = await sql(db)
    .updateTable("password_resets")
    .set({ used_at: k.now })
    .where("token_hash", "=", k.tokenHash)
    .where("customer_id", "=", k.customerId)
    .where("used_at", "is", null)
    .where("expires_at", ">", k.now)
    .returning("customer_id")
    .execute();
  return rows.length > 0;
}

/** Ends every live key of the account (a new e-mail, a reset or a password change). */
export async function revokeResetKeys(db: Queryable, customerId: number): Promise<void> {
  await sql(db)
    .updateTable("password_resets")
    .set({ used_at: raw`now()` })
    .where("customer_id", "=", customerId)
    .where("used_at", "is", null)
    .execute();
}
