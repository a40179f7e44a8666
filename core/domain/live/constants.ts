/**
 * Every constant the spec gives for the two sports widgets (docs/contract/storefront.md §4, §7, §9), in one
 * typed place. Widgets, simulator and hub import from here instead of repeating
 * literals.
 */

/** docs/contract/storefront.md §4 'Sports match stages': the full list, in the spec's order. */
export const STAGES = [
  "plan",
  "live",
  "results_only",
  "cancelled",
  "postponed",
  "finished",
  "finished_overtime",
  "finished_penalty",
  "finished_technical_defeat",
  "halftime",
  "pause",
  "1st_quarter",
  "2nd_quarter",
  "3rd_quarter",
  "4th_quarter",
  "overtime",
  "break_time",
  "extra_time_halftime",
  "penalties",
] as const;

export type Stage = (typeof STAGES)[number];

/** docs/contract/storefront.md §4: live, results_only, halftime, pause, any quarter, overtime, break_time, extra_time_halftime, penalties. */
export const LIVE_STAGES: readonly Stage[] = [
  "live",
  "results_only",
  "halftime",
  "pause",
  "1st_quarter",
  "2nd_quarter",
  "3rd_quarter",
  "4th_quarter",
  "overtime",
  "break_time",
  "extra_time_halftime",
  "penalties",
];

/** The live-match widget's "not-started stage": scores show '-' and the status is empty. */
export const NOT_STARTED_STAGE: Stage = "plan";

/**
 * The live-match widget's "other allowed" stage besides live ones and the
 * not-started one (docs/contract/storefront.md §4 says "probably finished"). A stored match in any other
 * stage (postponed, cancelled, finished (OT) …) is dropped and the data reloaded.
 */
export const EXTRA_KEPT_STAGES: readonly Stage[] = [NOT_STARTED_STAGE, "finished"];

/**
 * Stages whose status line is the match minute. docs/contract/storefront.md §4 says "three stages"; the two
 * a football feed produces are `live` and `overtime` (neither has a fixed text
 * in the 13-entry table). The quarters are in the live set but have no text in
 * the live-match widget's table either, so they count as one in-play kind and
 * show the minute too rather than '?'.
 */
export const MINUTE_STAGES: readonly Stage[] = ["live", "overtime", "1st_quarter", "2nd_quarter", "3rd_quarter", "4th_quarter"];

/**
 * The live-match widget's 13-entry status table (indices 0–12): which stage
 * uses which index. Index 5 ('Live') has no stage of its own: it is the text for
 * a missing or negative minute (docs/contract/storefront.md §9).
 */
export const STATUS_INDEX: Readonly<Partial<Record<Stage, number>>> = {
  finished: 0,
  halftime: 1,
  postponed: 2,
  cancelled: 3,
  results_only: 4,
  finished_overtime: 6,
  finished_penalty: 7,
  finished_technical_defeat: 8,
  extra_time_halftime: 9,
  penalties: 10,
  pause: 11,
  break_time: 12,
};
export const STATUS_TEXT_COUNT = 13;
/** docs/contract/storefront.md §9: a missing or negative minute shows translated text index 5. */
export const MISSING_MINUTE_TEXT_INDEX = 5;

/** docs/contract/storefront.md §9 minute display cap. */
export const MINUTE_CAP = 90;
export const MINUTE_CAP_TEXT = "90+";
/** docs/contract/storefront.md §9: missing score shown as '-'. */
export const MISSING_SCORE = "-";
/** docs/contract/storefront.md §3: missing text defaults to '?'; §4: unknown stage status is '?'. */
export const MISSING_TEXT = "?";
/** docs/contract/storefront.md §3: abbr defaults to the first 3 letters of the name, upper-cased. */
export const ABBR_LENGTH = 3;

/** docs/contract/storefront.md §9 score-change indicators. */
export const SCORE_UP_MS = 45_000;
export const SCORE_DOWN_MS = 8_000;

/** docs/contract/storefront.md §9 list widget. */
export const LIST_REFRESH_MS = 600_000;
export const RPC_RETRIES = 3;

/**
 * How often the live-match widget refetches its full data when nothing else
 * happens (the spec names an "auto-update" but gives no period; we reuse the
 * list widget's 10 minutes). Every re-selection and every update for the
 * selected match restarts it.
 */
export const LIVE_AUTO_UPDATE_MS = 600_000;

/** docs/contract/storefront.md §9: browser storage key of the selected match. */
export const MATCH_SLUG_STORAGE_KEY = "matchSlug";

/** docs/contract/storefront.md §9 / §7 real-time settings. */
export const SPORT = "football";
/** docs/contract/storefront.md §7 list widget RPC method: sport:<sport>. */
export const SPORT_RPC_METHOD = `sport:${SPORT}`;
/**
 * Our full-match fetch for the live-match widget (the spec leaves it unshown):
 * RPC `match:<sport>` with `{lang, slug?}` answering `{data: LiveMatch[]}`.
 */
export const MATCH_RPC_METHOD = `match:${SPORT}`;
export const WS_PATH = "/ws";
export const CONNECTION_OPTIONS = {
  timeout: 60_000,
  maxServerPingDelay: 10_000,
  minReconnectDelay: 500,
  maxReconnectDelay: 20_000,
} as const;

/** docs/contract/storefront.md §7: the periods the list widget asks for, in order. */
export const PERIODS = ["live", "today", "tomorrow"] as const;
export type Period = (typeof PERIODS)[number];

/** docs/contract/storefront.md §9 languages. */
export const LIST_LANGS = [
  "en",
  "fr",
  "de",
  "pt",
  "id",
  "it",
  "ko",
  "pl",
  "ru",
  "es",
  "th",
  "tr",
  "uk",
  "vi",
  "nl",
  "ro",
  "ka",
  "hy",
  "az",
  "el",
  "uz",
] as const;
export type ListLang = (typeof LIST_LANGS)[number];
export const LIVE_LANGS = ["en", "nl", "ro", "ka", "hy", "az", "el", "pl", "uz"] as const;
export type LiveLang = (typeof LIVE_LANGS)[number];

/** docs/contract/storefront.md §8 log texts. */
export const LOG_DATA_EMPTY = "Data is empty...";
export const LOG_UPDATE_EMPTY = "Update is empty...";
export const LOG_MATCH_ABSENT = "Match is absent";
export const LOG_UNKNOWN_STAGE = "Unknown stage";

/** docs/contract/storefront.md §2: the live-match widget's mount point and team icon size. */
export const LIVE_WIDGET_PLACE_SELECTOR = '[data-place="widget-live-match"]';
export const TEAM_ICON_SIZE = 20;
