/**
 * Storage for discount rules, coupons and shipping methods. Values are the pricing
 * engine's own types, checked with its zod schemas going in and coming out.
 */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";
import { registerSingleton } from "../../singletons.ts";
import { onTagChanged, tagChanged } from "../../cache-tags.ts";
import { couponSchema, discountRuleSchema, shippingMethodSchema, normalizeCouponCode } from "../../domain/pricing/index.ts";
import type { Coupon, DiscountRule, ShippingMethod, UsageCount } from "../../domain/pricing/index.ts";
import type { ShippingZoneSetup } from "../../domain/pricing/zones.ts";
import { loadZoneSetup } from "./shipping-zones.ts";
import { listTaxRates } from "./tax-rates.ts";
import type { TaxRate } from "../../domain/pricing/tax.ts";

export async function loadRules(db: Queryable): Promise<DiscountRule[]> {
  const rows = await sql(db).selectFrom("discount_rules").select("data").orderBy("priority").orderBy("code").execute();
  return rows.map((r) => discountRuleSchema.parse(r.data) as DiscountRule);
}

export async function saveRule(db: Queryable, rule: DiscountRule): Promise<void> {
  const valid = discountRuleSchema.parse(rule);
  await sql(db)
    .insertInto("discount_rules")
    .values({ code: valid.code, priority: valid.priority, enabled: valid.enabled, data: JSON.stringify(valid) })
    .onConflict((oc) =>
      oc.column("code").doUpdateSet((eb) => ({
        priority: eb.ref("excluded.priority"),
        enabled: eb.ref("excluded.enabled"),
        data: eb.ref("excluded.data"),
        updated_at: raw`now()`,
      })),
    )
    .execute();
  invalidatePricingSetupCache();
}

/** A stored rule with when it last changed (the staff REST API's view). */
export interface RuleRow {
  rule: DiscountRule;
  updatedAt: Date;
}

const toRuleRow = (r: { data: unknown; updated_at: Date }): RuleRow => ({ rule: discountRuleSchema.parse(r.data) as DiscountRule, updatedAt: r.updated_at });

/** A page of the rules in the engine's order (priority, then code), with the count of all. */
export async function listRuleRows(db: Queryable, page: { limit: number; offset: number }): Promise<{ rows: RuleRow[]; total: number }> {
  const b = sql(db);
  const [rows, count] = await Promise.all([
    b.selectFrom("discount_rules").select(["data", "updated_at"]).orderBy("priority").orderBy("code").limit(page.limit).offset(page.offset).execute(),
    b
      .selectFrom("discount_rules")
      .select(raw<number>`count(*)::int`.as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toRuleRow), total: count.n };
}

/** One rule by its code, locked against a concurrent change when `forUpdate` (inside a transaction). */
export async function findRuleRow(db: Queryable, code: string, forUpdate = false): Promise<RuleRow | null> {
  let query = sql(db).selectFrom("discount_rules").select(["data", "updated_at"]).where("code", "=", code);
  if (forUpdate) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? toRuleRow(row) : null;
}

/** Stores a new rule; false when its code is taken. */
export async function insertRule(db: Queryable, rule: DiscountRule): Promise<boolean> {
  const valid = discountRuleSchema.parse(rule);
  const rows = await sql(db)
    .insertInto("discount_rules")
    .values({ code: valid.code, priority: valid.priority, enabled: valid.enabled, data: JSON.stringify(valid) })
    .onConflict((oc) => oc.column("code").doNothing())
    .returning("code")
    .execute();
  invalidatePricingSetupCache();
  return rows.length > 0;
}

export async function deleteRule(db: Queryable, code: string): Promise<boolean> {
  const rows = await sql(db).deleteFrom("discount_rules").where("code", "=", code).returning("code").execute();
  invalidatePricingSetupCache();
  return rows.length > 0;
}

export async function findCouponByCode(db: Queryable, code: string): Promise<Coupon | null> {
  const row = await sql(db).selectFrom("coupons").select("data").where("code", "=", normalizeCouponCode(code)).executeTakeFirst();
  return row ? (couponSchema.parse(row.data) as Coupon) : null;
}

export async function saveCoupon(db: Queryable, coupon: Coupon): Promise<void> {
  const valid = couponSchema.parse(coupon) as Coupon;
  const code = normalizeCouponCode(valid.code);
  await sql(db)
    .insertInto("coupons")
    .values({ code, data: JSON.stringify({ ...valid, code }) })
    .onConflict((oc) => oc.column("code").doUpdateSet((eb) => ({ data: eb.ref("excluded.data") })))
    .execute();
}

export async function couponUsage(db: Queryable, code: string, customerKey: string | null): Promise<UsageCount> {
  const row = await sql(db)
    .selectFrom("coupons as c")
    .select((eb) => [
      "c.usage_count as total",
      eb
        .selectFrom("coupon_usages as u")
        .select(raw<number>`count(*)::int`.as("n"))
        .whereRef("u.coupon_code", "=", "c.code")
        .where("u.customer_key", "=", customerKey ?? "")
        .as("by_customer"),
    ])
    .where("c.code", "=", normalizeCouponCode(code))
    .executeTakeFirst();
  return { total: row?.total ?? 0, byCustomer: row?.by_customer ?? 0 };
}

/** Saves a method of the rest-of-the-world zone (the demo seed's; zones are written through shipping-zones.ts). */
export async function saveShippingMethod(db: Queryable, method: ShippingMethod, position: number): Promise<void> {
  const valid = shippingMethodSchema.parse(method);
  await sql(db)
    .insertInto("shipping_methods")
    .values({ id: valid.id, position, data: JSON.stringify(valid) })
    .onConflict((oc) => oc.column("id").doUpdateSet((eb) => ({ position: eb.ref("excluded.position"), data: eb.ref("excluded.data") })))
    .execute();
  invalidatePricingSetupCache();
}

// ---------------------------------------------------------------------------------------------------
// The pricing setup (rules and shipping methods), cached in memory
// ---------------------------------------------------------------------------------------------------

/**
 * How long a process keeps the parsed rules and shipping methods. Every cart refresh prices the cart,
 * and reading and zod-parsing every rule each time was most of its cost. A save in this process
 * clears the cache at once (saveRule / saveShippingMethod); another process sharing the database
 * (PostgreSQL behind several shop processes) is told over Redis when REDIS_URL is set (core/cache-tags.ts), and
 * sees the change within this many milliseconds otherwise.
 */
export const PRICING_SETUP_CACHE_MS = 5_000;

export interface PricingSetup {
  rules: DiscountRule[];
  /** The rest-of-the-world zone's methods (an address in no zone, or none known). */
  shipping: ShippingMethod[];
  /** Every zone, for the cart to pick the methods of the address's one (core/domain/pricing/zones.ts). */
  zones: ShippingZoneSetup;
  /** The tax rates (core/domain/pricing/tax.ts); charged only while Settings › Tax has them on. */
  taxRates: TaxRate[];
}

type SetupCache = WeakMap<object, { at: number; setup: Promise<PricingSetup> }>;
/** Keyed by the database handle, so two shops (two databases) in one process never share an entry. */
let setupCache: SetupCache = new WeakMap();
registerSingleton("pricing setup cache");

onTagChanged("pricing-setup", () => (setupCache = new WeakMap()));

/** Clears every cached pricing setup, in this process and (through core/cache-tags.ts) in every other one. */
export function invalidatePricingSetupCache(): void {
  tagChanged("pricing-setup");
}

/**
 * Rules, shipping zones with their methods and tax rates, parsed, from a cache at most PRICING_SETUP_CACHE_MS old. `cacheKey` is the
 * shop's database handle (`Db`); `db` is what to read through on a miss (the same handle or a transaction
 * of it). Callers must not mutate the returned arrays.
 */
export function cachedPricingSetup(cacheKey: object, db: Queryable, nowMs = Date.now()): Promise<PricingSetup> {
  const cache = setupCache;
  const hit = cache.get(cacheKey);
  if (hit && nowMs - hit.at < PRICING_SETUP_CACHE_MS) return hit.setup;
  const setup = Promise.all([loadRules(db), loadZoneSetup(db), listTaxRates(db)]).then(([rules, zones, rates]) => ({
    rules,
    shipping: zones.restOfWorld,
    zones,
    taxRates: rates.map(({ updatedAt: _u, ...r }) => r),
  }));
  cache.set(cacheKey, { at: nowMs, setup });
  // A failed read is not remembered.
  setup.catch(() => cache.get(cacheKey)?.setup === setup && cache.delete(cacheKey));
  return setup;
}
