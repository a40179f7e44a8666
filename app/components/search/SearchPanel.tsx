/**
 * The search overlay itself, loaded on demand by SearchOverlay.tsx (docs/contract/search-overlay.md): a search form
 * over the header ('header cover') or over the whole page ('full-screen') that fades in, takes focus after the
 * configured delay, and shows results as you type as a WAI-ARIA combobox with a listbox (APG 'Combobox with List
 * Autocomplete'). Without the suggest endpoint (a 404) it stays the plain GET form of the results page.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { createPortal } from "react-dom";
import { onCloseAllOverlays } from "../../lib/overlays.ts";
import { searchResultsHref, suggestUrl } from "./search-urls.ts";
import type { SearchOverlaySettings } from "./SearchOverlay.tsx";

export interface SearchPanelProps {
  settings: SearchOverlaySettings;
  /** `returnFocus`: put focus back on the search icon (the overlay had it). */
  onClose(returnFocus: boolean): void;
}

/** One row of GET shop/v1/search/suggest (docs/contract/search-overlay.md 'Suggestions'). */
interface Suggestion {
  id: number;
  name: string;
  permalink: string;
  price_html: string;
  /** The image's address; its alt text is not needed (the option's text names the product). */
  image: string | null;
}

/** `image` as the endpoint sends it, `{src, alt}` or null (a bare address is taken too). */
function imageSrc(image: unknown): string | null {
  if (typeof image === "string") return image || null;
  if (typeof image === "object" && image !== null && typeof (image as { src?: unknown }).src === "string") return (image as { src: string }).src || null;
  return null;
}

/** The answer's rows that have what a row needs; anything else is not a list of suggestions (null). */
function parseSuggestions(data: unknown): Suggestion[] | null {
  if (!Array.isArray(data)) return null;
  return data.flatMap((row: unknown) => {
    if (typeof row !== "object" || row === null) return [];
    const r = row as Record<string, unknown>;
    if (typeof r.id !== "number" || typeof r.name !== "string" || typeof r.permalink !== "string") return [];
    return [
      {
        id: r.id,
        name: r.name,
        permalink: r.permalink,
        price_html: typeof r.price_html === "string" ? r.price_html : "",
        image: imageSrc(r.image),
      },
    ];
  });
}

const countText = (n: number) => (n === 0 ? "No results" : n === 1 ? "1 result" : `${n} results`);

const FOCUSABLE = "input:not([type=hidden]), button, a[href]";

export default function SearchPanel({ settings, onClose }: SearchPanelProps) {
  const fullScreen = settings.boxType === "full-screen";
  const base = useId().replace(/:/g, "");
  const inputId = `${base}-field`;
  const listId = `${base}-results`;
  const optionId = (i: number) => `${base}-option-${i}`;
  const dialog = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [shown, setShown] = useState(false);
  const [term, setTerm] = useState("");
  const [results, setResults] = useState<Suggestion[] | null>(null);
  const [expanded, setExpanded] = useState(false);
  const [active, setActive] = useState(-1);
  const [status, setStatus] = useState("");
  // The latest request: an older answer (its number no longer current) is dropped even if it was not aborted in time.
  const latest = useRef(0);
  const inFlight = useRef<AbortController | null>(null);
  const debounce = useRef<number | undefined>(undefined);
  const endpointMissing = useRef(false);

  // Fade in (CSS, none under prefers-reduced-motion), then focus the field after the spec's delay.
  useEffect(() => {
    const frame = requestAnimationFrame(() => setShown(true));
    const focus = window.setTimeout(() => input.current?.focus(), settings.focusDelayMs);
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(focus);
      window.clearTimeout(debounce.current);
      inFlight.current?.abort();
    };
  }, [settings.focusDelayMs]);

  // Escape anywhere, or another overlay opening, closes this one; focus goes back to the icon if it was in here.
  useEffect(
    () =>
      onCloseAllOverlays(() => {
        const focused = document.activeElement;
        onClose(!focused || focused === document.body || (dialog.current?.contains(focused) ?? false));
      }),
    [onClose],
  );

  // The full-screen form is modal: the page behind it does not scroll.
  useEffect(() => {
    if (!fullScreen) return;
    const root = document.documentElement;
    const before = root.style.overflow;
    root.style.overflow = "hidden";
    return () => void (root.style.overflow = before);
  }, [fullScreen]);

  useEffect(() => {
    if (active >= 0) document.getElementById(optionId(active))?.scrollIntoView({ block: "nearest" });
    // optionId depends on `base` only, which never changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active]);

  const collapse = () => {
    setExpanded(false);
    setActive(-1);
  };

  const ask = (q: string) => {
    const mine = latest.current;
    if (endpointMissing.current || q.length < settings.minChars) {
      setResults(null);
      setStatus("");
      collapse();
      return;
    }
    const controller = new AbortController();
    inFlight.current = controller;
    fetch(suggestUrl(q, settings.suggestLimit), { signal: controller.signal, headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(async (res) => {
        // No suggest endpoint on this server: the overlay stays the plain search form.
        if (res.status === 404) endpointMissing.current = true;
        const rows = res.ok ? parseSuggestions(await res.json()) : null;
        if (mine !== latest.current || !rows) return;
        setResults(rows);
        setExpanded(true);
        setActive(-1);
        setStatus(countText(rows.length));
      })
      .catch(() => undefined); // aborted (a newer keystroke) or offline: the form still submits
  };

  const onChange = (value: string) => {
    setTerm(value);
    // Whatever was asked before is stale now: cancel it, and ignore it should it answer anyway.
    latest.current += 1;
    inFlight.current?.abort();
    window.clearTimeout(debounce.current);
    debounce.current = window.setTimeout(() => ask(value.trim()), settings.debounceMs);
  };

  const rows = results ?? [];
  const optionCount = rows.length + 1; // the results, then "See all results"
  const hrefOf = (i: number) => (i < rows.length ? rows[i]!.permalink : searchResultsHref(term.trim()));
  const go = (i: number) => window.location.assign(hrefOf(i));

  const onFieldKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (!results) return;
      event.preventDefault();
      const down = event.key === "ArrowDown";
      if (!expanded) {
        setExpanded(true);
        setActive(down ? 0 : optionCount - 1);
        return;
      }
      setActive((a) => (down ? (a + 1) % optionCount : a <= 0 ? optionCount - 1 : a - 1));
    } else if (event.key === "Enter" && expanded && active >= 0) {
      event.preventDefault();
      go(active);
    } else if (event.key === "Escape" && expanded) {
      // The first Escape only closes the list (handled: the overlays stay open); the next one closes the overlay.
      event.preventDefault();
      collapse();
    }
  };

  // Tab and Shift+Tab stay inside the overlay while it is open.
  const trapTab = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== "Tab" || !dialog.current) return;
    const focusable = [...dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const panel = (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- a dialog keeps Tab inside itself (APG dialog pattern)
    <div
      ref={dialog}
      className={`search-overlay search-overlay--${fullScreen ? "full-screen" : "cover"}${shown ? " is-shown" : ""}`}
      role="dialog"
      aria-modal={fullScreen || undefined}
      aria-labelledby={`${base}-title`}
      style={{ ["--search-fade" as string]: `${settings.fadeMs}ms` }}
      onKeyDown={trapTab}
    >
      <div className="search-overlay__inner container">
        <form className="search-overlay__form" role="search" action="/" method="get">
          <label id={`${base}-title`} className={fullScreen ? "search-overlay__title" : "screen-reader-text"} htmlFor={inputId}>
            Search products
          </label>
          <div className="search-overlay__field">
            <input
              ref={input}
              id={inputId}
              type="search"
              name="s"
              role="combobox"
              aria-autocomplete="list"
              aria-expanded={expanded}
              aria-controls={listId}
              aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
              autoComplete="off"
              placeholder="Search products…"
              maxLength={100}
              value={term}
              onChange={(e) => onChange(e.target.value)}
              onKeyDown={onFieldKeyDown}
            />
            <input type="hidden" name="post_type" value="product" />
            <button type="submit" className="search-overlay__submit">
              Search
            </button>
            <ul id={listId} role="listbox" aria-label="Products" className="search-overlay__results" hidden={!expanded}>
              {rows.map((r, i) => (
                // eslint-disable-next-line jsx-a11y/click-events-have-key-events -- the keys are the combobox's (aria-activedescendant)
                <li
                  key={r.id}
                  id={optionId(i)}
                  role="option"
                  aria-selected={i === active}
                  className="search-overlay__option"
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => go(i)}
                >
                  {r.image ? <img src={r.image} alt="" width={48} height={48} loading="lazy" /> : <span className="search-overlay__thumb" aria-hidden="true" />}
                  <span className="search-overlay__name">{r.name}</span>
                  {/* The shop's own price HTML (WooCommerce's price_html), as the product cards print it. */}
                  <span className="search-overlay__price" dangerouslySetInnerHTML={{ __html: r.price_html }} />
                </li>
              ))}
              {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events -- the keys are the combobox's (aria-activedescendant) */}
              <li
                id={optionId(rows.length)}
                role="option"
                aria-selected={active === rows.length}
                className="search-overlay__option search-overlay__all"
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => go(rows.length)}
              >
                See all results for “{term.trim()}”
              </li>
            </ul>
          </div>
        </form>
        <button type="button" className="search-overlay__close" aria-label="Close search" onClick={() => onClose(true)}>
          <span aria-hidden="true">×</span>
        </button>
        <div className="screen-reader-text" role="status" aria-live="polite">
          {status}
        </div>
      </div>
    </div>
  );
  return createPortal(panel, (!fullScreen && document.getElementById("masthead")) || document.body);
}
