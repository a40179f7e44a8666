/**
 * Field descriptions (docs/contract/storefront.md §2 'Field descriptions', §4 'Banners and fields'): a form field's
 * `.description` (named by the field's aria-describedby) slides open when the field is focused or clicked, and
 * closes on a click outside, on Escape, or when another field gets focus. One listener set on the document serves
 * every form, present or future. Screen readers hear the description through aria-describedby either way; without
 * JavaScript the descriptions simply stay open (a <noscript> style in the root).
 */

const OPEN = "is-open";

function descriptionsOf(field: Element): HTMLElement[] {
  const ids = field.getAttribute("aria-describedby")?.split(/\s+/).filter(Boolean) ?? [];
  return ids.map((id) => document.getElementById(id)).filter((el): el is HTMLElement => el !== null && el.classList.contains("description"));
}

function isField(el: EventTarget | null): el is HTMLElement {
  return el instanceof HTMLElement && el.matches("input, select, textarea");
}

/** Installs the behaviour; returns the function that removes it. */
export function installFieldDescriptions(slideMs: number): () => void {
  document.documentElement.style.setProperty("--field-description-slide", `${slideMs}ms`);
  let open: HTMLElement[] = [];
  const closeAll = () => {
    for (const el of open) el.classList.remove(OPEN);
    open = [];
  };
  const openFor = (field: HTMLElement) => {
    const next = descriptionsOf(field);
    for (const el of open) if (!next.includes(el)) el.classList.remove(OPEN);
    for (const el of next) el.classList.add(OPEN);
    open = next;
  };
  const onFocusIn = (e: FocusEvent) => {
    if (isField(e.target)) openFor(e.target);
    else if (!open.some((el) => el.contains(e.target as Node))) closeAll();
  };
  const onClick = (e: MouseEvent) => {
    const target = e.target as Element | null;
    if (isField(target)) return openFor(target);
    // A click on a description itself (e.g. a link in it) keeps it open; anywhere else closes.
    if (!open.some((el) => el.contains(target))) closeAll();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Escape" && open.length) closeAll();
  };
  document.addEventListener("focusin", onFocusIn);
  document.addEventListener("click", onClick);
  document.addEventListener("keydown", onKeyDown);
  return () => {
    document.removeEventListener("focusin", onFocusIn);
    document.removeEventListener("click", onClick);
    document.removeEventListener("keydown", onKeyDown);
  };
}
