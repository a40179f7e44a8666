// Live football end to end over HTTP and the real `centrifuge` client: the RPCs against the running shop,
// the provider ingest (auth, validation, publication), badges and pages, and two shops sharing Redis.
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Centrifuge, ClientEvents, SubscriptionEvents } from "centrifuge";
import { Redis } from "ioredis";
import { dayWindow } from "../../core/sports/store.ts";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { newClient, Recorder } from "../realtime/helpers.ts";

const TOKEN = "test-ingest-token-0123456789";
const clients: Centrifuge[] = [];

function wsUrl(shop: TestShop): string {
  return `${shop.url.replace(/^http/, "ws")}/ws`;
}

async function connected(shop: TestShop): Promise<{ client: Centrifuge; rec: Recorder<ClientEvents> }> {
  const client = newClient(wsUrl(shop));
  clients.push(client);
  const rec = new Recorder(client, ["connected", "disconnected"]);
  client.connect();
  await rec.next("connected");
  return { client, rec };
}

async function subscribed(shop: TestShop): Promise<Recorder<SubscriptionEvents>> {
  const { client } = await connected(shop);
  const sub = client.newSubscription("football");
  const rec = new Recorder(sub, ["subscribed", "publication", "error"]);
  sub.subscribe();
  await rec.next("subscribed");
  return rec;
}

/** A list-widget match as a provider would push it; `kickoff` in unix seconds. */
function fixture(slug: string, kickoff: number, extra: Record<string, unknown> = {}) {
  return {
    slug,
    date: kickoff,
    stage: "plan",
    matchTime: null,
    league: { slug: "premier-division", name: "Premier Division", country: "England", img: "/media/leagues/premier-division.svg" },
    home: { name: "Ashford Rovers", img: "/media/teams/ashford-rovers.svg", abbr: "ASH", score: null, periods: {} },
    away: { name: "Kingsbridge United", img: "/media/teams/kingsbridge-united.svg", score: null, periods: {} },
    ...extra,
  };
}

function ingest(shop: TestShop, what: "matches" | "updates", body: unknown, token: string | null = TOKEN): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  return fetch(`${shop.url}/wp-json/shop/v1/live/${what}`, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
}

afterEach(() => {
  clients.splice(0).forEach((c) => c.disconnect());
});

describe("one shop", () => {
  let shop: TestShop;
  const now = Date.now();
  const [todayStart] = dayWindow("today", now);
  const [tomorrowStart] = dayWindow("tomorrow", now);
  const todayKickoff = Math.max(todayStart, Math.floor(now / 1000) - 3600); // within today, already started
  const tomorrowKickoff = tomorrowStart + 18 * 3600;

  beforeAll(async () => {
    shop = await startTestShop({ LIVE_INGEST_TOKEN: TOKEN });
  });
  afterAll(async () => shop?.close());

  it("sport:football answers by period, in the order the list widget asks: live, then today, then tomorrow", async () => {
    const { client } = await connected(shop);
    const period = async (p: string) =>
      ((await client.rpc("sport:football", { lang: "en", period: p })).data as { data: { slug: string; live: boolean }[] }).data;
    for (const p of ["live", "today", "tomorrow"]) expect(await period(p)).toEqual([]);

    expect((await ingest(shop, "matches", fixture("ashford-vs-kingsbridge-tomorrow", tomorrowKickoff))).status).toBe(201);
    expect(await period("live")).toEqual([]);
    expect(await period("today")).toEqual([]);
    const tomorrow = await period("tomorrow");
    expect(tomorrow.map((m) => m.slug)).toEqual(["ashford-vs-kingsbridge-tomorrow"]);
    expect(tomorrow[0]).toMatchObject({
      stage: "plan",
      live: false,
      date: tomorrowKickoff,
      league: { name: "Premier Division", country: "England", img: "/media/leagues/premier-division.svg" },
      home: { name: "Ashford Rovers", abbr: "ASH", img: "/media/teams/ashford-rovers.svg" },
      away: { name: "Kingsbridge United", abbr: "KIN" }, // no abbr pushed: the first three letters upper-cased
    });

    const today = fixture("harrowgate-vs-millbrook-today", todayKickoff, {
      home: { name: "Harrowgate Town", img: "/media/teams/harrowgate-town.svg", score: null, periods: {} },
      away: { name: "Millbrook Athletic", img: "/media/teams/millbrook-athletic.svg", score: null, periods: {} },
    });
    expect((await ingest(shop, "matches", today)).status).toBe(201);
    expect((await period("today")).map((m) => m.slug)).toEqual(["harrowgate-vs-millbrook-today"]);
    expect(await period("live")).toEqual([]);

    const kick = {
      slug: "harrowgate-vs-millbrook-today",
      stage: "live",
      matchTime: 1,
      home: { score: 0, periods: { "1": 0 } },
      away: { score: 0, periods: { "1": 0 } },
    };
    expect((await ingest(shop, "updates", kick)).status).toBe(200);
    const live = await period("live");
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ slug: "harrowgate-vs-millbrook-today", stage: "live", live: true, matchTime: 1, home: { score: 0 }, away: { score: 0 } });

    // The live-match widget's full fetch: the live match first, then the one still to come; DD/MM/YYYY and HH:MM.
    const full = ((await client.rpc("match:football", { lang: "pl" })).data as { data: { slug: string; date: string; time: string }[] }).data;
    expect(full.map((m) => m.slug)).toEqual(["harrowgate-vs-millbrook-today", "ashford-vs-kingsbridge-tomorrow"]);
    expect(full[1]!.date).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    expect(full[1]!.time).toBe("18:00");
    const one = ((await client.rpc("match:football", { slug: "ashford-vs-kingsbridge-tomorrow" })).data as { data: unknown[] }).data;
    expect(one).toHaveLength(1);
  });

  it("a bad RPC payload is error 107 and an unknown method 104; the connection keeps serving", async () => {
    const { client } = await connected(shop);
    await expect(client.rpc("sport:football", { period: "yesterday" })).rejects.toMatchObject({ code: 107 });
    await expect(client.rpc("sport:cricket", {})).rejects.toMatchObject({ code: 104 });
    const ok = await client.rpc("sport:football", { period: "today" });
    expect(Array.isArray((ok.data as { data: unknown[] }).data)).toBe(true);
  });

  it("ingest needs the bearer token", async () => {
    const body = fixture("no-auth-match", tomorrowKickoff);
    const missing = await ingest(shop, "matches", body, null);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await missing.json()).toMatchObject({ code: "live_unauthorized", data: { status: 401 } });
    expect((await ingest(shop, "updates", { slug: "x", home: {}, away: {} }, "wrong-token-wrong-token")).status).toBe(401);
    const { client } = await connected(shop);
    const tomorrow = ((await client.rpc("sport:football", { period: "tomorrow" })).data as { data: { slug: string }[] }).data;
    expect(tomorrow.map((m) => m.slug)).not.toContain("no-auth-match");
  });

  it("a valid update reaches subscribers; a malformed one is refused with a clear error and never published", async () => {
    const slug = "thornbury-vs-whitmoor";
    await ingest(
      shop,
      "matches",
      fixture(slug, todayKickoff, {
        stage: "live",
        matchTime: 10,
        home: { name: "Thornbury Albion", img: "", score: 0, periods: { "1": 0 } },
        away: { name: "Whitmoor Forest", img: "", score: 0, periods: { "1": 0 } },
      }),
    );
    const rec = await subscribed(shop);

    const malformed = [
      { slug, matchTime: 11, home: { score: -1 }, away: {} }, // negative score
      { slug, home: { score: 1 } }, // no away part
      { matchTime: 12, home: {}, away: {} }, // no slug
      [
        { slug, home: { score: 1 }, away: {} },
        { slug, home: { score: "one" }, away: {} },
      ], // one bad item spoils the batch
    ];
    for (const body of malformed) {
      const res = await ingest(shop, "updates", body);
      expect(res.status).toBe(400);
      const err = await res.json();
      expect(err.code).toBe("live_invalid_update");
      expect(err.message).toMatch(/nothing was stored or published/);
      expect(err.data.errors.length).toBeGreaterThan(0);
    }
    const notJson = await ingest(shop, "updates", "{not json");
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).code).toBe("rest_invalid_json");
    const unknown = await ingest(shop, "updates", { slug: "no-such-match", home: { score: 1 }, away: {} });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).code).toBe("live_unknown_match");

    const goal = { slug, matchTime: 23, stage: "live", home: { score: 1, periods: { "1": 1 } }, away: { score: 0, periods: { "1": 0 } } };
    const res = await ingest(shop, "updates", goal);
    expect(res.status).toBe(200);
    expect((await res.json()).published).toEqual([{ slug, offset: expect.any(Number) }]);
    // The first publication after the refused ones is the goal: none of them reached the channel.
    const pub = await rec.next("publication");
    expect(pub.data).toEqual(goal);
    expect(rec.all("publication")).toHaveLength(1);

    const { client } = await connected(shop);
    const live = ((await client.rpc("sport:football", { period: "live" })).data as { data: { slug: string; home: { score: number } }[] }).data;
    expect(live.find((m) => m.slug === slug)?.home.score).toBe(1);
  });

  it("concurrent updates of one match are all kept (row lock, no lost update)", async () => {
    const slug = "easton-vs-redcliffe";
    await ingest(
      shop,
      "matches",
      fixture(slug, todayKickoff, {
        stage: "live",
        matchTime: 5,
        home: { name: "Easton Wanderers", img: "", score: 0, periods: {} },
        away: { name: "Redcliffe City", img: "", score: 0, periods: {} },
      }),
    );
    const n = 12;
    const replies = await Promise.all(Array.from({ length: n }, (_, i) => ingest(shop, "updates", { slug, home: { periods: { [`k${i}`]: i } }, away: {} })));
    expect(replies.map((r) => r.status)).toEqual(Array(n).fill(200));
    const { client } = await connected(shop);
    const full = ((await client.rpc("match:football", { slug })).data as { data: { home: { periods: Record<string, number> } }[] }).data;
    expect(Object.keys(full[0]!.home.periods).sort()).toEqual(Array.from({ length: n }, (_, i) => `k${i}`).sort());
  });

  it("serves team and league badges, 404 for unknown slugs", async () => {
    const team = await fetch(`${shop.url}/media/teams/ashford-rovers.svg`);
    expect(team.status).toBe(200);
    expect(team.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(await team.text()).toContain('aria-label="Ashford Rovers"');
    const league = await fetch(`${shop.url}/media/leagues/premier-division.svg`);
    expect(league.status).toBe(200);
    expect(await league.text()).toContain("<svg");
    expect((await fetch(`${shop.url}/media/teams/no-such-club.svg`)).status).toBe(404);
    expect((await fetch(`${shop.url}/media/leagues/..%2Fetc.svg`)).status).toBe(404);
  });

  it("the /live/ page, the home page and the embed demo carry the widgets", async () => {
    const http = new TestClient(shop.url);
    const live = await http.get("/live/");
    expect(live.status).toBe(200);
    const html = await live.text();
    expect(html).toContain('class="live-widget live-widget--loading"');
    expect(html).toContain('class="live-scores live-scores--loading"');
    expect(html).toMatch(/<link[^>]* rel="stylesheet" href="\/assets\/live-[^"]+\.css"/);
    const home = await (await http.get("/")).text();
    expect(home).toContain("live-widget--loading");
    expect(home).toContain("live-scores--loading");
    const demo = await http.get("/live/embed-demo.html");
    expect(demo.status).toBe(200);
    const demoHtml = await demo.text();
    expect(demoHtml).toContain('<div data-place="widget-live-match" data-lang="pl"></div>');
    expect(demoHtml).toContain('<script src="/embed/live-match.js" defer></script>');
  });
});

describe("two shops through Redis", () => {
  const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const prefix = `test:live:${randomBytes(4).toString("hex")}`;
  const shops: TestShop[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) shops.push(await startTestShop({ REDIS_URL, REDIS_PREFIX: prefix, LIVE_INGEST_TOKEN: TOKEN }));
  });
  afterAll(async () => {
    await Promise.all(shops.map((s) => s.close()));
    const admin = new Redis(REDIS_URL);
    const keys = await admin.keys(`${prefix}:*`);
    if (keys.length) await admin.del(...keys);
    await admin.quit();
  });

  it("an update ingested on one process reaches a subscriber of the other", async () => {
    const [a, b] = shops as [TestShop, TestShop];
    const onB = await subscribed(b);
    const onA = await subscribed(a);
    const slug = "olympique-vs-belrive";
    expect((await ingest(a, "matches", fixture(slug, Math.floor(Date.now() / 1000), { stage: "live", matchTime: 50 }))).status).toBe(201);
    const first = await onB.next("publication");
    expect(first.data).toMatchObject({ slug, stage: "live", matchTime: 50 });
    const goal = { slug, matchTime: 51, home: { score: 1, periods: { "2": 1 } }, away: {} };
    expect((await ingest(a, "updates", goal)).status).toBe(200);
    const second = await onB.next("publication");
    expect(second.data).toEqual(goal);
    expect(second.offset).toBe((first.offset ?? Number.NaN) + 1); // offset is optional in the SDK type; a missing one fails here
    // The process that published sees the same stream.
    expect((await onA.next("publication", (p) => p.data.matchTime === 51)).offset).toBe(second.offset);
  });
});

describe("two shops with the simulator on, sharing Redis", () => {
  const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const prefix = `test:live:${randomBytes(4).toString("hex")}`;
  const shops: TestShop[] = [];

  beforeAll(async () => {
    // 500 match minutes per real second: a day's fixtures finish within about three seconds.
    // Started together: both race for the lease, and two simulators would run nearly in step.
    const env = { REDIS_URL, REDIS_PREFIX: prefix, SIMULATOR: "on", SIMULATOR_SPEED: "30000" };
    shops.push(...(await Promise.all([startTestShop(env), startTestShop(env)])));
  });
  afterAll(async () => {
    await Promise.all(shops.map((s) => s.close()));
    const admin = new Redis(REDIS_URL);
    const keys = await admin.keys(`${prefix}:*`);
    if (keys.length) await admin.del(...keys);
    await admin.quit();
  });

  it("only one of them plays the feed: every match finishes once on the shared channel", async () => {
    const rec = await subscribed(shops[1]!);
    const finished = (p: { data: { stage?: string } }) =>
      p.data.stage === "finished" || p.data.stage === "finished_overtime" || p.data.stage === "finished_penalty";
    // About two simulated days: long enough for a second simulator, started seconds later, to replay the first's finishes.
    for (let i = 0; i < 60; i++) await rec.next("publication", finished, 45_000);
    const slugs = rec
      .all("publication")
      .filter(finished)
      .map((p: { data: { slug: string } }) => p.data.slug);
    // Two simulators would each publish every change, so matches would finish twice.
    expect(new Set(slugs).size).toBe(slugs.length);
  });
});

describe("a shop without LIVE_INGEST_TOKEN", () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop();
  });
  afterAll(async () => shop?.close());

  it("refuses ingest even with a token", async () => {
    const res = await ingest(shop, "updates", { slug: "x", home: {}, away: {} });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: "live_ingest_disabled", data: { status: 403 } });
  });
});
