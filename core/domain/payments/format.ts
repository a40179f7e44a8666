/**
 * Input formatting (docs/contract/storefront.md §5 'Input formatting'): what the browser writes back into the fields as the shopper
 * types or pastes. Pure string → string functions.
 */
import { detectCardType, maxCardNumberLength } from "./card-types.ts";
import { PAYMENT_LIMITS } from "./limits.ts";

/** Full-width digits (U+FF10–U+FF19, as typed with an East Asian IME) become ASCII digits. */
export function toAsciiDigits(value: string): string {
  return value.replace(/[\uFF10-\uFF19]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xff10 + 48));
}

/**
 * Card number display: digits only, capped at the detected type's maximum length (16 when unknown), grouped in
 * fours — amex 4-6-5, dinersclub 4-6-4.
 */
export function formatCardNumber(value: string): string {
  const all = toAsciiDigits(value).replace(/\D/g, "");
  const type = detectCardType(all);
  const digits = all.slice(0, maxCardNumberLength(type));
  const groups = type?.groups ?? [4, 4, 4, 4, 4];
  const parts: string[] = [];
  let at = 0;
  for (let g = 0; at < digits.length; g++) {
    // The last declared group takes the rest, so a 19-digit maestro reads '6759 6498 2643 8453 123'.
    const size = g < groups.length - 1 ? groups[g]! : digits.length - at;
    parts.push(digits.slice(at, at + size));
    at += size;
  }
  return parts.join(" ");
}

/**
 * Expiry display 'MM / YY' (or 'MM / YYYY'). A single digit 2–9 becomes '0d / '; two digits become 'MM / '
 * ('13'–'19' become '01 / 3'–'01 / 9'); at most 6 digits are kept. A value ending in ' /' (the shopper deleting the separator) drops back to the
 * first month digit, so backspace works.
 */
export function formatExpiry(value: string): string {
  const ascii = toAsciiDigits(value);
  const match = /^\D*(\d{1,2})(\D+)?(\d{1,4})?/.exec(ascii);
  if (!match) return "";
  // '13'…'19' typed as the first two digits cannot be a month: the shopper meant '01 / 3'…'01 / 9'.
  if (/^1[3-9]$/.test(ascii.trim())) return `01 / ${ascii.trim()[1]}`;
  let month = match[1] ?? "";
  let separator = match[2] ?? "";
  let year = match[3] ?? "";
  const maxYear = PAYMENT_LIMITS.expiryMaxDigits - month.length;
  year = year.slice(0, Math.max(0, maxYear));
  if (year.length > 0) {
    separator = " / ";
  } else if (separator === " /") {
    month = month.slice(0, 1);
    separator = "";
  } else if (month.length === 2 || separator.length > 0) {
    separator = " / ";
  } else if (month.length === 1 && month !== "0" && month !== "1") {
    month = `0${month}`;
    separator = " / ";
  }
  // A lone month digit typed after a separator ('1 / ') is padded so the value still reads 'MM / '.
  if (separator === " / " && month.length === 1) month = `0${month}`;
  return month + separator + year;
}

/** CSC: digits only, at most 4. */
export function formatCsc(value: string): string {
  return toAsciiDigits(value).replace(/\D/g, "").slice(0, PAYMENT_LIMITS.cscMaxLength);
}
