import { describe, expect, it } from "vitest";
import { Gate } from "./gate.ts";
import { isDatabaseBusy } from "./client.ts";

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe("Gate", () => {
  it("lets at most `slots` callers in at once, and the rest in order of arrival", async () => {
    const gate = new Gate(2, 10_000);
    const holds = [deferred(), deferred(), deferred(), deferred()];
    const entered: number[] = [];
    const runs = holds.map((h, i) =>
      gate.run(async () => {
        entered.push(i);
        await h.promise;
      }),
    );
    await Promise.resolve();
    expect(entered).toEqual([0, 1]);
    expect(gate.waiting).toBe(2);
    holds[1]!.resolve();
    await runs[1];
    await new Promise((r) => setImmediate(r));
    expect(entered).toEqual([0, 1, 2]);
    holds[0]!.resolve();
    holds[2]!.resolve();
    holds[3]!.resolve();
    await Promise.all(runs);
    expect(entered).toEqual([0, 1, 2, 3]);
    expect(gate.waiting).toBe(0);
  });

  it("a caller that waits longer than waitMs gets a busy error and never runs; the slot is not lost", async () => {
    const gate = new Gate(1, 30);
    const hold = deferred();
    const first = gate.run(() => hold.promise);
    let ran = false;
    const late = await gate
      .run(async () => {
        ran = true;
      })
      .catch((e: unknown) => e);
    expect(isDatabaseBusy(late)).toBe(true);
    expect(ran).toBe(false);
    expect(gate.waiting).toBe(0);
    hold.resolve();
    await first;
    await expect(gate.run(async () => "after")).resolves.toBe("after");
  });

  it("a failing caller frees its slot", async () => {
    const gate = new Gate(1, 1_000);
    await expect(gate.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(gate.run(async () => 42)).resolves.toBe(42);
  });
});

describe("isDatabaseBusy", () => {
  it("knows PostgreSQL's not-now codes and node-postgres's pool timeout, and nothing else", () => {
    for (const code of ["53300", "57P03", "55P03", "40001", "40P01"]) expect(isDatabaseBusy({ code }), code).toBe(true);
    expect(isDatabaseBusy(new Error("timeout exceeded when trying to connect"))).toBe(true);
    for (const other of [{ code: "23505" }, new Error("boom"), null, undefined, "53300"]) expect(isDatabaseBusy(other)).toBe(false);
  });
});
