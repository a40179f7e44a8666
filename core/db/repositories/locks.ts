/**
 * Transaction-scoped advisory locks (pg_advisory_xact_lock, on PGlite and PostgreSQL alike): a second transaction
 * taking the same key waits until the first commits or rolls back. Used where a check and the write that depends on
 * it must not interleave (a rate limit's count, a free slug, the first staff account). Take several keys in a fixed
 * order, so two transactions cannot deadlock.
 */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";

export async function lockKey(tx: Queryable, key: string): Promise<void> {
  await sql(tx)
    .selectNoFrom(raw`pg_advisory_xact_lock(hashtextextended(${key}, 0))`.as("locked"))
    .execute();
}
