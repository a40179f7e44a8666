import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { liveMatchSchema, sportsMatchSchema, toMatchMap, type LiveMatchInput } from "../../../core/domain/live/schema.ts";
import { setIndicator } from "../../../core/domain/live/indicator.ts";
import { LiveMatchView, LiveMatchWidget } from "./LiveMatchWidget.tsx";
import { LiveScoresList, LiveScoresView } from "./LiveScoresList.tsx";
import type { LiveMatchState } from "./live-match-controller.ts";
import { wsUrl } from "./connection.ts";

const lm = (slug: string, stage: string, over: Partial<LiveMatchInput> = {}) =>
  liveMatchSchema.parse({
    slug,
    date: "10/05/2024",
    time: "18:00",
    stage,
    matchTime: 67,
    league: { country: "England", name: "Premier Division" },
    home: { name: "Ashford Rovers", img: "/media/teams/ashford-rovers.svg", score: 2, periods: {} },
    away: { name: "Redcliffe City", img: "/media/teams/redcliffe-city.svg", score: 1, periods: {} },
    ...over,
  });

const state = (matches: ReturnType<typeof lm>[], selected: string | null, indicators = {}): LiveMatchState => ({
  loading: false,
  matches: toMatchMap(matches),
  selected,
  indicators,
});

describe("server render", () => {
  it("both widgets render only their loading state on the server", () => {
    const a = renderToString(<LiveMatchWidget lang="pl" />);
    expect(a).toContain('class="live-widget live-widget--loading"');
    expect(a).toContain('aria-label="Ładowanie..."');
    const b = renderToString(<LiveScoresList lang="de" />);
    expect(b).toContain("Wird geladen...");
    expect(renderToString(<LiveScoresList lang="de" />)).toBe(b); // deterministic
  });
});

describe("LiveMatchView", () => {
  it("shows title, icons, counts, minute with the live class and the leader", () => {
    const html = renderToString(<LiveMatchView state={state([lm("m", "live")], "m")} lang="en" />);
    expect(html).toContain("10/05/2024 18:00 | England | Premier Division");
    expect(html).toMatch(/<img[^>]*alt="Ashford Rovers"[^>]*width="20"[^>]*height="20"/);
    expect(html).toContain('class="live-score__status live">67&#x27;</div>');
    expect(html).toContain("live-team live-team--home live-team--winning");
    expect(html).not.toContain("live-team--away live-team--winning");
    expect(html).not.toContain("live-placeholder");
    expect(html).toMatch(/2<\/span><span class="live-score__divider">:<\/span>.*1/);
  });
  it("shows placeholder message 1 with the next match when it is not live, and dashes before kick-off", () => {
    const html = renderToString(<LiveMatchView state={state([lm("m", "plan", { matchTime: null })], "m")} lang="en" />);
    expect(html).toContain("At the moment there are no Live matches, the closest match is 10/05/2024 18:00 Ashford Rovers - Redcliffe City.");
    expect(html).toContain('class="live-score__status"></div>');
    expect(html).toContain(">-<");
    expect(html).not.toContain("live-team--winning");
  });
  it("shows message 0 without a selectable match and the empty text without matches", () => {
    expect(renderToString(<LiveMatchView state={state([lm("x", "postponed")], null)} lang="nl" />)).toContain(
      "Er zijn momenteel geen live wedstrijden en er zijn geen wedstrijden gepland",
    );
    expect(renderToString(<LiveMatchView state={state([], null)} lang="ro" />)).toContain("Niciun meci");
  });
  it("shows up/down indicators", () => {
    const ind = setIndicator(setIndicator({}, "m", "home", "up", 0), "m", "away", "down", 0);
    const html = renderToString(<LiveMatchView state={state([lm("m", "live")], "m", ind)} lang="en" />);
    expect(html).toContain("live-indicator live-indicator--up");
    expect(html).toContain("live-indicator live-indicator--down");
  });
  it("shows translated fixed status texts", () => {
    expect(renderToString(<LiveMatchView state={state([lm("m", "halftime")], "m")} lang="el" />)).toContain(">Ημίχρονο<");
  });
});

describe("LiveScoresView", () => {
  const m = (slug: string, league: string, stage: string, over: object = {}) =>
    sportsMatchSchema.parse({
      slug,
      stage,
      date: Date.UTC(2024, 4, 10, 19, 45) / 1000,
      matchTime: 55,
      home: { name: "Kingsbridge United", img: "/k.svg", score: 0 },
      away: { name: "Easton Wanderers", img: "/e.svg", score: 3 },
      league: { slug: league, name: league.toUpperCase(), country: "England", img: "/l.svg" },
      ...over,
    });
  it("groups by league and shows date, time, teams, abbr, score and status", () => {
    const html = renderToString(
      <LiveScoresView
        state={{
          loading: false,
          period: "live",
          matches: [m("a", "epl", "live"), m("b", "cup", "finished_penalty"), m("c", "epl", "plan", { home: { name: "Zed" } })],
        }}
        lang="en"
      />,
    );
    expect(html.match(/class="live-league"/g)).toHaveLength(2);
    expect(html).toContain("10/05/2024");
    expect(html).toContain("19:45");
    expect(html).toContain(">KIN<");
    expect(html).toContain(">ZED<");
    expect(html).toContain("0 : 3");
    expect(html).toContain("- : -");
    expect(html).toContain("55&#x27;");
    expect(html).toContain(">Finished (P)<");
    expect(html).toContain("live-row__team--away live-row__team--winning");
    expect(html.indexOf('data-slug="a"')).toBeLessThan(html.indexOf('data-slug="c"'));
    expect(html.indexOf('data-slug="c"')).toBeLessThan(html.indexOf('data-slug="b"'));
  });
  it("shows the empty text and applies a timezone offset", () => {
    expect(renderToString(<LiveScoresView state={{ loading: false, period: null, matches: [] }} lang="ko" />)).toContain("경기 없음");
    const html = renderToString(<LiveScoresView state={{ loading: false, period: "today", matches: [m("a", "epl", "plan")] }} lang="en" offset={() => 300} />);
    expect(html).toContain("11/05/2024");
    expect(html).toContain("00:45");
  });
});

describe("wsUrl", () => {
  it("uses wss on https and ws otherwise", () => {
    expect(wsUrl({ protocol: "https:", host: "shop.example:8443" })).toBe("wss://shop.example:8443/ws");
    expect(wsUrl({ protocol: "http:", host: "localhost:3000" })).toBe("ws://localhost:3000/ws");
  });
});
