import { describe, expect, it } from "vitest";
import { sportsRpcResultSchema, liveMatchRpcResultSchema } from "../domain/live/schema.ts";
import { BAD_REQUEST, matchRpcHandler, sportRpcHandler, type RpcError } from "./rpc.ts";
import { createMemoryMatchStore, dayWindow, type MatchRecord } from "./store.ts";

const NOW = Date.UTC(2024, 4, 10, 15, 0);
const sec = (iso: string) => Date.parse(iso) / 1000;

function rec(slug: string, date: number, stage: string, over: Partial<MatchRecord> = {}): MatchRecord {
  const team = (name: string) => ({
    img: `/media/teams/${name}.svg`,
    abbr: name.slice(0, 3).toUpperCase(),
    name,
    periods: {},
    score: stage === "plan" ? null : 0,
  });
  return {
    slug,
    date,
    stage,
    live: false,
    matchTime: null,
    home: team(`${slug}h`),
    away: team(`${slug}a`),
    league: { slug: "l", name: "League", country: "Land", img: "/media/leagues/l.svg" },
    ...over,
  };
}

const fixtures = [
  rec("done", sec("2024-05-10T11:00:00Z"), "finished"),
  rec("later", sec("2024-05-10T19:00:00Z"), "plan"),
  rec("soon", sec("2024-05-10T16:00:00Z"), "plan"),
  rec("now", sec("2024-05-10T14:00:00Z"), "live", { matchTime: 55 }),
  rec("late-yesterday", sec("2024-05-09T23:30:00Z"), "halftime"),
  rec("tomorrow", sec("2024-05-11T12:00:00Z"), "plan"),
  rec("next-week", sec("2024-05-17T12:00:00Z"), "plan"),
];

describe("memory store", () => {
  it("lists by period, by kick-off", async () => {
    const store = createMemoryMatchStore(fixtures);
    expect((await store.list("live", NOW)).map((m) => m.slug)).toEqual(["late-yesterday", "now"]);
    expect((await store.list("today", NOW)).map((m) => m.slug)).toEqual(["done", "now", "soon", "later"]);
    expect((await store.list("tomorrow", NOW)).map((m) => m.slug)).toEqual(["tomorrow"]);
    // At UTC+2 the 23:30Z kick-off of the 9th is at 01:30 on the 10th: it counts as today.
    expect((await store.list("today", NOW, 120)).map((m) => m.slug)).toContain("late-yesterday");
  });
  it("applies updates with the docs/contract/storefront.md §4 merge rules and copies in and out", async () => {
    const store = createMemoryMatchStore(fixtures);
    const before = await store.get("now");
    before!.home.score = 99;
    const after = await store.applyUpdate({ slug: "now", stage: "finished", matchTime: 90, home: { score: 2, periods: { "2": 2 } }, away: {} });
    expect(after).toMatchObject({ stage: "finished", live: false, matchTime: 90 });
    expect(after!.home).toMatchObject({ score: 2, periods: { "2": 2 } });
    expect(after!.away.score).toBe(0);
    expect(await store.applyUpdate({ slug: "nope", home: {}, away: {} })).toBeUndefined();
    expect(await store.get("nope")).toBeUndefined();
  });
  it("computes day windows with an offset", () => {
    expect(dayWindow("today", NOW)).toEqual([sec("2024-05-10T00:00:00Z"), sec("2024-05-11T00:00:00Z")]);
    expect(dayWindow("tomorrow", NOW, -300)).toEqual([sec("2024-05-11T05:00:00Z"), sec("2024-05-12T05:00:00Z")]);
  });
});

describe("sport:football", () => {
  const handler = sportRpcHandler(createMemoryMatchStore(fixtures), () => NOW);
  it("answers {data} with list-widget matches that validate", async () => {
    const r = await handler({ lang: "fr", period: "live" });
    expect(sportsRpcResultSchema.safeParse(r).success).toBe(true);
    expect(r.data.map((m) => [m.slug, m.live])).toEqual([
      ["late-yesterday", true],
      ["now", true],
    ]);
    expect(r.data[0]!.details).toEqual({ loading: false, show: false, events: [] });
  });
  it("rejects a bad period with code 107", async () => {
    for (const bad of [{ period: "yesterday" }, null, "live", { lang: 3, period: "live" }]) {
      await expect(handler(bad)).rejects.toMatchObject({ code: BAD_REQUEST } satisfies Partial<RpcError>);
    }
  });
});

describe("match:football", () => {
  const handler = matchRpcHandler(createMemoryMatchStore(fixtures), () => NOW);
  it("orders live, then soonest to start, then most recent, with formatted date and time", async () => {
    const r = await handler({ lang: "nl" });
    expect(liveMatchRpcResultSchema.safeParse(r).success).toBe(true);
    expect(r.data.map((m) => m.slug)).toEqual(["late-yesterday", "now", "soon", "later", "tomorrow", "done"]);
    expect(r.data[1]).toMatchObject({ date: "10/05/2024", time: "14:00", live: true, matchTime: 55, league: { country: "Land", name: "League" } });
  });
  it("answers one match by slug, or none", async () => {
    expect((await handler({ slug: "soon" })).data.map((m) => m.slug)).toEqual(["soon"]);
    expect((await handler({ slug: "zzz" })).data).toEqual([]);
    expect((await handler(undefined)).data.length).toBe(6);
    await expect(handler({ slug: 5 })).rejects.toMatchObject({ code: BAD_REQUEST });
  });
});

describe("bad request error factory", () => {
  it("throws the error the hub wants", async () => {
    class HubLikeError extends Error {
      code = 107;
    }
    const h = sportRpcHandler(createMemoryMatchStore([]), () => NOW, { badRequest: () => new HubLikeError("bad request") });
    await expect(h({ period: "never" })).rejects.toBeInstanceOf(HubLikeError);
  });
});
