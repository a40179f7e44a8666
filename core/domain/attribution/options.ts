/**
 * The attribution options as the site configuration gives them, checked the way sourcebuster checks its own
 * (docs/contract/storefront.md §5 'Attribution options'): a value that does not pass falls back to its default
 * instead of failing, so a bad setting never stops attribution. Pure; the browser reads the options printed in the
 * page (`wc_order_attribution.params`) and runs them through here before classifying a page load.
 */
import type { SbjsOptions } from "./sourcebuster.ts";

export const DEFAULT_LIFETIME_MONTHS = 6;
export const DEFAULT_SESSION_MINUTES = 30;
export const DEFAULT_PROMO_MIN = 100_000;
export const DEFAULT_PROMO_MAX = 999_999;

/** A custom referral source: referrers on `host` (or a subdomain) count as `display` with `medium`. */
export interface CustomReferral {
  host: string;
  medium: string;
  display: string;
}
/** A custom search engine: referrers on `host` carrying `param` in the query are organic traffic from `display`. */
export interface CustomOrganic {
  host: string;
  param: string;
  display: string;
}

/** The raw options, as printed in the page (WooCommerce prints numbers as strings; anything may be missing). */
export interface RawAttributionOptions {
  lifetime?: unknown;
  session?: unknown;
  base64?: unknown;
  timezone_offset?: unknown;
  campaign_param?: unknown;
  term_param?: unknown;
  content_param?: unknown;
  referrals?: unknown;
  organics?: unknown;
  promocode?: unknown;
}

const num = (v: unknown): number => (typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : Number.NaN);
const text = (v: unknown): string => (typeof v === "string" ? v.trim() : "");
const host = (v: unknown): string =>
  text(v)
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, "")
    .replace(/[/:].*$/, "");

/** Lifetime in months: a positive number, else 6 (0 or less would mean no cookie at all, as sourcebuster's `||` does). */
export function validLifetime(v: unknown): number {
  const n = num(v);
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_LIFETIME_MONTHS;
}

/** Session length in minutes: a positive integer, else 30. */
export function validSessionLength(v: unknown): number {
  const n = num(v);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_SESSION_MINUTES;
}

/** The promo-code range: integers, else 100000 and 999999; a min above the max falls back to both defaults. */
export function validPromocode(v: unknown): { min: number; max: number } | null {
  if (v === false || v === null || v === undefined || v === "") return null;
  const o = typeof v === "object" ? (v as Record<string, unknown>) : {};
  if (o.enabled === false) return null;
  const min = Number.isInteger(num(o.min)) ? num(o.min) : DEFAULT_PROMO_MIN;
  const max = Number.isInteger(num(o.max)) ? num(o.max) : DEFAULT_PROMO_MAX;
  return min <= max ? { min, max } : { min: DEFAULT_PROMO_MIN, max: DEFAULT_PROMO_MAX };
}

const entries = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.filter((e): e is Record<string, unknown> => typeof e === "object" && e !== null) : [];

/** Custom referral entries: each needs a host; medium defaults to 'referral', display to the host. */
export function validReferrals(v: unknown): CustomReferral[] {
  return entries(v)
    .map((e) => ({ host: host(e.host), medium: text(e.medium) || "referral", display: text(e.display) }))
    .filter((e) => e.host !== "")
    .map((e) => ({ ...e, display: e.display || e.host }));
}

/** Custom organic entries: each needs a host and a query parameter; display defaults to the host. */
export function validOrganics(v: unknown): CustomOrganic[] {
  return entries(v)
    .map((e) => ({ host: host(e.host), param: text(e.param), display: text(e.display) }))
    .filter((e) => e.host !== "" && e.param !== "")
    .map((e) => ({ ...e, display: e.display || e.host }));
}

/** Every option checked; the custom campaign / term / content parameters are kept only when non-empty. */
export function attributionOptions(raw: RawAttributionOptions): SbjsOptions {
  const offset = num(raw.timezone_offset);
  const param = (v: unknown) => text(v) || undefined;
  return {
    lifetimeMonths: validLifetime(raw.lifetime),
    sessionLengthMinutes: validSessionLength(raw.session),
    base64: raw.base64 === true || raw.base64 === "1" || raw.base64 === "true",
    timezoneOffsetHours: Number.isFinite(offset) && Math.abs(offset) <= 14 ? offset : 0,
    campaignParam: param(raw.campaign_param),
    termParam: param(raw.term_param),
    contentParam: param(raw.content_param),
    referrals: validReferrals(raw.referrals),
    organics: validOrganics(raw.organics),
    promocode: validPromocode(raw.promocode),
  };
}
