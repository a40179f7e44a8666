/**
 * The one date format people read: WooCommerce's default `F j, Y` ("November 24, 2026"), in a given
 * IANA time zone (UTC by default, which is the shop's configured zone). Pure: the instant is an argument.
 */
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"] as const;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "numeric", day: "numeric" });
    formatters.set(timeZone, f);
  }
  return f;
}

/** `F j, Y` of an instant (a Date or an ISO 8601 string) in `timeZone`; "" for an invalid instant. */
export function formatDate(instant: Date | string, timeZone = "UTC"): string {
  const date = typeof instant === "string" ? new Date(instant) : instant;
  if (Number.isNaN(date.getTime())) return "";
  const parts = formatterFor(timeZone).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)!.value);
  return `${MONTHS[part("month") - 1]} ${part("day")}, ${part("year")}`;
}
