import os from "node:os";
import { describe, expect, it } from "vitest";
import { processCount } from "./cluster.ts";

const PG = "postgres://postgres@127.0.0.1:5432/shop";
const REDIS = "redis://127.0.0.1:6379";

describe("processCount (WEB_CONCURRENCY)", () => {
  it("when unset is one per core with PostgreSQL and Redis, else one", () => {
    expect(processCount({ WEB_CONCURRENCY: undefined, DATABASE_URL: PG, REDIS_URL: REDIS })).toEqual({ count: os.availableParallelism() });
    expect(processCount({ WEB_CONCURRENCY: undefined, DATABASE_URL: PG, REDIS_URL: undefined })).toEqual({ count: 1 });
    expect(processCount({ WEB_CONCURRENCY: undefined, DATABASE_URL: undefined, REDIS_URL: undefined })).toEqual({ count: 1 });
  });

  it("takes a number with PostgreSQL and Redis", () => {
    expect(processCount({ WEB_CONCURRENCY: "3", DATABASE_URL: PG, REDIS_URL: REDIS })).toEqual({ count: 3 });
    expect(processCount({ WEB_CONCURRENCY: "1", DATABASE_URL: undefined, REDIS_URL: undefined })).toEqual({ count: 1 });
  });

  it("refuses more than one process on PGlite or without Redis, naming the fix", () => {
    expect(processCount({ WEB_CONCURRENCY: "2", DATABASE_URL: undefined, REDIS_URL: REDIS })).toEqual({
      refused: expect.stringContaining("needs DATABASE_URL"),
    });
    expect(processCount({ WEB_CONCURRENCY: "2", DATABASE_URL: PG, REDIS_URL: undefined })).toEqual({ refused: expect.stringContaining("needs REDIS_URL") });
  });

  it("auto is one per core with PostgreSQL and Redis, else one", () => {
    expect(processCount({ WEB_CONCURRENCY: "auto", DATABASE_URL: PG, REDIS_URL: REDIS })).toEqual({ count: os.availableParallelism() });
    expect(processCount({ WEB_CONCURRENCY: "auto", DATABASE_URL: PG, REDIS_URL: undefined })).toEqual({ count: 1 });
  });
});
