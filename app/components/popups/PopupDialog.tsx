/**
 * One open popup: a modal dialog (role="dialog", aria-modal, labelled by its heading) with the §3 'Popup settings'
 * display options: close button inside or outside and its delay, closing automatically, Escape and background clicks
 * (each may be prevented), page scroll locking, entrance and exit animations (none under prefers-reduced-motion) and
 * a11y navigation (focus moves in after the §9 popup focus delay, stays inside, and returns to the opener on close).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { PagePopup } from "../../../core/domain/popups/settings.ts";
import { ms } from "../../../core/domain/popups/triggers.ts";

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

const reducedMotion = () => typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

export function PopupDialog({
  popup,
  opener,
  top,
  focusDelayMs,
  onClose,
}: {
  popup: PagePopup;
  opener: Element | null;
  top: boolean;
  focusDelayMs: number;
  onClose(id: number, doNotShowAgain: boolean): void;
}) {
  const d = popup.display;
  const dialog = useRef<HTMLDivElement>(null);
  const [closeVisible, setCloseVisible] = useState(d.close_button_delay === 0);
  const [leaving, setLeaving] = useState(false);
  const leavingRef = useRef(false);
  const titleId = `shop-popup-${popup.id}-title`;
  const duration = reducedMotion() ? 0 : ms(d.entrance_animation_duration);

  /** Plays the exit animation, then hands the close to the engine. */
  const requestClose = useCallback(
    (doNotShowAgain: boolean) => {
      if (leavingRef.current) return;
      leavingRef.current = true;
      setLeaving(true);
      setTimeout(() => onClose(popup.id, doNotShowAgain), d.exit_animation === "none" ? 0 : duration);
    },
    [d.exit_animation, duration, onClose, popup.id],
  );

  useEffect(() => {
    const timers: ReturnType<typeof setTimeout>[] = [];
    if (d.close_button_delay > 0) timers.push(setTimeout(() => setCloseVisible(true), ms(d.close_button_delay)));
    if (d.close_automatically > 0) timers.push(setTimeout(() => requestClose(false), ms(d.close_automatically)));
    if (d.a11y_navigation) {
      timers.push(
        setTimeout(() => {
          const el = dialog.current;
          if (!el || el.contains(document.activeElement)) return;
          const first = [...el.querySelectorAll<HTMLElement>(FOCUSABLE)].find((n) => !n.closest(".shop-popup-close[hidden]"));
          (first ?? el).focus();
        }, focusDelayMs),
      );
    }
    return () => timers.forEach(clearTimeout);
  }, [d.close_button_delay, d.close_automatically, d.a11y_navigation, focusDelayMs, requestClose]);

  // Scroll lock while open (a class on <html>, counted so two popups unlock once both are gone).
  useEffect(() => {
    if (!d.prevent_scroll) return;
    const root = document.documentElement;
    const n = Number(root.dataset.popupScrollLocks ?? 0) + 1;
    root.dataset.popupScrollLocks = String(n);
    root.classList.add("shop-popup-no-scroll");
    return () => {
      const left = Number(root.dataset.popupScrollLocks ?? 1) - 1;
      root.dataset.popupScrollLocks = String(left);
      if (left <= 0) root.classList.remove("shop-popup-no-scroll");
    };
  }, [d.prevent_scroll]);

  // Escape and the focus trap: the top popup only.
  useEffect(() => {
    if (!top) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        if (!d.prevent_close_on_esc_key) {
          e.preventDefault();
          requestClose(false);
        }
        return;
      }
      if (e.key !== "Tab" || !d.a11y_navigation || !dialog.current) return;
      const items = [...dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((n) => !n.hidden && n.offsetParent !== null);
      if (items.length === 0) {
        e.preventDefault();
        dialog.current.focus();
        return;
      }
      const first = items[0]!;
      const last = items[items.length - 1]!;
      const active = document.activeElement;
      if (e.shiftKey && (active === first || !dialog.current.contains(active))) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (active === last || !dialog.current.contains(active))) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [top, d.prevent_close_on_esc_key, d.a11y_navigation, requestClose]);

  // Focus goes back to what opened the popup.
  useEffect(
    () => () => {
      if (d.a11y_navigation && opener instanceof HTMLElement && opener.isConnected) opener.focus();
    },
    [d.a11y_navigation, opener],
  );

  const c = popup.content;
  const animation = leaving ? d.exit_animation : d.entrance_animation;
  const closeButton = (
    <button
      type="button"
      className={`shop-popup-close shop-popup-close--${d.close_button_position}`}
      aria-label="Close"
      hidden={!closeVisible}
      onClick={() => requestClose(false)}
    >
      ×
    </button>
  );
  return (
    // The background closes on a click; the keyboard's way is Escape (handled on the document above).
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions
    <div
      className={`shop-popup-modal${leaving ? " is-leaving" : ""}`}
      data-popup-id={popup.id}
      onClick={(e) => {
        if (e.target === e.currentTarget && !d.prevent_close_on_background_click) requestClose(false);
      }}
    >
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`shop-popup shop-popup--close-${d.close_button_position} shop-popup-anim-${animation}`}
        style={{ maxWidth: d.width, animationDuration: `${duration}ms` }}
      >
        {closeButton}
        <div className="shop-popup-body">
          <h2 id={titleId}>{c.heading}</h2>
          {c.image ? <img src={c.image.src} alt={c.image.alt} /> : null}
          {c.text.map((t, i) => (
            <p key={i}>{t}</p>
          ))}
          {c.signup ? (
            // A plain form (no JavaScript needed): the route stores the address and comes back here with a notice.
            <form className="shop-popup-signup" method="post" action="/newsletter/">
              <label htmlFor={`${titleId}-email`}>{c.signup.label}</label>
              <input id={`${titleId}-email`} type="email" name="email" required autoComplete="email" />
              <input type="hidden" name="source" value={`popup:${popup.id}`} />
              <input type="hidden" name="redirect_to" value={window.location.pathname + window.location.search} />
              <button type="submit" className="button">
                {c.signup.button}
              </button>
            </form>
          ) : null}
          {c.cta || c.dismiss ? (
            <p className="shop-popup-actions">
              {c.cta ? (
                <a className="button" href={c.cta.href}>
                  {c.cta.label}
                </a>
              ) : null}
              {c.dismiss ? (
                <a className="shop-popup-dismiss" href={c.dismiss.do_not_show_again ? "#popup:close:do_not_show_again" : "#popup:close"}>
                  {c.dismiss.label}
                </a>
              ) : null}
            </p>
          ) : null}
        </div>
      </div>
    </div>
  );
}
