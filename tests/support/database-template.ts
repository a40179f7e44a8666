/**
 * The global-setup side of tests/support/database.ts: makes the template database once per test run (migrated,
 * and seeded with the demo shop when asked) and provides it to a Vitest project's test files.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../../core/db/client.ts";
import { migrate } from "../../core/db/migrate.ts";
import { seedDemoData } from "../../core/db/seed/seed.ts";
import { ensureStaffAccount } from "../../core/commerce/staff-accounts.ts";
import { adminQuery, databaseUrlFor, testDatabaseUrl, uniqueDatabaseName, type DatabaseTemplate } from "./database-admin.ts";

async function createTemplate(seed: boolean): Promise<DatabaseTemplate> {
  const base = testDatabaseUrl();
  let template: DatabaseTemplate;
  let databaseUrl: string | undefined;
  if (base) {
    template = { kind: "postgres", name: uniqueDatabaseName(seed ? "tpl_seeded" : "tpl_migrated") };
    await adminQuery(`CREATE DATABASE ${template.name}`);
    databaseUrl = databaseUrlFor(base, template.name);
  } else {
    template = { kind: "pglite", dir: path.join(mkdtempSync(path.join(os.tmpdir(), "shop-template-")), "pglite") };
  }
  try {
    const db = await openDatabase({ databaseUrl, dataDir: template.kind === "pglite" ? template.dir : null });
    try {
      await migrate(db);
      // The first start's administrator (server/main.ts) made once here, so each test shop does not hash a new one
      // and print its password; tests/http/staff-auth.test.ts starts from an empty database to see that happen.
      await ensureStaffAccount(db, { role: "administrator", siteUrl: "http://localhost" });
      if (seed) {
        await seedDemoData(db);
        // The demo popups (exit intent, scrolling) would cover other suites' pages with a modal: off in the template;
        // tests/http/popups.test.ts turns them on, tests/e2e/popups.test.ts brings its own.
        await db.query(`UPDATE popups SET settings = jsonb_set(settings, '{enabled}', 'false')`);
      }
    } finally {
      await db.close(); // closed: a PGlite folder is then consistent and can be copied file by file
    }
  } catch (error) {
    await dropTemplate(template);
    throw error;
  }
  return template;
}

async function dropTemplate(template: DatabaseTemplate): Promise<void> {
  if (template.kind === "postgres") await adminQuery(`DROP DATABASE IF EXISTS ${template.name} WITH (FORCE)`);
  else rmSync(path.dirname(template.dir), { recursive: true, force: true });
}

interface SharedTemplate {
  template: Promise<DatabaseTemplate>;
  users: number;
}
// In one `npm test` the http and browser projects both ask for the seeded template and share one. Global setup
// modules can be loaded once per project, so the registry lives on globalThis rather than in this module.
const REGISTRY = Symbol.for("maskerade.test-database-templates");
const registry = ((globalThis as Record<symbol, unknown>)[REGISTRY] ??= new Map<string, SharedTemplate>()) as Map<string, SharedTemplate>;

/** For a global setup file: makes (or shares) the template, provides it to the project's tests, drops it at the end. */
export async function provideTemplate(project: TestProject, { seed }: { seed: boolean }): Promise<() => Promise<void>> {
  const key = `${seed ? "seeded" : "migrated"} ${testDatabaseUrl() ?? "pglite"}`;
  let shared = registry.get(key);
  if (!shared) {
    shared = { template: createTemplate(seed), users: 0 };
    registry.set(key, shared);
  }
  shared.users++;
  const entry = shared;
  let template: DatabaseTemplate;
  try {
    template = await entry.template;
  } catch (error) {
    registry.delete(key);
    throw error;
  }
  project.provide("databaseTemplate", template);
  return async () => {
    if (--entry.users > 0) return;
    registry.delete(key);
    await dropTemplate(template);
  };
}
