/**
 * The triggers' rules, pure (docs/contract/storefront.md §3 'Popup settings', §9 'Popups'): the browser code wires
 * them to events and timers. Delays and inactivity are in seconds, the scroll offset in percent.
 */
import type { PopupTriggers } from "./settings.ts";

type Trigger<K extends keyof PopupTriggers> = NonNullable<PopupTriggers[K]>;

export interface ScrollSample {
  /** scrollY now and at the previous scroll event. */
  y: number;
  lastY: number;
  documentHeight: number;
  viewportHeight: number;
}

/** Scrolling in the configured direction; down fires once the scrolled share of the page reaches the offset. */
export function scrollingFires(t: Trigger<"scrolling">, s: ScrollSample): boolean {
  if (s.y === s.lastY) return false;
  const direction = s.y > s.lastY ? "down" : "up";
  if (direction !== t.direction) return false;
  if (direction === "up") return true;
  const scrollable = s.documentHeight - s.viewportHeight;
  const percent = scrollable <= 0 ? 100 : (s.y / scrollable) * 100;
  return percent >= t.offset;
}

/** The click trigger fires on the configured click (the n-th anywhere on the page), once. */
export const clickFires = (t: Trigger<"click">, clicks: number) => clicks === t.times;

/** Exit intent: the pointer leaves the document through its top edge (towards the tabs and the address bar). */
export const exitIntentFires = (e: { clientY: number; leftDocument: boolean }) => e.leftDocument && e.clientY <= 0;

/** The adblock bait's id: 6 random characters (§9 'Popups'), from a [0, 1) random source. */
export function baitId(random: () => number): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz";
  let id = "";
  for (let i = 0; i < 6; i++) id += alphabet[Math.floor(random() * alphabet.length) % alphabet.length];
  return id;
}

/** The class names ad blockers' cosmetic filters hide. */
export const BAIT_CLASSES = "adsbox ad-banner ad-placement pub_300x250 text-ad textAd";

/** An ad blocker is at work when the bait was removed or hidden. */
export const adblockDetected = (bait: { attached: boolean; height: number; display: string; visibility: string }) =>
  !bait.attached || bait.height === 0 || bait.display === "none" || bait.visibility === "hidden";

/** Milliseconds from seconds, for timers (a delay of 0 still waits for the next task). */
export const ms = (seconds: number) => Math.max(0, Math.round(seconds * 1000));
