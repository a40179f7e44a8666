/**
 * A deterministic football feed. It schedules yesterday's, today's and
 * tomorrow's fixtures (UTC days) for every league, plays them from seeded
 * timelines, and turns every change into a docs/contract/storefront.md §3 live update message.
 *
 * `step(nowMs)` is the whole engine (tests call it directly); `start()` is a
 * timer loop around it whose clock can run faster than real time.
 */
import { isLiveStage } from "../domain/live/stages.ts";
import { liveUpdateSchema, type LiveUpdate } from "../domain/live/schema.ts";
import { DEFAULT_LEAGUES, leagueImg, slugify, teamImg, type LeagueDef } from "./leagues.ts";
import { createRng, hashSeed } from "./prng.ts";
import type { MatchRecord, MatchStore } from "./store.ts";
import { buildTimeline, frameIndexAt, type Frame } from "./timeline.ts";
import { DAY_MS } from "./time.ts";

export { DAY_MS };
export const MATCH_MINUTE_MS = 60_000;

export interface SimTeam {
  readonly slug: string;
  readonly name: string;
  readonly abbr: string;
}

interface Plan {
  readonly slug: string;
  readonly day: number;
  readonly kickoffMs: number;
  readonly league: LeagueDef;
  readonly home: SimTeam;
  readonly away: SimTeam;
  readonly frames: readonly Frame[];
}

export interface SimulatorOptions {
  readonly seed: number;
  /** Simulated time at creation (epoch ms). */
  readonly now: number;
  readonly leagues?: readonly LeagueDef[];
  /** Real ms per match minute at speed 1 (60000: a match lasts about two hours). */
  readonly minuteMs?: number;
}

export interface RunOptions {
  /** Called once per update, after the store (when given) has applied it. */
  readonly publish: (update: LiveUpdate) => void | Promise<void>;
  /** Simulated ms per real ms: 60 plays one match minute per real second. */
  readonly speed?: number;
  /** Real ms between steps. */
  readonly tickMs?: number;
  /** Gets new fixtures upserted and every update applied before it is published. */
  readonly store?: MatchStore;
  /** Real clock, injectable for tests. */
  readonly clock?: () => number;
  readonly onError?: (error: unknown) => void;
}

export interface Runner {
  stop(): void;
  /** The simulated time now (pass `() => runner.now()` to the RPC handlers). */
  now(): number;
  /** Resolves when the fixtures known at start are in the store. */
  readonly ready: Promise<void>;
}

export interface Simulator {
  /** Simulated time of the last step. */
  now(): number;
  /** Advances to `nowMs` and returns one update per match whose state changed (collapsing skipped frames). */
  step(nowMs: number): LiveUpdate[];
  /** Every scheduled match in its current state, by kick-off. */
  matches(): MatchRecord[];
  /** Matches scheduled since the last call (the first call returns the initial schedule). */
  takeScheduled(): MatchRecord[];
  start(options: RunOptions): Runner;
}

/** Three letters of the first significant word: "FC Rheinfeld" → "RHE". */
export function teamAbbr(name: string): string {
  const words = name.split(/\s+/).filter((w) => !/^(fc|ac|as|cd|cf|ud|us|sv|sc|vfb|tsv|en)$/i.test(w));
  const word = (words[0] ?? name).normalize("NFKD").replace(/[^A-Za-z]/g, "");
  return word.slice(0, 3).toUpperCase() || "?";
}

export function simTeam(name: string): SimTeam {
  return { slug: slugify(name), name, abbr: teamAbbr(name) };
}

const ymd = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10).replaceAll("-", "");

function scheduleDay(seed: number, day: number, leagues: readonly LeagueDef[], minuteMs: number): Plan[] {
  const plans: Plan[] = [];
  for (const league of leagues) {
    const rng = createRng(hashSeed(seed, day, league.slug));
    const teams = rng.shuffle(league.teams);
    // Some rounds are short: 2 to 4 fixtures a day, never more than the pairs or kick-off slots.
    const count = Math.min(rng.int(2, 4), Math.floor(teams.length / 2), league.kickoffs.length);
    const slots = rng
      .shuffle(league.kickoffs)
      .slice(0, count)
      .sort((x, y) => x - y);
    for (let i = 0; i < count; i++) {
      const home = simTeam(teams[2 * i]!);
      const away = simTeam(teams[2 * i + 1]!);
      const kickoffMs = day * DAY_MS + slots[i]! * 60_000;
      const slug = `${home.slug}-vs-${away.slug}-${ymd(day)}`;
      const frames = buildTimeline(createRng(hashSeed(seed, slug)), { kickoffMs, minuteMs, knockout: league.knockout ?? false });
      plans.push({ slug, day, kickoffMs, league, home, away, frames });
    }
  }
  return plans;
}

function toRecord(plan: Plan, frame: Frame): MatchRecord {
  const team = (t: SimTeam, s: Frame["home"]) => ({ img: teamImg(t.slug), abbr: t.abbr, name: t.name, periods: { ...s.periods }, score: s.score });
  return {
    slug: plan.slug,
    matchTime: frame.matchTime,
    stage: frame.stage,
    live: isLiveStage(frame.stage),
    date: Math.floor(plan.kickoffMs / 1000),
    home: team(plan.home, frame.home),
    away: team(plan.away, frame.away),
    league: { slug: plan.league.slug, name: plan.league.name, country: plan.league.country, img: leagueImg(plan.league.slug) },
  };
}

function toUpdate(slug: string, frame: Frame): LiveUpdate {
  // Built through the schema so the feed can never publish what the hub would reject.
  return liveUpdateSchema.parse({
    slug,
    matchTime: frame.matchTime,
    stage: frame.stage,
    home: { score: frame.home.score, periods: { ...frame.home.periods } },
    away: { score: frame.away.score, periods: { ...frame.away.periods } },
  });
}

export function createSimulator(options: SimulatorOptions): Simulator {
  const leagues = options.leagues ?? DEFAULT_LEAGUES;
  const minuteMs = options.minuteMs ?? MATCH_MINUTE_MS;
  const plans = new Map<string, Plan>();
  const shown = new Map<string, number>(); // slug → frame index last reported
  const days = new Set<number>();
  let fresh: string[] = [];
  let simNow = options.now;

  const ensureDays = (nowMs: number): void => {
    const today = Math.floor(nowMs / DAY_MS);
    // Yesterday too: late kick-offs are still live after midnight.
    for (const day of [today - 1, today, today + 1]) {
      if (days.has(day)) continue;
      days.add(day);
      for (const plan of scheduleDay(options.seed, day, leagues, minuteMs)) {
        plans.set(plan.slug, plan);
        shown.set(plan.slug, frameIndexAt(plan.frames, nowMs));
        fresh.push(plan.slug);
      }
    }
    // Forget days that left the window: their matches are long finished.
    for (const day of days) {
      if (day >= today - 1) continue;
      days.delete(day);
      for (const [slug, plan] of plans)
        if (plan.day === day) {
          plans.delete(slug);
          shown.delete(slug);
        }
      fresh = fresh.filter((s) => plans.has(s));
    }
  };

  const record = (plan: Plan): MatchRecord => toRecord(plan, plan.frames[shown.get(plan.slug) ?? 0]!);
  const byKickoff = (a: Plan, b: Plan): number => a.kickoffMs - b.kickoffMs || (a.slug < b.slug ? -1 : 1);

  ensureDays(simNow);

  const sim: Simulator = {
    now: () => simNow,
    step(nowMs) {
      if (nowMs <= simNow) return []; // the feed never runs backwards
      simNow = nowMs;
      ensureDays(nowMs);
      const updates: LiveUpdate[] = [];
      for (const plan of [...plans.values()].sort(byKickoff)) {
        const idx = frameIndexAt(plan.frames, nowMs);
        if (idx === shown.get(plan.slug)) continue;
        shown.set(plan.slug, idx);
        updates.push(toUpdate(plan.slug, plan.frames[idx]!));
      }
      return updates;
    },
    matches: () => [...plans.values()].sort(byKickoff).map(record),
    takeScheduled() {
      const out = fresh
        .map((s) => plans.get(s)!)
        .sort(byKickoff)
        .map(record);
      fresh = [];
      return out;
    },
    start(run) {
      const clock = run.clock ?? Date.now;
      const speed = run.speed ?? 1;
      const realStart = clock();
      const simStart = simNow;
      const virtualNow = (): number => simStart + (clock() - realStart) * speed;
      const report = run.onError ?? ((e: unknown) => console.error("sports simulator:", e));
      // Ticks are chained, never overlapping: a slow store delays the next tick instead of reordering updates.
      const ready: Promise<void> = (async () => {
        if (run.store) for (const m of sim.takeScheduled()) await run.store.upsert(m);
      })().catch(report);
      let chain = ready;
      const tick = async (): Promise<void> => {
        const updates = sim.step(virtualNow());
        const scheduled = sim.takeScheduled();
        if (run.store) for (const m of scheduled) await run.store.upsert(m);
        for (const u of updates) {
          if (run.store) await run.store.applyUpdate(u);
          await run.publish(u);
        }
      };
      const timer = setInterval(() => {
        chain = chain.then(tick).catch(report);
      }, run.tickMs ?? 1000);
      return {
        stop: () => clearInterval(timer),
        now: virtualNow,
        ready,
      };
    },
  };
  return sim;
}
