import { useEffect, useRef } from "react";
import type { Notice } from "../../../core/db/repositories/sessions.ts";
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
 * Message, error and notice banners (role alert). On arrival the page scrolls to
 * 100 px above them over 1000 ms and focuses the first alert after 500 ms.
 */
export function Notices({ notices }: { notices: Notice[] }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || notices.length === 0) return;
    const t = SITE_CONFIG.timings;
    animateScrollTo(el.getBoundingClientRect().top + window.scrollY - t.scrollToNoticesOffsetPx, t.scrollToNoticesMs);
    const timer = setTimeout(() => el.querySelector<HTMLElement>('[role="alert"]')?.focus(), t.focusFirstAlertMs);
    return () => clearTimeout(timer);
  }, [notices]);
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
