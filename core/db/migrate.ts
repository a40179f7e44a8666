/**
 * Versioned migrations: plain SQL files in ./migrations named NNNN_description.sql,
 * applied in order in one transaction (all or nothing), recorded in schema_migrations.
 * An advisory lock keeps two server processes from migrating at once.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Db } from "./client.ts";
import { raw, sql } from "./kysely.ts";

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");
const LOCK_KEY = 7_114_301; // any constant; shared by every process of this shop

export interface Migration {
  version: string;
  name: string;
  sql: string;
}

/**
 * The migrations as text, when this module was compiled by Vite (the server bundle, Vitest, `npm run dev`):
 * the bundle then needs no .sql files beside it. Run from source by tsx (scripts, benchmarks),
 * import.meta.env is absent and the files are read from MIGRATIONS_DIR.
 */
const BUNDLED: Record<string, string> | undefined = import.meta.env
  ? import.meta.glob<string>("./migrations/*.sql", { query: "?raw", import: "default", eager: true })
  : undefined;

export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  const files: [string, () => string][] =
    BUNDLED && dir === MIGRATIONS_DIR
      ? Object.entries(BUNDLED).map(([p, text]) => [path.basename(p), () => text])
      : readdirSync(dir).map((f) => [f, () => readFileSync(path.join(dir, f), "utf8")]);
  return files
    .filter(([f]) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([file, read]) => ({
      version: file.slice(0, 4),
      name: file.replace(/\.sql$/, ""),
      sql: read(),
    }));
}

export async function migrate(db: Db, migrations = loadMigrations()): Promise<string[]> {
  const versions = migrations.map((m) => m.version);
  if (new Set(versions).size !== versions.length) throw new Error(`duplicate migration versions: ${versions}`);
  await sql(db)
    .schema.createTable("schema_migrations")
    .ifNotExists()
    .addColumn("version", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("applied_at", "timestamptz", (c) => c.notNull().defaultTo(raw`now()`))
    .execute();
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    await raw`SELECT pg_advisory_xact_lock(${LOCK_KEY})`.execute(sql(tx));
    const done = new Set((await sql(tx).selectFrom("schema_migrations").select("version").execute()).map((r) => r.version));
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await tx.exec(m.sql);
      await sql(tx).insertInto("schema_migrations").values({ version: m.version, name: m.name }).execute();
      applied.push(m.name);
    }
  });
  return applied;
}
