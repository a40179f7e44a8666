/**
 * Standalone embed of the live-match widget for pages outside the app: every
 * element marked data-place="widget-live-match" is replaced by the widget's
 * own container (docs/contract/storefront.md §2 'Mounting'). The separate bundle is built from this file.
 */
import { createRoot, type Root } from "react-dom/client";
import { LIVE_WIDGET_PLACE_SELECTOR } from "../core/domain/live/constants.ts";
import type { LiveLang } from "../core/domain/live/constants.ts";
import { liveLang } from "../core/domain/live/i18n.ts";
import { LiveMatchWidget } from "./components/live/LiveMatchWidget.tsx";
import { setShopOrigin } from "./components/live/shop-origin.ts";

declare global {
  interface Window {
    /** Set when a live-match widget is on the page (docs/contract/storefront.md §2). */
    liveMatchWidgetPresent?: boolean;
  }
}

export const LIVE_WIDGET_CONTAINER_CLASS = "live-widget-root";

export interface Mount {
  readonly container: HTMLElement;
  readonly lang: LiveLang;
}

/** Swaps each marked element for a fresh container and sets the presence flag; no React yet. */
export function replacePlaces(doc: Document): Mount[] {
  const mounts: Mount[] = [];
  for (const place of Array.from(doc.querySelectorAll<HTMLElement>(LIVE_WIDGET_PLACE_SELECTOR))) {
    const container = doc.createElement("div");
    container.className = LIVE_WIDGET_CONTAINER_CLASS;
    const lang = liveLang(place.getAttribute("data-lang"));
    container.setAttribute("data-lang", lang);
    place.replaceWith(container);
    mounts.push({ container, lang });
  }
  const view = doc.defaultView;
  if (mounts.length > 0 && view) view.liveMatchWidgetPresent = true;
  return mounts;
}

export function mountLiveMatchWidgets(doc: Document): Root[] {
  return replacePlaces(doc).map(({ container, lang }) => {
    const root = createRoot(container);
    root.render(<LiveMatchWidget lang={lang} />);
    return root;
  });
}

if (typeof document !== "undefined") {
  // Only readable while the script first runs: the shop this bundle came from, wherever the page is.
  const src = (document.currentScript as HTMLScriptElement | null)?.src;
  if (src) setShopOrigin(new URL(src).origin);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => mountLiveMatchWidgets(document), { once: true });
  else mountLiveMatchWidgets(document);
}
