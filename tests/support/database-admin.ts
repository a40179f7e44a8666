/** What both sides of the test-database templates share: the server, database names, one-statement admin queries. */
import { randomBytes } from "node:crypto";

/** A template as the global setup hands it to the test files. */
export type DatabaseTemplate = { kind: "pglite"; dir: string } | { kind: "postgres"; name: string };

declare module "vitest" {
  export interface ProvidedContext {
    databaseTemplate: DatabaseTemplate;
  }
}

/** The PostgreSQL server the tests use (TEST_DATABASE_URL), or undefined for PGlite. */
export const testDatabaseUrl = (): string | undefined => process.env.TEST_DATABASE_URL || undefined;

/** The URL of database `name` on the server `base` points at. */
export function databaseUrlFor(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh lower-case database name (safe to splice into SQL unquoted). */
export const uniqueDatabaseName = (prefix: string): string => `${prefix}_${process.pid}_${randomBytes(4).toString("hex")}`;

/** Runs one statement (CREATE / DROP DATABASE) on its own connection to TEST_DATABASE_URL. */
export async function adminQuery(sql: string): Promise<void> {
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
