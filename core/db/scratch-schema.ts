/**
 * A throw-away schema on a PostgreSQL server, for tools and tests that use a real server without a database of their
 * own (scripts/db-types.ts, the benches, tests that start the shop as a child process).
 *
 * Extensions belong to a database, not to a schema: `CREATE EXTENSION` in a migration run with a scratch schema first
 * on the search_path would put pg_trgm into that schema, a second scratch schema would not see it, and dropping the
 * first would drop it with everything using it. So the extensions the migrations use are kept in `public` (moved
 * there if an interrupted run left them in its own schema), and every scratch search_path ends with `public`.
 */
import { randomBytes } from "node:crypto";
import { openPostgres, type Db } from "./client.ts";
import { lockKey } from "./repositories/locks.ts";

/** The extensions the migrations create (0028_product_search.sql). */
const EXTENSIONS = ["pg_trgm", "fuzzystrmatch"] as const;

async function extensionsInPublic(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await lockKey(tx, "scratch-schema.extensions"); // two runs starting at once
    for (const name of EXTENSIONS) {
      const [row] = await tx.query<{ schema: string }>(
        `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = $1`,
        [name],
      );
      if (!row) await tx.exec(`CREATE EXTENSION ${name} WITH SCHEMA public`);
      else if (row.schema !== "public") await tx.exec(`ALTER EXTENSION ${name} SET SCHEMA public`);
    }
  });
}

/** A fresh schema `{prefix}_{random}`: a connection URL whose search_path is that schema then `public`, and its drop. */
export async function createScratchSchema(baseUrl: string, prefix: string): Promise<{ schema: string; url: string; drop: () => Promise<void> }> {
  if (!/^[a-z][a-z0-9_]{0,40}$/.test(prefix)) throw new Error(`scratch schema prefix ${JSON.stringify(prefix)}: lower-case letters, digits and _`);
  const schema = `${prefix}_${randomBytes(4).toString("hex")}`;
  const admin = async (fn: (db: Db) => Promise<void>) => {
    const db = await openPostgres(baseUrl, 1);
    try {
      await fn(db);
    } finally {
      await db.close();
    }
  };
  await admin(async (db) => {
    await extensionsInPublic(db);
    await db.exec(`CREATE SCHEMA ${schema}`);
  });
  const url = new URL(baseUrl);
  url.searchParams.set("options", `-c search_path=${schema},public`);
  return { schema, url: url.toString(), drop: () => admin((db) => db.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)) };
}
