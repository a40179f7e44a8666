/**
 * The consent choice the tracker obeys (decision 0016), read from the page: the consent rule itself is
 * consent.ts's `effectiveChoice` (explicit choice, else GPC's refusal, else a grant only in opt-out mode).
 */
import { CONSENT_COOKIE, effectiveChoice, type ConsentChoice } from "./consent.ts";

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
  return effectiveChoice(raw, globalPrivacyControl === true, required, now);
}
