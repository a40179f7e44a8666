import { describe, expect, it } from "vitest";
import { toMatchMap } from "./schema.ts";
import { liveMatch } from "./testing.ts";
import { applyUpdate, parseUpdate, shouldRefetch } from "./update.ts";

describe("parseUpdate", () => {
  it("rejects empty publications with 'Update is empty...'", () => {
    for (const raw of [null, undefined, {}, { slug: "" }, "x", { home: {}, away: {} }]) {
      expect(parseUpdate(raw)).toEqual({ ok: false, log: "Update is empty..." });
    }
  });
  it("accepts the spec shape", () => {
    const r = parseUpdate({ slug: "a", matchTime: "45+1", stage: "live", home: { score: 1, periods: { "1": 1 } }, away: { score: 0, periods: {} } });
    expect(r.ok).toBe(true);
  });
});

describe("applyUpdate (docs/contract/storefront.md §4)", () => {
  const base = toMatchMap([liveMatch("a", "live", { matchTime: 30 }), liveMatch("b", "plan")]);

  it("merges periods and replaces the score when present", () => {
    const r = applyUpdate(base, { slug: "a", matchTime: 50, home: { score: 1, periods: { "2": 1 } }, away: {} });
    const a = r.matches.get("a")!;
    expect(r.applied).toBe(true);
    expect(a.home.periods).toEqual({ "1": 0, "2": 1 });
    expect(a.home.score).toBe(1);
    expect(a.away.score).toBe(0); // no score in the update: kept
    expect(a.matchTime).toBe(50);
    expect(r.scoreChanges).toEqual({ home: "up", away: null });
    expect(base.get("a")!.home.score).toBe(0); // input untouched
  });

  it("ignores and logs an update for an absent match", () => {
    const r = applyUpdate(base, { slug: "zzz", home: { score: 9 }, away: {} });
    expect(r.applied).toBe(false);
    expect(r.matches).toBe(base);
    expect(r.logs[0]).toMatch(/^Match is absent/);
  });

  it("logs an unknown stage but applies it, and recomputes live", () => {
    const r = applyUpdate(base, { slug: "a", stage: "abandoned", home: {}, away: {} });
    expect(r.logs[0]).toMatch(/^Unknown stage/);
    expect(r.matches.get("a")!.stage).toBe("abandoned");
    expect(r.matches.get("a")!.live).toBe(false);
    const r2 = applyUpdate(base, { slug: "b", stage: "live", matchTime: 1, home: {}, away: {} });
    expect(r2.matches.get("b")!.live).toBe(true);
    expect(r2.logs).toEqual([]);
  });

  it("keeps matchTime when the update has none", () => {
    const r = applyUpdate(base, { slug: "a", home: {}, away: {} });
    expect(r.matches.get("a")!.matchTime).toBe(30);
  });

  it("reports a score going down", () => {
    const up = applyUpdate(base, { slug: "a", home: {}, away: { score: 2 } });
    const down = applyUpdate(up.matches, { slug: "a", home: {}, away: { score: 1 } });
    expect(down.scoreChanges.away).toBe("down");
  });
});

describe("shouldRefetch", () => {
  const planned = liveMatch("b", "plan");
  const live = liveMatch("a", "live");
  it("refetches when the selected match is not live and the update has a minute or live stage", () => {
    expect(shouldRefetch(planned, { slug: "x", matchTime: 1, home: {}, away: {} })).toBe(true);
    expect(shouldRefetch(planned, { slug: "x", stage: "halftime", home: {}, away: {} })).toBe(true);
    expect(shouldRefetch(undefined, { slug: "x", stage: "live", home: {}, away: {} })).toBe(true);
  });
  it("does not otherwise", () => {
    expect(shouldRefetch(planned, { slug: "x", stage: "finished", home: {}, away: {} })).toBe(false);
    expect(shouldRefetch(planned, { slug: "x", matchTime: null, home: {}, away: {} })).toBe(false);
    expect(shouldRefetch(live, { slug: "x", matchTime: 3, home: {}, away: {} })).toBe(false);
  });
});
