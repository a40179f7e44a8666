/**
 * The dashboard (docs/contract/admin.md 'Dashboard'): for a date range (UTC days, as the reports count them) — a
 * preset (today, the last 7 or 30 days, month to date, last month, year to date) or custom from/to dates, kept in the
 * address (`?range=mtd`, `?range=custom&from=…&to=…`) — revenue, orders, average order value, conversion rate, each
 * with its change from the previous period of the same length, and live visitors (`shop/v1/dashboard`), revenue
 * per day (`wc/v3/reports/sales`), orders by status (`wc/v3/reports/orders/totals`), top products
 * (`wc/v3/reports/top_sellers`), revenue by traffic source and low-stock products (`shop/v1/dashboard`).
 */
import { useCallback, useEffect, useState } from "react";
import { SelectControl, TextControl } from "@wordpress/components";
import { Loading, LoadError } from "./Status.tsx";
import "@wordpress/components/build-style/style.css";
import "./admin-screens.css";
import { getWithHeaders, query, type RestError } from "./api.ts";
import { RevenueChart, type ChartDay } from "./RevenueChart.tsx";

interface PeriodFigures {
  date_min: string;
  date_max: string;
  revenue: string;
  orders: number;
  average_order_value: string;
  sessions: number;
  conversion_rate: number | null;
}
type Compared = "revenue" | "orders" | "average_order_value" | "sessions" | "conversion_rate";
interface Dashboard extends PeriodFigures {
  currency: string;
  previous: PeriodFigures;
  change: Record<Compared, number | null>;
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

const PRESETS = [
  { name: "today", title: "Today" },
  { name: "7d", title: "Last 7 days" },
  { name: "30d", title: "Last 30 days" },
  { name: "mtd", title: "Month to date" },
  { name: "last_month", title: "Last month" },
  { name: "ytd", title: "Year to date" },
  { name: "custom", title: "Custom dates" },
] as const;
type Preset = (typeof PRESETS)[number]["name"];
/** The dashboard's choice: a preset, or custom dates (from/to, "" until chosen). */
interface Choice {
  preset: Preset;
  from: string;
  to: string;
}

const DAY = 86_400_000;
/** The longest range the server compares (core/domain/reports/compare.ts DASHBOARD_MAX_DAYS). */
const MAX_DAYS = 366;
const utcDate = (t: number) => new Date(t).toISOString().slice(0, 10);

/** A preset's UTC days, both included. */
function presetRange(preset: Exclude<Preset, "custom">, now = Date.now()): { date_min: string; date_max: string } {
  const today = utcDate(now);
  const d = new Date(now);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (preset) {
    case "today":
      return { date_min: today, date_max: today };
    case "7d":
      return { date_min: utcDate(now - 6 * DAY), date_max: today };
    case "30d":
      return { date_min: utcDate(now - 29 * DAY), date_max: today };
    case "mtd":
      return { date_min: utcDate(Date.UTC(y, m, 1)), date_max: today };
    case "last_month":
      return { date_min: utcDate(Date.UTC(y, m - 1, 1)), date_max: utcDate(Date.UTC(y, m, 1) - DAY) };
    case "ytd":
      return { date_min: utcDate(Date.UTC(y, 0, 1)), date_max: today };
  }
}

/** The range a choice asks for, or why it cannot be asked (custom dates missing, reversed or too far apart). */
function rangeOf(choice: Choice): { date_min: string; date_max: string } | { problem: string } {
  if (choice.preset !== "custom") return presetRange(choice.preset);
  if (!choice.from || !choice.to) return { problem: "Choose both dates." };
  if (choice.from > choice.to) return { problem: "The end date is before the start date." };
  if ((Date.parse(choice.to) - Date.parse(choice.from)) / DAY + 1 > MAX_DAYS) return { problem: `Choose at most ${MAX_DAYS} days.` };
  return { date_min: choice.from, date_max: choice.to };
}

/** The choice in the address: `range` (absent: the last 7 days), and `from`/`to` for custom dates. */
function choiceOf(search: string): Choice {
  const p = new URLSearchParams(search);
  const preset = PRESETS.find((x) => x.name === p.get("range"))?.name ?? "7d";
  const date = (k: string) => (/^\d{4}-\d{2}-\d{2}$/.test(p.get(k) ?? "") ? p.get(k)! : "");
  return { preset, from: preset === "custom" ? date("from") : "", to: preset === "custom" ? date("to") : "" };
}
function addressOf(choice: Choice): string {
  if (choice.preset === "7d") return "";
  const p = new URLSearchParams({ range: choice.preset });
  if (choice.preset === "custom") {
    if (choice.from) p.set("from", choice.from);
    if (choice.to) p.set("to", choice.to);
  }
  return `?${p}`;
}

async function load(range: { date_min: string; date_max: string }): Promise<Figures> {
  const q = query(range);
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

function Figure({ label, value, hint, change, before }: { label: string; value: string; hint?: string; change?: number | null; before?: string }) {
  return (
    <div className="admin-figure">
      <dt>{label}</dt>
      <dd>
        <span className="admin-figure-value">{value}</span>
        {change === null ? (
          <span className="admin-figure-change">Previously {before}</span>
        ) : change !== undefined ? (
          <span className={`admin-figure-change${change > 0 ? " is-up" : change < 0 ? " is-down" : ""}`}>
            {`${change > 0 ? "+" : change < 0 ? "−" : "±"}${Math.abs(change)}%`}
            <span className="screen-reader-text"> compared with the previous period</span> (was {before})
          </span>
        ) : null}
        {hint ? <span className="admin-hint">{hint}</span> : null}
      </dd>
    </div>
  );
}

function PeriodFigures({ preset, range }: { preset: Preset; range: { date_min: string; date_max: string } }) {
  const key = `${range.date_min}..${range.date_max}`;
  const [state, setState] = useState<{ key: string; figures: Figures } | { key: string; error: RestError } | null>(null);
  // The range's two days are the request: a new object with the same days asks nothing new.
  const { date_min, date_max } = range;
  useEffect(() => {
    let live = true;
    const asked = `${date_min}..${date_max}`;
    load({ date_min, date_max }).then(
      (figures) => live && setState({ key: asked, figures }),
      (error: RestError) => live && setState({ key: asked, error }),
    );
    return () => {
      live = false;
    };
  }, [date_min, date_max]);

  if (!state || state.key !== key) return <Loading what="the figures" />;
  if ("error" in state) return <LoadError error={state.error} />;
  const { dashboard: d, days, statuses, top } = state.figures;
  const money = (amount: string | number) => new Intl.NumberFormat("en-US", { style: "currency", currency: d.currency || "USD" }).format(Number(amount));
  const title = PRESETS.find((p) => p.name === preset)!.title;
  const span = (p: { date_min: string; date_max: string }) => (p.date_min === p.date_max ? p.date_min : `${p.date_min} to ${p.date_max}`);
  const rate = (r: number | null) => (r === null ? "–" : `${r.toFixed(2)}%`);
  const p = d.previous;
  return (
    <div className="admin-dashboard" data-period={preset}>
      <p className="admin-hint">
        {title}: {span(d)} (UTC), compared with the previous {d.date_min === d.date_max ? "day" : "period of the same length"}: {span(p)}. Paid orders:
        processing, completed, on hold and refunded.
      </p>
      <section className="admin-card" aria-labelledby="dashboard-figures">
        <h2 id="dashboard-figures">Figures</h2>
        <dl className="admin-figures">
          <Figure label="Revenue" value={money(d.revenue)} change={d.change.revenue} before={money(p.revenue)} />
          <Figure label="Orders" value={String(d.orders)} change={d.change.orders} before={String(p.orders)} />
          <Figure
            label="Average order value"
            value={money(d.average_order_value)}
            change={d.change.average_order_value}
            before={money(p.average_order_value)}
          />
          <Figure
            label="Conversion rate"
            value={rate(d.conversion_rate)}
            change={d.change.conversion_rate}
            before={rate(p.conversion_rate)}
            hint={`${d.sessions} ${d.sessions === 1 ? "session" : "sessions"} with a page view`}
          />
          <Figure label="Live visitors" value={String(d.live_visitors)} hint="on live-match pages now" />
        </dl>
      </section>
      <section className="admin-card" aria-labelledby="dashboard-revenue">
        <h2 id="dashboard-revenue">Revenue per day</h2>
        <RevenueChart days={days} format={money} caption={`Revenue per day, ${title === "Custom dates" ? span(d) : title.toLowerCase()}`} />
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
  const [choice, setChoice] = useState<Choice>(() => choiceOf(window.location.search));
  // Back and forward restore the range the address names.
  useEffect(() => {
    const onPop = () => setChoice(choiceOf(window.location.search));
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);
  const choose = useCallback((next: Choice) => {
    setChoice(next);
    const address = addressOf(next);
    if (address !== window.location.search) window.history.pushState(null, "", `${window.location.pathname}${address}`);
  }, []);
  const range = rangeOf(choice);
  const problem = "problem" in range ? range.problem : null;
  return (
    <>
      <fieldset className="admin-date-range">
        <legend className="screen-reader-text">Dates shown</legend>
        <SelectControl
          __next40pxDefaultSize
          __nextHasNoMarginBottom
          label="Date range"
          value={choice.preset}
          options={PRESETS.map((p) => ({ value: p.name, label: p.title }))}
          onChange={(preset: string) => {
            const next = preset as Preset;
            // Custom dates start from the range shown, so only the end that changes needs choosing.
            const shown = "problem" in range ? { date_min: "", date_max: "" } : range;
            choose(
              next === "custom" ? { preset: next, from: choice.from || shown.date_min, to: choice.to || shown.date_max } : { preset: next, from: "", to: "" },
            );
          }}
        />
        {choice.preset === "custom" ? (
          <>
            <TextControl
              __next40pxDefaultSize
              __nextHasNoMarginBottom
              type="date"
              label="From"
              value={choice.from}
              onChange={(from) => choose({ ...choice, from })}
            />
            <TextControl
              __next40pxDefaultSize
              __nextHasNoMarginBottom
              type="date"
              label="To"
              value={choice.to}
              onChange={(to) => choose({ ...choice, to })}
              aria-invalid={Boolean(problem)}
              aria-describedby={problem ? "dashboard-range-error" : undefined}
            />
          </>
        ) : null}
      </fieldset>
      {problem ? (
        <p id="dashboard-range-error" className="admin-field-error" role="alert">
          {problem}
        </p>
      ) : (
        <PeriodFigures preset={choice.preset} range={range as { date_min: string; date_max: string }} />
      )}
    </>
  );
}
