/**
 * The figures of the admin's dashboard that WooCommerce's reports lack (docs/contract/rest/orders.md
 * 'reports/orders/totals', docs/contract/rest/shop-v1.md 'dashboard'; the screen: docs/contract/admin.md):
 *
 * - `GET wc/v3/reports/orders/totals`: WooCommerce's orders-per-status list (`[{slug, name, total}]`), all time as
 *   WooCommerce answers it, or for orders placed in `date_min..date_max` / `period` when given (the dashboard).
 * - `GET shop/v1/dashboard`: revenue, orders, average order value, sessions and conversion rate, revenue by the
 *   orders' attribution source, low-stock products and live visitors, for the same ranges as wc/v3/reports/sales
 *   (at most 366 days), with the same figures for the previous period of the same length and each one's change in %.
 *
 * Both need `view_woocommerce_reports` (administrator, shop manager). Every figure is one SQL aggregate
 * (core/db/repositories/dashboard.ts).
 */
import { json } from "../http/dispatch.ts";
import { isReply, staffUser } from "../http/rest-permission.ts";
import { parseArgs, requestArgs, restInt } from "../http/rest-args.ts";
import type { AppServices } from "../services.ts";
import type { Realtime } from "../realtime-wiring.ts";
import type { Feature } from "./feature.ts";
import { lowStockProducts, orderCountsByStatus, paidOrderTotals, revenueBySource, viewSessions } from "../../core/db/repositories/dashboard.ts";
import { originLabel } from "../../core/domain/attribution/origin.ts";
import { DASHBOARD_MAX_DAYS, daysIn, percentChange, previousPeriod } from "../../core/domain/reports/compare.ts";
import { restError } from "../http/rest.ts";
import { money } from "./wc-orders-wire.ts";
import { WC_DENIED } from "./wc-orders.ts";
import { reportArgs, reportRange } from "./wc-store-admin.ts";

/** WooCommerce's default "low stock threshold" (woocommerce_notify_low_stock_amount), as the Store API's low_stock_remaining uses it. */
export const LOW_STOCK_THRESHOLD = 2;

/** Each running shop's realtime hub, for the live-visitor count (the hub starts after the REST routes are registered). */
const hubs = new WeakMap<AppServices, Realtime>();

/** A period's headline figures on the wire, and the numbers their change is computed from (cents, counts). */
function figures(totals: { revenue: number; orders: number }, sessions: number, range: { from: Date; to: Date }) {
  const average = totals.orders ? Math.round(totals.revenue / totals.orders) : 0;
  return {
    wire: {
      date_min: range.from.toISOString().slice(0, 10),
      date_max: new Date(range.to.getTime() - 86_400_000).toISOString().slice(0, 10),
      revenue: money(totals.revenue),
      orders: totals.orders,
      average_order_value: money(average),
      sessions,
      // Percent with two decimals; null without a session to divide by.
      conversion_rate: sessions ? Math.round((totals.orders / sessions) * 10_000) / 100 : null,
    },
    cents: { revenue: totals.revenue, orders: totals.orders, average, sessions },
  };
}

const dashboardArgs = reportArgs.extend({ low_stock_limit: restInt(1, 100).default(10) });

export const adminDashboardFeature: Feature = {
  name: "admin-dashboard",
  endpoints({ rest }) {
    rest.register("GET", "wc/v3/reports/orders/totals", async (input) => {
      const user = await staffUser(input, "view_woocommerce_reports", WC_DENIED.list);
      if (isReply(user)) return user;
      const args = parseArgs(reportArgs, requestArgs(input));
      if (!args.ok) return args.reply;
      const ranged = args.data.period !== undefined || args.data.date_min !== undefined || args.data.date_max !== undefined;
      const range = ranged ? reportRange(args.data, input.services.now()) : null;
      if (isReply(range)) return range;
      const counts = await orderCountsByStatus(input.services.db, range);
      return json(counts.map((c) => ({ slug: c.status, name: c.label, total: c.total })));
    });

    rest.register("GET", "shop/v1/dashboard", async (input) => {
      const user = await staffUser(input, "view_woocommerce_reports");
      if (isReply(user)) return user;
      const args = parseArgs(dashboardArgs, requestArgs(input));
      if (!args.ok) return args.reply;
      const { services } = input;
      const range = reportRange(args.data, services.now());
      if (isReply(range)) return range;
      if (daysIn(range.from, range.to) > DASHBOARD_MAX_DAYS) {
        return restError("rest_invalid_param", "Invalid parameter(s): date_max", 400, {
          params: { date_max: `the dashboard's range is at most ${DASHBOARD_MAX_DAYS} days` },
        });
      }
      const before = previousPeriod(range.from, range.to);
      await services.funnel.flush(); // the page views counted so far, not those of a second ago
      const [totals, sessions, previousTotals, previousSessions, sources, lowStock] = await Promise.all([
        paidOrderTotals(services.db, range.from, range.to),
        viewSessions(services.db, range.from, range.to),
        paidOrderTotals(services.db, before.from, before.to),
        viewSessions(services.db, before.from, before.to),
        revenueBySource(services.db, range.from, range.to, 20),
        lowStockProducts(services.db, LOW_STOCK_THRESHOLD, args.data.low_stock_limit),
      ]);
      const now = figures(totals, sessions, range);
      const previous = figures(previousTotals, previousSessions, before);
      return json(
        {
          ...now.wire,
          currency: services.config.currency.code,
          revenue_by_source: sources.map((s) => ({
            source_type: s.sourceType,
            source: s.source,
            label: originLabel(s.sourceType, s.source),
            orders: s.orders,
            revenue: money(s.revenue),
          })),
          low_stock: {
            threshold: LOW_STOCK_THRESHOLD,
            total: lowStock.total,
            products: lowStock.items.map((p) => ({ id: p.id, name: p.name, sku: p.sku, stock_quantity: p.stockQuantity, stock_status: p.stockStatus })),
          },
          live_visitors: hubs.get(services)?.liveViewerCount() ?? 0,
          previous: previous.wire,
          change: {
            revenue: percentChange(now.cents.revenue, previous.cents.revenue),
            orders: percentChange(now.cents.orders, previous.cents.orders),
            average_order_value: percentChange(now.cents.average, previous.cents.average),
            sessions: percentChange(now.cents.sessions, previous.cents.sessions),
            conversion_rate: percentChange(now.wire.conversion_rate, previous.wire.conversion_rate),
          },
        },
        200,
        { "Cache-Control": "no-store" },
      );
    });
  },
  async start({ services, realtime }) {
    hubs.set(services, realtime);
    return async () => {
      hubs.delete(services);
    };
  },
};
