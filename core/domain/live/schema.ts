/**
 * Wire shapes of the sports widgets (docs/contract/storefront.md §3) as zod schemas. Every boundary parses
 * with these: the hub's ingest and RPC answers, the widgets' RPC results and
 * publications. Parsing is lenient where the spec gives defaults (missing text
 * '?', abbr from the name, live derived from the stage) and strict elsewhere.
 */
import { z } from "zod";
import { ABBR_LENGTH, MISSING_TEXT } from "./constants.ts";
import { isLiveStage } from "./stages.ts";

/** Missing or blank text becomes '?' (docs/contract/storefront.md §3); numbers are kept as their text. */
const text = z.preprocess(
  (v) => (typeof v === "number" && Number.isFinite(v) ? String(v) : typeof v === "string" && v.trim() !== "" ? v : MISSING_TEXT),
  z.string(),
);

/** URLs are optional: an absent image renders no <img> rather than a broken '?'. */
const url = z.preprocess((v) => (typeof v === "string" ? v : ""), z.string());

/** A goal count. Feeds sometimes send digits as a string. null = unknown (shown as '-'). */
export const scoreSchema = z.preprocess((v) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v), z.number().int().min(0).nullable());
export type Score = z.infer<typeof scoreSchema>;

/** Goals per period, keyed by period name ("1", "2", "et", "pen" in our feed). */
export const periodsSchema = z.record(z.string(), scoreSchema);
export type Periods = z.infer<typeof periodsSchema>;

/** The minute: a number, or a string such as "45+2" (docs/contract/storefront.md §3). */
export const matchTimeSchema = z.union([z.number(), z.string()]).nullable();
export type MatchTime = z.infer<typeof matchTimeSchema>;

/** Any string: an unknown stage is logged but kept (docs/contract/storefront.md §4). */
export const stageSchema = z.string().min(1);

export function defaultAbbr(name: string): string {
  return name === MISSING_TEXT ? MISSING_TEXT : name.replace(/\s+/g, "").slice(0, ABBR_LENGTH).toUpperCase();
}

const listTeamSchema = z
  .object({
    img: url,
    abbr: z.string().optional(),
    name: text,
    periods: periodsSchema.default({}),
    score: scoreSchema.default(null),
  })
  .transform((t) => ({ ...t, abbr: t.abbr && t.abbr.trim() !== "" ? t.abbr : defaultAbbr(t.name) }));

export const leagueSchema = z.object({ slug: text, name: text, country: text, img: url });

export const detailsSchema = z.object({
  loading: z.boolean().default(false),
  show: z.boolean().default(false),
  events: z.array(z.unknown()).default([]),
});

/** docs/contract/storefront.md §3 'Sports match (list widget)'. `date` is unix seconds. */
export const sportsMatchSchema = z
  .object({
    slug: z.string().min(1),
    matchTime: matchTimeSchema.default(null),
    stage: stageSchema,
    live: z.boolean().optional(),
    date: z.number().int(),
    home: listTeamSchema,
    away: listTeamSchema,
    league: leagueSchema,
    details: detailsSchema.default({ loading: false, show: false, events: [] }),
  })
  .transform((m) => ({ ...m, live: isLiveStage(m.stage) }));
export type SportsMatch = z.infer<typeof sportsMatchSchema>;

/** The list widget's RPC answer: only `data` is used (docs/contract/storefront.md §7). */
export const sportsRpcResultSchema = z.object({ data: z.array(sportsMatchSchema) });

const liveTeamSchema = z.object({
  name: text,
  img: url,
  score: scoreSchema.default(null),
  periods: periodsSchema.default({}),
});
export type LiveTeam = z.infer<typeof liveTeamSchema>;

/** docs/contract/storefront.md §3 'Match (live-match widget)'. `date` is DD/MM/YYYY and `time` HH:MM, already formatted by the server. */
export const liveMatchSchema = z
  .object({
    slug: z.string().min(1),
    date: text,
    time: text,
    stage: stageSchema,
    live: z.boolean().optional(),
    matchTime: matchTimeSchema.default(null),
    league: z.object({ country: text, name: text }),
    home: liveTeamSchema,
    away: liveTeamSchema,
  })
  .transform((m) => ({ ...m, live: isLiveStage(m.stage) }));
export type LiveMatch = z.infer<typeof liveMatchSchema>;
export type LiveMatchInput = z.input<typeof liveMatchSchema>;

export const liveMatchRpcResultSchema = z.object({ data: z.array(liveMatchSchema) });

const updateTeamSchema = z.object({
  score: scoreSchema.optional(),
  periods: periodsSchema.optional(),
});

/** docs/contract/storefront.md §3 'Live update message'. Team parts are required on the wire; their fields may be partial. */
export const liveUpdateSchema = z.object({
  slug: z.string().min(1),
  matchTime: matchTimeSchema.optional(),
  stage: stageSchema.optional(),
  home: updateTeamSchema,
  away: updateTeamSchema,
});
export type LiveUpdate = z.infer<typeof liveUpdateSchema>;

/** The live-match widget's match map, keyed by slug, in the server's order. */
export type MatchMap = ReadonlyMap<string, LiveMatch>;

export function toMatchMap(matches: readonly LiveMatch[]): MatchMap {
  return new Map(matches.map((m) => [m.slug, m]));
}
