/**
 * The admin's Live scores routes (docs/contract/rest/shop-v1.md 'Live scores'): `GET shop/v1/live/matches` lists the
 * matches the hub serves (pushed here through the ingest) with their state; `GET shop/v1/live/viewers` counts the
 * browsers subscribed to the live channels of this process's hub; both for staff with view_woocommerce_reports only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";
import { dayWindow } from "../../core/sports/store.ts";

const TOKEN = "test-ingest-token-live-admin-0123";
let shop: TestShop;
let admin: SignedIn;
let manager: SignedIn;
let customer: SignedIn;

function api(path: string, who: SignedIn | null = admin) {
  if (!who) return new TestClient(shop.url).request(path);
  return who.client.request(path, { headers: { "X-WP-Nonce": who.nonce } });
}
const ingest = (what: string, body: unknown) =>
  fetch(`${shop.url}/wp-json/shop/v1/live/${what}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(body),
  });
const team = (name: string) => ({ name, img: "", score: null, periods: {} });
const league = { slug: "premier-division", name: "Premier Division", country: "England", img: "" };

beforeAll(async () => {
  shop = await startTestShop({ LIVE_INGEST_TOKEN: TOKEN });
  [admin, manager, customer] = await Promise.all([
    signInAs(shop, "live-admin@example.com", "administrator"),
    signInAs(shop, "live-manager@example.com", "shop_manager"),
    signInAs(shop, "live-customer@example.com", "customer"),
  ]);
});
afterAll(async () => shop?.close());

describe("shop/v1/live/matches and live/viewers", () => {
  it("lists live, today's and tomorrow's matches by kick-off with their score, minute and stage", async () => {
    const now = Date.now();
    const [todayStart] = dayWindow("today", now);
    const [tomorrowStart] = dayWindow("tomorrow", now);
    const kickoff = Math.max(todayStart, Math.floor(now / 1000) - 1800);
    expect(
      (
        await ingest("matches", [
          {
            slug: "later-tomorrow",
            date: tomorrowStart + 20 * 3600,
            stage: "plan",
            matchTime: null,
            league,
            home: team("Ashford Rovers"),
            away: team("Kingsbridge United"),
          },
          { slug: "now-today", date: kickoff, stage: "plan", matchTime: null, league, home: team("Harrowgate Town"), away: team("Millbrook Athletic") },
          { slug: "long-ago", date: todayStart - 10 * 86_400, stage: "finished", matchTime: null, league, home: team("Old Town"), away: team("Older Town") },
        ])
      ).status,
    ).toBe(201);
    expect((await ingest("updates", { slug: "now-today", stage: "live", matchTime: 31, home: { score: 1 }, away: { score: 0 } })).status).toBe(200);

    const res = await api("/wp-json/shop/v1/live/matches");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-wp-total")).toBe("2");
    expect(res.headers.get("cache-control")).toContain("no-store");
    const list = (await res.json()) as { slug: string }[];
    expect(list.map((m) => m.slug)).toEqual(["now-today", "later-tomorrow"]); // the finished match of ten days ago is in no period
    expect(list[0]).toEqual({
      slug: "now-today",
      stage: "live",
      live: true,
      match_time: 31,
      kickoff_gmt: new Date(kickoff * 1000).toISOString().slice(0, 19),
      league: { slug: "premier-division", name: "Premier Division", country: "England" },
      home: { name: "Harrowgate Town", abbr: "HAR", score: 1 },
      away: { name: "Millbrook Athletic", abbr: "MIL", score: 0 },
    });
    const live = (await (await api("/wp-json/shop/v1/live/matches?period=live")).json()) as { slug: string }[];
    expect(live.map((m) => m.slug)).toEqual(["now-today"]);
    const bad = await api("/wp-json/shop/v1/live/matches?period=yesterday");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string; data: { params: Record<string, string> } }).data.params).toHaveProperty("period");
  });

  it("counts the browsers subscribed to each live channel now", async () => {
    const viewers = async () => (await (await api("/wp-json/shop/v1/live/viewers")).json()) as { viewers: number; connections: number; channels: unknown[] };
    expect(await viewers()).toEqual({
      viewers: 0,
      connections: 0,
      channels: [
        { channel: "football", viewers: 0 },
        { channel: "footballDetail", viewers: 0 },
      ],
    });
    const { default: WebSocket } = await import("ws");
    const { Centrifuge } = await import("centrifuge");
    const client = new Centrifuge(shop.url.replace("http", "ws") + "/ws", { websocket: WebSocket, timeout: 60_000 });
    const sub = client.newSubscription("football");
    const subscribed = new Promise<void>((resolve) => sub.on("subscribed", () => resolve()));
    sub.subscribe();
    client.connect();
    await subscribed;
    expect(await viewers()).toMatchObject({
      viewers: 1,
      connections: 1,
      channels: [
        { channel: "football", viewers: 1 },
        { channel: "footballDetail", viewers: 0 },
      ],
    });
    client.disconnect();
    await expect.poll(async () => (await viewers()).viewers).toBe(0);
  });

  it("is for staff with view_woocommerce_reports", async () => {
    for (const path of ["/wp-json/shop/v1/live/matches", "/wp-json/shop/v1/live/viewers"]) {
      expect((await api(path, manager)).status).toBe(200);
      const refused = await api(path, customer);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { code: string }).code).toBe("rest_forbidden");
      const guest = await api(path, null);
      expect(guest.status).toBe(401);
      expect(((await guest.json()) as { code: string }).code).toBe("rest_not_logged_in");
    }
  });
});
