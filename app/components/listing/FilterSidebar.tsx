/**
 * The off-canvas shop filter sidebar (docs/contract/storefront.md §2): opened by the filter button, closed by a click
 * outside, its close button or Escape; focus is trapped while open and returned after.
 *
 * The server renders what the browser shows, the button and the closed panel, so hydration moves nothing (a panel
 * expanded on the server and collapsed after hydration shifted the whole grid). Without JavaScript the `<noscript>`
 * styles show the panel as an ordinary block of filters above the products instead of the button.
 */
import { closeAllOverlays, onCloseAllOverlays } from "../../lib/overlays.ts";
import { useEffect, useId, useRef, useState } from "react";
import { useHydrated } from "../../lib/use-hydrated.ts";

/** Without JavaScript: no button (it could not open anything), the panel as a block under the toolbar. */
const NO_SCRIPT_STYLES = [
  ".astra-shop-filter-button, .ast-shop-filter-close { display: none; }",
  ".listing-body > .listing-toolbar { grid-column: 1 / -1; grid-row: 2; position: static; }",
  "#astra-off-canvas-sidebar[hidden] { display: block; position: static; width: 100%; order: 1; box-shadow: none; z-index: auto; border: 1px solid var(--line); border-radius: var(--radius); padding: 12px 16px; }",
  "#astra-off-canvas-sidebar .widget-title button::after { content: none; }",
].join("\n");

export function FilterSidebar({ children }: { children: React.ReactNode }) {
  const enhanced = useHydrated();
  const [open, setOpen] = useState(false);
  const panel = useRef<HTMLElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const titleId = useId();

  useEffect(() => {
    if (!open) return;
    const el = panel.current!;
    const back = opener.current;
    const focusables = () =>
      [...el.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), input:not([type="hidden"]):not([disabled]), select, [tabindex="0"]')].filter(
        (n) => n.offsetParent !== null || n === document.activeElement,
      );
    focusables()[0]?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        setOpen(false);
      } else if (e.key === "Tab") {
        const list = focusables();
        if (!list.length) return;
        const first = list[0]!;
        const last = list[list.length - 1]!;
        if (e.shiftKey && (document.activeElement === first || !el.contains(document.activeElement))) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && (document.activeElement === last || !el.contains(document.activeElement))) {
          e.preventDefault();
          first.focus();
        }
      }
    };
    // A click outside the panel (on the overlay) closes it; the keyboard's way out is Escape or the close button.
    const onClick = (e: MouseEvent) => {
      if (!e.composedPath().includes(el)) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("click", onClick);
    document.body.classList.add("ast-off-canvas-active");
    const stopOverlays = onCloseAllOverlays(() => setOpen(false));
    return () => {
      stopOverlays();
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("click", onClick);
      document.body.classList.remove("ast-off-canvas-active");
      back?.focus();
    };
  }, [open]);

  return (
    <>
      <noscript>
        <style>{NO_SCRIPT_STYLES}</style>
      </noscript>
      <button
        type="button"
        ref={opener}
        className="astra-shop-filter-button button"
        aria-expanded={open}
        aria-controls="astra-off-canvas-sidebar"
        data-hydrated={enhanced ? "1" : undefined}
        onClick={() => {
          closeAllOverlays();
          setOpen(true);
        }}
      >
        <span aria-hidden="true">☰ </span>Filter
      </button>
      {open ? <div className="astra-off-canvas-overlay" data-testid="off-canvas-overlay" /> : null}
      <aside
        id="astra-off-canvas-sidebar"
        ref={panel}
        className={`astra-off-canvas-sidebar-wrapper off-canvas${open ? " is-open" : ""}`}
        role="dialog"
        aria-modal={open ? true : undefined}
        aria-labelledby={titleId}
        hidden={!open}
      >
        <div className="astra-off-canvas-sidebar">
          <div className="off-canvas-head">
            <h2 id={titleId} className="off-canvas-title">
              Filter products
            </h2>
            <button type="button" className="ast-shop-filter-close" aria-label="Close filters" onClick={() => setOpen(false)}>
              ×
            </button>
          </div>
          {children}
        </div>
      </aside>
    </>
  );
}

/** One filter widget; the accordion layout folds its body behind its heading. */
export function FilterWidget({ title, children, defaultOpen = true }: { title: string; children: React.ReactNode; defaultOpen?: boolean }) {
  const [open, setOpen] = useState(defaultOpen);
  const id = useId();
  return (
    <section className={`widget ast-filter-accordion${open ? " is-open" : ""}`}>
      <h3 className="widget-title">
        <button type="button" aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)}>
          {title}
        </button>
      </h3>
      <div id={id} className="widget-body" hidden={!open}>
        {children}
      </div>
    </section>
  );
}
