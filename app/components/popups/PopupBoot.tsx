/**
 * The popups' always-loaded part, kept tiny (docs/contract/storefront.md §4 'Popups'): catches link-action and open
 * selector clicks (their handlers load on the first one), loads the page-visit chunk (page views, sessions,
 * conversions) once the page is interactive, and — only on a page that has popups — the engine's chunk: then, when a
 * popup's trigger runs on its own (a delay, inactivity, a click count, an element in view, an ad blocker), else on the
 * shopper's first move (a scroll, the pointer, a key or touch: what the scrolling and exit-intent triggers wait for)
 * or a link action, so a page whose popups wait for the shopper does not load the engine with the page (issue 18).
 */
import { Component, lazy, Suspense, useEffect, useRef, useState, type ReactNode } from "react";
import { useLocation } from "react-router";
import { LINK_ACTION_HREF } from "../../../core/domain/popups/link-action-href.ts";
import type { PagePopup, PopupPageData } from "../../../core/domain/popups/settings.ts";
import { popupBridge, withEngine } from "./bridge.ts";
import { loadChunk } from "../../lib/page-errors.ts";

const PopupEngine = lazy(() => import("./PopupEngine.tsx"));

/** A broken popup never breaks the page: the engine's errors end here. */
class Contained extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/** After load, when the browser is idle: the engine never competes with the page's own start. */
function whenInteractive(run: () => void): () => void {
  let cancelled = false;
  const idle = () => {
    if (cancelled) return;
    if ("requestIdleCallback" in window) window.requestIdleCallback(() => !cancelled && run(), { timeout: 2000 });
    else setTimeout(() => !cancelled && run(), 1);
  };
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener("load", idle);
  };
}

/** Triggers that fire without the shopper moving: their popups need the engine as soon as the page is interactive. */
const SELF_STARTING_TRIGGERS = ["page_load", "scrolling_to", "click", "inactivity", "adblock_detection"] as const;

const needsEngineAtOnce = (popups: readonly PagePopup[]) => popups.some((p) => SELF_STARTING_TRIGGERS.some((t) => p.triggers[t] !== undefined));

const FIRST_MOVES = ["scroll", "pointermove", "pointerdown", "touchstart", "keydown"] as const;

/** Runs `run` once on the shopper's first move; marks the page as having its popups' triggers wired meanwhile. */
function onFirstMove(run: () => void): () => void {
  popupBridge.scrollBaseline = window.scrollY;
  const root = document.documentElement;
  const opts = { capture: true, passive: true } as const;
  const stop = () => FIRST_MOVES.forEach((type) => (type === "scroll" ? window : document).removeEventListener(type, moved, opts));
  function moved() {
    stop();
    run();
  }
  FIRST_MOVES.forEach((type) => (type === "scroll" ? window : document).addEventListener(type, moved, opts));
  // The same mark the engine sets (tests and scripts wait on it): from here a trigger cannot be missed.
  root.setAttribute("data-popups-ready", "");
  return () => {
    stop();
    if (!popupBridge.engine) root.removeAttribute("data-popups-ready");
  };
}

export function PopupBoot({ data }: { data: PopupPageData | null }) {
  const location = useLocation();
  const hasPopups = !!data && data.popups.length > 0;
  const hasPopupsRef = useRef(hasPopups);
  const popupsRef = useRef(data?.popups ?? []);
  useEffect(() => {
    hasPopupsRef.current = hasPopups;
    popupsRef.current = data?.popups ?? [];
  }, [hasPopups, data]);
  const [ready, setReady] = useState(false);

  // Once the page is interactive: the page view (and a conversion on the order received page), then — on a page
  // with popups — the engine (at once or on the shopper's first move), whose timing conditions see this page counted.
  useEffect(() => {
    let stopWaiting: (() => void) | undefined;
    let cancelled = false;
    const stopInteractive = whenInteractive(() => {
      void import("./page-visit.ts")
        .then((m) => m.recordVisit(location.pathname, location.search))
        .catch(() => undefined)
        .finally(() => {
          if (cancelled || !hasPopupsRef.current) return;
          if (popupBridge.engine || needsEngineAtOnce(popupsRef.current)) {
            popupBridge.scrollBaseline = null;
            setReady(true);
          } else stopWaiting = onFirstMove(() => setReady(true));
        });
    });
    return () => {
      cancelled = true;
      stopInteractive();
      stopWaiting?.();
    };
  }, [location.key, location.pathname, location.search]);

  useEffect(() => {
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0) return;
      // A click on a popup's open_selector before the engine has loaded: load it now, and it opens the popup.
      if (!popupBridge.engine) {
        for (const p of popupsRef.current) {
          const selector = p.display.open_selector.trim();
          let hit = false;
          try {
            hit = !!selector && !!(e.target as Element | null)?.closest?.(selector);
          } catch {
            hit = false;
          }
          if (!hit) continue;
          e.preventDefault();
          setReady(true);
          withEngine((engine) => engine.open(p.id, false));
          return;
        }
      }
      const link = (e.target as Element | null)?.closest?.("a[href]");
      const href = link?.getAttribute("href") ?? "";
      if (!link || !LINK_ACTION_HREF.test(href)) return;
      e.preventDefault();
      if (hasPopupsRef.current) setReady(true); // a popup:open waits for the engine (bridge.ts)
      // The shopper asked for something: a chunk that fails is announced (§8); the marketing chunks fail silently.
      loadChunk("popup-actions", () => import("./actions.ts")).then(
        (m) => m.runLinkAction(href, link, hasPopupsRef.current),
        () => undefined,
      );
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, []);

  if (!ready || !data || !hasPopups) return null;
  return (
    <Contained>
      <Suspense fallback={null}>
        <PopupEngine key={location.key} {...data} />
      </Suspense>
    </Contained>
  );
}
