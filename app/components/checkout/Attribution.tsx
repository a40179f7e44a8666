import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { loadChunk } from "../../lib/page-errors.ts";

/**
 * Mounted once in the root layout: every page view (the document load and each in-app navigation) runs the
 * attribution script, which then fills the checkout's <wc-order-attribution-inputs>. Loaded as its own chunk.
 */
export function AttributionScript() {
  const location = useLocation();
  const previous = useRef<string | null>(null);
  useEffect(() => {
    const url = window.location.href;
    if (previous.current === url) return;
    const referrer = previous.current ?? document.referrer;
    previous.current = url;
    loadChunk("attribution", () => import("./attribution.client.ts")).then(
      (m) => {
        m.trackPageView(url, referrer);
        m.fillAttributionInputs();
      },
      () => undefined, // shown to the shopper by loadChunk
    );
  }, [location.pathname, location.search]);
  return null;
}
