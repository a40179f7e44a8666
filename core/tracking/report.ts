/**
 * The owner's funnel report (docs/contract/wire.md §6.3): visitors, steps, conversion rate and revenue over a
 * period, per source / medium / campaign and per day, and the funnel view → add to cart → checkout → purchase.
 * Revenue is in the currency's major units (WooCommerce Analytics' form); money is stored in minor units.
 */
import type { Queryable } from "../db/client.ts";
import { funnelByDay, funnelBySource, funnelSteps, funnelTotals, type FunnelCounts } from "../db/repositories/tracking.ts";
import { eachDay, rate, type FunnelQuery } from "../domain/tracking/funnel-report.ts";

interface ReportCounts {
  visitors: number;
  views: number;
  add_to_cart: number;
  checkout: number;
  purchases: number;
  revenue: number;
  conversion_rate: number;
}

const shape = (c: FunnelCounts): ReportCounts => ({
  visitors: c.visitors,
  views: c.views,
  add_to_cart: c.addToCart,
  checkout: c.checkout,
  purchases: c.purchases,
  revenue: c.revenue / 100,
  conversion_rate: rate(c.buyers, c.visitors),
});

const ZERO: FunnelCounts = { visitors: 0, views: 0, addToCart: 0, checkout: 0, purchases: 0, buyers: 0, revenue: 0 };

export async function funnelReport(db: Queryable, q: FunnelQuery, currency: string) {
  // One query at a time: PGlite has one connection.
  const totals = await funnelTotals(db, q);
  const steps = await funnelSteps(db, q);
  const sources = await funnelBySource(db, q, q.perPage);
  const days = new Map((await funnelByDay(db, q)).map((d) => [d.date, d]));
  const order = ["view", "add_to_cart", "checkout", "purchase"] as const;
  return {
    after: q.after,
    before: q.before,
    filters: { source: q.source ?? null, medium: q.medium ?? null, campaign: q.campaign ?? null },
    currency,
    totals: shape(totals),
    // Visitors who reached each step having done every earlier one; rate: share of the step before.
    funnel: order.map((step, i) => ({ step, visitors: steps[step], rate: rate(steps[step], steps[order[Math.max(0, i - 1)]!]) })),
    sources: sources.map((s) => ({ source: s.source, medium: s.medium, campaign: s.campaign, ...shape(s) })),
    days: eachDay(q.after, q.before).map((date) => ({ date, ...shape(days.get(date) ?? ZERO) })),
  };
}
