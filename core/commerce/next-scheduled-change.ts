/**
 * When the storefront next changes by itself, with no write to announce it: a discount rule's schedule starting or
 * ending (the shop's scheduled sales) and a popup's schedule. The page cache keeps no page past this instant
 * (docs/decisions/0028-page-cache.md); a write (a rule or popup saved) invalidates by its tag instead.
 */
import type { Db } from "../db/client.ts";
import type { SiteConfig } from "../config/site-config.ts";
import { loadRules } from "../db/repositories/discounts.ts";
import { listPopups } from "../db/repositories/popups.ts";
import { readSiteOptions } from "./site-options.ts";
import { zonedTime } from "../domain/popups/conditions.ts";

/** The first instant (ms) after `nowMs` at which a schedule starts or ends, or null when none is ahead. */
export async function nextScheduledChange(db: Db, config: SiteConfig, nowMs: number): Promise<number | null> {
  const [rules, popups, options] = await Promise.all([loadRules(db), listPopups(db), readSiteOptions(db, config)]);
  const instants: number[] = [];
  for (const rule of rules) if (rule.enabled && rule.schedule) for (const at of [rule.schedule.from, rule.schedule.to]) if (at) instants.push(Date.parse(at));
  for (const popup of popups) {
    const schedule = popup.settings.timing.schedule;
    if (!popup.settings.enabled || !schedule) continue;
    for (const local of [schedule.start_date, schedule.end_date]) {
      if (!local) continue;
      try {
        instants.push(zonedTime(local, options.timezone));
      } catch {
        // An unknown time zone: the popup never shows (conditions.ts fails closed), so nothing changes.
      }
    }
  }
  const ahead = instants.filter((t) => Number.isFinite(t) && t > nowMs);
  return ahead.length ? Math.min(...ahead) : null;
}
