/**
 * Consent for tracking, by category. `necessary` is always granted (the cart, the session, the nonce); `analytics`
 * and `marketing` only by the visitor's choice, kept 365 days in CONSENT_COOKIE (docs/contract/storefront.md §9
 * 'Tracking (analytics)'). No choice yet, or the browser's Global Privacy Control signal without a later explicit
 * choice, means refused: nothing of that category is loaded or sent.
 */
import { EVENT_ID_COOKIE } from "./events.ts";

export const CONSENT_CATEGORIES = ["necessary", "analytics", "marketing"] as const;
export type ConsentCategory = (typeof CONSENT_CATEGORIES)[number];

export const CONSENT_COOKIE = "shop_consent";
export const CONSENT_COOKIE_DAYS = 365;
/** The external (browser) id sent to ad destinations, kept 180 days; a marketing cookie. */
export const EXTERNAL_ID_COOKIE = "pbid";
export const EXTERNAL_ID_COOKIE_DAYS = 180;

export interface ConsentChoice {
  analytics: boolean;
  marketing: boolean;
  /** When the visitor chose, epoch seconds. */
  decidedAt: number;
}

/** Cookie value: `v1.<analytics 0|1>.<marketing 0|1>.<epoch seconds>`; anything else is no choice. */
export function serializeConsent(choice: ConsentChoice): string {
  return `v1.${choice.analytics ? 1 : 0}.${choice.marketing ? 1 : 0}.${Math.max(0, Math.floor(choice.decidedAt))}`;
}

export function parseConsent(value: string | undefined | null): ConsentChoice | null {
  const m = /^v1\.([01])\.([01])\.(\d{1,12})$/.exec(value ?? "");
  if (!m) return null;
  return { analytics: m[1] === "1", marketing: m[2] === "1", decidedAt: Number(m[3]) };
}

/** Whether a category may load or send anything. An explicit choice wins over the GPC signal. */
export function consentAllows(choice: ConsentChoice | null, category: ConsentCategory): boolean {
  if (category === "necessary") return true;
  if (choice === null) return false;
  return choice[category];
}

/** What the visitor's browser implies before any choice: GPC (`navigator.globalPrivacyControl`) is a refusal of both. */
export function defaultChoice(globalPrivacyControl: boolean, now: number): ConsentChoice | null {
  return globalPrivacyControl ? { analytics: false, marketing: false, decidedAt: Math.floor(now / 1000) } : null;
}

/**
 * Raised on `document` (a CustomEvent whose detail is the new ConsentChoice) when the visitor chooses, so that
 * trackers already on the page load or stop without a reload.
 */
export const CONSENT_CHANGE_EVENT = "shop:consent-change";

// ---------------------------------------------------------------------------------------------------------------
// The consent mode, the cookies the site can turn off, and what a choice clears (decision 0017)
// ---------------------------------------------------------------------------------------------------------------

/**
 * The choice that applies: the visitor's explicit one, else GPC's refusal, else — only when the shop does not
 * require an opt-in (`consent.required` false, opt-out mode) — an implied grant of both (decidedAt 0).
 */
export function effectiveChoice(cookieValue: string | undefined | null, globalPrivacyControl: boolean, required: boolean, now: number): ConsentChoice | null {
  const explicit = parseConsent(cookieValue);
  if (explicit) return explicit;
  const gpc = defaultChoice(globalPrivacyControl, now);
  if (gpc) return gpc;
  return required ? null : { analytics: true, marketing: true, decidedAt: 0 };
}

/** The banner asks only while nothing decided: no explicit choice and no GPC signal. */
export function needsChoice(cookieValue: string | undefined | null, globalPrivacyControl: boolean): boolean {
  return !globalPrivacyControl && parseConsent(cookieValue) === null;
}

/**
 * The tracking cookies the owner can turn off one by one (docs/contract/storefront.md §9 'Tracking (analytics)'),
 * by the group names of PixelYourSite's filters (`pys_disable_<group>_cookie`), with each group's consent category.
 */
const UTM_TERMS = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"];
export const TRACKING_COOKIE_GROUPS = {
  externalID: { category: "marketing", cookies: [EXTERNAL_ID_COOKIE] },
  advanced_form_data: { category: "marketing", cookies: ["pys_advanced_form_data"] },
  landing_page: { category: "analytics", cookies: ["pys_landing_page", "last_pys_landing_page"] },
  first_visit: { category: "analytics", cookies: ["pys_first_visit"] },
  trafficsource: { category: "analytics", cookies: ["pysTrafficSource", "last_pysTrafficSource"] },
  utmTerms: { category: "analytics", cookies: UTM_TERMS.flatMap((t) => [`pys_${t}`, `last_pys_${t}`]) },
  utmId: { category: "analytics", cookies: ["pys_utm_id", "last_pys_utm_id"] },
} as const satisfies Record<string, { category: ConsentCategory; cookies: readonly string[] }>;
export type TrackingCookieGroup = keyof typeof TRACKING_COOKIE_GROUPS;
/** `consent.disabledCookies` may name any group, or "all". */
export const DISABLED_COOKIE_NAMES = ["all", ...Object.keys(TRACKING_COOKIE_GROUPS)] as readonly string[];

/** The setting's entries that are not a group name or "all" (an empty list means the setting is valid). */
export function unknownDisabledCookies(disabled: readonly string[]): string[] {
  return disabled.filter((d) => !DISABLED_COOKIE_NAMES.includes(d));
}

function groupOf(cookie: string): TrackingCookieGroup | null {
  for (const [group, g] of Object.entries(TRACKING_COOKIE_GROUPS)) if ((g.cookies as readonly string[]).includes(cookie)) return group as TrackingCookieGroup;
  return null;
}

/** Whether a tracking cookie of §9's list may be written: not turned off by the owner, and its category consented. */
export function trackingCookieAllowed(cookie: string, choice: ConsentChoice | null, disabled: readonly string[]): boolean {
  const group = groupOf(cookie);
  if (!group) return false;
  if (disabled.includes("all") || disabled.includes(group)) return false;
  return consentAllows(choice, TRACKING_COOKIE_GROUPS[group].category);
}

/**
 * Every tracking cookie of §9's list that must not exist under this choice and these settings (deleted if present),
 * and the event id cookie once analytics and marketing are both refused (nothing is sent, so nothing to pair; the
 * page deletes it even when the tracker was never loaded).
 */
export function trackingCookiesToClear(choice: ConsentChoice | null, disabled: readonly string[]): string[] {
  const listed = Object.values(TRACKING_COOKIE_GROUPS)
    .flatMap((g) => g.cookies as readonly string[])
    .filter((c) => !trackingCookieAllowed(c, choice, disabled));
  return consentAllows(choice, "analytics") || consentAllows(choice, "marketing") ? listed : [...listed, EVENT_ID_COOKIE];
}

/**
 * The shop's own order attribution (the sbjs_* cookies and the order's attribution inputs) counts as analytics:
 * it runs when the owner allows tracking and the analytics category is consented (decision 0017).
 */
export function attributionAllowed(choice: ConsentChoice | null, allowTracking: boolean): boolean {
  return allowTracking && consentAllows(choice, "analytics");
}

const MARKETING_PIXELS = ["facebook", "tiktok", "google_ads", "pinterest", "bing", "reddit"] as const;

/**
 * The answer of the GET for consent filter values (docs/contract/wire.md §4.8): PixelYourSite's
 * `pys_get_gdpr_filters_values` fields, true meaning "off" for this visitor, plus our `consent` per category.
 */
export function consentFilterValues(choice: ConsentChoice | null, disabled: readonly string[]) {
  const analytics = consentAllows(choice, "analytics");
  const marketing = consentAllows(choice, "marketing");
  const allCookiesOff = disabled.includes("all") || (!analytics && !marketing);
  const groupOff = (g: TrackingCookieGroup) => !TRACKING_COOKIE_GROUPS[g].cookies.some((c) => trackingCookieAllowed(c, choice, disabled));
  return {
    all_disabled_by_api: !analytics && !marketing,
    ...Object.fromEntries(MARKETING_PIXELS.map((p) => [`${p}_disabled_by_api`, !marketing])),
    analytics_disabled_by_api: !analytics,
    externalID_disabled_by_api: groupOff("externalID"),
    disabled_all_cookie: allCookiesOff,
    disabled_start_session_cookie: allCookiesOff || !analytics,
    disabled_advanced_form_data_cookie: groupOff("advanced_form_data"),
    disabled_landing_page_cookie: groupOff("landing_page"),
    disabled_first_visit_cookie: groupOff("first_visit"),
    disabled_trafficsource_cookie: groupOff("trafficsource"),
    disabled_utmTerms_cookie: groupOff("utmTerms"),
    disabled_utmId_cookie: groupOff("utmId"),
    consent: { necessary: true, analytics, marketing, decided: choice !== null && choice.decidedAt > 0 },
  };
}
