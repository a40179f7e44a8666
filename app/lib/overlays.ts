/**
 * "Escape closes every overlay" (docs/contract/search-overlay.md 'Closing overlays'): one document event that every
 * overlay (search, menus, drawers, popups) listens to and closes on. An overlay that opens asks the others to close
 * first; Escape pressed anywhere (and not already handled, e.g. by a combobox collapsing its list) closes them all.
 */
export const CLOSE_OVERLAYS_EVENT = "shop:close-overlays";

export function closeAllOverlays(): void {
  document.dispatchEvent(new CustomEvent(CLOSE_OVERLAYS_EVENT));
}

/** Calls `close` whenever all overlays are asked to close; returns the function that stops listening. */
export function onCloseAllOverlays(close: () => void): () => void {
  document.addEventListener(CLOSE_OVERLAYS_EVENT, close);
  return () => document.removeEventListener(CLOSE_OVERLAYS_EVENT, close);
}

let escapeInstalled = false;

/** Once per page: Escape that no widget handled (preventDefault) closes every overlay. */
export function installEscapeClosesOverlays(): void {
  if (escapeInstalled) return;
  escapeInstalled = true;
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !event.defaultPrevented) closeAllOverlays();
  });
}
