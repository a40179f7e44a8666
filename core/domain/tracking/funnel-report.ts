/**
 * The funnel report's query and answer (docs/contract/wire.md §6.3), pure: the period (WooCommerce Analytics'
 * period names, or explicit `after` / `before` days), the filters, and the rates. Days are UTC.
 */

export const FUNNEL_PERIODS = ["today", "yesterday", "week", "last_week", "month", "last_month", "quarter", "last_quarter", "year", "last_year"] as const;
export type FunnelPeriod = (typeof FUNNEL_PERIODS)[number];

export const FUNNEL_REPORT_LIMITS = { maxDays: 731, perPageMax: 100, perPageDefault: 25, filterMaxLength: 100 } as const;

export interface FunnelQuery {
  after: string;
  before: string;
  source?: string;
  medium?: string;
  campaign?: string;
  perPage: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const iso = (d: Date) => d.toISOString().slice(0, 10);
const utc = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d));

function validDay(s: string): boolean {
  return DAY.test(s) && iso(new Date(`${s}T00:00:00Z`)) === s;
}

/** The first and last day of a named period that contains (or, for `last_*`, precedes) `today`. */
export function periodRange(period: FunnelPeriod, today: Date): { after: string; before: string } {
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth();
  const d = today.getUTCDate();
  const weekday = (today.getUTCDay() + 6) % 7; // Monday 0, as WooCommerce's default week start
  const q = Math.floor(m / 3) * 3;
  switch (period) {
    case "today":
      return { after: iso(today), before: iso(today) };
    case "yesterday":
      return { after: iso(utc(y, m, d - 1)), before: iso(utc(y, m, d - 1)) };
    case "week":
      return { after: iso(utc(y, m, d - weekday)), before: iso(today) };
    case "last_week":
      return { after: iso(utc(y, m, d - weekday - 7)), before: iso(utc(y, m, d - weekday - 1)) };
    case "month":
      return { after: iso(utc(y, m, 1)), before: iso(today) };
    case "last_month":
      return { after: iso(utc(y, m - 1, 1)), before: iso(utc(y, m, 0)) };
    case "quarter":
      return { after: iso(utc(y, q, 1)), before: iso(today) };
    case "last_quarter":
      return { after: iso(utc(y, q - 3, 1)), before: iso(utc(y, q, 0)) };
    case "year":
      return { after: iso(utc(y, 0, 1)), before: iso(today) };
    case "last_year":
      return { after: iso(utc(y - 1, 0, 1)), before: iso(utc(y - 1, 11, 31)) };
  }
}

const one = (v: unknown): unknown => (Array.isArray(v) ? Symbol("array") : v);

/** Reads `period` (default `month`) or `after` + `before`, the filters and `per_page`; errors name their parameter. */
export function parseFunnelQuery(
  query: Record<string, unknown>,
  today: Date,
): { ok: true; query: FunnelQuery } | { ok: false; params: Record<string, string> } {
  const errors: Record<string, string> = {};
  const str = (name: string): string | undefined => {
    const v = one(query[name]);
    if (v === undefined || v === "") return undefined;
    if (typeof v !== "string") {
      errors[name] = `${name} is not of type string.`;
      return undefined;
    }
    return v;
  };
  const periodValue = str("period");
  let after = str("after");
  let before = str("before");
  if (periodValue !== undefined && !(FUNNEL_PERIODS as readonly string[]).includes(periodValue))
    errors.period = `period is not one of ${FUNNEL_PERIODS.join(", ")}.`;
  for (const [name, value] of [
    ["after", after],
    ["before", before],
  ] as const)
    if (value !== undefined && !validDay(value.slice(0, 10))) errors[name] = `${name} is not a date (YYYY-MM-DD).`;
  if (!errors.after && !errors.before) {
    // ISO 8601 date-times (WooCommerce's form) are read as their day.
    after = after?.slice(0, 10);
    before = before?.slice(0, 10);
    if ((after === undefined) !== (before === undefined)) errors[after === undefined ? "after" : "before"] = "after and before go together.";
  }
  const filters: Partial<Record<"source" | "medium" | "campaign", string>> = {};
  for (const name of ["source", "medium", "campaign"] as const) {
    const v = str(name);
    if (v === undefined) continue;
    if (v.length > FUNNEL_REPORT_LIMITS.filterMaxLength) errors[name] = `${name} is longer than ${FUNNEL_REPORT_LIMITS.filterMaxLength} characters.`;
    else filters[name] = v;
  }
  let perPage: number = FUNNEL_REPORT_LIMITS.perPageDefault;
  const pp = str("per_page");
  if (pp !== undefined) {
    if (!/^\d{1,3}$/.test(pp) || Number(pp) < 1 || Number(pp) > FUNNEL_REPORT_LIMITS.perPageMax)
      errors.per_page = `per_page must be between 1 (inclusive) and ${FUNNEL_REPORT_LIMITS.perPageMax} (inclusive)`;
    else perPage = Number(pp);
  }
  if (Object.keys(errors).length) return { ok: false, params: errors };

  const range = after !== undefined && before !== undefined ? { after, before } : periodRange((periodValue as FunnelPeriod | undefined) ?? "month", today);
  const days = daysBetween(range.after, range.before);
  if (days < 1) return { ok: false, params: { before: "before is earlier than after." } };
  if (days > FUNNEL_REPORT_LIMITS.maxDays) return { ok: false, params: { after: `The period is longer than ${FUNNEL_REPORT_LIMITS.maxDays} days.` } };
  return { ok: true, query: { ...range, ...filters, perPage } };
}

/** Days from `after` to `before`, both included. */
export function daysBetween(after: string, before: string): number {
  return Math.round((Date.parse(`${before}T00:00:00Z`) - Date.parse(`${after}T00:00:00Z`)) / 86_400_000) + 1;
}

/** Every day of the range, in order. */
export function eachDay(after: string, before: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${after}T00:00:00Z`), end = Date.parse(`${before}T00:00:00Z`); t <= end; t += 86_400_000) out.push(iso(new Date(t)));
  return out;
}

/** A share rounded to 4 decimals (0.1234 = 12.34 %); 0 when there is nothing to divide. */
export function rate(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : 0;
}
