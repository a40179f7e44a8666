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
  invalidatePricingSetupCache();
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
  invalidatePricingSetupCache();
}

// ---------------------------------------------------------------------------------------------------
// The pricing setup (rules and shipping methods), cached in memory
// ---------------------------------------------------------------------------------------------------

/**
 * How long a process keeps the parsed rules and shipping methods. Every cart refresh prices the cart,
 * and reading and zod-parsing every rule each time was most of its cost. A save in this process
 * clears the cache at once (saveRule / saveShippingMethod); another process sharing the database
 * (PostgreSQL behind several shop processes) sees the change within this many milliseconds.
 */
export const PRICING_SETUP_CACHE_MS = 5_000;

export interface PricingSetup {
  rules: DiscountRule[];
  shipping: ShippingMethod[];
}

type SetupCache = WeakMap<object, { at: number; setup: Promise<PricingSetup> }>;
/**
 * Keyed by the database handle, so two shops (two databases) in one process never share an entry.
 * Held on globalThis because this module is loaded twice in a shop process (by the server and inside
 * the React Router server build): a save through either copy must clear the one cache.
 */
const CACHE_SLOT = Symbol.for("shop.pricingSetupCache");
const slot = globalThis as unknown as { [CACHE_SLOT]?: { cache: SetupCache } };
const shared = (slot[CACHE_SLOT] ??= { cache: new WeakMap() });

/** Clears every cached pricing setup (in this process). */
export function invalidatePricingSetupCache(): void {
  shared.cache = new WeakMap();
}

/**
 * Rules and shipping methods, parsed, from a cache at most PRICING_SETUP_CACHE_MS old. `cacheKey` is the
 * shop's database handle (`Db`); `db` is what to read through on a miss (the same handle or a transaction
 * of it). Callers must not mutate the returned arrays.
 */
export function cachedPricingSetup(cacheKey: object, db: Queryable, nowMs = Date.now()): Promise<PricingSetup> {
  const cache = shared.cache;
  const hit = cache.get(cacheKey);
  if (hit && nowMs - hit.at < PRICING_SETUP_CACHE_MS) return hit.setup;
  const setup = Promise.all([loadRules(db), loadShippingMethods(db)]).then(([rules, shipping]) => ({ rules, shipping }));
  cache.set(cacheKey, { at: nowMs, setup });
  // A failed read is not remembered.
  setup.catch(() => cache.get(cacheKey)?.setup === setup && cache.delete(cacheKey));
  return setup;
}
