import { useEffect, useRef, type RefObject } from "react";
import type { Notice } from "../../../core/domain/notice.ts";
import { SITE_CONFIG } from "../../../core/config/site-config.ts";

/** Eases the window to `top` over `durationMs` (the spec's 1000 ms notice scroll). */
export function animateScrollTo(top: number, durationMs: number): void {
  const start = window.scrollY;
  const distance = Math.max(0, top) - start;
  if (distance === 0 || window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return void window.scrollTo(0, Math.max(0, top));
  const t0 = performance.now();
  const step = (t: number) => {
    const p = Math.min(1, (t - t0) / durationMs);
    const eased = p < 0.5 ? 2 * p * p : 1 - (-2 * p + 2) ** 2 / 2;
    window.scrollTo(0, start + distance * eased);
    if (p < 1) requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}

const CLASS: Record<Notice["type"], string> = { success: "woocommerce-message", error: "woocommerce-error", notice: "woocommerce-info" };

/**
 * The one way notices are revealed (docs/contract/storefront.md §2 'Notices', §9 'Timings'): the page scrolls to 100 px above the first
 * alert inside `container` over 1000 ms, and 500 ms after that starts the alert takes focus. Notice HTML sent by
 * the server has no tabindex, so one is given (-1: focusable from script, not a tab stop). Returns a cancel.
 */
export function revealNotices(container: HTMLElement | null): () => void {
  if (!container) return () => undefined;
  const t = SITE_CONFIG.timings;
  const first = () => (container.matches('[role="alert"]') ? container : container.querySelector<HTMLElement>('[role="alert"]'));
  const target = first() ?? container;
  animateScrollTo(target.getBoundingClientRect().top + window.scrollY - t.scrollToNoticesOffsetPx, t.scrollToNoticesMs);
  const timer = setTimeout(() => {
    const alert = first();
    if (!alert?.isConnected) return;
    if (!alert.hasAttribute("tabindex")) alert.tabIndex = -1;
    // The scroll above is still running: focusing must not jump the page.
    alert.focus({ preventScroll: true });
  }, t.focusFirstAlertMs);
  return () => clearTimeout(timer);
}

/** Reveals the notices inside `ref` whenever `trigger` changes to a new truthy value (a new error, a new list). */
export function useRevealNotices(ref: RefObject<HTMLElement | null>, trigger: unknown): void {
  useEffect(() => (trigger ? revealNotices(ref.current) : undefined), [ref, trigger]);
}

/** Message, error and notice banners (role alert), revealed on arrival by `revealNotices`. */
export function Notices({ notices }: { notices: Notice[] }) {
  const ref = useRef<HTMLDivElement>(null);
  useRevealNotices(ref, notices.length ? notices : null);
  return (
    <div className="woocommerce-notices-wrapper" ref={ref}>
      {notices.map((n, i) =>
        n.type === "error" ? (
          <ul key={i} className="woocommerce-error" role="alert" tabIndex={-1}>
            <li>{n.message}</li>
          </ul>
        ) : (
          <div key={i} className={CLASS[n.type]} role="alert" tabIndex={-1}>
            {n.message}
          </div>
        ),
      )}
    </div>
  );
}
