/**
 * Generates core/db/schema.ts (the Kysely table types) from the SQL migrations: it migrates a throw-away schema
 * on a PostgreSQL server and reads it back with kysely-codegen. `--verify` fails when the committed file is out of
 * date, which is how a renamed column becomes a compile error instead of a production one (docs/decisions/0008).
 *
 *   npx tsx scripts/db-types.ts            # rewrite core/db/schema.ts
 *   npx tsx scripts/db-types.ts --verify   # exit 1 when it differs
 * DB_TYPES_URL (default postgres://postgres@127.0.0.1:5432/test) names the server.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openPostgres } from "../core/db/client.ts";
import { createScratchSchema } from "../core/db/scratch-schema.ts";
import { migrate } from "../core/db/migrate.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT = path.join(ROOT, "core/db/schema.ts");
const verify = process.argv.includes("--verify");
const base = process.env.DB_TYPES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const { schema, url, drop } = await createScratchSchema(base, "types");
try {
  const db = await openPostgres(url, 1);
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  const args = [
    "kysely-codegen",
    "--dialect=postgres",
    `--url=${url}`,
    `--default-schema=${schema}`,
    `--include-pattern=${schema}.*`,
    "--numeric-parser=number",
    `--type-mapping=${JSON.stringify({ int8: "number" })}`,
    `--out-file=${OUT}`,
    "--log-level=error",
  ];
  if (verify) args.push("--verify");
  execFileSync("npx", args, { stdio: "inherit", cwd: ROOT });
} finally {
  await drop();
}
