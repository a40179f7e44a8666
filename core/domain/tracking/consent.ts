/**
 * Consent for tracking, by category. `necessary` is always granted (the cart, the session, the nonce); `analytics`
 * and `marketing` only by the visitor's choice, kept 365 days in CONSENT_COOKIE (docs/contract/storefront.md §9
 * 'Tracking (analytics)'). No choice yet, or the browser's Global Privacy Control signal without a later explicit
 * choice, means refused: nothing of that category is loaded or sent.
 */

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
