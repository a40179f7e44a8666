import { useCallback, useEffect, useId, useRef, useState } from "react";
import {
  CONSENT_CHANGE_EVENT,
  CONSENT_COOKIE,
  CONSENT_COOKIE_DAYS,
  parseConsent,
  serializeConsent,
  type ConsentChoice,
} from "../../../core/domain/tracking/consent.ts";
import { useHydrated } from "../../lib/use-hydrated.ts";

/** Raised on `document` by the footer's "Cookie settings" button: the banner opens with the current choice. */
export const CONSENT_OPEN_EVENT = "shop:consent-open";

function readChoice(): ConsentChoice | null {
  const m = new RegExp(`(?:^|;\\s*)${CONSENT_COOKIE}=([^;]*)`).exec(document.cookie);
  return parseConsent(m ? decodeURIComponent(m[1]!) : null);
}

/** Keeps the choice 365 days (docs/contract/storefront.md §9 'Tracking (analytics)') and tells the trackers. */
function saveChoice(analytics: boolean, marketing: boolean): void {
  const choice: ConsentChoice = { analytics, marketing, decidedAt: Math.floor(Date.now() / 1000) };
  const secure = window.location.protocol === "https:" ? "; secure" : "";
  document.cookie = `${CONSENT_COOKIE}=${serializeConsent(choice)}; max-age=${CONSENT_COOKIE_DAYS * 86_400}; path=/; samesite=lax${secure}`;
  document.documentElement.dataset.consent = "decided";
  document.dispatchEvent(new CustomEvent<ConsentChoice>(CONSENT_CHANGE_EVENT, { detail: choice }));
}

/**
 * The consent banner (decision 0017): always in the page (so a cached page fits every visitor), shown by CSS from
 * the first paint while `<html data-consent="ask">` (set by the inline script in <head>), fixed at the bottom so it
 * moves no content. A labelled region, not a modal: the page stays usable; Escape never accepts. "Cookie settings"
 * in the footer opens it again with the current choice.
 */
export function ConsentBanner() {
  const [open, setOpen] = useState(false);
  const [details, setDetails] = useState(false);
  const [analytics, setAnalytics] = useState(false);
  const [marketing, setMarketing] = useState(false);
  const region = useRef<HTMLElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const id = useId();
  const hydrated = useHydrated();

  useEffect(() => {
    const reopen = (event: Event) => {
      const choice = readChoice();
      setAnalytics(choice?.analytics ?? false);
      setMarketing(choice?.marketing ?? false);
      opener.current = event.target instanceof HTMLElement ? event.target : null;
      setDetails(true);
      setOpen(true);
    };
    document.addEventListener(CONSENT_OPEN_EVENT, reopen);
    return () => document.removeEventListener(CONSENT_OPEN_EVENT, reopen);
  }, []);

  // Focus moves only when the visitor asked for the choices (never on page load: the banner is not modal).
  useEffect(() => {
    if (details) region.current?.querySelector<HTMLElement>("input:not(:disabled)")?.focus();
  }, [details]);

  // The page keeps room for the banner below its last content while the banner shows (no content under it).
  useEffect(() => {
    const el = region.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => document.documentElement.style.setProperty("--consent-banner-height", `${el.offsetHeight}px`));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const close = useCallback(() => {
    setOpen(false);
    setDetails(false);
    const back = opener.current;
    opener.current = null;
    // Focus goes back where the visitor came from: the footer's button, else the page's content.
    (back ?? document.getElementById("content"))?.focus({ preventScroll: true });
  }, []);
  // Escape closes a reopened banner without changing the choice; a first-time question stays until answered.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && region.current?.contains(document.activeElement)) close();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open, close]);
  const choose = (a: boolean, m: boolean) => {
    saveChoice(a, m);
    close();
  };

  return (
    <section
      ref={region}
      className="consent-banner"
      data-open={open ? "" : undefined}
      data-hydrated={hydrated ? "1" : undefined}
      aria-labelledby={`${id}-title`}
    >
      <div className="consent-banner__inner container">
        <h2 id={`${id}-title`} className="consent-banner__title">
          Cookies on this site
        </h2>
        <p className="consent-banner__text">
          We use necessary cookies for the cart and checkout. With your consent we also use analytics cookies, to learn which campaigns bring visitors and
          orders, and marketing cookies, to measure our ads.
        </p>
        {details ? (
          <fieldset className="consent-banner__choices">
            <legend>Choose the cookies you allow</legend>
            <label>
              <input type="checkbox" checked disabled /> Necessary <span className="consent-banner__note">(always on)</span>
            </label>
            <label>
              <input type="checkbox" name="consent_analytics" checked={analytics} onChange={(e) => setAnalytics(e.target.checked)} /> Analytics
            </label>
            <label>
              <input type="checkbox" name="consent_marketing" checked={marketing} onChange={(e) => setMarketing(e.target.checked)} /> Marketing
            </label>
          </fieldset>
        ) : null}
        <div className="consent-banner__actions">
          <button type="button" className="button" onClick={() => choose(false, false)}>
            Reject all
          </button>
          {details ? (
            <button type="button" className="button" onClick={() => choose(analytics, marketing)}>
              Save choices
            </button>
          ) : (
            <button type="button" className="button" onClick={() => setDetails(true)}>
              Preferences
            </button>
          )}
          <button type="button" className="button button--primary" onClick={() => choose(true, true)}>
            Accept all
          </button>
        </div>
      </div>
    </section>
  );
}

/** The footer's persistent way back to the banner. */
export function CookieSettingsButton() {
  return (
    <button type="button" className="link-button" onClick={(e) => e.currentTarget.dispatchEvent(new Event(CONSENT_OPEN_EVENT, { bubbles: true }))}>
      Cookie settings
    </button>
  );
}
