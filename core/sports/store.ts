/**
 * The authoritative match state behind the RPCs. The simulator (or a real
 * feed's ingest) writes it; the RPC handlers read it. The interface is async
 * and shaped like a table (one row per match, keyed by slug, indexed by kick-off
 * date and stage) so a SQL implementation is a thin mapping:
 *   upsert      → INSERT … ON CONFLICT (slug) DO UPDATE
 *   list(today) → WHERE date >= $dayStart AND date < $dayEnd ORDER BY date, slug
 *   list(live)  → WHERE stage = ANY($liveStages) ORDER BY date, slug
 *   applyUpdate → SELECT … FOR UPDATE, mergeUpdate(), UPDATE
 */
import { LIVE_STAGES, type Period } from "../domain/live/constants.ts";
import type { LiveUpdate, SportsMatch } from "../domain/live/schema.ts";
import { mergeUpdate } from "../domain/live/update.ts";
import { DAY_MS } from "./time.ts";

/** A stored match: the list widget's match without its client-side `details`. Dates are unix seconds. */
export type MatchRecord = Omit<SportsMatch, "details">;

export interface MatchStore {
  upsert(match: MatchRecord): Promise<void>;
  get(slug: string): Promise<MatchRecord | undefined>;
  /**
   * live: every match in a live stage, whatever its day; today / tomorrow: by the
   * kick-off's calendar day at `tzOffsetMinutes` (east of UTC, default UTC). Sorted by kick-off, then slug.
   */
  list(period: Period, nowMs: number, tzOffsetMinutes?: number): Promise<MatchRecord[]>;
  /** Merges an update with the docs/contract/storefront.md §4 rules; undefined when the match is unknown (nothing stored). */
  applyUpdate(update: LiveUpdate): Promise<MatchRecord | undefined>;
}

/** The [start, end) unix-second window of a period's day. */
export function dayWindow(period: "today" | "tomorrow", nowMs: number, tzOffsetMinutes = 0): [number, number] {
  const offsetMs = tzOffsetMinutes * 60_000;
  const dayStartLocal = Math.floor((nowMs + offsetMs) / DAY_MS) * DAY_MS + (period === "tomorrow" ? DAY_MS : 0);
  const start = (dayStartLocal - offsetMs) / 1000;
  return [start, start + DAY_MS / 1000];
}

const LIVE = new Set<string>(LIVE_STAGES);

export function byKickoff(a: MatchRecord, b: MatchRecord): number {
  return a.date - b.date || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);
}

export function createMemoryMatchStore(initial: readonly MatchRecord[] = []): MatchStore {
  const rows = new Map<string, MatchRecord>(initial.map((m) => [m.slug, structuredClone(m)]));
  // Copies in and out, like a database: callers can never mutate stored state.
  return {
    async upsert(match) {
      rows.set(match.slug, structuredClone(match));
    },
    async get(slug) {
      const m = rows.get(slug);
      return m && structuredClone(m);
    },
    async list(period, nowMs, tzOffsetMinutes = 0) {
      let out: MatchRecord[];
      if (period === "live") out = [...rows.values()].filter((m) => LIVE.has(m.stage));
      else {
        const [start, end] = dayWindow(period, nowMs, tzOffsetMinutes);
        out = [...rows.values()].filter((m) => m.date >= start && m.date < end);
      }
      return out.sort(byKickoff).map((m) => structuredClone(m));
    },
    async applyUpdate(update) {
      const m = rows.get(update.slug);
      if (!m) return undefined;
      const next = mergeUpdate(m, update);
      rows.set(m.slug, next);
      return structuredClone(next);
    },
  };
}
