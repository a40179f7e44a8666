/**
 * The admin dashboard's figures (docs/contract/rest/shop-v1.md 'dashboard', docs/contract/admin.md 'Dashboard'):
 * every aggregate is one SQL query over the range, never a load of the orders. "Paid" orders are the reports'
 * statuses (REPORT_STATUSES: processing, completed, on-hold, refunded), as wc/v3/reports/sales counts them.
 */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";
import { REPORT_STATUSES } from "./order-admin.ts";

const day = (d: Date) => d.toISOString().slice(0, 10);

/** Revenue (cents) and count of the paid orders placed in [from, to). */
export async function paidOrderTotals(db: Queryable, from: Date, to: Date): Promise<{ revenue: number; orders: number }> {
  const row = await sql(db)
    .selectFrom("orders")
    .select([raw<string>`coalesce(sum(total), 0)`.as("revenue"), raw<string>`count(*)`.as("orders")])
    .where("status", "in", [...REPORT_STATUSES])
    .where("created_at", ">=", from)
    .where("created_at", "<", to)
    .executeTakeFirstOrThrow();
  return { revenue: Number(row.revenue), orders: Number(row.orders) };
}

/**
 * Sessions with a page view in the UTC days [from, to): the first-party funnel's visitors who viewed a shop,
 * category or product page, one per visitor per day (a visitor's hash is per day, decision 0015).
 */
export async function viewSessions(db: Queryable, from: Date, to: Date): Promise<number> {
  const row = await sql(db)
    .selectFrom("funnel_events")
    .select(raw<string>`count(DISTINCT (day, visitor))`.as("n"))
    .where("step", "=", "view")
    .where("day", ">=", raw<Date>`${day(from)}::date`)
    .where("day", "<", raw<Date>`${day(to)}::date`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface SourceRevenue {
  sourceType: string;
  source: string;
  orders: number;
  revenue: number;
}

/**
 * Paid orders placed in [from, to) by the attribution the checkout stored with them (order meta
 * `_wc_order_attribution_source_type` and `_wc_order_attribution_utm_source`, docs/contract/wire.md §4.5; ''
 * when the order has none), most revenue first.
 */
export async function revenueBySource(db: Queryable, from: Date, to: Date, limit: number): Promise<SourceRevenue[]> {
  const rows = await sql(db)
    .selectFrom("orders as o")
    .leftJoin("order_meta as t", (j) => j.onRef("t.order_id", "=", "o.id").on("t.key", "=", "_wc_order_attribution_source_type"))
    .leftJoin("order_meta as s", (j) => j.onRef("s.order_id", "=", "o.id").on("s.key", "=", "_wc_order_attribution_utm_source"))
    .select([
      raw<string>`coalesce(t.value, '')`.as("source_type"),
      raw<string>`coalesce(s.value, '')`.as("source"),
      raw<string>`count(*)`.as("orders"),
      raw<string>`sum(o.total)`.as("revenue"),
    ])
    .where("o.status", "in", [...REPORT_STATUSES])
    .where("o.created_at", ">=", from)
    .where("o.created_at", "<", to)
    .groupBy([raw`1`, raw`2`])
    .orderBy(raw`4`, "desc")
    .orderBy(raw`1`)
    .orderBy(raw`2`)
    .limit(limit)
    .execute();
  return rows.map((r) => ({ sourceType: r.source_type, source: r.source, orders: Number(r.orders), revenue: Number(r.revenue) }));
}

/** Every order status with the number of orders in it (placed in [from, to) when given), in the statuses' order. */
export async function orderCountsByStatus(db: Queryable, range: { from: Date; to: Date } | null): Promise<{ status: string; label: string; total: number }[]> {
  const rows = await sql(db)
    .selectFrom("order_statuses as st")
    .leftJoin("orders as o", (j) =>
      j.onRef("o.status", "=", "st.status").$call((q) => (range ? q.on("o.created_at", ">=", range.from).on("o.created_at", "<", range.to) : q)),
    )
    .select(["st.status", "st.label", raw<string>`count(o.id)`.as("total")])
    .groupBy(["st.status", "st.label"])
    .orderBy("st.status")
    .execute();
  return rows.map((r) => ({ status: r.status, label: r.label, total: Number(r.total) }));
}

export interface LowStockProduct {
  id: number;
  name: string;
  sku: string;
  stockQuantity: number | null;
  stockStatus: string;
}

/**
 * Published products whose managed stock is at or below `threshold`, or that are out of stock without managed
 * stock; the emptiest first, and how many there are.
 */
export async function lowStockProducts(db: Queryable, threshold: number, limit: number): Promise<{ items: LowStockProduct[]; total: number }> {
  const base = sql(db)
    .selectFrom("products")
    .where("status", "=", "publish")
    .where((eb) => eb.or([eb("stock_quantity", "<=", threshold), eb.and([eb("stock_quantity", "is", null), eb("stock_status", "=", "outofstock")])]));
  const [rows, count] = await Promise.all([
    base
      .select(["id", "name", "sku", "stock_quantity", "stock_status"])
      .orderBy(raw`coalesce(stock_quantity, 0)`)
      .orderBy("name")
      .orderBy("id")
      .limit(limit)
      .execute(),
    base.select(raw<string>`count(*)`.as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map((r) => ({ id: r.id, name: r.name, sku: r.sku ?? "", stockQuantity: r.stock_quantity, stockStatus: r.stock_status })),
    total: Number(count.n),
  };
}

/** A customer's saved payment methods without their tokens: brand, last four, expiry, the gateway and the default flag. */
export async function savedMethodSummaries(
  db: Queryable,
  customerId: number,
): Promise<
  { id: number; gatewayId: string; kind: string; brand: string; last4: string; expMonth: number | null; expYear: number | null; isDefault: boolean }[]
> {
  const rows = await sql(db)
    .selectFrom("payment_tokens")
    .select(["id", "gateway_id", "kind", "brand", "last4", "exp_month", "exp_year", "is_default"])
    .where("customer_id", "=", customerId)
    .orderBy("is_default", "desc")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    gatewayId: r.gateway_id,
    kind: r.kind,
    brand: r.brand,
    last4: r.last4,
    expMonth: r.exp_month === null ? null : Number(r.exp_month),
    expYear: r.exp_year === null ? null : Number(r.exp_year),
    isDefault: Boolean(r.is_default),
  }));
}
