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

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
const pad = (n: number) => String(n).padStart(2, "0");
const ordinal = (d: number) => (d % 10 === 1 && d !== 11 ? "st" : d % 10 === 2 && d !== 12 ? "nd" : d % 10 === 3 && d !== 13 ? "rd" : "th");

/**
 * An instant in WordPress's `date_format` / `time_format` language (PHP's date(): `F j, Y`, `d/m/Y`, `g:i a` …), in
 * `timeZone`. The common letters are understood, `\` escapes one; any other character is printed as it is.
 */
export function formatPhpDate(instant: Date | string, format: string, timeZone = "UTC"): string {
  const date = typeof instant === "string" ? new Date(instant) : instant;
  if (Number.isNaN(date.getTime())) return "";
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    })
      .formatToParts(date)
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<"year" | "month" | "day" | "hour" | "minute" | "second", number>;
  const { year, month, day, hour, minute, second } = parts;
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  const hour12 = hour % 12 || 12;
  const out: string[] = [];
  for (let i = 0; i < format.length; i++) {
    const c = format[i]!;
    const value: Record<string, () => string> = {
      d: () => pad(day),
      D: () => DAYS[weekday]!.slice(0, 3),
      j: () => String(day),
      l: () => DAYS[weekday]!,
      N: () => String(weekday || 7),
      S: () => ordinal(day),
      w: () => String(weekday),
      F: () => MONTHS[month - 1]!,
      m: () => pad(month),
      M: () => MONTHS[month - 1]!.slice(0, 3),
      n: () => String(month),
      Y: () => String(year),
      y: () => pad(year % 100),
      a: () => (hour < 12 ? "am" : "pm"),
      A: () => (hour < 12 ? "AM" : "PM"),
      g: () => String(hour12),
      G: () => String(hour),
      h: () => pad(hour12),
      H: () => pad(hour),
      i: () => pad(minute),
      s: () => pad(second),
      e: () => timeZone,
    };
    if (c === "\\" && i + 1 < format.length) out.push(format[++i]!);
    else out.push(value[c]?.() ?? c);
  }
  return out.join("");
}
