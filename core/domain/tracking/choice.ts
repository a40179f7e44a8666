/**
 * The consent choice the tracker obeys (decision 0016): the visitor's explicit choice (`shop_consent`), else the
 * browser's GPC signal as a refusal, else — only when the shop runs in opt-out mode (`consent.required` false,
 * printed by the consent part as `window.shop_consent.required`) — a grant of both. The same rule as the consent
 * part's `effectiveChoice`; kept tiny because the tracker's bootstrap ships with every page.
 */
import { CONSENT_COOKIE, defaultChoice, parseConsent, type ConsentChoice } from "./consent.ts";

export function choiceInForce(cookieValue: string | null | undefined, globalPrivacyControl: boolean, required: boolean, now: number): ConsentChoice | null {
  return parseConsent(cookieValue) ?? defaultChoice(globalPrivacyControl, now) ?? (required ? null : { analytics: true, marketing: true, decidedAt: 0 });
}

/** The same, read from the page: the cookie, `navigator.globalPrivacyControl`, `window.shop_consent.required`. */
export function pageChoice(cookieHeader: string, globalPrivacyControl: unknown, consentParams: unknown, now: number): ConsentChoice | null {
  const m = cookieHeader.split("; ").find((c) => c.startsWith(`${CONSENT_COOKIE}=`));
  let raw: string | null = null;
  try {
    raw = m ? decodeURIComponent(m.slice(CONSENT_COOKIE.length + 1)) : null;
  } catch {
    raw = null;
  }
  const required = (consentParams as { required?: unknown } | undefined)?.required !== false;
  return choiceInForce(raw, globalPrivacyControl === true, required, now);
}
