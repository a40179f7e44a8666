/**
 * The listing's price filter: the two-handle slider that replaces the min_price / max_price
 * inputs (docs/contract/storefront.md §2 'Price filter', §5 'Listings and popups'), and reading those values from an address.
 *
 * Slider values are in the shop's display units (whole dollars with the spec's 0 decimals);
 * the query values become integer cents for the server.
 */
import { parseMoney, type Cents } from "../money/money.ts";
import { DEFAULT_PRICE_STEP, PRICE_PAGE_STEPS } from "./settings.ts";

export interface PriceSliderBounds {
  readonly min: number;
  readonly max: number;
  /** Defaults to 1. */
  readonly step?: number;
}

export interface PriceRange {
  readonly from: number;
  readonly to: number;
}

export type PriceHandle = "from" | "to";

interface Bounds {
  min: number;
  max: number;
  step: number;
  decimals: number;
}

function decimalsOf(n: number): number {
  const text = String(n);
  if (text.includes("e-")) return Number(text.split("e-")[1]);
  const dot = text.indexOf(".");
  return dot === -1 ? 0 : text.length - dot - 1;
}

function roundTo(value: number, decimals: number): number {
  return Number(value.toFixed(Math.min(decimals, 20)));
}

/**
 * Makes any bounds usable: non-finite ends become 0, reversed ends are swapped, and a missing,
 * non-finite or non-positive step is 1. The top end is lowered to the last step it can reach,
 * as jQuery UI's slider does, so every value the slider reports is on a step.
 */
function normalizeBounds(bounds: PriceSliderBounds): Bounds {
  let min = Number.isFinite(bounds.min) ? bounds.min : 0;
  let max = Number.isFinite(bounds.max) ? bounds.max : 0;
  if (min > max) [min, max] = [max, min];
  const step = bounds.step !== undefined && Number.isFinite(bounds.step) && bounds.step > 0 ? bounds.step : DEFAULT_PRICE_STEP;
  const decimals = Math.max(decimalsOf(min), decimalsOf(step));
  // The epsilon keeps 0.3 / 0.1 from flooring to 2.
  const steps = Math.floor((max - min) / step + 1e-9);
  return { min, max: roundTo(min + steps * step, decimals), step, decimals };
}

/** Clamps to [min, max] and aligns to the nearest step counted from min (halves round up). */
export function alignPrice(value: number, bounds: PriceSliderBounds): number {
  const b = normalizeBounds(bounds);
  if (Number.isNaN(value)) return b.min;
  if (value <= b.min) return b.min;
  if (value >= b.max) return b.max;
  const aligned = b.min + Math.round((value - b.min) / b.step) * b.step;
  return roundTo(Math.min(Math.max(aligned, b.min), b.max), b.decimals);
}

/** Moves one handle; the handles can't cross (a handle stops at the other one). */
export function setPriceHandle(range: PriceRange, handle: PriceHandle, value: number, bounds: PriceSliderBounds): PriceRange {
  const current = normalizeRange(range, bounds);
  const aligned = alignPrice(value, bounds);
  return handle === "from" ? { from: Math.min(aligned, current.to), to: current.to } : { from: current.from, to: Math.max(aligned, current.from) };
}

/** Any range made valid: both ends aligned, from ≤ to (swapped when reversed). */
export function normalizeRange(range: PriceRange, bounds: PriceSliderBounds): PriceRange {
  const a = alignPrice(range.from, bounds);
  const b = alignPrice(range.to, bounds);
  return a <= b ? { from: a, to: b } : { from: b, to: a };
}

/**
 * A key pressed on a handle: arrows move one step (Left/Down lower, Right/Up higher),
 * PageDown/PageUp ten steps, Home/End to the lowest/highest place the handle may go.
 * Null for keys the slider does not handle (let the browser have them).
 */
export function priceSliderKey(range: PriceRange, handle: PriceHandle, key: string, bounds: PriceSliderBounds): PriceRange | null {
  const b = normalizeBounds(bounds);
  const current = normalizeRange(range, bounds);
  const value = current[handle];
  let target: number;
  switch (key) {
    case "ArrowLeft":
    case "ArrowDown":
      target = value - b.step;
      break;
    case "ArrowRight":
    case "ArrowUp":
      target = value + b.step;
      break;
    case "PageDown":
      target = value - b.step * PRICE_PAGE_STEPS;
      break;
    case "PageUp":
      target = value + b.step * PRICE_PAGE_STEPS;
      break;
    case "Home":
      target = b.min;
      break;
    case "End":
      target = b.max;
      break;
    default:
      return null;
  }
  return setPriceHandle(current, handle, target, bounds);
}

/** The slider's starting range: the address's values where given, else the bounds. */
export function initialPriceRange(bounds: PriceSliderBounds, query: { readonly min: number | null; readonly max: number | null }): PriceRange {
  const b = normalizeBounds(bounds);
  return normalizeRange({ from: query.min ?? b.min, to: query.max ?? b.max }, bounds);
}

export interface PriceFilterQuery {
  /** Lowest price in cents, or null for no lower bound. */
  readonly minCents: Cents | null;
  /** Highest price in cents, or null for no upper bound. */
  readonly maxCents: Cents | null;
}

/** A plain non-negative decimal with at most two decimals and a sane size. */
const PRICE_TEXT = /^[0-9]{1,9}(\.[0-9]{1,2})?$/;

/** One min_price / max_price value in cents; null when absent or not a plain amount. */
export function parsePriceValue(raw: string | null | undefined): Cents | null {
  if (raw === null || raw === undefined) return null;
  const text = raw.trim();
  if (!PRICE_TEXT.test(text)) return null;
  return parseMoney(text);
}

/**
 * Reads min_price / max_price from an address. Anything but a plain non-negative amount
 * ('abc', '-5', '1e3', '$10', '') is ignored as if absent. When min is above max the two
 * are swapped: someone typed the range backwards, and an empty listing would help nobody.
 */
export function parsePriceFilter(params: URLSearchParams): PriceFilterQuery {
  const min = parsePriceValue(params.get("min_price"));
  const max = parsePriceValue(params.get("max_price"));
  if (min !== null && max !== null && min > max) return { minCents: max, maxCents: min };
  return { minCents: min, maxCents: max };
}
