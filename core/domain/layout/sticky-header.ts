/**
 * The sticky header's state as a pure rule (docs/contract/sticky-quick-view.md §1): given the mode for the device,
 * the header's height (the threshold) and the scroll position, whether the header is active (fixed at the top) or
 * released (in the page's flow), and for hide-on-scroll whether it is hidden. The browser half only measures and
 * applies classes (app/components/chrome/sticky-header.client.ts).
 */

export const STICKY_MODES = ["none", "slide", "fade", "hide-on-scroll", "shrink"] as const;
export type StickyMode = (typeof STICKY_MODES)[number];

export interface StickyState {
  active: boolean;
  /** hide-on-scroll only: the header is active but moved out of view (the shopper scrolls down). */
  hidden: boolean;
  /** The scroll position the last hide/show decision was taken at (the delta is measured from it). */
  anchorY: number;
}

export const RELEASED: StickyState = { active: false, hidden: false, anchorY: 0 };

/** An unknown mode (a hand-edited setting) is 'none': the header simply stays in the flow. */
export function stickyMode(value: unknown): StickyMode {
  return STICKY_MODES.includes(value as StickyMode) ? (value as StickyMode) : "none";
}

/** SHOP_SETTINGS' mistakes in the stickyHeader section, each naming its setting (a typo fails at start-up). */
export function stickyHeaderSettingsErrors(settings: { desktop: string; mobile: string; scrollDelta: number; reevaluateMs: number }): string[] {
  const errors: string[] = [];
  for (const device of ["desktop", "mobile"] as const)
    if (!STICKY_MODES.includes(settings[device] as StickyMode)) errors.push(`stickyHeader.${device} must be one of ${STICKY_MODES.join(", ")}`);
  if (!(settings.scrollDelta >= 0)) errors.push("stickyHeader.scrollDelta must be 0 or more");
  if (!(settings.reevaluateMs >= 0)) errors.push("stickyHeader.reevaluateMs must be 0 or more");
  return errors;
}

/** Desktop above the break point (docs/contract/storefront.md §9 'Layout': 921 px), mobile at or below it. */
export function stickyDevice(viewportWidth: number, breakPoint: number): "desktop" | "mobile" {
  return viewportWidth > breakPoint ? "desktop" : "mobile";
}

/**
 * The next state after a scroll to `scrollY`. Active once the page has scrolled past `threshold` (the header's
 * height, so the in-flow header has just left the viewport when the fixed one appears), released at or above it.
 * hide-on-scroll: while active, a move down of more than `delta` px hides it, a move up of more than `delta` shows it;
 * smaller moves change nothing (trackpad jitter).
 */
export function nextStickyState(prev: StickyState, input: { mode: StickyMode; scrollY: number; threshold: number; delta: number }): StickyState {
  const { mode, scrollY, threshold, delta } = input;
  if (mode === "none" || scrollY <= threshold) return { active: false, hidden: false, anchorY: scrollY };
  if (mode !== "hide-on-scroll") return { active: true, hidden: false, anchorY: scrollY };
  if (!prev.active) return { active: true, hidden: scrollY > prev.anchorY, anchorY: scrollY };
  const moved = scrollY - prev.anchorY;
  if (Math.abs(moved) <= delta) return prev;
  return { active: true, hidden: moved > 0, anchorY: scrollY };
}
