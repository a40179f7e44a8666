/** Score-change indicators (docs/contract/storefront.md §4, §9): 'up' shows for 45 s, 'down' for 8 s. Time is an argument. */
import { SCORE_DOWN_MS, SCORE_UP_MS } from "./constants.ts";
import type { Score } from "./schema.ts";
import type { Side } from "./display.ts";

export type ScoreDirection = "up" | "down";

/** 'down' happens when a goal is taken back (a correction from the feed). */
export function scoreDirection(before: Score | undefined, after: Score | undefined): ScoreDirection | null {
  if (before === null || before === undefined || after === null || after === undefined || before === after) {
    // A first known score (null → 0) is not a change the viewer saw happen.
    return null;
  }
  return after > before ? "up" : "down";
}

export function indicatorDuration(direction: ScoreDirection): number {
  return direction === "up" ? SCORE_UP_MS : SCORE_DOWN_MS;
}

export interface Indicator {
  readonly direction: ScoreDirection;
  /** Epoch ms after which it is cleared. */
  readonly until: number;
}

/** Indicators per match slug and team. */
export type Indicators = Readonly<Record<string, Readonly<Partial<Record<Side, Indicator>>>>>;

/** Records a change; a newer change replaces the older one for that team. */
export function setIndicator(state: Indicators, slug: string, side: Side, direction: ScoreDirection, nowMs: number): Indicators {
  return { ...state, [slug]: { ...state[slug], [side]: { direction, until: nowMs + indicatorDuration(direction) } } };
}

export function indicatorAt(state: Indicators, slug: string, side: Side, nowMs: number): ScoreDirection | null {
  const ind = state[slug]?.[side];
  return ind && nowMs < ind.until ? ind.direction : null;
}

/** Drops expired indicators; returns the same object when nothing expired (cheap for React state). */
export function pruneIndicators(state: Indicators, nowMs: number): Indicators {
  let changed = false;
  const out: Record<string, Partial<Record<Side, Indicator>>> = {};
  for (const [slug, sides] of Object.entries(state)) {
    const kept: Partial<Record<Side, Indicator>> = {};
    for (const side of ["home", "away"] as const) {
      const ind = sides[side];
      if (!ind) continue;
      if (nowMs < ind.until) kept[side] = ind;
      else changed = true;
    }
    if (kept.home || kept.away) out[slug] = kept;
    else changed = true;
  }
  return changed ? out : state;
}

/** The earliest moment an indicator expires, so a component can set one timer. */
export function nextExpiry(state: Indicators): number | null {
  let min: number | null = null;
  for (const sides of Object.values(state)) {
    for (const ind of [sides.home, sides.away]) if (ind && (min === null || ind.until < min)) min = ind.until;
  }
  return min;
}
