/** `user_meta` (migration 0017): registered per-user settings; which keys and values are allowed is core/domain/users/meta.ts. */
import type { Queryable } from "../client.ts";
import { sql } from "../kysely.ts";

export async function readUserMeta(db: Queryable, customerId: number): Promise<Record<string, string>> {
  const rows = await sql(db).selectFrom("user_meta").select(["meta_key", "meta_value"]).where("customer_id", "=", customerId).execute();
  return Object.fromEntries(rows.map((r) => [r.meta_key, r.meta_value]));
}

/** Writes the values in one statement (an upsert per key), so a repeated request changes nothing more. */
export async function writeUserMeta(db: Queryable, customerId: number, values: Record<string, string>): Promise<void> {
  const rows = Object.entries(values).map(([meta_key, meta_value]) => ({ customer_id: customerId, meta_key, meta_value }));
  if (rows.length === 0) return;
  await sql(db)
    .insertInto("user_meta")
    .values(rows)
    .onConflict((oc) => oc.columns(["customer_id", "meta_key"]).doUpdateSet((eb) => ({ meta_value: eb.ref("excluded.meta_value"), updated_at: eb.fn("now") })))
    .execute();
}
