import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { CONSENT_CHANGE_EVENT, consentAllows } from "../../../core/domain/tracking/consent.ts";
import { pageChoice } from "../../../core/domain/tracking/choice.ts";
import type { BrowserTrackingConfig } from "../../../core/domain/tracking/browser-tracking.ts";
import type { CartSummaryView } from "../cart/cart-view.ts";

declare global {
  interface Window {
    shop_tracking?: BrowserTrackingConfig;
  }
}

/** The consent in force on this page (decision 0016): the cookie, GPC, the shop's opt-in or opt-out mode. */
function currentTrackingChoice() {
  const w = window as unknown as { shop_consent?: unknown };
  return pageChoice(document.cookie, (navigator as { globalPrivacyControl?: unknown }).globalPrivacyControl, w.shop_consent, Date.now());
}

function consented(): boolean {
  const choice = currentTrackingChoice();
  return consentAllows(choice, "analytics") || consentAllows(choice, "marketing");
}

let views = 0;

/**
 * The tracker's bootstrap, mounted once in the root layout (docs/contract/storefront.md §9 'Tracking (analytics)').
 * It only reads the consent cookie: the tracker is its own chunk, imported when the browser is idle after hydration
 * and only with consent (or when the banner's CONSENT_CHANGE_EVENT grants it later). A chunk that fails to load is
 * ignored: tracking is never shop behaviour.
 */
export function TrackingScript({ cart, config: current, registered }: { cart: CartSummaryView; config?: BrowserTrackingConfig; registered: boolean }) {
  const location = useLocation();
  const cartRef = useRef(cart);
  // The layout's latest config (the signed-in visitor's id changes on an in-app sign-in), else the printed one.
  const configRef = useRef(current);
  useEffect(() => {
    cartRef.current = cart;
    configRef.current = current;
  });
  // An account created by an in-app form submission (same path, no new view): CompleteRegistration now.
  useEffect(() => {
    const config = configRef.current ?? window.shop_tracking;
    if (!registered || !config || !consented()) return;
    import("./tracker.client.ts").then(
      (m) => m.trackRegistration(config),
      () => undefined,
    );
  }, [registered]);
  useEffect(() => {
    const config = configRef.current ?? window.shop_tracking;
    // Nothing configured: the tracker is never loaded.
    if (!config || !(config.dataLayer || config.gtm || config.ga4 || config.serverEvents || Object.values(config.pixels).some((ids) => ids.length))) return;
    const view = ++views;
    const page = { view, checkoutCart: window.location.pathname === "/checkout/" ? cartRef.current : null };
    const start = () => {
      if (!consented()) return;
      import("./tracker.client.ts").then(
        (m) => m.trackPage(config, page),
        () => undefined,
      );
    };
    const idle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 1));
    const cancelIdle = window.cancelIdleCallback ?? window.clearTimeout;
    const handle = idle(start);
    document.addEventListener(CONSENT_CHANGE_EVENT, start);
    return () => {
      cancelIdle(handle);
      document.removeEventListener(CONSENT_CHANGE_EVENT, start);
    };
  }, [location.pathname, location.search]);
  return null;
}
