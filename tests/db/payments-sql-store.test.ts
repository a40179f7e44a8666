// The SQL sandbox store keeps the in-memory store's contract on a real database (a copy of the migrated template:
// PGlite, or a database of its own on TEST_DATABASE_URL), including under concurrent callers: one claim wins a key,
// one writer wins a record version.
import path from "node:path";
import { claim, charge, result } from "../support/sandbox-store.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, openPostgres, type Db } from "../../core/db/client.ts";
import { migrate } from "../../core/db/migrate.ts";
import { SqlSandboxStore } from "../../core/payments/sql-store.server.ts";
import { copyTemplateDatabase, tempDir, type TestDatabase } from "../support/database.ts";

let db: Db;
let folder: ReturnType<typeof tempDir>;
let copy: TestDatabase;

beforeAll(async () => {
  folder = tempDir("payments-store-test-");
  copy = await copyTemplateDatabase(path.join(folder.dir, "pglite"));
  db = copy.databaseUrl ? await openPostgres(copy.databaseUrl, 8) : await openDatabase({ dataDir: copy.pgliteDir });
  await migrate(db); // a no-op on the template's copy
}, 60_000);
afterAll(async () => {
  await db?.close();
  await copy?.drop();
  folder?.remove();
});

let n = 0;
let key = "";
beforeEach(() => {
  // Keys and record ids unique per test: the database is shared by the file.
  key = `k${++n}`;
});

describe("SqlSandboxStore", () => {
  it("claims a key once; a second claim gets the existing record; a stale pending claim is taken over, a done one never", async () => {
    const store = new SqlSandboxStore(db);
    expect(await store.claimKey(claim(key, "a", 1000), 0)).toBeNull();
    expect(await store.claimKey(claim(key, "b", 1500), 500)).toEqual({ ...claim(key, "a", 1000), state: "pending" });
    expect(await store.claimKey(claim(key, "b", 5000), 2000)).toBeNull();
    // the dead claimant can no longer commit
    expect(await store.commit({ key, claimId: "a", result, completedAt: 5001, writes: [charge(`${key}-ch`, 1)] })).toBe(false);
    expect(await store.commit({ key, claimId: "b", result, completedAt: 5001, writes: [charge(`${key}-ch`, 1)] })).toBe(true);
    expect(await store.claimKey(claim(key, "c", 99_999), 99_999)).toEqual({ ...claim(key, "b", 5000), state: "done", result, completedAt: 5001 });
  });

  it("releases only its own pending claim", async () => {
    const store = new SqlSandboxStore(db);
    await store.claimKey(claim(key, "a"), 0);
    await store.releaseKey(key, "other");
    expect(await store.getKey(key)).not.toBeNull();
    await store.releaseKey(key, "a");
    expect(await store.getKey(key)).toBeNull();
  });

  it("commits all writes or none: inserts must be new, updates must follow the stored version", async () => {
    const store = new SqlSandboxStore(db);
    const id = `${key}-ch`;
    await store.claimKey(claim(`${key}a`, "a"), 0);
    expect(await store.commit({ key: `${key}a`, claimId: "a", result, completedAt: 1, writes: [charge(id, 1)] })).toBe(true);
    await store.claimKey(claim(`${key}b`, "a"), 0);
    expect(await store.commit({ key: `${key}b`, claimId: "a", result, completedAt: 2, writes: [charge(id, 2, 100), charge(id, 1)] })).toBe(false);
    expect(await store.getRecord(id)).toEqual(charge(id, 1));
    expect(await store.getKey(`${key}b`)).toMatchObject({ state: "pending" });
    expect(await store.commit({ key: `${key}b`, claimId: "a", result, completedAt: 2, writes: [charge(id, 3, 100)] })).toBe(false);
    expect(await store.commit({ key: `${key}b`, claimId: "a", result, completedAt: 2, writes: [charge(id, 2, 100)] })).toBe(true);
    expect(await store.getRecord(id)).toEqual(charge(id, 2, 100));
    expect(await store.getKey(`${key}b`)).toMatchObject({ state: "done", result, completedAt: 2 });
    expect(await store.commit({ key: `${key}b`, claimId: "a", result, completedAt: 3, writes: [] })).toBe(false);
  });

  it("concurrent claims of one key: exactly one wins, the others see its pending claim", async () => {
    const store = new SqlSandboxStore(db);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => store.claimKey(claim(key, `c${i}`), 0)));
    const winners = answers.filter((a) => a === null);
    expect(winners).toHaveLength(1);
    const holder = (await store.getKey(key))!.claimId;
    for (const a of answers) if (a) expect(a).toMatchObject({ state: "pending", claimId: holder });
  });

  it("concurrent commits of the same record version: exactly one is applied, the rest change nothing", async () => {
    const store = new SqlSandboxStore(db);
    const id = `${key}-ch`;
    await store.claimKey(claim(`${key}-0`, "a"), 0);
    await store.commit({ key: `${key}-0`, claimId: "a", result, completedAt: 1, writes: [charge(id, 1)] });
    const keys = Array.from({ length: 6 }, (_, i) => `${key}-${i + 1}`);
    for (const k of keys) await store.claimKey(claim(k, "a"), 0);
    const applied = await Promise.all(
      keys.map((k, i) => store.commit({ key: k, claimId: "a", result, completedAt: 2, writes: [charge(id, 2, 10 * (i + 1))] })),
    );
    expect(applied.filter(Boolean)).toHaveLength(1);
    const winner = applied.indexOf(true);
    expect(await store.getRecord(id)).toEqual(charge(id, 2, 10 * (winner + 1)));
    for (const [i, k] of keys.entries()) expect((await store.getKey(k))?.state).toBe(i === winner ? "done" : "pending");
  });
});
