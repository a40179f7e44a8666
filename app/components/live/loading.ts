/**
 * Data loading for the widgets, written against an injected `rpc` so the rules
 * (period order, retries, validation, logging) are tested without a socket.
 */
import { LOG_DATA_EMPTY, MATCH_RPC_METHOD, PERIODS, RPC_RETRIES, SPORT_RPC_METHOD, type Period } from "../../../core/domain/live/constants.ts";
import { liveMatchSchema, sportsMatchSchema, type LiveMatch, type SportsMatch } from "../../../core/domain/live/schema.ts";
import type { Rpc } from "./connection.ts";

export type Log = (message: string, detail?: unknown) => void;

/** One call plus up to `retries` more (docs/contract/storefront.md §8: RPC errors are retried up to 3 times). */
export async function withRetries<T>(call: () => Promise<T>, retries: number = RPC_RETRIES): Promise<T> {
  let lastError: unknown;
  for (let attempt = 0; attempt <= retries; attempt++) {
    try {
      return await call();
    } catch (e) {
      lastError = e;
    }
  }
  throw lastError;
}

/** Keeps the valid items of a `data` array; one bad match must not blank the widget. */
function parseItems<T>(raw: unknown, parse: (item: unknown) => { success: true; data: T } | { success: false }, log: Log): T[] {
  if (!Array.isArray(raw)) return [];
  const out: T[] = [];
  for (const item of raw) {
    const r = parse(item);
    if (r.success) out.push(r.data);
    else log("Invalid match skipped", item);
  }
  return out;
}

export interface ListResult {
  /** The first period that had matches, or null when all were empty or failing. */
  readonly period: Period | null;
  readonly matches: SportsMatch[];
}

/** docs/contract/storefront.md §4: live, then today, then tomorrow; stops at the first with matches. */
export async function loadListMatches(rpc: Rpc, lang: string, log: Log): Promise<ListResult> {
  for (const period of PERIODS) {
    let raw: unknown;
    try {
      raw = await withRetries(() => rpc(SPORT_RPC_METHOD, { lang, period }));
    } catch (e) {
      log(`RPC ${SPORT_RPC_METHOD} ${period} failed`, e);
      continue;
    }
    const data = raw !== null && typeof raw === "object" ? (raw as { data?: unknown }).data : undefined;
    const matches = parseItems(data, (i) => sportsMatchSchema.safeParse(i), log);
    if (matches.length > 0) return { period, matches };
    log(LOG_DATA_EMPTY, { period });
  }
  return { period: null, matches: [] };
}

/** The live-match widget's full fetch (see core/sports/rpc.ts for the order the server answers in). */
export async function loadLiveMatches(rpc: Rpc, lang: string, log: Log): Promise<LiveMatch[]> {
  const raw = await withRetries(() => rpc(MATCH_RPC_METHOD, { lang }));
  const data = raw !== null && typeof raw === "object" ? (raw as { data?: unknown }).data : undefined;
  const matches = parseItems(data, (i) => liveMatchSchema.safeParse(i), log);
  if (matches.length === 0) log(LOG_DATA_EMPTY);
  return matches;
}
