/**
 * The dashboard's comparison with the previous period (docs/contract/rest/shop-v1.md 'Dashboard'): the period of the
 * same length that ends where the chosen one starts, and each figure's change in percent.
 */

const DAY = 86_400_000;

/** The longest range the dashboard compares, in days (a year, leap day included). */
export const DASHBOARD_MAX_DAYS = 366;

/** The period of the same length just before `from..to` (`to` exclusive, whole UTC days). */
export function previousPeriod(from: Date, to: Date): { from: Date; to: Date } {
  return { from: new Date(from.getTime() - (to.getTime() - from.getTime())), to: from };
}

/** The number of whole days in `from..to` (`to` exclusive). */
export const daysIn = (from: Date, to: Date) => Math.round((to.getTime() - from.getTime()) / DAY);

/**
 * The change from `before` to `now` in percent, one decimal (`+25`, `-33.3`); `null` when there is nothing to
 * compare with (`before` is 0 or unknown): a change from nothing has no percentage.
 */
export function percentChange(now: number | null, before: number | null): number | null {
  if (now === null || before === null || before === 0) return null;
  return Math.round(((now - before) / before) * 1000) / 10;
}
