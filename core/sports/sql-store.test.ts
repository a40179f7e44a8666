// The SQL store must behave exactly like the in-memory reference store: same rows, same order, same merges.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPglite, type Db } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { createSimulator, MATCH_MINUTE_MS } from "./simulator.ts";
import { createSqlMatchStore } from "./sql-store.ts";
import { createMemoryMatchStore, type MatchStore } from "./store.ts";
import { PERIODS } from "../domain/live/constants.ts";

let db: Db;
// An in-memory PGlite plus every migration takes a few seconds when the unit files run in parallel.
beforeAll(async () => {
  db = await openPglite(null);
  await migrate(db);
}, 60_000);
afterAll(async () => db?.close());

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
