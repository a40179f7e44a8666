// The order lane (core/db/client.ts, docs/decisions/0027): on PostgreSQL the pool's connections are split, so an order
// transaction gets a connection while every other connection is taken; on PGlite the lane is the database itself.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, openPostgres, orderLaneSize, type Db } from "../../core/db/client.ts";
import { copyTemplateDatabase, tempDir, testDatabaseUrl, type TestDatabase } from "../support/database.ts";

describe("orderLaneSize", () => {
  it("sets half the pool aside, at least one connection", () => {
    expect(orderLaneSize(10)).toBe(5);
    expect(orderLaneSize(3)).toBe(1);
    expect(orderLaneSize(2)).toBe(1);
  });
});

describe("the order lane", () => {
  let folder: ReturnType<typeof tempDir>;
  let copy: TestDatabase;
  beforeAll(async () => {
    folder = tempDir("order-lane-");
    copy = await copyTemplateDatabase(folder.dir);
  });
  afterAll(async () => {
    await copy?.drop();
    folder?.remove();
  });

  it.runIf(!testDatabaseUrl())("is the database itself on PGlite", async () => {
    const db = await openDatabase({ dataDir: copy.pgliteDir });
    try {
      expect(db.orderLane).toBe(db);
    } finally {
      await db.close();
    }
  });

  it.runIf(!!testDatabaseUrl())("serves an order transaction while every other connection is held, and while the rest of the pool waits", async () => {
    // 4 connections: 2 for the lane, 2 for the rest; short waits so a starved pool fails fast.
    const db: Db = await openPostgres(copy.databaseUrl!, 4, { waitMs: 1_000 });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const busy: Promise<unknown>[] = [];
    try {
      const started: Promise<void>[] = [];
      for (let i = 0; i < 2; i++) {
        let entered!: () => void;
        started.push(new Promise<void>((r) => (entered = r)));
        busy.push(db.transaction(async (tx) => (await tx.query("SELECT 1"), entered(), await held)));
      }
      await Promise.all(started);
      // The rest of the pool is exhausted: a plain query waits out its bound.
      await expect(db.query("SELECT 1")).rejects.toThrow(/timeout exceeded when trying to connect/);
      // The lane still answers, in a transaction and outside one, and is its own lane.
      expect(await db.orderLane.transaction((tx) => tx.query<{ n: number }>("SELECT 2 AS n"))).toEqual([{ n: 2 }]);
      expect(await db.orderLane.query<{ n: number }>("SELECT 3 AS n")).toEqual([{ n: 3 }]);
      expect(db.orderLane.orderLane).toBe(db.orderLane);
    } finally {
      release();
      await Promise.all(busy);
      await db.close();
    }
  });
});
