/**
 * The ids of the theme's templates (as Elementor's theme-builder posts have ids), printed as data-elementor-id on
 * each template's element, and the ?theme_template_id={id} scroll (docs/contract/storefront.md §2 Routes).
 */
export const THEME_TEMPLATES = { header: 101, footer: 102, productArchive: 103, singleProduct: 104, singlePost: 105 } as const;

/** On load: scroll to the element of the template the address names; an id that is not a number, or not on the page, does nothing. */
export function scrollToThemeTemplate(search: string): HTMLElement | null {
  const id = new URLSearchParams(search).get("theme_template_id");
  if (id === null || !/^\d{1,10}$/.test(id)) return null;
  const el = document.querySelector<HTMLElement>(`[data-elementor-id="${id}"]`);
  if (!el) return null;
  el.scrollIntoView({ block: "start", behavior: window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth" });
  // A smooth scroll aims where the element was when it began; content above that settles meanwhile (hydration hides
  // the no-JavaScript parts) moves the element, so once the scroll ends it is aligned again, unless the visitor has
  // scrolled or typed in between (then the page is theirs).
  let moved = false;
  const mine = () => (moved = true);
  const inputs = ["wheel", "touchstart", "keydown", "pointerdown"] as const;
  for (const type of inputs) window.addEventListener(type, mine, { once: true, passive: true });
  window.addEventListener(
    "scrollend",
    () => {
      for (const type of inputs) window.removeEventListener(type, mine);
      if (!moved) el.scrollIntoView({ block: "start", behavior: "auto" });
    },
    { once: true },
  );
  return el;
}
