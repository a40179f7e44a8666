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
  el?.scrollIntoView({ block: "start", behavior: window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth" });
  return el;
}
