import { claim, charge, result } from "../../tests/support/sandbox-store.ts";
import { describe, expect, it } from "vitest";
import { MemorySandboxStore, type ChargeRecord } from "./store.server.ts";

describe("MemorySandboxStore", () => {
  it("claims a key once; a second claim gets the existing record", async () => {
    const store = new MemorySandboxStore();
    expect(await store.claimKey(claim("k", "a"), 0)).toBeNull();
    expect(await store.claimKey(claim("k", "b"), 0)).toMatchObject({ state: "pending", claimId: "a" });
  });

  it("takes over a stale pending claim, never a done one", async () => {
    const store = new MemorySandboxStore();
    await store.claimKey(claim("k", "a", 1000), 0);
    expect(await store.claimKey(claim("k", "b", 5000), 2000)).toBeNull();
    // the dead claimant can no longer commit
    expect(await store.commit({ key: "k", claimId: "a", result, completedAt: 5001, writes: [charge("ch_1", 1)] })).toBe(false);
    expect(await store.commit({ key: "k", claimId: "b", result, completedAt: 5001, writes: [charge("ch_1", 1)] })).toBe(true);
    expect(await store.claimKey(claim("k", "c", 99_999), 99_999)).toMatchObject({ state: "done", claimId: "b" });
  });

  it("releases only its own pending claim", async () => {
    const store = new MemorySandboxStore();
    await store.claimKey(claim("k", "a"), 0);
    await store.releaseKey("k", "other");
    expect(await store.getKey("k")).not.toBeNull();
    await store.releaseKey("k", "a");
    expect(await store.getKey("k")).toBeNull();
  });

  it("commits all writes or none: inserts must be new, updates must follow the stored version", async () => {
    const store = new MemorySandboxStore();
    await store.claimKey(claim("k1", "a"), 0);
    expect(await store.commit({ key: "k1", claimId: "a", result, completedAt: 1, writes: [charge("ch_1", 1)] })).toBe(true);

    await store.claimKey(claim("k2", "a"), 0);
    // an insert of an existing id fails, and the valid update beside it is not applied
    expect(await store.commit({ key: "k2", claimId: "a", result, completedAt: 2, writes: [charge("ch_1", 2, 100), charge("ch_1", 1)] })).toBe(false);
    expect(await store.getRecord("ch_1")).toMatchObject({ version: 1, refunded: 0 });
    expect(await store.getKey("k2")).toMatchObject({ state: "pending" });
    // a stale update (version 3 after 1) fails
    expect(await store.commit({ key: "k2", claimId: "a", result, completedAt: 2, writes: [charge("ch_1", 3, 100)] })).toBe(false);
    expect(await store.commit({ key: "k2", claimId: "a", result, completedAt: 2, writes: [charge("ch_1", 2, 100)] })).toBe(true);
    expect(await store.getRecord("ch_1")).toMatchObject({ version: 2, refunded: 100 });
    expect(await store.getKey("k2")).toMatchObject({ state: "done", result, completedAt: 2 });
  });

  it("cannot commit a key that was never claimed or is already done", async () => {
    const store = new MemorySandboxStore();
    expect(await store.commit({ key: "k", claimId: "a", result, completedAt: 1, writes: [] })).toBe(false);
    await store.claimKey(claim("k", "a"), 0);
    expect(await store.commit({ key: "k", claimId: "a", result, completedAt: 1, writes: [] })).toBe(true);
    expect(await store.commit({ key: "k", claimId: "a", result, completedAt: 1, writes: [] })).toBe(false);
  });

  it("hands out copies: mutating a returned record changes nothing stored", async () => {
    const store = new MemorySandboxStore();
    await store.claimKey(claim("k", "a"), 0);
    const written = charge("ch_1", 1);
    await store.commit({ key: "k", claimId: "a", result, completedAt: 1, writes: [written] });
    written.refunded = 999;
    const read = (await store.getRecord("ch_1")) as ChargeRecord;
    read.refunded = 123;
    expect(await store.getRecord("ch_1")).toMatchObject({ refunded: 0 });
  });
});
