/**
 * RPC handlers the hub mounts (transport-agnostic: `data` in, JSON-able result out).
 *
 *   sport:football  {lang?, period: live|today|tomorrow}  → {data: SportsMatch[]}   (list widget, docs/contract/storefront.md §7)
 *   match:football  {lang?, slug?}                        → {data: LiveMatch[]}     (live-match widget's full fetch)
 *
 * `match:football` answers live, today's and tomorrow's matches in the order the
 * widget's selection wants: live ones first (by kick-off), then those still to
 * start (soonest first, so "the closest match" is the first of them), then the
 * rest (most recent first). With a slug it answers just that match (or []).
 * A bad payload throws RpcError 107 ('bad request'); the hub turns it into a
 * Centrifugo error reply.
 */
import { z } from "zod";
import { NOT_STARTED_STAGE, PERIODS } from "../domain/live/constants.ts";
import { formatDate, formatTime } from "../domain/live/display.ts";
import { listLang } from "../domain/live/i18n.ts";
import { liveMatchSchema, sportsMatchSchema, type LiveMatch, type SportsMatch } from "../domain/live/schema.ts";
import { isLiveStage } from "../domain/live/stages.ts";
import { byKickoff, type MatchRecord, type MatchStore } from "./store.ts";

/** Centrifugo's error code for a bad request. */
export const BAD_REQUEST = 107;

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = "RpcError";
  }
}

export const sportRpcInputSchema = z.object({
  lang: z.string().max(10).optional(),
  period: z.enum(PERIODS),
});

export const matchRpcInputSchema = z
  .object({
    lang: z.string().max(10).optional(),
    slug: z.string().min(1).max(200).optional(),
  })
  .nullish();

export interface RpcOptions {
  /** Minutes east of UTC for day windows and the formatted date/time; default 0 (UTC). */
  readonly tzOffsetMinutes?: number;
  /** Builds the error thrown for a bad payload, e.g. `() => new HubError(107, "bad request")`; default RpcError 107. */
  readonly badRequest?: () => Error;
}

export type RpcHandler<T> = (data: unknown) => Promise<{ data: T[] }>;

function parse<T>(schema: z.ZodType<T>, data: unknown, options: RpcOptions): T {
  const r = schema.safeParse(data);
  if (!r.success) throw options.badRequest ? options.badRequest() : new RpcError(BAD_REQUEST, "bad request");
  return r.data;
}

export function toSportsMatch(m: MatchRecord): SportsMatch {
  // Through the schema: derived fields (live, abbr, '?') follow the same rules as in the browser.
  return sportsMatchSchema.parse({ ...m, details: { loading: false, show: false, events: [] } });
}

export function toLiveMatch(m: MatchRecord, tzOffsetMinutes = 0): LiveMatch {
  return liveMatchSchema.parse({
    slug: m.slug,
    date: formatDate(m.date, tzOffsetMinutes),
    time: formatTime(m.date, tzOffsetMinutes),
    stage: m.stage,
    matchTime: m.matchTime,
    league: { country: m.league.country, name: m.league.name },
    home: { name: m.home.name, img: m.home.img, score: m.home.score, periods: m.home.periods },
    away: { name: m.away.name, img: m.away.img, score: m.away.score, periods: m.away.periods },
  });
}

export function sportRpcHandler(store: MatchStore, now: () => number, options: RpcOptions = {}): RpcHandler<SportsMatch> {
  return async (data) => {
    const input = parse(sportRpcInputSchema, data, options);
    listLang(input.lang); // team and league names are proper nouns: nothing to translate server-side
    const rows = await store.list(input.period, now(), options.tzOffsetMinutes);
    return { data: rows.map(toSportsMatch) };
  };
}

/** The live-match widget's order (see the header). */
export function liveWidgetOrder(rows: readonly MatchRecord[]): MatchRecord[] {
  const live = rows.filter((m) => isLiveStage(m.stage)).sort(byKickoff);
  const upcoming = rows.filter((m) => m.stage === NOT_STARTED_STAGE).sort(byKickoff);
  const rest = rows.filter((m) => !isLiveStage(m.stage) && m.stage !== NOT_STARTED_STAGE).sort((a, b) => byKickoff(b, a));
  return [...live, ...upcoming, ...rest];
}

export function matchRpcHandler(store: MatchStore, now: () => number, options: RpcOptions = {}): RpcHandler<LiveMatch> {
  return async (data) => {
    const input = parse(matchRpcInputSchema, data, options) ?? {};
    const tz = options.tzOffsetMinutes ?? 0;
    if (input.slug) {
      const m = await store.get(input.slug);
      return { data: m ? [toLiveMatch(m, tz)] : [] };
    }
    const t = now();
    const seen = new Map<string, MatchRecord>();
    for (const period of PERIODS) for (const m of await store.list(period, t, tz)) seen.set(m.slug, m);
    return { data: liveWidgetOrder([...seen.values()]).map((m) => toLiveMatch(m, tz)) };
  };
}
