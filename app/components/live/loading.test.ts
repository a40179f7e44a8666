import { describe, expect, it, vi } from "vitest";
import type { Rpc } from "./connection.ts";
import { loadListMatches, loadLiveMatches, withRetries } from "./loading.ts";

const match = (slug: string) => ({
  slug,
  stage: "live",
  date: 1715000000,
  matchTime: 12,
  home: { name: "Home", img: "/h.svg", score: 1 },
  away: { name: "Away", img: "/a.svg", score: 0 },
  league: { slug: "l", name: "League", country: "Land", img: "" },
});

function fakeRpc(answers: Record<string, unknown[] | Error | Error[]>): Rpc & { calls: string[] } {
  const calls: string[] = [];
  const failures = new Map<string, number>();
  const rpc = (async (method: string, data: unknown) => {
    const period = (data as { period?: string }).period ?? "";
    calls.push(`${method}:${period}`);
    const a = answers[period];
    if (a instanceof Error) throw a;
    if (Array.isArray(a) && a[0] instanceof Error) {
      const n = failures.get(period) ?? 0;
      failures.set(period, n + 1);
      if (n < a.length) throw a[n];
      return { data: [match(`${period}-ok`)] };
    }
    return { data: a ?? [] };
  }) as Rpc & { calls: string[] };
  rpc.calls = calls;
  return rpc;
}

describe("loadListMatches (docs/contract/storefront.md §4 loading order)", () => {
  it("stops at live when live has matches", async () => {
    const rpc = fakeRpc({ live: [match("a")], today: [match("b")] });
    const r = await loadListMatches(rpc, "en", () => {});
    expect(r.period).toBe("live");
    expect(r.matches.map((m) => m.slug)).toEqual(["a"]);
    expect(rpc.calls).toEqual(["sport:football:live"]);
  });
  it("falls through empty live to today, logging 'Data is empty...'", async () => {
    const rpc = fakeRpc({ live: [], today: [match("b")] });
    const log = vi.fn();
    const r = await loadListMatches(rpc, "fr", log);
    expect(r.period).toBe("today");
    expect(rpc.calls).toEqual(["sport:football:live", "sport:football:today"]);
    expect(log).toHaveBeenCalledWith("Data is empty...", { period: "live" });
  });
  it("tries tomorrow last and reports nothing when all are empty", async () => {
    const rpc = fakeRpc({});
    const r = await loadListMatches(rpc, "en", () => {});
    expect(r).toEqual({ period: null, matches: [] });
    expect(rpc.calls).toEqual(["sport:football:live", "sport:football:today", "sport:football:tomorrow"]);
  });
  it("retries a failing call up to 3 times", async () => {
    const boom = new Error("boom");
    const rpc = fakeRpc({ live: [boom, boom, boom] });
    const r = await loadListMatches(rpc, "en", () => {});
    expect(r.period).toBe("live");
    expect(rpc.calls.filter((c) => c.endsWith("live"))).toHaveLength(4);
  });
  it("gives up on a period after 1 + 3 failed attempts and moves on", async () => {
    const rpc = fakeRpc({ live: new Error("down"), today: [match("t")] });
    const r = await loadListMatches(rpc, "en", () => {});
    expect(rpc.calls.filter((c) => c.endsWith("live"))).toHaveLength(4);
    expect(r.period).toBe("today");
  });
  it("skips invalid matches but keeps the valid ones", async () => {
    const rpc = fakeRpc({ live: [{ slug: "" }, match("ok")] });
    const r = await loadListMatches(rpc, "en", () => {});
    expect(r.matches.map((m) => m.slug)).toEqual(["ok"]);
  });
});

describe("withRetries", () => {
  it("rethrows the last error", async () => {
    let n = 0;
    await expect(
      withRetries(async () => {
        n++;
        throw new Error(`e${n}`);
      }, 2),
    ).rejects.toThrow("e3");
  });
});

describe("loadLiveMatches", () => {
  it("asks match:football and logs an empty answer", async () => {
    const calls: unknown[] = [];
    const log = vi.fn();
    const r = await loadLiveMatches(async (m, d) => (calls.push([m, d]), { data: [] }), "nl", log);
    expect(r).toEqual([]);
    expect(calls).toEqual([["match:football", { lang: "nl" }]]);
    expect(log).toHaveBeenCalledWith("Data is empty...");
  });
});
