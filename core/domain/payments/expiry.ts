import { PAYMENT_LIMITS } from "./limits.ts";
import { toAsciiDigits } from "./format.ts";

/** A calendar month. `month` is 1–12. The current month is always passed in: this module never reads a clock. */
export interface YearMonth {
  year: number;
  month: number;
}

/** The card expiry value (docs/contract/storefront.md §3): month and year as integers, the year expanded to four digits. */
export interface CardExpiry {
  month: number;
  year: number;
}

/** The month of a Date, in local time (browser) or UTC (server). */
export function yearMonthOf(date: Date, zone: "local" | "utc" = "local"): YearMonth {
  return zone === "utc" ? { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1 } : { year: date.getFullYear(), month: date.getMonth() + 1 };
}

/** A 2-digit year below 70 means 20xx, otherwise 19xx (docs/contract/storefront.md §5). Other years are returned unchanged. */
export function expandExpiryYear(year: number, digits: number): number {
  if (digits !== 2) return year;
  return year < PAYMENT_LIMITS.twoDigitYearPivot ? 2000 + year : 1900 + year;
}

/**
 * Parses an expiry field ('MM / YY', 'MM/YYYY', 'M / YY', full-width digits allowed) into month and year.
 * Returns null unless the month is 1–12 and the year has 2 or 4 digits. Whether it is in the past is
 * `isExpiryCurrent`'s concern.
 */
export function parseCardExpiry(value: string): CardExpiry | null {
  const [monthText = "", yearText = ""] = toAsciiDigits(value)
    .trim()
    .split(/[\s/]+/);
  if (!/^\d+$/.test(monthText) || !/^\d+$/.test(yearText)) return null;
  const month = Number(monthText);
  if (month < 1 || month > 12) return null;
  if (yearText.length !== 2 && yearText.length !== 4) return null;
  return { month, year: expandExpiryYear(Number(yearText), yearText.length) };
}

/** A card is usable through the end of its expiry month: not before the current month. */
export function isExpiryCurrent(expiry: CardExpiry, current: YearMonth): boolean {
  return expiry.year * 12 + expiry.month >= current.year * 12 + current.month;
}

/** The whole expiry rule of docs/contract/storefront.md §5: parses and is not before the current month. */
export function isValidExpiry(value: string, current: YearMonth): boolean {
  const expiry = parseCardExpiry(value);
  return expiry !== null && isExpiryCurrent(expiry, current);
}
