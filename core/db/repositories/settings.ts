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

/** Every setting whose key starts with `prefix`, as `{key without the prefix: value}`. */
export async function settingsWithPrefix(db: Queryable, prefix: string): Promise<Record<string, unknown>> {
  const rows = await sql(db)
    .selectFrom("settings")
    .select(["key", "value"])
    .where("key", "like", `${prefix.replace(/[\\%_]/g, "\\$&")}%`)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.key.slice(prefix.length), r.value]));
}

/**
 * One setting's value, or undefined. With `lock` (inside a transaction) the row is created empty (`{}`) when missing
 * and locked, so a concurrent read-modify-write of the same key waits for this one.
 */
export async function readSetting(db: Queryable, key: string, lock = false): Promise<unknown> {
  if (lock) {
    await sql(db)
      .insertInto("settings")
      .values({ key, value: JSON.stringify({}) })
      .onConflict((oc) => oc.column("key").doNothing())
      .execute();
  }
  let query = sql(db).selectFrom("settings").select("value").where("key", "=", key);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row?.value;
}

export async function putSetting(db: Queryable, key: string, value: unknown): Promise<void> {
  await sql(db)
    .insertInto("settings")
    .values({ key, value: JSON.stringify(value) })
    .onConflict((oc) => oc.column("key").doUpdateSet((eb) => ({ value: eb.ref("excluded.value") })))
    .execute();
}

export async function deleteSetting(db: Queryable, key: string): Promise<boolean> {
  const rows = await sql(db).deleteFrom("settings").where("key", "=", key).returning("key").execute();
  return rows.length > 0;
}
