/**
 * The pre-hydration attribution script, inlined in every page's <head> after the page globals (with the page's CSP
 * nonce) and built on its own (vite.config.ts, `?iife`). It runs while the page parses, as sourcebuster does, so a
 * visitor who clicks on before the app has hydrated is still attributed to the campaign they came from
 * (docs/contract/storefront.md §4 'Traffic classification'). It also marks whether the consent banner must ask.
 */
import { markConsentState, pageView } from "./attribution-run.ts";

try {
  markConsentState();
  pageView(window.location.href, document.referrer);
} catch {
  // Attribution must never break the page; the chunk tries again after hydration.
}
