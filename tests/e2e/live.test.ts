// The two sports widgets in a real browser against a real shop. The simulator is off; the test plays the
// provider, pushing matches and updates step by step through the ingest endpoint, and watches the pages react.
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { dayWindow } from "../../core/sports/store.ts";
import { launchBrowser } from "../support/browser.ts";
import { startTestShop, type TestShop } from "../support/shop.ts";

const TOKEN = "e2e-ingest-token-0123456789";
const GREEN = "rgb(46, 125, 50)";
const LIVE_SLUG = "ashford-rovers-vs-kingsbridge-united-e2e";
const NEXT_SLUG = "harrowgate-town-vs-millbrook-athletic-e2e";

let shop: TestShop;
let browser: Browser;
const pages: Page[] = [];

async function push(what: "matches" | "updates", body: unknown): Promise<void> {
  const res = await fetch(`${shop.url}/wp-json/shop/v1/live/${what}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
}

async function open(path: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  pages.push(page);
  await page.goto(shop.url + path);
  return page;
}

const team = (name: string, slug: string, score: number | null) => ({
  name,
  img: `/media/teams/${slug}.svg`,
  score,
  periods: score === null ? {} : { "1": score },
});

beforeAll(async () => {
  // The embed is its own bundle, built after the app (react-router build empties the client folder).
  execFileSync("npx", ["tsx", "scripts/build-embed.ts"], { stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
  shop = await startTestShop({ LIVE_INGEST_TOKEN: TOKEN });
  browser = await launchBrowser();
  const now = Date.now();
  const [tomorrowStart] = dayWindow("tomorrow", now);
  await push("matches", [
    {
      slug: LIVE_SLUG,
      date: Math.floor(now / 1000) - 600,
      stage: "live",
      matchTime: 10,
      league: { slug: "premier-division", name: "Premier Division", country: "England", img: "/media/leagues/premier-division.svg" },
      home: team("Ashford Rovers", "ashford-rovers", 0),
      away: team("Kingsbridge United", "kingsbridge-united", 0),
    },
    {
      slug: NEXT_SLUG,
      date: tomorrowStart + 15 * 3600 + 30 * 60,
      stage: "plan",
      matchTime: null,
      league: { slug: "premier-division", name: "Premier Division", country: "England", img: "/media/leagues/premier-division.svg" },
      home: team("Harrowgate Town", "harrowgate-town", null),
      away: team("Millbrook Athletic", "millbrook-athletic", null),
    },
  ]);
});

afterAll(async () => {
  await Promise.all(pages.map((p) => p.close()));
  await browser?.close();
  await shop?.close();
});

describe("live-match widget", () => {
  it("a pushed goal shows the new score, the green leader and the 'up' indicator", async () => {
    const page = await open("/live/");
    const widget = page.locator(`.live-widget[data-slug="${LIVE_SLUG}"]`);
    await widget.waitFor();
    await expect.poll(() => widget.locator(".live-score__counts").textContent()).toBe("0:0");
    expect(await widget.locator(".live-score__status").textContent()).toBe("10'");
    expect(await widget.locator(".live-score__status").getAttribute("class")).toContain("live");
    expect(await widget.locator(".live-match-card__title").textContent()).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} \| England \| Premier Division$/);
    expect(await widget.locator(".live-team--home img").getAttribute("alt")).toBe("Ashford Rovers");
    expect(await widget.locator(".live-team--winning").count()).toBe(0); // a draw: nobody is green
    expect(await widget.locator(".live-placeholder").count()).toBe(0);
    expect(await page.evaluate(() => (window as { liveMatchWidgetPresent?: boolean }).liveMatchWidgetPresent)).toBe(true);

    await push("updates", { slug: LIVE_SLUG, matchTime: 23, stage: "live", home: { score: 1, periods: { "1": 1 } }, away: {} });
    const homeCount = widget.locator(".live-score__count").first();
    await expect.poll(() => homeCount.textContent()).toBe("1▲");
    expect(await widget.locator(".live-indicator--up").getAttribute("aria-label")).toBe("up");
    expect(await widget.locator(".live-indicator--down").count()).toBe(0);
    expect(await homeCount.evaluate((el) => getComputedStyle(el).color)).toBe(GREEN);
    expect(await widget.locator(".live-team--home").getAttribute("class")).toContain("live-team--winning");
    expect(await widget.locator(".live-team--home .live-team__name").evaluate((el) => getComputedStyle(el).color)).toBe(GREEN);
    expect(await widget.locator(".live-score__status").textContent()).toBe("23'");

    // Stoppage time: a minute that already carries '+' is shown as is.
    await push("updates", { slug: LIVE_SLUG, matchTime: "45+2", home: {}, away: {} });
    await expect.poll(() => widget.locator(".live-score__status").textContent()).toBe("45+2'");
    // Half time: the fixed text, the score unchanged (an update without a score keeps it).
    await push("updates", { slug: LIVE_SLUG, stage: "halftime", home: {}, away: {} });
    await expect.poll(() => widget.locator(".live-score__status").textContent()).toBe("Half time");
    expect(await homeCount.textContent()).toBe("1▲");
  });
});

describe("list widget", () => {
  it("shows league, teams, score and status of each live match", async () => {
    const page = await open("/live/");
    const list = page.locator(".live-scores[data-period='live']");
    await list.waitFor();
    expect(await list.locator(".live-league__country").first().textContent()).toBe("England");
    expect(await list.locator(".live-league__name").first().textContent()).toBe("Premier Division");
    const row = list.locator(`.live-row[data-slug="${LIVE_SLUG}"]`);
    expect(await row.locator(".live-row__team--home .live-row__name").textContent()).toBe("Ashford Rovers");
    expect(await row.locator(".live-row__team--away .live-row__name").textContent()).toBe("Kingsbridge United");
    expect(await row.locator(".live-row__team--home .live-row__abbr").textContent()).toBe("ASH");
    expect(await row.locator(".live-row__team--home img").getAttribute("src")).toBe("/media/teams/ashford-rovers.svg");
    expect(await row.locator(".live-row__score").textContent()).toBe("1 : 0");
    expect(await row.locator(".live-row__status").textContent()).toBe("Half time");
    expect(await row.locator(".live-row__date").textContent()).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    expect(await row.locator(".live-row__time").textContent()).toMatch(/^\d{2}:\d{2}$/);
    // Only the live period was needed: tomorrow's match is not in the list.
    expect(await list.locator(`.live-row[data-slug="${NEXT_SLUG}"]`).count()).toBe(0);
    // The badge the row points at is served.
    expect(await page.evaluate(async (src) => (await fetch(src)).status, "/media/teams/ashford-rovers.svg")).toBe(200);
  });
});

describe("the embed on a plain page", () => {
  it("replaces the marked element, and data-lang changes the texts", async () => {
    // Finish the live match: the widget then points at the closest match with the not-live banner.
    await push("updates", { slug: LIVE_SLUG, stage: "finished", matchTime: null, home: { score: 2 }, away: {} });

    const pl = await open("/live/embed-demo.html?lang=pl");
    const root = pl.locator(".live-widget-root[data-lang='pl']");
    await root.locator(".live-placeholder").waitFor();
    expect(await pl.locator("[data-place='widget-live-match']").count()).toBe(0);
    expect(await pl.evaluate(() => (window as { liveMatchWidgetPresent?: boolean }).liveMatchWidgetPresent)).toBe(true);
    const plBanner = await root.locator(".live-placeholder__text").textContent();
    expect(plBanner).toMatch(/^Obecnie nie ma meczów na żywo, najbliższy mecz to \d{2}\/\d{2}\/\d{4} 15:30 Harrowgate Town - Millbrook Athletic\.$/);
    expect(await root.locator(".live-score__counts").textContent()).toBe("-:-"); // not started
    // The widget's stylesheet came with the script.
    expect(await root.locator(".live-match-card").evaluate((el) => getComputedStyle(el).borderTopStyle)).toBe("solid");

    const en = await open("/live/embed-demo.html?lang=xx");
    const enRoot = en.locator(".live-widget-root[data-lang='en']");
    await enRoot.locator(".live-placeholder").waitFor();
    expect(await enRoot.locator(".live-placeholder__text").textContent()).toMatch(/Harrowgate Town - Millbrook Athletic\.$/);
    expect(await enRoot.locator(".live-placeholder__text").textContent()).not.toBe(plBanner);
  });
});
