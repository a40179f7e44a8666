/**
 * Versioned migrations: plain SQL files in ./migrations named NNNN_description.sql,
 * applied in order in one transaction (all or nothing), recorded in schema_migrations.
 * An advisory lock keeps two server processes from migrating at once.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Db } from "./client.ts";

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");
const LOCK_KEY = 7_114_301; // any constant; shared by every process of this shop

export interface Migration {
  version: string;
  name: string;
  sql: string;
}

export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((file) => ({
      version: file.slice(0, 4),
      name: file.replace(/\.sql$/, ""),
      sql: readFileSync(path.join(dir, file), "utf8"),
    }));
}

export async function migrate(db: Db, migrations = loadMigrations()): Promise<string[]> {
  const versions = migrations.map((m) => m.version);
  if (new Set(versions).size !== versions.length) throw new Error(`duplicate migration versions: ${versions}`);
  await db.exec(
    `CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [LOCK_KEY]);
    const done = new Set((await tx.query<{ version: string }>("SELECT version FROM schema_migrations")).map((r) => r.version));
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await tx.exec(m.sql);
      await tx.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [m.version, m.name]);
      applied.push(m.name);
    }
  });
  return applied;
}
