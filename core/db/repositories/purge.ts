/** The scheduled purge's deletes that span tables (server/features/purge.ts); each table's own purge is in its repository. */
import type { Queryable } from "../client.ts";
import { sql } from "../kysely.ts";

/**
 * Abandoned guest carts: no customer, not changed since `before`, and their session gone or expired at `now`.
 * Up to `batch` per call; rows another process is deleting are skipped (SKIP LOCKED). Returns how many went.
 */
export async function deleteAbandonedGuestCarts(db: Queryable, before: Date, now: Date, batch = 1000): Promise<number> {
  const rows = await sql(db)
    .deleteFrom("carts")
    .where("id", "in", (eb) =>
      eb
        .selectFrom("carts as c")
        .select("c.id")
        .where("c.customer_id", "is", null)
        .where("c.updated_at", "<", before)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom("sessions as s").select("s.id").whereRef("s.id", "=", "c.session_id").where("s.expires_at", ">", now))),
        )
        .limit(batch)
        .forUpdate()
        .skipLocked(),
    )
    .returning("id")
    .execute();
  return rows.length;
}
