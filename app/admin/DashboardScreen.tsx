/**
 * The dashboard (docs/contract/admin.md 'Dashboard'): for today, the last 7 or the last 30 days (UTC days, as the
 * reports count them) — revenue, orders, average order value, conversion rate and live visitors
 * (`shop/v1/dashboard`), revenue per day (`wc/v3/reports/sales`), orders by status (`wc/v3/reports/orders/totals`),
 * top products (`wc/v3/reports/top_sellers`), revenue by traffic source and low-stock products (`shop/v1/dashboard`).
 */
import { useEffect, useState } from "react";
import { TabPanel } from "@wordpress/components";
import { Loading, LoadError } from "./Status.tsx";
import "@wordpress/components/build-style/style.css";
import "./admin-screens.css";
import { getWithHeaders, query, type RestError } from "./api.ts";
import { RevenueChart, type ChartDay } from "./RevenueChart.tsx";

interface Dashboard {
  date_min: string;
  date_max: string;
  currency: string;
  revenue: string;
  orders: number;
  average_order_value: string;
  sessions: number;
  conversion_rate: number | null;
  revenue_by_source: { source_type: string; source: string; label: string; orders: number; revenue: string }[];
  low_stock: { threshold: number; total: number; products: { id: number; name: string; sku: string; stock_quantity: number | null; stock_status: string }[] };
  live_visitors: number;
}
interface Sales {
  totals: Record<string, { sales: string; orders: number }>;
}
interface Figures {
  dashboard: Dashboard;
  days: ChartDay[];
  statuses: { slug: string; name: string; total: number }[];
  top: { title: string; product_id: number; quantity: number }[];
}

const PERIODS = [
  { name: "today", title: "Today", days: 1 },
  { name: "7d", title: "Last 7 days", days: 7 },
  { name: "30d", title: "Last 30 days", days: 30 },
] as const;
type Period = (typeof PERIODS)[number]["name"];

const DAY = 86_400_000;
const utcDate = (t: number) => new Date(t).toISOString().slice(0, 10);

function rangeOf(period: Period): { date_min: string; date_max: string } {
  const days = PERIODS.find((p) => p.name === period)!.days;
  const now = Date.now();
  return { date_min: utcDate(now - (days - 1) * DAY), date_max: utcDate(now) };
}

async function load(period: Period): Promise<Figures> {
  const q = query(rangeOf(period));
  const [dashboard, sales, statuses, top] = await Promise.all([
    getWithHeaders<Dashboard>(`/shop/v1/dashboard?${q}`),
    getWithHeaders<Sales[]>(`/wc/v3/reports/sales?${q}`),
    getWithHeaders<Figures["statuses"]>(`/wc/v3/reports/orders/totals?${q}`),
    getWithHeaders<Figures["top"]>(`/wc/v3/reports/top_sellers?${q}`),
  ]);
  const totals = sales.body[0]?.totals ?? {};
  return {
    dashboard: dashboard.body,
    days: Object.entries(totals).map(([date, t]) => ({ date, revenue: Number(t.sales), orders: t.orders })),
    statuses: statuses.body,
    top: top.body,
  };
}

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="admin-figure">
      <dt>{label}</dt>
      <dd>
        <span className="admin-figure-value">{value}</span>
        {hint ? <span className="admin-hint">{hint}</span> : null}
      </dd>
    </div>
  );
}

function PeriodFigures({ period }: { period: Period }) {
  const [state, setState] = useState<{ period: Period; figures: Figures } | { period: Period; error: RestError } | null>(null);
  useEffect(() => {
    let live = true;
    load(period).then(
      (figures) => live && setState({ period, figures }),
      (error: RestError) => live && setState({ period, error }),
    );
    return () => {
      live = false;
    };
  }, [period]);

  if (!state || state.period !== period) return <Loading what="the figures" />;
  if ("error" in state) return <LoadError error={state.error} />;
  const { dashboard: d, days, statuses, top } = state.figures;
  const money = (amount: string | number) => new Intl.NumberFormat("en-US", { style: "currency", currency: d.currency || "USD" }).format(Number(amount));
  const title = PERIODS.find((p) => p.name === period)!.title;
  const range = d.date_min === d.date_max ? d.date_min : `${d.date_min} to ${d.date_max}`;
  return (
    <div className="admin-dashboard" data-period={period}>
      <p className="admin-hint">
        {title}: {range} (UTC). Paid orders: processing, completed, on hold and refunded.
      </p>
      <section className="admin-card" aria-labelledby="dashboard-figures">
        <h2 id="dashboard-figures">Figures</h2>
        <dl className="admin-figures">
          <Figure label="Revenue" value={money(d.revenue)} />
          <Figure label="Orders" value={String(d.orders)} />
          <Figure label="Average order value" value={money(d.average_order_value)} />
          <Figure
            label="Conversion rate"
            value={d.conversion_rate === null ? "–" : `${d.conversion_rate.toFixed(2)}%`}
            hint={`${d.sessions} ${d.sessions === 1 ? "session" : "sessions"} with a page view`}
          />
          <Figure label="Live visitors" value={String(d.live_visitors)} hint="on live-match pages now" />
        </dl>
      </section>
      <section className="admin-card" aria-labelledby="dashboard-revenue">
        <h2 id="dashboard-revenue">Revenue per day</h2>
        <RevenueChart days={days} format={money} caption={`Revenue per day, ${title.toLowerCase()}`} />
      </section>
      <div className="admin-dashboard-columns">
        <section className="admin-card" aria-labelledby="dashboard-statuses">
          <h2 id="dashboard-statuses">Orders by status</h2>
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Orders</th>
              </tr>
            </thead>
            <tbody>
              {statuses.map((s) => (
                <tr key={s.slug}>
                  <th scope="row">{s.name}</th>
                  <td>{s.total}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <section className="admin-card" aria-labelledby="dashboard-sources">
          <h2 id="dashboard-sources">Revenue by traffic source</h2>
          {d.revenue_by_source.length ? (
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">Source</th>
                  <th scope="col">Orders</th>
                  <th scope="col">Revenue</th>
                </tr>
              </thead>
              <tbody>
                {d.revenue_by_source.map((s) => (
                  <tr key={`${s.source_type}|${s.source}`}>
                    <th scope="row">{s.label}</th>
                    <td>{s.orders}</td>
                    <td>{money(s.revenue)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p>No paid orders in this period.</p>
          )}
        </section>
        <section className="admin-card" aria-labelledby="dashboard-top">
          <h2 id="dashboard-top">Top products</h2>
          {top.length ? (
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">Product</th>
                  <th scope="col">Units sold</th>
                </tr>
              </thead>
              <tbody>
                {top.map((t) => (
                  <tr key={t.product_id}>
                    <th scope="row">
                      <a href={`/wp-admin/edit/product/${t.product_id}/`}>{t.title}</a>
                    </th>
                    <td>{t.quantity}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p>No products sold in this period.</p>
          )}
        </section>
        <section className="admin-card" aria-labelledby="dashboard-stock">
          <h2 id="dashboard-stock">Low stock</h2>
          <p className="admin-hint">
            {d.low_stock.total} {d.low_stock.total === 1 ? "product" : "products"} at {d.low_stock.threshold} or fewer in stock, or out of stock.
          </p>
          {d.low_stock.products.length ? (
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">Product</th>
                  <th scope="col">Stock</th>
                </tr>
              </thead>
              <tbody>
                {d.low_stock.products.map((p) => (
                  <tr key={p.id}>
                    <th scope="row">
                      <a href={`/wp-admin/edit/product/${p.id}/`}>{p.name}</a>
                    </th>
                    <td>{p.stock_quantity === null ? "Out of stock" : p.stock_quantity <= 0 ? `Out of stock (${p.stock_quantity})` : p.stock_quantity}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </section>
      </div>
    </div>
  );
}

export default function DashboardScreen() {
  const [period, setPeriod] = useState<Period>("7d");
  return (
    <TabPanel
      className="admin-status-tabs"
      initialTabName="7d"
      tabs={PERIODS.map((p) => ({ name: p.name, title: p.title }))}
      onSelect={(name) => setPeriod(name as Period)}
    >
      {() => <PeriodFigures period={period} />}
    </TabPanel>
  );
}
