/**
 * The header's search icon (docs/contract/search-overlay.md). Without JavaScript it is a link to the results page,
 * which carries its own search form. With JavaScript it opens the search overlay ('header cover' or full-screen,
 * SHOP_SETTINGS searchOverlay.boxType), whose code (SearchPanel.tsx) is a chunk of its own, fetched on the icon's first
 * hover, focus or click, so no page pays for it in its first load.
 */
import { useCallback, useEffect, useRef, useState, type ComponentType } from "react";
import { useRouteLoaderData } from "react-router";
import { loadChunk } from "../../lib/page-errors.ts";
import { useHydrated } from "../../lib/use-hydrated.ts";
import { closeAllOverlays, installEscapeClosesOverlays } from "../../lib/overlays.ts";
import type { SiteConfig } from "../../../core/config/site-config.ts";
import { searchResultsHref } from "./search-urls.ts";
import stylesheet from "./search-overlay.css?url";
import type { SearchPanelProps } from "./SearchPanel.tsx";

export type SearchOverlaySettings = SiteConfig["searchOverlay"] & { fadeMs: number };

const DEFAULTS: SearchOverlaySettings = { boxType: "header-cover", focusDelayMs: 200, debounceMs: 200, minChars: 2, suggestLimit: 8, fadeMs: 200 };

const loadPanel = () => loadChunk("search-overlay", () => import("./SearchPanel.tsx"));

export function SearchOverlay() {
  const root = useRouteLoaderData("root") as { searchOverlay?: SearchOverlaySettings } | undefined;
  const settings = root?.searchOverlay ?? DEFAULTS;
  const toggle = useRef<HTMLAnchorElement>(null);
  const [Panel, setPanel] = useState<ComponentType<SearchPanelProps> | null>(null);
  const [open, setOpen] = useState(false);
  const href = searchResultsHref("");

  // data-hydrated: from here on a click opens the overlay instead of following the link.
  const hydrated = useHydrated();
  useEffect(installEscapeClosesOverlays, []);

  const preload = useCallback(() => {
    if (!Panel)
      loadPanel().then(
        (m) => setPanel(() => m.default),
        () => undefined,
      );
  }, [Panel]);

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) toggle.current?.focus();
  }, []);

  return (
    <>
      <link rel="stylesheet" href={stylesheet} precedence="default" />
      <a
        ref={toggle}
        className="search-overlay-toggle"
        href={href}
        aria-haspopup="dialog"
        aria-expanded={open}
        data-hydrated={hydrated ? "1" : undefined}
        onPointerEnter={preload}
        onFocus={preload}
        onClick={(event) => {
          if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
          event.preventDefault();
          closeAllOverlays();
          // A chunk that cannot load leaves the plain results page: search still works.
          loadPanel().then(
            (m) => {
              setPanel(() => m.default);
              setOpen(true);
            },
            () => window.location.assign(href),
          );
        }}
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M15.5 15.5 21 21" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        <span className="screen-reader-text">Search</span>
      </a>
      {open && Panel ? <Panel settings={settings} onClose={close} /> : null}
    </>
  );
}
