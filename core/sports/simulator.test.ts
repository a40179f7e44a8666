import { describe, expect, it } from "vitest";
import { LIVE_STAGES, STAGES } from "../domain/live/constants.ts";
import { liveUpdateSchema, type LiveUpdate } from "../domain/live/schema.ts";
import { teamBadgeSvg } from "./badge.ts";
import { DEFAULT_LEAGUES } from "./leagues.ts";
import { createRng } from "./prng.ts";
import { createSimulator, DAY_MS, MATCH_MINUTE_MS } from "./simulator.ts";
import { buildTimeline, frameIndexAt } from "./timeline.ts";

// 2024-05-10 00:00 UTC
const MIDNIGHT = Date.UTC(2024, 4, 10);
const FINAL = new Set(["finished", "finished_overtime", "finished_penalty", "postponed", "cancelled"]);

/** Plays the whole of today minute by minute and collects every update. */
function playDay(seed: number): { updates: LiveUpdate[]; sim: ReturnType<typeof createSimulator> } {
  const sim = createSimulator({ seed, now: MIDNIGHT });
  const updates: LiveUpdate[] = [];
  for (let t = MIDNIGHT + MATCH_MINUTE_MS; t <= MIDNIGHT + DAY_MS - 1; t += MATCH_MINUTE_MS) updates.push(...sim.step(t));
  return { updates, sim };
}

describe("simulator schedule", () => {
  const sim = createSimulator({ seed: 7, now: MIDNIGHT + 12 * 3_600_000 });
  const matches = sim.matches();
  it("schedules today and tomorrow across at least six leagues and several countries", () => {
    const today = matches.filter((m) => Math.floor((m.date * 1000) / DAY_MS) === MIDNIGHT / DAY_MS);
    const tomorrow = matches.filter((m) => Math.floor((m.date * 1000) / DAY_MS) === MIDNIGHT / DAY_MS + 1);
    expect(today.length).toBeGreaterThan(10);
    expect(tomorrow.length).toBeGreaterThan(10);
    expect(new Set(matches.map((m) => m.league.slug)).size).toBeGreaterThanOrEqual(6);
    expect(new Set(matches.map((m) => m.league.country)).size).toBeGreaterThanOrEqual(6);
    expect(new Set(matches.map((m) => m.slug)).size).toBe(matches.length);
  });
  it("gives teams image URLs, abbreviations and a badge", () => {
    const m = matches[0]!;
    expect(m.home.img).toMatch(/^\/media\/teams\/[a-z0-9-]+\.svg$/);
    expect(m.home.abbr).toMatch(/^[A-Z]{3}$/);
    const svg = teamBadgeSvg({ slug: "x", name: "Girondins <Lacôte> & Co" });
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain("&lt;Lacôte&gt; &amp; Co");
  });
  it("has matches live at midday", () => {
    expect(matches.some((m) => m.live)).toBe(true);
  });
});

describe("simulator play", () => {
  const { updates, sim } = playDay(42);

  it("every update validates against the hub's schema and uses known stages", () => {
    expect(updates.length).toBeGreaterThan(1000);
    for (const u of updates) {
      expect(liveUpdateSchema.safeParse(u).success).toBe(true);
      expect(STAGES).toContain(u.stage);
    }
  });

  it("every match of today ends in a final stage", () => {
    const today = sim.matches().filter((m) => Math.floor((m.date * 1000) / DAY_MS) === MIDNIGHT / DAY_MS);
    // Late kick-offs (after ~22:00) may still be running at 23:59.
    const early = today.filter((m) => m.date * 1000 < MIDNIGHT + 21 * 3_600_000);
    expect(early.length).toBeGreaterThan(5);
    for (const m of early) expect(FINAL.has(m.stage), `${m.slug} ${m.stage}`).toBe(true);
  });

  it("scores only go up, and minutes only move forward within a phase", () => {
    const last = new Map<string, { h: number; a: number }>();
    for (const u of updates) {
      const prev = last.get(u.slug) ?? { h: 0, a: 0 };
      const h = u.home.score ?? 0;
      const a = u.away.score ?? 0;
      expect(h).toBeGreaterThanOrEqual(prev.h);
      expect(a).toBeGreaterThanOrEqual(prev.a);
      last.set(u.slug, { h, a });
    }
  });

  it("passes through half time and produces goals", () => {
    expect(updates.some((u) => u.stage === "halftime")).toBe(true);
    expect(updates.some((u) => (u.home.score ?? 0) + (u.away.score ?? 0) > 0)).toBe(true);
    expect(updates.some((u) => u.matchTime === "45+1")).toBe(true);
  });

  it("is deterministic by seed", () => {
    expect(playDay(42).updates).toEqual(updates);
    expect(playDay(43).updates).not.toEqual(updates);
  });

  it("reaches the same state whatever the step size", () => {
    const coarse = createSimulator({ seed: 42, now: MIDNIGHT });
    coarse.step(MIDNIGHT + 6 * 3_600_000);
    coarse.step(MIDNIGHT + DAY_MS - 1);
    const fine = sim.matches().map((m) => [m.slug, m.stage, m.home.score, m.away.score]);
    expect(coarse.matches().map((m) => [m.slug, m.stage, m.home.score, m.away.score])).toEqual(fine);
  });

  it("never steps backwards", () => {
    const s = createSimulator({ seed: 1, now: MIDNIGHT + 3_600_000 });
    expect(s.step(MIDNIGHT)).toEqual([]);
  });
});

describe("knockout timelines", () => {
  it("a drawn knockout tie goes through extra time, and to penalties when still level", () => {
    const seen = new Set<string>();
    for (let seed = 0; seed < 400 && !(seen.has("finished_overtime") && seen.has("finished_penalty")); seed++) {
      const frames = buildTimeline(createRng(seed), { kickoffMs: 0, minuteMs: 1, knockout: true });
      const final = frames.at(-1)!;
      seen.add(final.stage);
      if (final.stage === "finished_penalty") {
        const stages = new Set(frames.map((f) => f.stage));
        for (const s of ["break_time", "overtime", "extra_time_halftime", "penalties"]) expect(stages.has(s as never)).toBe(true);
        expect(final.home.score).toBe(final.away.score); // shoot-out goals are not in the score
        expect(final.home.periods.pen).not.toBe(final.away.periods.pen);
      }
      if (final.stage === "finished_overtime") expect(final.home.score).not.toBe(final.away.score);
      // Frames are in time order, so a binary search finds each of them.
      frames.forEach((f, i) => i > 0 && expect(frameIndexAt(frames, f.at)).toBeGreaterThanOrEqual(i));
    }
    expect(seen.has("finished_overtime")).toBe(true);
    expect(seen.has("finished_penalty")).toBe(true);
  });
  it("league matches never go to extra time", () => {
    for (let seed = 0; seed < 100; seed++) {
      const frames = buildTimeline(createRng(seed), { kickoffMs: 0, minuteMs: 1, knockout: false });
      expect(frames.some((f) => f.stage === "overtime" || f.stage === "penalties")).toBe(false);
      expect(frames.every((f) => f.stage === "plan" || LIVE_STAGES.includes(f.stage) || FINAL.has(f.stage))).toBe(true);
    }
  });
  it("has at least one knockout league by default", () => {
    expect(DEFAULT_LEAGUES.some((l) => l.knockout)).toBe(true);
  });
});

describe("runner", () => {
  it("publishes updates on a sped-up clock after the store applied them", async () => {
    const { createMemoryMatchStore } = await import("./store.ts");
    const store = createMemoryMatchStore();
    let real = 0;
    const sim = createSimulator({ seed: 3, now: MIDNIGHT + 12 * 3_600_000 });
    const published: LiveUpdate[] = [];
    const runner = sim.start({ publish: (u) => void published.push(u), speed: 60, tickMs: 5, store, clock: () => real });
    await runner.ready;
    expect((await store.list("today", runner.now())).length).toBeGreaterThan(5);
    real = 60_000; // one real minute at speed 60 = one simulated hour
    await new Promise((r) => setTimeout(r, 50));
    runner.stop();
    expect(published.length).toBeGreaterThan(0);
    const u = published.at(-1)!;
    const stored = await store.get(u.slug);
    expect(stored?.stage).toBe(u.stage);
    expect(runner.now()).toBe(MIDNIGHT + 13 * 3_600_000);
  });
});

describe("media", () => {
  it("serves a badge for every team and league the feed issues, nothing else", async () => {
    const { teamBadgeForSlug, leagueBadgeForSlug } = await import("./media.ts");
    const sim = createSimulator({ seed: 9, now: MIDNIGHT });
    for (const m of sim.matches()) {
      const slug = m.home.img.replace(/^\/media\/teams\/(.*)\.svg$/, "$1");
      expect(teamBadgeForSlug(slug), slug).toContain(`aria-label="`);
      expect(leagueBadgeForSlug(m.league.slug)).toMatch(/^<svg/);
    }
    expect(teamBadgeForSlug("../etc/passwd")).toBeUndefined();
    expect(leagueBadgeForSlug("nope")).toBeUndefined();
  });
});
