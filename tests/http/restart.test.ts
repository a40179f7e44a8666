import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseEnv } from "../../core/config/env.server.ts";
import { builtServer } from "../support/shop.ts";

const { startShop, createLogger } = await builtServer();

const dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-restart-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const env = () => parseEnv({ NODE_ENV: "production", PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, SIMULATOR: "off", LOG_LEVEL: "warn" });

describe("a restarted shop keeps its data", () => {
  it("seeds the demo catalogue on the first start only, and sessions survive a restart", async () => {
    const first = await startShop(env(), createLogger("warn"));
    const count = async (db: typeof first.services.db) => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM products`))[0]!.n;
    const before = await count(first.services.db);
    expect(before).toBeGreaterThanOrEqual(40);
    const secret = first.services.secret;
    await first.stop();

    const second = await startShop(env(), createLogger("warn"));
    expect(await count(second.services.db)).toBe(before);
    expect(second.services.secret).toBe(secret); // cookies signed before the restart stay valid
    const [migrations] = await second.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM schema_migrations`);
    expect(migrations!.n).toBeGreaterThanOrEqual(1);
    await second.stop();
  });
});
