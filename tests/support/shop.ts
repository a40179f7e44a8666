/**
 * Starts a real shop for a test file: production build, a free port, and a database of its own — a copy of the
 * run's migrated and seeded template (a PGlite folder, or, when TEST_DATABASE_URL is set, a database on that
 * PostgreSQL server, dropped afterwards; see ./database.ts). Nothing is mocked.
 */
import path from "node:path";
import { parseEnv } from "../../core/config/env.server.ts";
import { fileURLToPath, pathToFileURL } from "node:url";
import type * as ServerMain from "../../server/main.ts";
import type { RunningShop } from "../../server/main.ts";
import { copyTemplateDatabase, tempDir } from "./database.ts";
import { setPasswordCostForTests } from "../../core/security/password.ts";

/**
 * scrypt cost for passwords hashed in test runs (docs/decisions/0030): a hash at the shop's own cost takes most of a
 * second of CPU and the suites make hundreds. Set here for the sources tests import (registerCustomer…) and, on each
 * start, for the built server's own copy. core/security/password.test.ts covers the production cost.
 */
export const TEST_PASSWORD_COST = 2 ** 10;
setPasswordCostForTests(TEST_PASSWORD_COST);

/**
 * The compiled server, {build}/server/index.js (built by the global setup): tests start exactly what
 * `npm start` runs, with the shop's own copy of every module (a test that needs the shop's module state,
 * not a second copy from source, takes it from here).
 */
export function builtServer(): Promise<typeof ServerMain> {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
  return import(pathToFileURL(path.resolve(root, process.env.SHOP_BUILD_DIR ?? "build", "server/index.js")).href);
}

export interface TestShop extends RunningShop {
  dataDir: string;
  /** On PostgreSQL, the URL of this shop's own database. */
  databaseUrl: string | undefined;
  close(): Promise<void>;
}

/** `log`: receives each line the shop logs (at LOG_LEVEL), instead of stdout. */
export async function startTestShop(extraEnv: Record<string, string> = {}, opts: { log?: (line: string) => void } = {}): Promise<TestShop> {
  const { dir: dataDir, remove } = tempDir("shop-test-");
  let database: Awaited<ReturnType<typeof copyTemplateDatabase>> | undefined;
  const cleanUp = async () => {
    await database?.drop();
    remove();
  };
  try {
    database = await copyTemplateDatabase(path.join(dataDir, "pglite"));
    const { databaseUrl } = database;
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
    const { startShop, createLogger, setPasswordCostForTests: setBuiltPasswordCost } = await builtServer();
    setBuiltPasswordCost(TEST_PASSWORD_COST);
    const shop = await startShop(env, createLogger(env.LOG_LEVEL, opts.log));
    const port = (shop.server.address() as { port: number }).port;
    return {
      ...shop,
      url: `http://127.0.0.1:${port}`,
      dataDir,
      databaseUrl,
      async close() {
        await shop.stop();
        await cleanUp();
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
