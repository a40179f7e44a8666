/**
 * The popups' state in the browser (docs/contract/storefront.md §4 'Popups'), as the plugin keeps it: one JSON object
 * under the key "elementor" in localStorage (page views, sessions, per popup 'disable' and impressions, with
 * `__expiration` times for counts that belong to a period) and one in sessionStorage (the active-session flag, the
 * 'session' period's impressions, the popups shown this session for conversions). Never a cookie: pages stay
 * cacheable. These functions work on the parsed objects; a value that is not what we wrote (tampered: "abc", a huge
 * number, a wrong shape) is treated as absent.
 */
import type { PopupSettings } from "./settings.ts";

export const STORAGE_KEY = "elementor";
/** §9 'Popups': impression periods in seconds; '' = ever, 'session' = this browser session. */
export const IMPRESSION_PERIOD_SECONDS = { day: 86_400, week: 604_800, month: 2_628_288 } as const;
/** Counts above this are not ours. */
const MAX_COUNT = 1_000_000;
/** Popups remembered as shown this session (for conversions), newest last. */
const MAX_SHOWN = 20;

export type Store = Record<string, unknown>;

/** Parses a storage item: an object, else an empty one. */
export function parseStore(raw: string | null): Store {
  if (!raw) return {};
  try {
    const v: unknown = JSON.parse(raw);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Store) : {};
  } catch {
    return {};
  }
}

/** A count we wrote: a whole number from 0 to MAX_COUNT; anything else is absent (0). */
export function readCount(v: unknown): number {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0 && v <= MAX_COUNT ? v : 0;
}

const expirations = (local: Store): Record<string, unknown> => {
  const e = local.__expiration;
  return e && typeof e === "object" && !Array.isArray(e) ? (e as Record<string, unknown>) : {};
};

/** Counts this page view, and a new session when the browser session has none yet (sessionStorage's flag). */
export function countPageView(local: Store, session: Store): void {
  local.pageViews = Math.min(readCount(local.pageViews) + 1, MAX_COUNT);
  if (session.activeSession !== true) {
    session.activeSession = true;
    local.sessions = Math.min(readCount(local.sessions) + 1, MAX_COUNT);
  }
}

export const pageViews = (local: Store) => readCount(local.pageViews);
export const sessions = (local: Store) => readCount(local.sessions);

const timesKey = (id: number) => `popup_${id}_times`;
const disableKey = (id: number) => `popup_${id}_disable`;

type Period = NonNullable<PopupSettings["timing"]["times"]>["period"];

/** The popup's impressions in its current period ('' = ever; a day/week/month window starts at its first impression). */
export function impressions(local: Store, session: Store, id: number, period: Period, nowMs: number): number {
  if (period === "session") return readCount(session[timesKey(id)]);
  const count = readCount(local[timesKey(id)]);
  if (period === "") return count;
  const expires = expirations(local)[timesKey(id)];
  // No valid expiry for a period count: not ours, absent.
  if (typeof expires !== "number" || !Number.isFinite(expires) || expires <= nowMs) return 0;
  if (expires > nowMs + IMPRESSION_PERIOD_SECONDS[period] * 1000) return 0;
  return count;
}

/** Counts one impression in the popup's period. */
export function addImpression(local: Store, session: Store, id: number, period: Period, nowMs: number): void {
  const key = timesKey(id);
  if (period === "session") {
    session[key] = Math.min(readCount(session[key]) + 1, MAX_COUNT);
    return;
  }
  const current = impressions(local, session, id, period, nowMs);
  local[key] = Math.min(current + 1, MAX_COUNT);
  if (period === "") return;
  const exp = { ...expirations(local) };
  if (current === 0) exp[key] = nowMs + IMPRESSION_PERIOD_SECONDS[period] * 1000;
  local.__expiration = exp;
}

/** 'Do not show again' for this popup (§4 'Popups'). */
export const isDisabled = (local: Store, id: number) => local[disableKey(id)] === true;
export function disable(local: Store, id: number): void {
  local[disableKey(id)] = true;
}

export interface Shown {
  id: number;
  at: number;
}

/** The popups shown in this browser session (checked, newest last). */
export function shownThisSession(session: Store): Shown[] {
  const v = session.popups_shown;
  if (!Array.isArray(v)) return [];
  return v
    .filter((x): x is Shown => !!x && typeof x === "object" && Number.isSafeInteger((x as Shown).id) && (x as Shown).id > 0 && Number.isFinite((x as Shown).at))
    .slice(-MAX_SHOWN);
}

export function rememberShown(session: Store, id: number, nowMs: number): void {
  session.popups_shown = [...shownThisSession(session).filter((s) => s.id !== id), { id, at: nowMs }].slice(-MAX_SHOWN);
}
