/** Applying a live update to the live-match widget's match map (docs/contract/storefront.md §4 'Applying an update'). Pure. */
import { LOG_MATCH_ABSENT, LOG_UNKNOWN_STAGE, LOG_UPDATE_EMPTY } from "./constants.ts";
import { liveUpdateSchema, type LiveMatch, type LiveTeam, type LiveUpdate, type MatchMap } from "./schema.ts";
import { isKnownStage, isLiveStage } from "./stages.ts";
import { scoreDirection, type ScoreDirection } from "./indicator.ts";

export type ParsedUpdate = { ok: true; update: LiveUpdate } | { ok: false; log: string };

/** A publication's data: nothing usable (null, {}, no slug, bad shape) is 'Update is empty...' (docs/contract/storefront.md §8). */
export function parseUpdate(raw: unknown): ParsedUpdate {
  const parsed = liveUpdateSchema.safeParse(raw);
  return parsed.success ? { ok: true, update: parsed.data } : { ok: false, log: LOG_UPDATE_EMPTY };
}

export interface ApplyResult {
  readonly matches: MatchMap;
  /** false when the match was absent: the map is returned unchanged. */
  readonly applied: boolean;
  /** Messages the caller should log (absent match, unknown stage). */
  readonly logs: readonly string[];
  /** Per team, set when its score went up or down with this update. */
  readonly scoreChanges: { readonly home: ScoreDirection | null; readonly away: ScoreDirection | null };
}

interface MergeableTeam {
  readonly score: LiveTeam["score"];
  readonly periods: LiveTeam["periods"];
}

interface Mergeable {
  readonly stage: string;
  readonly live: boolean;
  readonly matchTime: LiveMatch["matchTime"];
  readonly home: MergeableTeam;
  readonly away: MergeableTeam;
}

function mergeTeam<T extends MergeableTeam>(team: T, part: LiveUpdate["home"]): T {
  return {
    ...team,
    // The score is replaced only when the update carries one.
    score: part.score === undefined ? team.score : part.score,
    // Periods are merged: an update may carry just the current period.
    periods: part.periods ? { ...team.periods, ...part.periods } : team.periods,
  };
}

/**
 * The docs/contract/storefront.md §4 merge rules for any match shape (the widget's LiveMatch, the server's
 * stored record): stage applied even when unknown, live recomputed, matchTime
 * replaced when present, periods merged, score replaced only when present.
 */
export function mergeUpdate<M extends Mergeable>(match: M, update: LiveUpdate): M {
  const stage = update.stage ?? match.stage;
  return {
    ...match,
    stage,
    live: isLiveStage(stage),
    matchTime: update.matchTime === undefined ? match.matchTime : update.matchTime,
    home: mergeTeam(match.home, update.home),
    away: mergeTeam(match.away, update.away),
  };
}

export function applyUpdate(matches: MatchMap, update: LiveUpdate): ApplyResult {
  const current = matches.get(update.slug);
  if (!current) {
    return { matches, applied: false, logs: [`${LOG_MATCH_ABSENT}: ${update.slug}`], scoreChanges: { home: null, away: null } };
  }
  const logs: string[] = [];
  if (update.stage !== undefined && !isKnownStage(update.stage)) logs.push(`${LOG_UNKNOWN_STAGE}: ${update.stage}`);
  const next = mergeUpdate(current, update);
  const out = new Map(matches);
  out.set(update.slug, next);
  return {
    matches: out,
    applied: true,
    logs,
    scoreChanges: {
      home: scoreDirection(current.home.score, next.home.score),
      away: scoreDirection(current.away.score, next.away.score),
    },
  };
}

/**
 * docs/contract/storefront.md §4 'Reacting to a live update': when the selected match is not live (or
 * there is none) and the update says some match is under way (a minute or a
 * live stage), the full data is fetched again so the selection can move to it.
 */
export function shouldRefetch(selected: LiveMatch | undefined, update: LiveUpdate): boolean {
  if (selected?.live) return false;
  const hasMinute = update.matchTime !== undefined && update.matchTime !== null;
  return hasMinute || (update.stage !== undefined && isLiveStage(update.stage));
}
