/**
 * One match's whole life, decided up front from its own seeded PRNG: a sorted
 * list of frames (the state from `at` onwards). Deciding everything at
 * scheduling time makes the feed independent of how often `step` is called:
 * stepping every second or once an hour reaches the same state.
 */
import type { Stage } from "../domain/live/constants.ts";
import type { MatchTime } from "../domain/live/schema.ts";
import type { Rng } from "./prng.ts";

export interface TeamState {
  readonly score: number | null;
  readonly periods: Readonly<Record<string, number>>;
}

export interface Frame {
  /** Epoch ms from which this state holds; the first frame is -Infinity (before kick-off). */
  readonly at: number;
  readonly stage: Stage;
  readonly matchTime: MatchTime;
  readonly home: TeamState;
  readonly away: TeamState;
}

export interface TimelineOptions {
  readonly kickoffMs: number;
  /** Real milliseconds per match minute at speed 1. */
  readonly minuteMs: number;
  readonly knockout: boolean;
  /** Expected goals per 90 minutes. */
  readonly homeRate?: number;
  readonly awayRate?: number;
}

/** Period keys carried in `periods`. */
export const PERIOD_KEYS = { first: "1", second: "2", extra: "et", penalties: "pen" } as const;

const HALF = 45;
const HALFTIME_MINUTES = 15;
const BREAK_BEFORE_EXTRA_MINUTES = 5;
const EXTRA_HALF = 15;
const EXTRA_HALFTIME_MINUTES = 2;
const PAUSE_MINUTES = 3;

export function buildTimeline(rng: Rng, o: TimelineOptions): Frame[] {
  const before: Frame = { at: -Infinity, stage: "plan", matchTime: null, home: { score: null, periods: {} }, away: { score: null, periods: {} } };
  // A few fixtures never happen; they show a fixed status all day.
  if (rng.chance(0.03)) return [{ ...before, stage: "postponed" }];
  if (rng.chance(0.015)) return [{ ...before, stage: "cancelled" }];

  const frames: Frame[] = [before];
  const hp: Record<string, number> = {};
  const ap: Record<string, number> = {};
  let h = 0;
  let a = 0;
  let t = o.kickoffMs;
  const homeP = (o.homeRate ?? 1.5) / 90;
  const awayP = (o.awayRate ?? 1.15) / 90;
  const push = (stage: Stage, matchTime: MatchTime): void => {
    frames.push({ at: t, stage, matchTime, home: { score: h, periods: { ...hp } }, away: { score: a, periods: { ...ap } } });
  };
  const play = (period: string, stage: Stage, fromMinute: number, regular: number, stoppage: number, pauseAt?: number): void => {
    hp[period] ??= 0;
    ap[period] ??= 0;
    for (let m = fromMinute; m <= fromMinute + regular + stoppage - 1; m++) {
      if (rng.chance(homeP)) {
        h++;
        hp[period]!++;
      }
      if (rng.chance(awayP)) {
        a++;
        ap[period]!++;
      }
      const end = fromMinute + regular - 1;
      push(stage, m <= end ? m : `${end}+${m - end}`);
      t += o.minuteMs;
      if (m === pauseAt) {
        // A stoppage (injury, weather): the clock stands still for a few minutes.
        push("pause", m);
        t += PAUSE_MINUTES * o.minuteMs;
      }
    }
  };

  play(PERIOD_KEYS.first, "live", 1, HALF, rng.int(1, 4));
  push("halftime", HALF);
  t += HALFTIME_MINUTES * o.minuteMs;
  play(PERIOD_KEYS.second, "live", HALF + 1, HALF, rng.int(2, 6), rng.chance(0.08) ? rng.int(55, 80) : undefined);

  if (!o.knockout || h !== a) {
    push("finished", 2 * HALF);
    return frames;
  }
  push("break_time", 2 * HALF);
  t += BREAK_BEFORE_EXTRA_MINUTES * o.minuteMs;
  play(PERIOD_KEYS.extra, "overtime", 2 * HALF + 1, EXTRA_HALF, rng.int(0, 1));
  push("extra_time_halftime", 2 * HALF + EXTRA_HALF);
  t += EXTRA_HALFTIME_MINUTES * o.minuteMs;
  play(PERIOD_KEYS.extra, "overtime", 2 * HALF + EXTRA_HALF + 1, EXTRA_HALF, rng.int(0, 2));
  if (h !== a) {
    push("finished_overtime", 2 * HALF + 2 * EXTRA_HALF);
    return frames;
  }

  // Shoot-out: five kicks each, stopping early once decided, then sudden death.
  // Goals in it only count in periods.pen, never in the score.
  hp[PERIOD_KEYS.penalties] = 0;
  ap[PERIOD_KEYS.penalties] = 0;
  push("penalties", 2 * HALF + 2 * EXTRA_HALF);
  const kick = (side: Record<string, number>): void => {
    t += o.minuteMs;
    if (rng.chance(0.75)) side[PERIOD_KEYS.penalties]!++;
    push("penalties", 2 * HALF + 2 * EXTRA_HALF);
  };
  const pens = (): [number, number] => [hp[PERIOD_KEYS.penalties]!, ap[PERIOD_KEYS.penalties]!];
  for (let round = 1; round <= 5; round++) {
    kick(hp);
    let [ph, pa] = pens();
    if (ph > pa + (5 - round + 1) || pa > ph + (5 - round)) break;
    kick(ap);
    [ph, pa] = pens();
    if (ph > pa + (5 - round) || pa > ph + (5 - round)) break;
  }
  while (pens()[0] === pens()[1]) {
    kick(hp);
    kick(ap);
  }
  t += o.minuteMs;
  push("finished_penalty", 2 * HALF + 2 * EXTRA_HALF);
  return frames;
}

/** Index of the frame in force at `nowMs` (binary search; frames are sorted by `at`). */
export function frameIndexAt(frames: readonly Frame[], nowMs: number): number {
  let lo = 0;
  let hi = frames.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (frames[mid]!.at <= nowMs) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
