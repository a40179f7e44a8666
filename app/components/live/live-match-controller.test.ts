import { describe, expect, it } from "vitest";
import type { LiveMatchInput } from "../../../core/domain/live/schema.ts";
import { createLiveMatchController, selectedMatch, type StorageLike, type Timers } from "./live-match-controller.ts";

const lm = (slug: string, stage: string, over: Partial<LiveMatchInput> = {}): LiveMatchInput => ({
  slug,
  date: "10/05/2024",
  time: "18:00",
  stage,
  matchTime: stage === "live" ? 20 : null,
  league: { country: "Land", name: "League" },
  home: { name: `${slug} H`, img: "/h.svg", score: stage === "plan" ? null : 0, periods: {} },
  away: { name: `${slug} A`, img: "/a.svg", score: stage === "plan" ? null : 0, periods: {} },
  ...over,
});

function harness(answers: LiveMatchInput[][], stored: string | null = null) {
  let clock = 1_000;
  const pending: { at: number; fn: () => void; id: number }[] = [];
  let nextId = 1;
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      const id = nextId++;
      pending.push({ at: clock + ms, fn, id });
      return id;
    },
    clearTimeout: (h) => {
      const i = pending.findIndex((p) => p.id === h);
      if (i >= 0) pending.splice(i, 1);
    },
  };
  const store = new Map<string, string>(stored ? [["matchSlug", stored]] : []);
  const storage: StorageLike = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v), removeItem: (k) => void store.delete(k) };
  let publish: (d: unknown) => void = () => {};
  const logs: string[] = [];
  let calls = 0;
  const c = createLiveMatchController({
    rpc: async () => ({ data: answers[Math.min(calls++, answers.length - 1)] }),
    subscribe: (channel, on) => {
      expect(channel).toBe("football");
      publish = on;
      return () => {};
    },
    storage,
    lang: "en",
    log: (m) => void logs.push(m),
    now: () => clock,
    timers,
  });
  const flush = () => new Promise((r) => setTimeout(r, 0));
  const advance = async (ms: number) => {
    clock += ms;
    for (const p of [...pending].sort((a, b) => a.at - b.at))
      if (p.at <= clock && pending.includes(p)) {
        pending.splice(pending.indexOf(p), 1);
        p.fn();
      }
    await flush();
  };
  return { c, store, logs, publish: (d: unknown) => publish(d), flush, advance, calls: () => calls, pending };
}

describe("live-match controller", () => {
  it("loads, selects the first live match and stores its slug", async () => {
    const h = harness([[lm("p", "plan"), lm("l", "live")]]);
    h.c.start();
    expect(h.c.getState().loading).toBe(true);
    await h.flush();
    expect(h.c.getState().selected).toBe("l");
    expect(h.store.get("matchSlug")).toBe("l");
  });

  it("reloads once and clears storage when the stored match left the allowed stages", async () => {
    const h = harness([[lm("x", "postponed"), lm("p", "plan")], [lm("p", "plan")]], "x");
    h.c.start();
    await h.flush();
    await h.flush();
    expect(h.calls()).toBe(2);
    expect(h.c.getState().selected).toBe("p");
    expect(h.store.get("matchSlug")).toBe("p");
  });

  it("merges publications, sets indicators that expire after 45 s / 8 s, and logs bad ones", async () => {
    const h = harness([[lm("l", "live")]]);
    h.c.start();
    await h.flush();
    h.publish({ slug: "l", matchTime: 21, home: { score: 1, periods: { "1": 1 } }, away: {} });
    let s = h.c.getState();
    expect(selectedMatch(s)?.home.score).toBe(1);
    expect(s.indicators.l?.home?.direction).toBe("up");
    h.publish({ slug: "l", home: {}, away: { score: 0 } });
    h.publish(null);
    h.publish({ slug: "ghost", home: {}, away: {} });
    h.publish({ slug: "l", stage: "mystery", home: {}, away: {} });
    expect(h.logs).toEqual(["Update is empty...", "Match is absent: ghost", "Unknown stage: mystery"]);
    await h.advance(44_000);
    expect(h.c.getState().indicators.l?.home?.direction).toBe("up");
    await h.advance(1_000);
    expect(h.c.getState().indicators).toEqual({});
    s = h.c.getState();
    expect(selectedMatch(s)?.stage).toBe("mystery");
    expect(selectedMatch(s)?.live).toBe(false);
  });

  it("refetches when the selected match is not live and an update brings a minute", async () => {
    const h = harness([
      [lm("p", "plan"), lm("q", "plan")],
      [lm("q", "live"), lm("p", "plan")],
    ]);
    h.c.start();
    await h.flush();
    expect(h.c.getState().selected).toBe("p");
    h.publish({ slug: "q", stage: "live", matchTime: 1, home: { score: 0 }, away: { score: 0 } });
    await h.flush();
    expect(h.calls()).toBe(2);
    expect(h.c.getState().selected).toBe("q");
    // docs/contract/storefront.md §4: switching from a stored non-live match to a live one clears the stored slug.
    expect(h.store.has("matchSlug")).toBe(false);
  });

  it("auto-updates after 10 minutes of silence, postponed by updates for the selected match", async () => {
    const h = harness([[lm("l", "live")]]);
    h.c.start();
    await h.flush();
    await h.advance(500_000);
    h.publish({ slug: "l", matchTime: 30, home: {}, away: {} });
    await h.advance(500_000);
    expect(h.calls()).toBe(1);
    await h.advance(100_000);
    expect(h.calls()).toBe(2);
    h.c.stop();
    expect(h.pending).toHaveLength(0);
  });
});
