/**
 * The popup engine, a lazy chunk (docs/contract/storefront.md §3 'Popup settings', §4 'Popups'): wires each popup's
 * triggers and open selector, checks the browser's timing conditions when a trigger fires, keeps the page's state
 * (already opened here, the avoid_multiple_popups block) and the browser's (impressions, 'disable'), and renders
 * the open popups as modal dialogs.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { PagePopup, PopupPageData } from "../../../core/domain/popups/settings.ts";
import { countsOnOpen, failedBrowserTiming } from "../../../core/domain/popups/conditions.ts";
import { addImpression, disable, impressions, isDisabled, pageViews, rememberShown, sessions, STORAGE_KEY } from "../../../core/domain/popups/storage.ts";
import { adblockDetected, BAIT_CLASSES, baitId, clickFires, exitIntentFires, ms, scrollingFires } from "../../../core/domain/popups/triggers.ts";
import { popupBridge } from "./bridge.ts";
import { reportPopupEvent, storageObject } from "./browser-state.ts";
import { PopupDialog } from "./PopupDialog.tsx";
import { POPUP_CSS } from "./popup-styles.ts";

interface Opened {
  popup: PagePopup;
  /** The element that had focus when the popup opened: focus returns there on close. */
  opener: Element | null;
}

const stores = () => ({ local: storageObject("localStorage", STORAGE_KEY), session: storageObject("sessionStorage", STORAGE_KEY) });
const periodOf = (p: PagePopup) => p.timing.times?.period ?? "";

/** Sets up one trigger; returns its clean-up. `fire` shows the popup (at most once per page). */
function wireTrigger(p: PagePopup, fire: () => void): () => void {
  const t = p.triggers;
  const cleanups: (() => void)[] = [];
  const on = <K extends keyof DocumentEventMap>(target: Document | Window, type: K, fn: (e: DocumentEventMap[K]) => void, opts?: AddEventListenerOptions) => {
    target.addEventListener(type, fn as EventListener, opts);
    cleanups.push(() => target.removeEventListener(type, fn as EventListener, opts));
  };
  if (t.page_load) {
    const timer = setTimeout(fire, ms(t.page_load.delay));
    cleanups.push(() => clearTimeout(timer));
  }
  if (t.scrolling) {
    const s = t.scrolling;
    // The engine may have loaded on the shopper's first scroll: that scroll counts from where the page was then.
    let lastY = popupBridge.scrollBaseline ?? window.scrollY;
    const onScroll = () => {
      const y = window.scrollY;
      const fires = scrollingFires(s, { y, lastY, documentHeight: document.documentElement.scrollHeight, viewportHeight: window.innerHeight });
      lastY = y;
      if (fires) fire();
    };
    on(window, "scroll", onScroll, { passive: true });
    if (lastY !== window.scrollY) onScroll();
  }
  if (t.scrolling_to) {
    let target: Element | null = null;
    try {
      target = document.querySelector(t.scrolling_to.selector);
    } catch {
      target = null; // an invalid selector matches nothing
    }
    if (target && "IntersectionObserver" in window) {
      const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && fire());
      observer.observe(target);
      cleanups.push(() => observer.disconnect());
    }
  }
  if (t.click) {
    const c = t.click;
    let clicks = 0;
    on(document, "click", () => clickFires(c, ++clicks) && fire());
  }
  if (t.inactivity) {
    const wait = ms(t.inactivity.time);
    let timer = setTimeout(fire, wait);
    const reset = () => {
      clearTimeout(timer);
      timer = setTimeout(fire, wait);
    };
    for (const type of ["mousemove", "keydown", "click", "scroll", "touchstart"] as const) on(document, type, reset, { passive: true, capture: true });
    cleanups.push(() => clearTimeout(timer));
  }
  if (t.exit_intent) {
    on(document, "mouseout", (e) => exitIntentFires({ clientY: e.clientY, leftDocument: e.relatedTarget === null }) && fire());
  }
  if (t.adblock_detection) {
    // §9 'Popups': a bait element with a 6-character random id and the class names ad blockers hide.
    const bait = document.createElement("div");
    bait.id = baitId(Math.random);
    bait.className = BAIT_CLASSES;
    bait.setAttribute("aria-hidden", "true");
    // Off-screen at the inline start, so no horizontal scroll in right-to-left mode either.
    bait.style.cssText = "position:absolute;inset-inline-start:-9999px;top:0;width:1px;height:1px;";
    document.body.appendChild(bait);
    const timer = setTimeout(
      () => {
        const style = getComputedStyle(bait);
        const detected = adblockDetected({ attached: bait.isConnected, height: bait.offsetHeight, display: style.display, visibility: style.visibility });
        bait.remove();
        if (detected) fire();
      },
      Math.max(100, ms(t.adblock_detection.delay)),
    );
    cleanups.push(() => {
      clearTimeout(timer);
      bait.remove();
    });
  }
  return () => cleanups.forEach((c) => c());
}

export default function PopupEngine({ popups, timeZone, focusDelayMs }: PopupPageData) {
  const [opened, setOpened] = useState<Opened[]>([]);
  /** The open popups as the handlers see them at once (the state follows for rendering). */
  const openedRef = useRef<Opened[]>([]);
  const setOpen = useCallback((list: Opened[]) => {
    openedRef.current = list;
    setOpened(list);
  }, []);
  /** §4 'Popups': the popups already opened on this page, and whether any has (the avoid_multiple_popups block). */
  const page = useRef({ openedHere: new Set<number>(), popped: false });

  const show = useCallback(
    (p: PagePopup, automatic: boolean) => {
      if (openedRef.current.some((o) => o.popup.id === p.id)) return;
      const { local, session } = stores();
      if (automatic) {
        if (page.current.openedHere.has(p.id) || isDisabled(local.value, p.id)) return;
        if (p.display.avoid_multiple_popups && page.current.popped) return;
        const failed = failedBrowserTiming(p.timing, {
          pageViews: pageViews(local.value),
          sessions: sessions(local.value),
          referrer: document.referrer,
          host: window.location.host,
          viewportWidth: window.innerWidth,
          userAgent: navigator.userAgent,
          now: new Date(),
          timeZone,
          impressions: impressions(local.value, session.value, p.id, periodOf(p), Date.now()),
        });
        if (failed) return;
      }
      page.current.openedHere.add(p.id);
      page.current.popped = true;
      if (countsOnOpen(p.timing.times)) addImpression(local.value, session.value, p.id, periodOf(p), Date.now());
      rememberShown(session.value, p.id, Date.now());
      local.save();
      session.save();
      reportPopupEvent(p.id, "impression");
      const opener = document.activeElement;
      setOpen([...openedRef.current, { popup: p, opener }]);
    },
    [timeZone, setOpen],
  );

  const close = useCallback(
    (id: number, doNotShowAgain: boolean) => {
      const item = openedRef.current.find((o) => o.popup.id === id);
      if (!item) return;
      const { local, session } = stores();
      if (!countsOnOpen(item.popup.timing.times)) addImpression(local.value, session.value, id, periodOf(item.popup), Date.now());
      if (doNotShowAgain) disable(local.value, id);
      local.save();
      session.save();
      reportPopupEvent(id, doNotShowAgain ? "do_not_show_again" : "close");
      setOpen(openedRef.current.filter((o) => o.popup.id !== id));
    },
    [setOpen],
  );

  // Triggers and open selectors, once per page (the engine is keyed by the location).
  useEffect(() => {
    const cleanups: (() => void)[] = [];
    for (const p of popups) {
      let fired = false;
      let stop = () => undefined as void;
      stop = wireTrigger(p, () => {
        if (fired) return;
        fired = true;
        stop();
        show(p, true);
      });
      cleanups.push(() => stop());
      const selector = p.display.open_selector.trim();
      if (selector) {
        const onClick = (e: MouseEvent) => {
          let hit: Element | null = null;
          try {
            hit = (e.target as Element | null)?.closest?.(selector) ?? null;
          } catch {
            hit = null;
          }
          if (!hit) return;
          e.preventDefault();
          show(p, false);
        };
        document.addEventListener("click", onClick);
        cleanups.push(() => document.removeEventListener("click", onClick));
      }
    }
    return () => cleanups.forEach((c) => c());
  }, [popups, show]);

  // The link actions' way in (bridge.ts), with what waited for the engine to load.
  useEffect(() => {
    const handle = {
      open(id: number, toggle: boolean) {
        const p = popups.find((x) => x.id === id);
        if (!p) return;
        if (toggle && openedRef.current.some((o) => o.popup.id === id)) close(id, false);
        else show(p, false);
      },
      close(from: Element | null, doNotShowAgain: boolean) {
        const holder = from?.closest("[data-popup-id]");
        const id = holder ? Number(holder.getAttribute("data-popup-id")) : openedRef.current.at(-1)?.popup.id;
        if (id !== undefined) close(id, doNotShowAgain);
      },
    };
    popupBridge.engine = handle;
    for (const run of popupBridge.pending.splice(0)) run(handle);
    // A mark for scripts and tests: the triggers are wired from here on.
    document.documentElement.setAttribute("data-popups-ready", "");
    return () => {
      if (popupBridge.engine === handle) popupBridge.engine = null;
      document.documentElement.removeAttribute("data-popups-ready");
    };
  }, [popups, show, close]);

  if (opened.length === 0) return null;
  return (
    <>
      <style>{POPUP_CSS}</style>
      {opened.map((o, i) => (
        <PopupDialog key={o.popup.id} popup={o.popup} opener={o.opener} top={i === opened.length - 1} focusDelayMs={focusDelayMs} onClose={close} />
      ))}
    </>
  );
}
