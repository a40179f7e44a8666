/**
 * Starts a real shop for a test file: production build, a free port, and a fresh
 * database — a new PGlite folder, or, when TEST_DATABASE_URL is set, a new schema
 * on that PostgreSQL server (dropped afterwards). Nothing is mocked.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { parseEnv } from "../../core/config/env.server.ts";
import { startShop, type RunningShop } from "../../server/main.ts";
import { createLogger } from "../../server/log.ts";

export interface TestShop extends RunningShop {
  dataDir: string;
  schema: string | null;
  close(): Promise<void>;
}

export async function startTestShop(extraEnv: Record<string, string> = {}): Promise<TestShop> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-test-"));
  let schema: string | null = null;
  let databaseUrl: string | undefined;
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (baseUrl) {
    schema = `t_${randomBytes(6).toString("hex")}`;
    const pg = (await import("pg")).default;
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    const url = new URL(baseUrl);
    url.searchParams.set("options", `-c search_path=${schema}`);
    databaseUrl = url.toString();
  }
  const env = parseEnv({
    NODE_ENV: "production",
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    SIMULATOR: "off",
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "warn",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...extraEnv,
  });
  const shop = await startShop(env, createLogger(env.LOG_LEVEL));
  const port = (shop.server.address() as { port: number }).port;
  return {
    ...shop,
    url: `http://127.0.0.1:${port}`,
    dataDir,
    schema,
    async close() {
      await shop.stop();
      rmSync(dataDir, { recursive: true, force: true });
      if (schema && baseUrl) {
        const pg = (await import("pg")).default;
        const admin = new pg.Client({ connectionString: baseUrl });
        await admin.connect();
        await admin.query(`DROP SCHEMA ${schema} CASCADE`);
        await admin.end();
      }
    },
  };
}
