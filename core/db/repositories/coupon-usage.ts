/**
 * Coupon usage at checkout: the coupon rows locked while an order counts against their limits, the usage rows
 * (coupon_usages) and the counters (coupons.usage_count). Only SQL lives here; the limits are checked in
 * core/commerce/orders.ts. Coupons are always locked in code order, so concurrent checkouts cannot deadlock.
 */
import type { Queryable } from "../client.ts";
import { sql } from "../kysely.ts";

/** Locks the coupons with these (normalized) codes, in code order, until the transaction ends. */
export async function lockCoupons(tx: Queryable, codes: readonly string[]): Promise<{ code: string; data: unknown }[]> {
  if (!codes.length) return [];
  return sql(tx).selectFrom("coupons").select(["code", "data"]).where("code", "in", codes).orderBy("code").forUpdate().execute();
}

/** Locks one coupon until the transaction ends; null when it no longer exists. */
export async function lockCoupon(tx: Queryable, code: string): Promise<{ data: unknown; usageCount: number } | null> {
  const row = await sql(tx).selectFrom("coupons").select(["data", "usage_count"]).where("code", "=", code).forUpdate().executeTakeFirst();
  return row ? { data: row.data, usageCount: row.usage_count } : null;
}

/** How many times any of these customer keys (`c:<id>`, `e:<email>`) has used the coupon. */
export async function countCustomerUses(tx: Queryable, code: string, customerKeys: readonly string[]): Promise<number> {
  const row = await sql(tx)
    .selectFrom("coupon_usages")
    .select((eb) => eb.cast<number>(eb.fn.countAll(), "integer").as("n"))
    .where("coupon_code", "=", code)
    .where("customer_key", "in", customerKeys)
    .executeTakeFirst();
  return row?.n ?? 0;
}

/** One use of a coupon by an order: the counter and the usage row. */
export async function recordCouponUse(tx: Queryable, code: string, customerKey: string, orderId: number): Promise<void> {
  await sql(tx)
    .updateTable("coupons")
    .set((eb) => ({ usage_count: eb("usage_count", "+", 1) }))
    .where("code", "=", code)
    .execute();
  await sql(tx).insertInto("coupon_usages").values({ coupon_code: code, customer_key: customerKey, order_id: orderId }).execute();
}

/** The coupon codes an order used, in code order. */
export async function orderCouponCodes(tx: Queryable, orderId: number): Promise<string[]> {
  const rows = await sql(tx).selectFrom("order_coupons").select("code").where("order_id", "=", orderId).orderBy("code").execute();
  return rows.map((r) => r.code);
}

/** Gives back an order's coupon uses: each counter goes down by one (never below 0), the usage rows go. */
export async function releaseOrderCouponUses(tx: Queryable, orderId: number): Promise<void> {
  for (const code of await orderCouponCodes(tx, orderId)) {
    await sql(tx)
      .updateTable("coupons")
      .set((eb) => ({ usage_count: eb("usage_count", "-", 1) }))
      .where((eb) => eb("code", "=", eb.fn<string>("lower", [eb.val(code)])))
      .where("usage_count", ">", 0)
      .execute();
  }
  await sql(tx).deleteFrom("coupon_usages").where("order_id", "=", orderId).execute();
}
