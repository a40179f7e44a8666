/** What the widgets print: minute, status line, dates, the leading team. Pure. */
import { MINUTE_CAP, MINUTE_CAP_TEXT, MISSING_MINUTE_TEXT_INDEX, MISSING_SCORE, MISSING_TEXT, STATUS_INDEX } from "./constants.ts";
import { listTexts, liveTexts } from "./i18n.ts";
import type { MatchTime, Score } from "./schema.ts";
import { isKnownStage, isNotStarted, LIST_LABEL_INDEX, showsMinute } from "./stages.ts";

/**
 * docs/contract/storefront.md §9 minute display. `missingText` is translated text index 5 of the caller's table.
 * A string that already carries '+' (stoppage time, "45+2") is kept as it is;
 * numbers above 90 are capped to '90+'.
 */
export function minuteDisplay(matchTime: MatchTime | undefined, missingText: string): string {
  if (matchTime === null || matchTime === undefined) return missingText;
  if (typeof matchTime === "string") {
    const s = matchTime.trim();
    if (s.includes("+")) return `${s}'`;
    if (!/^-?\d+(\.\d+)?$/.test(s)) return missingText;
    return minuteDisplay(Number(s), missingText);
  }
  if (!Number.isFinite(matchTime) || matchTime < 0) return missingText;
  if (matchTime > MINUTE_CAP) return MINUTE_CAP_TEXT;
  return `${Math.floor(matchTime)}'`;
}

export function scoreText(score: Score | undefined): string {
  return score === null || score === undefined ? MISSING_SCORE : String(score);
}

export interface StatusLine {
  readonly home: string;
  readonly away: string;
  readonly status: string;
}

interface StatusInput {
  readonly stage: string;
  readonly matchTime: MatchTime | undefined;
  readonly home: { readonly score: Score | undefined };
  readonly away: { readonly score: Score | undefined };
}

/** docs/contract/storefront.md §4 live-match widget status line: the two counts and the text under them. */
export function statusLine(match: StatusInput, lang: unknown): StatusLine {
  if (isNotStarted(match.stage)) return { home: MISSING_SCORE, away: MISSING_SCORE, status: "" };
  const statuses = liveTexts(lang).statuses;
  const home = scoreText(match.home.score);
  const away = scoreText(match.away.score);
  if (showsMinute(match.stage)) {
    return { home, away, status: minuteDisplay(match.matchTime, statuses[MISSING_MINUTE_TEXT_INDEX] ?? MISSING_TEXT) };
  }
  const index = isKnownStage(match.stage) ? STATUS_INDEX[match.stage] : undefined;
  return { home, away, status: index === undefined ? MISSING_TEXT : (statuses[index] ?? MISSING_TEXT) };
}

/**
 * The list widget's status: the minute while `live` (label 'Live' without one),
 * a label for every other known stage, '' before kick-off (the time is shown
 * instead), '?' for an unknown stage.
 */
export function listStatus(match: Pick<StatusInput, "stage" | "matchTime">, lang: unknown): string {
  const labels = listTexts(lang).labels;
  if (isNotStarted(match.stage)) return "";
  if (!isKnownStage(match.stage)) return MISSING_TEXT;
  const index = LIST_LABEL_INDEX[match.stage];
  const label = index === undefined ? MISSING_TEXT : (labels[index] ?? MISSING_TEXT);
  if (match.stage === "live") return minuteDisplay(match.matchTime, label);
  return label;
}

const pad = (n: number): string => String(n).padStart(2, "0");

/** Shifts unix seconds by a timezone offset in minutes (east positive) and reads it as UTC. */
function shifted(unixSeconds: number, offsetMinutes: number): Date {
  return new Date((unixSeconds + offsetMinutes * 60) * 1000);
}

/** docs/contract/storefront.md §2: DD/MM/YYYY, UTC unless an offset (minutes east of UTC) is given. */
export function formatDate(unixSeconds: number, offsetMinutes = 0): string {
  const d = shifted(unixSeconds, offsetMinutes);
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
}

/** docs/contract/storefront.md §2: HH:MM (24 h), UTC unless an offset is given. */
export function formatTime(unixSeconds: number, offsetMinutes = 0): string {
  const d = shifted(unixSeconds, offsetMinutes);
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

export type Side = "home" | "away";

/** docs/contract/storefront.md §2: the team with the higher score is highlighted; none on a draw or an unknown score. */
export function leadingTeam(home: Score | undefined, away: Score | undefined): Side | null {
  if (home === null || home === undefined || away === null || away === undefined || home === away) return null;
  return home > away ? "home" : "away";
}
