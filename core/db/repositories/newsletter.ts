/** `newsletter_subscribers` (migration 0018): one row per address, whatever its letter case. */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";

/** Adds the address; false when it is already there (in any letter case), which changes nothing. */
export async function addSubscriber(db: Queryable, s: { email: string; source: string; at: Date }): Promise<boolean> {
  const row = await sql(db)
    .insertInto("newsletter_subscribers")
    .values({ email: s.email, source: s.source, created_at: s.at })
    .onConflict((oc) => oc.expression(raw`lower(email)`).doNothing())
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}
