/**
 * Storage for discount rules, coupons and shipping methods. Values are the pricing
 * engine's own types, checked with its zod schemas going in and coming out.
 */
import type { Queryable } from "../client.ts";
import { couponSchema, discountRuleSchema, shippingMethodSchema, normalizeCouponCode } from "../../domain/pricing/index.ts";
import type { Coupon, DiscountRule, ShippingMethod, UsageCount } from "../../domain/pricing/index.ts";

export async function loadRules(db: Queryable): Promise<DiscountRule[]> {
  const rows = await db.query<{ data: unknown }>(`SELECT data FROM discount_rules ORDER BY priority, code`);
  return rows.map((r) => discountRuleSchema.parse(r.data) as DiscountRule);
}

export async function saveRule(db: Queryable, rule: DiscountRule): Promise<void> {
  const valid = discountRuleSchema.parse(rule);
  await db.query(
    `INSERT INTO discount_rules (code, priority, enabled, data) VALUES ($1, $2, $3, $4)
     ON CONFLICT (code) DO UPDATE SET priority = EXCLUDED.priority, enabled = EXCLUDED.enabled, data = EXCLUDED.data, updated_at = now()`,
    [valid.code, valid.priority, valid.enabled, JSON.stringify(valid)],
  );
}

export async function findCouponByCode(db: Queryable, code: string): Promise<Coupon | null> {
  const [row] = await db.query<{ data: unknown }>(`SELECT data FROM coupons WHERE code = $1`, [normalizeCouponCode(code)]);
  return row ? (couponSchema.parse(row.data) as Coupon) : null;
}

export async function saveCoupon(db: Queryable, coupon: Coupon): Promise<void> {
  const valid = couponSchema.parse(coupon) as Coupon;
  const code = normalizeCouponCode(valid.code);
  await db.query(`INSERT INTO coupons (code, data) VALUES ($1, $2) ON CONFLICT (code) DO UPDATE SET data = EXCLUDED.data`, [code, JSON.stringify({ ...valid, code })]);
}

export async function couponUsage(db: Queryable, code: string, customerKey: string | null): Promise<UsageCount> {
  const [row] = await db.query<{ total: number; by_customer: number }>(
    `SELECT c.usage_count AS total,
       (SELECT count(*)::int FROM coupon_usages u WHERE u.coupon_code = c.code AND u.customer_key = $2) AS by_customer
     FROM coupons c WHERE c.code = $1`,
    [normalizeCouponCode(code), customerKey ?? ""],
  );
  return { total: row?.total ?? 0, byCustomer: row?.by_customer ?? 0 };
}

export async function loadShippingMethods(db: Queryable): Promise<ShippingMethod[]> {
  const rows = await db.query<{ data: unknown }>(`SELECT data FROM shipping_methods ORDER BY position, id`);
  return rows.map((r) => shippingMethodSchema.parse(r.data) as ShippingMethod);
}

export async function saveShippingMethod(db: Queryable, method: ShippingMethod, position: number): Promise<void> {
  const valid = shippingMethodSchema.parse(method);
  await db.query(`INSERT INTO shipping_methods (id, position, data) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET position = EXCLUDED.position, data = EXCLUDED.data`, [valid.id, position, JSON.stringify(valid)]);
}
