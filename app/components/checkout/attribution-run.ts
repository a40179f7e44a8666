/**
 * One page view of the order attribution under the visitor's consent (docs/contract/wire.md §4, decision 0017),
 * shared by the pre-hydration inline script (attribution-early.ts, which runs while the page parses) and the
 * attribution chunk (in-app navigations, consent changes). No React, no imports beyond core/domain: the inline
 * script is built from this module alone. The two share their state through `window.sbjs`, as sourcebuster does.
 */
import { attributionOptions, type RawAttributionOptions } from "../../../core/domain/attribution/options.ts";
import { COOKIE_NAMES, cookieString, expireCookieStrings, parseCookieHeader, sbjsInit, type SbjsData } from "../../../core/domain/attribution/sourcebuster.ts";
import {
  CONSENT_COOKIE,
  attributionAllowed,
  effectiveChoice,
  needsChoice,
  trackingCookiesToClear,
  type ConsentChoice,
} from "../../../core/domain/tracking/consent.ts";

/** `wc_order_attribution.params` as the server prints it (app/lib/browser-globals.server.ts). */
export interface AttributionParams extends RawAttributionOptions {
  allowTracking: boolean;
  prefix: string;
}
/** `shop_consent`: the shop's consent settings (core/config/site-config.ts `consent`). */
export interface ConsentParams {
  required: boolean;
  disabledCookies: string[];
}
interface SbjsGlobal {
  /** What sbjs.get answers: the attribution of the latest page view, null when attribution may not run. */
  get: SbjsData | null;
  /** Page views of this document seen before any choice; counted if the visitor then consents. */
  pending: { url: string; referrer: string }[];
  /** The latest page view, counted or not. */
  last?: { url: string; referrer: string };
}

declare global {
  interface Window {
    wc_order_attribution?: { params: AttributionParams };
    shop_consent?: ConsentParams;
    sbjs?: SbjsGlobal;
  }
  interface Navigator {
    globalPrivacyControl?: boolean;
  }
}

const MAX_PENDING_VIEWS = 50;

const cookies = () => parseCookieHeader(document.cookie);

/** The choice that applies now: the consent cookie, else the browser's GPC signal, else the shop's consent mode. */
export function currentChoice(): ConsentChoice | null {
  const raw = cookies()[CONSENT_COOKIE];
  return effectiveChoice(
    raw === undefined ? undefined : decodeURIComponent(raw),
    navigator.globalPrivacyControl === true,
    window.shop_consent?.required ?? true,
    Date.now(),
  );
}

/** `<html data-consent="ask|decided">`: the banner's CSS shows it from the first paint only while a choice is due. */
export function markConsentState(): void {
  const raw = cookies()[CONSENT_COOKIE];
  document.documentElement.dataset.consent = needsChoice(raw === undefined ? undefined : decodeURIComponent(raw), navigator.globalPrivacyControl === true)
    ? "ask"
    : "decided";
}

/** Deletes every attribution and tracking cookie this choice and the owner's settings do not allow (§4, §9). */
function clearDisallowed(choice: ConsentChoice | null, attribution: boolean, url: string): void {
  const present = cookies();
  const names = [...trackingCookiesToClear(choice, window.shop_consent?.disabledCookies ?? []), ...(attribution ? [] : Object.values(COOKIE_NAMES))];
  for (const assignment of expireCookieStrings(
    names.filter((n) => n in present),
    url,
  ))
    document.cookie = assignment;
}

function state(): SbjsGlobal {
  return (window.sbjs ??= { get: null, pending: [] });
}

/**
 * One page view: `referrer` is document.referrer on a document load, the previous URL after an in-app navigation.
 * Without consent (or with the owner's allowTracking off) nothing is written, the attribution cookies go and the
 * order's fields stay empty; before any choice the view is remembered in memory only, to count it on consent.
 */
export function pageView(url: string, referrer: string): SbjsData | null {
  const params = window.wc_order_attribution?.params;
  if (!params) return null;
  const choice = currentChoice();
  const allowed = attributionAllowed(choice, params.allowTracking === true);
  clearDisallowed(choice, allowed, url);
  const sbjs = state();
  sbjs.last = { url, referrer };
  if (!allowed) {
    // Bounded: a long browse before answering keeps its first views (the landing is what attribution needs).
    if (choice === null && params.allowTracking === true && sbjs.pending.length < MAX_PENDING_VIEWS) sbjs.pending.push({ url, referrer });
    sbjs.get = null;
    return null;
  }
  const { data, writes } = sbjsInit({ url, referrer, now: new Date(), userAgent: navigator.userAgent, cookies: cookies() }, attributionOptions(params));
  for (const write of writes) document.cookie = cookieString(write);
  sbjs.get = data;
  return data;
}

/**
 * After a consent change: when attribution may now run, the views seen before the choice are counted (or, if the
 * visitor had refused on this page, the current one); when it may not, its cookies go and the fields empty.
 */
export function consentChanged(): SbjsData | null {
  const sbjs = state();
  const params = window.wc_order_attribution?.params;
  const choice = currentChoice();
  if (!params || !attributionAllowed(choice, params.allowTracking === true)) {
    clearDisallowed(choice, false, window.location.href);
    sbjs.get = null;
    return null;
  }
  clearDisallowed(choice, true, window.location.href);
  const pending = sbjs.pending.splice(0);
  if (pending.length === 0 && sbjs.get === null && sbjs.last) pending.push(sbjs.last);
  for (const view of pending) pageView(view.url, view.referrer);
  return sbjs.get;
}
