/**
 * Coupons as the staff REST API manages them (wc/v3/coupons, docs/contract/rest/orders.md): the same `coupons` rows
 * the cart reads, with WooCommerce's numeric id. Values go in and come out through the pricing engine's own zod
 * schema (couponSchema), so the API can never store a coupon the storefront cannot apply. Only SQL lives here.
 */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";
import { couponSchema, normalizeCouponCode, type Coupon } from "../../domain/pricing/index.ts";

export interface StoredCoupon {
  id: number;
  coupon: Coupon;
  usageCount: number;
  usedBy: string[];
  createdAt: Date;
  updatedAt: Date;
}

type Row = { id: number; code: string; data: unknown; usage_count: number; created_at: Date | string; updated_at: Date | string };

async function withUsers(db: Queryable, rows: Row[]): Promise<StoredCoupon[]> {
  if (rows.length === 0) return [];
  const uses = await sql(db)
    .selectFrom("coupon_usages")
    .select(["coupon_code", "customer_key"])
    .where(
      "coupon_code",
      "in",
      rows.map((r) => r.code),
    )
    .orderBy("used_at")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    coupon: couponSchema.parse(r.data) as Coupon,
    usageCount: r.usage_count,
    // WooCommerce's used_by: customer ids, or the e-mail of a guest.
    usedBy: uses.filter((u) => u.coupon_code === r.code).map((u) => u.customer_key.slice(2)),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  }));
}

const COLUMNS = ["id", "code", "data", "usage_count", "created_at", "updated_at"] as const;

export async function listCouponsPage(
  db: Queryable,
  q: {
    code?: string;
    search?: string;
    include?: number[];
    exclude?: number[];
    orderby: "date" | "id" | "include" | "title" | "slug" | "modified";
    order: "asc" | "desc";
    limit: number;
    offset: number;
  },
): Promise<{ items: StoredCoupon[]; total: number }> {
  const base = sql(db)
    .selectFrom("coupons")
    .$if(q.code !== undefined, (s) => s.where("code", "=", normalizeCouponCode(q.code!)))
    .$if(q.search !== undefined && q.search !== "", (s) => s.where("code", "ilike", `%${q.search!.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`))
    .$if(!!q.include?.length, (s) => s.where("id", "in", q.include!))
    .$if(!!q.exclude?.length, (s) => s.where("id", "not in", q.exclude!));
  const counted = await base.select((eb) => eb.cast<number>(eb.fn.countAll(), "integer").as("n")).executeTakeFirst();
  let page = base.select(COLUMNS);
  if (q.orderby === "include" && q.include?.length) page = page.orderBy(raw`array_position(${q.include}::int[], id)`);
  else if (q.orderby === "title" || q.orderby === "slug") page = page.orderBy("code", q.order);
  else if (q.orderby === "id") page = page.orderBy("id", q.order);
  else if (q.orderby === "modified") page = page.orderBy("updated_at", q.order).orderBy("id", q.order);
  else page = page.orderBy("created_at", q.order).orderBy("id", q.order);
  const rows = await page.limit(q.limit).offset(q.offset).execute();
  return { items: await withUsers(db, rows), total: counted?.n ?? 0 };
}

export async function findCouponById(db: Queryable, id: number): Promise<StoredCoupon | null> {
  const row = await sql(db).selectFrom("coupons").select(COLUMNS).where("id", "=", id).executeTakeFirst();
  return row ? ((await withUsers(db, [row]))[0] ?? null) : null;
}

/** Inserts a new coupon; null when its code is taken. */
export async function insertCoupon(tx: Queryable, coupon: Coupon): Promise<number | null> {
  const valid = couponSchema.parse(coupon) as Coupon;
  const code = normalizeCouponCode(valid.code);
  const row = await sql(tx)
    .insertInto("coupons")
    .values({ code, data: JSON.stringify({ ...valid, code }) })
    .onConflict((oc) => oc.column("code").doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function couponIdByCode(tx: Queryable, code: string): Promise<number | null> {
  const row = await sql(tx).selectFrom("coupons").select("id").where("code", "=", normalizeCouponCode(code)).executeTakeFirst();
  return row?.id ?? null;
}

/** The coupon row locked for an update, with whether it was ever used (its code is then its usages' key). */
export async function lockCouponById(tx: Queryable, id: number): Promise<{ code: string; data: unknown; used: boolean; updatedAt: Date } | null> {
  const row = await sql(tx)
    .selectFrom("coupons as c")
    .select((eb) => [
      "c.code",
      "c.data",
      "c.updated_at",
      eb.exists(eb.selectFrom("coupon_usages as u").select(eb.lit(1).as("one")).whereRef("u.coupon_code", "=", "c.code")).as("used"),
    ])
    .where("c.id", "=", id)
    .forUpdate()
    .executeTakeFirst();
  return row ? { code: row.code, data: row.data, used: Boolean(row.used), updatedAt: new Date(row.updated_at) } : null;
}

export async function updateCoupon(tx: Queryable, id: number, coupon: Coupon): Promise<void> {
  const valid = couponSchema.parse(coupon) as Coupon;
  const code = normalizeCouponCode(valid.code);
  await sql(tx)
    .updateTable("coupons")
    .set({ code, data: JSON.stringify({ ...valid, code }), updated_at: raw`now()` })
    .where("id", "=", id)
    .execute();
}

export async function deleteCouponById(tx: Queryable, id: number): Promise<boolean> {
  const rows = await sql(tx).deleteFrom("coupons").where("id", "=", id).returning("id").execute();
  return rows.length > 0;
}
