/**
 * Revenue per day as a hand-made SVG bar chart (no chart library: the admin bundle stays lean), with the same
 * figures in a table for screen readers: the SVG is hidden from them, the caption sums it up and the table has every day.
 */
export interface ChartDay {
  date: string;
  revenue: number;
  orders: number;
}

const W = 720;
const H = 220;
const PAD = { top: 12, right: 8, bottom: 28, left: 56 };

/** A round step for the y axis: 1, 2 or 5 times a power of ten, about four steps to the top. */
function niceStep(max: number): number {
  if (max <= 0) return 1;
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const unit = rough / power;
  return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * power;
}

export function RevenueChart({ days, format, caption }: { days: ChartDay[]; format: (amount: number) => string; caption: string }) {
  const max = Math.max(0, ...days.map((d) => d.revenue));
  const step = niceStep(max);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, days.length);
  const barW = Math.max(2, Math.min(48, slot * 0.7));
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
  // Every label when there is room, else about eight of them.
  const labelEvery = Math.max(1, Math.ceil(days.length / 8));
  const total = days.reduce((n, d) => n + d.revenue, 0);
  const best = days.reduce<ChartDay | null>((b, d) => (!b || d.revenue > b.revenue ? d : b), null);
  const summary = `${caption}: ${format(total)} over ${days.length} ${days.length === 1 ? "day" : "days"}${best && best.revenue > 0 ? `, highest ${format(best.revenue)} on ${best.date}` : ""}.`;
  return (
    <figure className="admin-chart">
      <svg viewBox={`0 0 ${W} ${H}`} aria-hidden="true" focusable="false">
        {ticks.map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} className="admin-chart-grid" />
            <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end" className="admin-chart-label">
              {format(t)}
            </text>
          </g>
        ))}
        {days.map((d, i) => {
          const x = PAD.left + i * slot + (slot - barW) / 2;
          return (
            <g key={d.date}>
              <rect x={x} y={y(d.revenue)} width={barW} height={Math.max(0, PAD.top + plotH - y(d.revenue))} className="admin-chart-bar">
                <title>{`${d.date}: ${format(d.revenue)}, ${d.orders} ${d.orders === 1 ? "order" : "orders"}`}</title>
              </rect>
              {i % labelEvery === 0 ? (
                <text x={x + barW / 2} y={H - 8} textAnchor="middle" className="admin-chart-label">
                  {d.date.slice(5)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption className="admin-hint">{summary}</figcaption>
      <table className="screen-reader-text">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Revenue</th>
            <th scope="col">Orders</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.date}>
              <th scope="row">{d.date}</th>
              <td>{format(d.revenue)}</td>
              <td>{d.orders}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
