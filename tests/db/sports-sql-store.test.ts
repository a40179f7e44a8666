// The SQL store must behave exactly like the in-memory reference store: same rows, same order, same merges.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "../../core/db/client.ts";
import { migrate } from "../../core/db/migrate.ts";
import { createSimulator, MATCH_MINUTE_MS } from "../../core/sports/simulator.ts";
import { createSqlMatchStore } from "../../core/sports/sql-store.ts";
import { createMemoryMatchStore, type MatchStore } from "../../core/sports/store.ts";
import { PERIODS } from "../../core/domain/live/constants.ts";
import { copyTemplateDatabase, tempDir, type TestDatabase } from "../support/database.ts";

let db: Db;
let folder: ReturnType<typeof tempDir>;
let copy: TestDatabase;
// A copy of the migrated template (PGlite, or a database of its own on TEST_DATABASE_URL).
beforeAll(async () => {
  folder = tempDir("sports-store-test-");
  copy = await copyTemplateDatabase(path.join(folder.dir, "pglite"));
  db = await openDatabase({ databaseUrl: copy.databaseUrl, dataDir: copy.pgliteDir });
  await migrate(db); // a no-op on the template's copy
}, 60_000);
afterAll(async () => {
  await db?.close();
  await copy?.drop();
  folder?.remove();
});

async function snapshot(store: MatchStore, now: number) {
  const out: Record<string, unknown> = {};
  for (const p of PERIODS) out[p] = await store.list(p, now);
  return out;
}

describe("SQL match store", () => {
  it("matches the memory store through a simulated afternoon (scores, periods, '45+2' minutes, stages)", async () => {
    const start = Date.UTC(2026, 4, 16, 12, 0);
    const sim = createSimulator({ seed: 42, now: start });
    const sql = createSqlMatchStore(db);
    const memory = createMemoryMatchStore();
    for (const m of sim.takeScheduled()) {
      await sql.upsert(m);
      await memory.upsert(m);
    }
    expect(await snapshot(sql, start)).toEqual(await snapshot(memory, start));
    let applied = 0;
    for (let t = start; t <= start + 6 * 60 * MATCH_MINUTE_MS; t += 7 * MATCH_MINUTE_MS) {
      for (const u of sim.step(t)) {
        expect(await sql.applyUpdate(u)).toEqual(await memory.applyUpdate(u));
        applied++;
      }
      for (const m of sim.takeScheduled()) {
        await sql.upsert(m);
        await memory.upsert(m);
      }
    }
    expect(applied).toBeGreaterThan(50);
    const end = start + 6 * 60 * MATCH_MINUTE_MS;
    expect(await snapshot(sql, end)).toEqual(await snapshot(memory, end));
    const stringMinute = { slug: sim.matches()[0]!.slug, matchTime: "45+2", home: {}, away: {} };
    expect((await sql.applyUpdate(stringMinute))?.matchTime).toBe("45+2");
    expect((await sql.get(stringMinute.slug))?.matchTime).toBe("45+2");
  }, 60_000);

  it("answers undefined for an unknown match and stores nothing", async () => {
    const sql = createSqlMatchStore(db);
    expect(await sql.applyUpdate({ slug: "nobody-vs-nobody", home: { score: 1 }, away: {} })).toBeUndefined();
    expect(await sql.get("nobody-vs-nobody")).toBeUndefined();
  });
});
