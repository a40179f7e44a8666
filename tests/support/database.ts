/**
 * Test databases from a template: the migrations (and, for the shop suites, the demo seed) run once per test run,
 * and every test file gets its own copy of the result instead of migrating and seeding a new database.
 *
 * - PGlite: the template is a closed PGlite data folder; a copy is a recursive file copy (a fraction of a second,
 *   where creating, migrating and seeding a new one takes several seconds).
 * - PostgreSQL (TEST_DATABASE_URL): the template is a database of its own; a copy is
 *   `CREATE DATABASE … TEMPLATE …`, dropped again when the test file is done.
 *
 * A Vitest global setup (tests/support/template-migrated.ts or template-seeded.ts, see database-template.ts) makes
 * the template and hands it to the test workers through `provide`/`inject`. Without one (a test file run some other
 * way) a copy is an empty database, which the shop migrates and seeds itself on start.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { adminQuery, databaseUrlFor, testDatabaseUrl, uniqueDatabaseName } from "./database-admin.ts";

export { testDatabaseUrl };

export interface TestDatabase {
  /** Set on PostgreSQL: the URL of this test's own database. */
  databaseUrl?: string;
  /** On PGlite: this test's own data folder. */
  pgliteDir: string;
  /** Removes the copy (the data folder, or the database). */
  drop(): Promise<void>;
}

/**
 * A database of the test's own, copied from the project's template: a PGlite folder at `pgliteDir`, or, with
 * TEST_DATABASE_URL, a new database on that server.
 */
export async function copyTemplateDatabase(pgliteDir: string): Promise<TestDatabase> {
  const template = inject("databaseTemplate") ?? null;
  const base = testDatabaseUrl();
  if (base) {
    const name = uniqueDatabaseName("t");
    // CREATE DATABASE refuses a template that another session is using (55006); that lasts a moment at most.
    for (let attempt = 1; ; attempt++) {
      try {
        await adminQuery(template?.kind === "postgres" ? `CREATE DATABASE ${name} TEMPLATE ${template.name}` : `CREATE DATABASE ${name}`);
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== "55006" || attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
    return {
      databaseUrl: databaseUrlFor(base, name),
      pgliteDir,
      drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    };
  }
  if (template?.kind === "pglite") cpSync(template.dir, pgliteDir, { recursive: true });
  return { pgliteDir, drop: async () => rmSync(pgliteDir, { recursive: true, force: true }) };
}

/** A temporary folder, removed by `remove()`. */
export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
