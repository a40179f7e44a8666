import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { loadChunk } from "../../lib/page-errors.ts";
import { CONSENT_CHANGE_EVENT } from "../../../core/domain/tracking/consent.ts";

const load = () => loadChunk("attribution", () => import("./attribution.client.ts"));

/**
 * Mounted once in the root layout: every in-app navigation is a page view for the attribution script (the document
 * load was counted by the inline script in <head>), and a consent change counts or clears; then the checkout's
 * <wc-order-attribution-inputs> is filled. Loaded as its own chunk.
 */
export function AttributionScript() {
  const location = useLocation();
  const previous = useRef<string | null>(null);
  useEffect(() => {
    const url = window.location.href;
    if (previous.current === url) return;
    const documentLoad = previous.current === null;
    const referrer = previous.current ?? document.referrer;
    previous.current = url;
    // The document load was counted by the inline script (it sets window.sbjs): the chunk is needed now only to fill
    // a form's attribution inputs (checkout, registration); otherwise it loads on the next navigation (issue 18).
    if (documentLoad && window.sbjs && !document.querySelector("wc-order-attribution-inputs")) return;
    load().then(
      (m) => {
        m.trackPageView(url, referrer, documentLoad);
        m.fillAttributionInputs();
      },
      () => undefined, // shown to the shopper by loadChunk
    );
  }, [location.pathname, location.search]);
  useEffect(() => {
    const changed = () =>
      load().then(
        (m) => {
          m.trackConsentChange();
          m.fillAttributionInputs();
        },
        () => undefined,
      );
    document.addEventListener(CONSENT_CHANGE_EVENT, changed);
    return () => document.removeEventListener(CONSENT_CHANGE_EVENT, changed);
  }, []);
  return null;
}
