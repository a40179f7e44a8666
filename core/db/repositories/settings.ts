/** The `settings` table: small named values shared by every process of one shop (JSON-encoded). */
import type { Queryable } from "../client.ts";
import { sql } from "../kysely.ts";

/**
 * Stores `value` under `key` unless a value is already there, then returns the stored one: with several processes
 * starting at once, the first writer wins and every process reads the same value.
 */
export async function settingOrInsert(db: Queryable, key: string, value: unknown): Promise<unknown> {
  await sql(db)
    .insertInto("settings")
    .values({ key, value: JSON.stringify(value) })
    .onConflict((oc) => oc.column("key").doNothing())
    .execute();
  const row = await sql(db).selectFrom("settings").select("value").where("key", "=", key).executeTakeFirstOrThrow();
  return row.value;
}

/** The value stored under `key`, or undefined. */
export async function readSetting(db: Queryable, key: string): Promise<unknown> {
  const row = await sql(db).selectFrom("settings").select("value").where("key", "=", key).executeTakeFirst();
  return row?.value;
}

/** Stores `value` under `key`, replacing what was there. */
export async function writeSetting(db: Queryable, key: string, value: unknown): Promise<void> {
  await sql(db)
    .insertInto("settings")
    .values({ key, value: JSON.stringify(value) })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value: JSON.stringify(value) }))
    .execute();
}
