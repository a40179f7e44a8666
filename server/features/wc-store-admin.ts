/**
 * WooCommerce REST v3 for the rest of the store's staff routes (docs/contract/rest/orders.md): `wc/v3/coupons`
 * (CRUD over the cart's own coupons table, through the pricing engine's schema so the storefront's apply_coupon
 * honours every coupon written here), `wc/v3/reports/sales`, `wc/v3/reports/top_sellers`, `wc/v3/data/countries`
 * and `wc/v3/system_status`. Every write is audited (docs/contract/wire.md §2.6a).
 */
import os from "node:os";
import { z } from "zod";
import { json, type Reply } from "../http/dispatch.ts";
import { restError, type RestInput } from "../http/rest.ts";
import { isReply, staffUser } from "../http/rest-permission.ts";
import { ifMatchOf, listArgs, pagedJson, pageOutOfRange, parseArgs, requestArgs, restBool, restIdList, restInt } from "../http/rest-args.ts";
import { audit } from "../http/rest-audit.ts";
import type { Feature } from "./feature.ts";
import * as coupons from "../../core/db/repositories/coupon-admin.ts";
import { databaseInfo, salesByDay, topSellers } from "../../core/db/repositories/order-admin.ts";
import { couponSchema, type Coupon } from "../../core/domain/pricing/index.ts";
import { COUNTRIES, subdivisionsOf } from "../../core/domain/checkout/address.ts";
import { money, moneyArg, wcDate } from "./wc-orders-wire.ts";
import { SHOP_VERSION, WC_DENIED } from "./wc-orders.ts";

// ---------------------------------------------------------------------------------------------------------------
// Coupons
// ---------------------------------------------------------------------------------------------------------------

const ids = z.preprocess((v) => (typeof v === "string" ? (v === "" ? [] : v.split(",")) : v), z.array(restInt(1)).max(1000));
const dateArg = z.preprocess(
  (v) => (v === "" ? null : v),
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?)?$/, "must be a date like 2026-12-31T23:59:59")
    .nullable(),
);

/** The writable fields of a WooCommerce coupon (all optional: an update sends some of them). */
const couponFields = z.object({
  code: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[^<>]+$/, "must not contain < or >"),
  amount: moneyArg(),
  discount_type: z.enum(["percent", "fixed_cart", "fixed_product"]),
  description: z.string().max(5000),
  date_expires: dateArg,
  date_expires_gmt: dateArg,
  individual_use: restBool(),
  product_ids: ids,
  excluded_product_ids: ids,
  usage_limit: restInt(1).nullable(),
  usage_limit_per_user: restInt(1).nullable(),
  // The cart's engine has no such rule: accepted only when it asks for nothing.
  limit_usage_to_x_items: z.null("limit_usage_to_x_items is not supported by the shop's cart").optional(),
  free_shipping: restBool(),
  product_categories: ids,
  excluded_product_categories: ids,
  exclude_sale_items: restBool(),
  minimum_amount: moneyArg(),
  maximum_amount: moneyArg(),
  email_restrictions: z.array(z.string()).max(0, "email_restrictions are not supported by the shop's cart"),
  meta_data: z.array(z.unknown()).max(0, "meta_data is not stored for coupons").optional(),
});
type CouponFields = z.output<typeof couponFields>;

function toCoupon(f: Partial<CouponFields> & Pick<CouponFields, "code" | "discount_type">, base: Coupon | null): Coupon {
  const c: Coupon = { ...(base ?? { code: f.code, kind: f.discount_type, amount: 0 }) };
  c.code = f.code;
  c.kind = f.discount_type;
  const has = (k: keyof CouponFields) => Object.hasOwn(f, k) && f[k] !== undefined;
  // WooCommerce's amount: a percentage for percent coupons, money otherwise (cents here).
  if (has("amount")) c.amount = c.kind === "percent" ? f.amount! / 100 : f.amount!;
  else if (base && base.kind !== c.kind) c.amount = base.kind === "percent" ? Math.round(base.amount * 100) : base.amount / 100;
  const expires = has("date_expires_gmt") ? f.date_expires_gmt : has("date_expires") ? f.date_expires : undefined;
  if (expires !== undefined) {
    if (expires === null) delete c.expiresAt;
    else c.expiresAt = new Date(`${expires.length === 10 ? `${expires}T00:00:00` : expires}Z`).toISOString();
  }
  const opt = <K extends keyof Coupon>(key: K, value: Coupon[K] | undefined | null, empty: (v: Coupon[K]) => boolean) => {
    if (value === undefined) return;
    if (value === null || empty(value)) delete c[key];
    else c[key] = value;
  };
  if (has("individual_use")) opt("individualUse", f.individual_use, (v) => !v);
  if (has("product_ids")) opt("productIds", f.product_ids, (v) => !v?.length);
  if (has("excluded_product_ids")) opt("excludedProductIds", f.excluded_product_ids, (v) => !v?.length);
  if (has("usage_limit") || f.usage_limit === null) opt("usageLimit", f.usage_limit, () => false);
  if (has("usage_limit_per_user") || f.usage_limit_per_user === null) opt("usageLimitPerCustomer", f.usage_limit_per_user, () => false);
  if (has("free_shipping")) opt("freeShipping", f.free_shipping, (v) => !v);
  if (has("product_categories")) opt("categoryIds", f.product_categories, (v) => !v?.length);
  if (has("excluded_product_categories")) opt("excludedCategoryIds", f.excluded_product_categories, (v) => !v?.length);
  if (has("exclude_sale_items")) opt("excludeSaleItems", f.exclude_sale_items, (v) => !v);
  if (has("minimum_amount")) opt("minimumSpend", f.minimum_amount, (v) => !v);
  if (has("maximum_amount")) opt("maximumSpend", f.maximum_amount, (v) => !v);
  return c;
}

function couponJson(s: coupons.StoredCoupon) {
  const c = s.coupon;
  const expires = c.expiresAt ? wcDate(new Date(c.expiresAt)) : null;
  return {
    id: s.id,
    code: c.code,
    amount: c.kind === "percent" ? c.amount.toFixed(2) : money(c.amount),
    status: "publish",
    date_created: wcDate(s.createdAt),
    date_created_gmt: wcDate(s.createdAt),
    date_modified: wcDate(s.updatedAt),
    date_modified_gmt: wcDate(s.updatedAt),
    discount_type: c.kind,
    description: "",
    date_expires: expires,
    date_expires_gmt: expires,
    usage_count: s.usageCount,
    individual_use: c.individualUse ?? false,
    product_ids: c.productIds ?? [],
    excluded_product_ids: c.excludedProductIds ?? [],
    usage_limit: c.usageLimit ?? null,
    usage_limit_per_user: c.usageLimitPerCustomer ?? null,
    limit_usage_to_x_items: null,
    free_shipping: c.freeShipping ?? false,
    product_categories: c.categoryIds ?? [],
    excluded_product_categories: c.excludedCategoryIds ?? [],
    exclude_sale_items: c.excludeSaleItems ?? false,
    minimum_amount: money(c.minimumSpend ?? 0),
    maximum_amount: money(c.maximumSpend ?? 0),
    email_restrictions: [],
    used_by: s.usedBy,
    meta_data: [],
  };
}

/** The pricing engine's own check, answered as WooCommerce's invalid parameter. */
function engineCheck(c: Coupon): Reply | null {
  const parsed = couponSchema.safeParse(c);
  if (parsed.success) return null;
  const msg = parsed.error.issues.map((i) => i.message).join("; ");
  return restError("rest_invalid_param", "Invalid parameter(s): amount", 400, { params: { amount: `amount ${msg}` } });
}

/**
 * A coupon's version (docs/contract/rest/orders.md 'Coupons', two editors): its modification time in milliseconds,
 * answered as `ETag` and checked against `If-Match` under the row lock, as products do.
 */
const couponVersion = (updatedAt: Date | string) => String(new Date(updatedAt).getTime());
const versionHeader = (s: coupons.StoredCoupon) => ({ ETag: `"${couponVersion(s.updatedAt)}"` });
const couponChanged = () =>
  restError("rest_coupon_changed", "This coupon was changed since you opened it. Reload it to see the changes, then make yours again.", 412);

const invalidCoupon = () => restError("woocommerce_rest_shop_coupon_invalid_id", "Invalid ID.", 404);
const codeTaken = () => restError("woocommerce_rest_coupon_code_already_exists", "The coupon code already exists", 400);
const couponIdOf = (input: RestInput) => {
  const v = input.pathParams.id ?? "";
  return /^\d{1,10}$/.test(v) ? Number(v) : null;
};

// ---------------------------------------------------------------------------------------------------------------
// Reports
// ---------------------------------------------------------------------------------------------------------------

export const reportArgs = z.object({
  context: listArgs.context,
  period: z.enum(["week", "month", "last_month", "year"]).optional(),
  date_min: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date like 2026-01-31")
    .optional(),
  date_max: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date like 2026-01-31")
    .optional(),
});

const DAY = 86_400_000;
const utcDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));

/** WooCommerce's report ranges (UTC days, both ends included): this week (7 days), this month, last month, this year, or date_min..date_max. */
export function reportRange(a: z.output<typeof reportArgs>, now: Date): { from: Date; to: Date; groupBy: "day" | "month" } | Reply {
  const today = utcDay(now);
  if (a.date_min || a.date_max) {
    // A day that is not in the calendar (2026-02-30) is refused, not rolled over into the next month.
    for (const key of ["date_min", "date_max"] as const) {
      const day = a[key];
      if (day && (Number.isNaN(Date.parse(`${day}T00:00:00Z`)) || new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day)) {
        return restError("rest_invalid_param", `Invalid parameter(s): ${key}`, 400, { params: { [key]: `${key} is not a date in the calendar` } });
      }
    }
    const from = a.date_min ? new Date(`${a.date_min}T00:00:00Z`) : today;
    const last = a.date_max ? new Date(`${a.date_max}T00:00:00Z`) : today;
    if (last < from || last.getTime() - from.getTime() > 3660 * DAY) {
      return restError("rest_invalid_param", "Invalid parameter(s): date_max", 400, {
        params: { date_max: "date_max must be on or after date_min, within ten years" },
      });
    }
    const to = new Date(last.getTime() + DAY);
    return { from, to, groupBy: to.getTime() - from.getTime() > 90 * DAY ? "month" : "day" };
  }
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth();
  switch (a.period ?? "week") {
    case "month":
      return { from: new Date(Date.UTC(y, m, 1)), to: new Date(today.getTime() + DAY), groupBy: "day" };
    case "last_month":
      return { from: new Date(Date.UTC(y, m - 1, 1)), to: new Date(Date.UTC(y, m, 1)), groupBy: "day" };
    case "year":
      return { from: new Date(Date.UTC(y, 0, 1)), to: new Date(today.getTime() + DAY), groupBy: "month" };
    default:
      return { from: new Date(today.getTime() - 6 * DAY), to: new Date(today.getTime() + DAY), groupBy: "day" };
  }
}

export const wcStoreAdminFeature: Feature = {
  name: "wc-store-admin",
  endpoints({ rest }) {
    if (!rest.namespaces.includes("wc/v3")) rest.namespaces.push("wc/v3");

    // ── coupons ────────────────────────────────────────────────────────────────────────────────────────────────

    rest.register("GET", "wc/v3/coupons", async (input) => {
      const user = await staffUser(input, "edit_shop_coupons", WC_DENIED.list);
      if (isReply(user)) return user;
      const args = parseArgs(
        z.object({
          ...listArgs,
          code: z.string().max(100).optional(),
          include: restIdList().optional(),
          exclude: restIdList().optional(),
          orderby: z.enum(["date", "id", "include", "title", "slug", "modified"]).default("date"),
        }),
        requestArgs(input),
      );
      if (!args.ok) return args.reply;
      const a = args.data;
      const { items, total } = await coupons.listCouponsPage(input.services.db, {
        code: a.code,
        search: a.search,
        include: a.include,
        exclude: a.exclude,
        orderby: a.orderby,
        order: a.order,
        limit: a.per_page,
        offset: a.offset ?? (a.page - 1) * a.per_page,
      });
      return pageOutOfRange(total, a.page, a.per_page) ?? pagedJson(input.req, items.map(couponJson), total, a.page, a.per_page);
    });

    rest.register("GET", "wc/v3/coupons/:id", async (input) => {
      const user = await staffUser(input, "edit_shop_coupons", WC_DENIED.view);
      if (isReply(user)) return user;
      const id = couponIdOf(input);
      const found = id === null ? null : await coupons.findCouponById(input.services.db, id);
      return found ? json(couponJson(found), 200, versionHeader(found)) : invalidCoupon();
    });

    rest.register("POST", "wc/v3/coupons", async (input) => {
      const user = await staffUser(input, "edit_shop_coupons", WC_DENIED.create);
      if (isReply(user)) return user;
      if (requestArgs(input).id !== undefined) return restError("woocommerce_rest_shop_coupon_exists", "Cannot create existing coupon.", 400);
      const args = parseArgs(
        couponFields.partial().extend({ code: couponFields.shape.code, discount_type: couponFields.shape.discount_type.default("fixed_cart") }),
        requestArgs(input),
      );
      if (!args.ok) return args.reply;
      const coupon = toCoupon(args.data, null);
      const refused = engineCheck(coupon);
      if (refused) return refused;
      const id = await input.services.db.transaction(async (tx) => {
        const made = await coupons.insertCoupon(tx, coupon);
        if (made !== null) await audit(input, user, { action: "create", objectType: "coupon", objectId: made, changes: { ...coupon } }, tx);
        return made;
      });
      if (id === null) return codeTaken();
      const made = (await coupons.findCouponById(input.services.db, id))!;
      return json(couponJson(made), 201, versionHeader(made));
    });

    const update = async (input: RestInput): Promise<Reply> => {
      const user = await staffUser(input, "edit_shop_coupons", WC_DENIED.edit);
      if (isReply(user)) return user;
      const id = couponIdOf(input);
      const existing = id === null ? null : await coupons.findCouponById(input.services.db, id);
      if (!existing) return invalidCoupon();
      const args = parseArgs(couponFields.partial().extend({ id: restInt(1) }), requestArgs(input));
      if (!args.ok) return args.reply;
      const next = toCoupon(
        { ...args.data, code: args.data.code ?? existing.coupon.code, discount_type: args.data.discount_type ?? existing.coupon.kind },
        existing.coupon,
      );
      const refused = engineCheck(next);
      if (refused) return refused;
      const ifMatch = ifMatchOf(input.req);
      const outcome = await input.services.db.transaction(async (tx): Promise<Reply | null> => {
        const locked = await coupons.lockCouponById(tx, existing.id);
        if (!locked) return invalidCoupon();
        if (ifMatch !== undefined && ifMatch !== couponVersion(locked.updatedAt)) return couponChanged();
        const newCode = next.code.toLowerCase();
        if (newCode !== locked.code) {
          if (locked.used) {
            return restError("rest_invalid_param", "Invalid parameter(s): code", 400, { params: { code: "code cannot change once the coupon has been used" } });
          }
          if ((await coupons.couponIdByCode(tx, newCode)) !== null) return codeTaken();
        }
        await coupons.updateCoupon(tx, existing.id, next);
        await audit(input, user, { action: "update", objectType: "coupon", objectId: existing.id, changes: { before: existing.coupon, after: next } }, tx);
        return null;
      });
      if (outcome) return outcome;
      const saved = (await coupons.findCouponById(input.services.db, existing.id))!;
      return json(couponJson(saved), 200, versionHeader(saved));
    };
    rest.register("PUT", "wc/v3/coupons/:id", update);
    rest.register("PATCH", "wc/v3/coupons/:id", update);
    rest.register("POST", "wc/v3/coupons/:id", update);

    rest.register("DELETE", "wc/v3/coupons/:id", async (input) => {
      const user = await staffUser(input, "edit_shop_coupons", WC_DENIED.delete);
      if (isReply(user)) return user;
      const args = parseArgs(z.object({ force: restBool().default(false) }).loose(), requestArgs(input));
      if (!args.ok) return args.reply;
      const id = couponIdOf(input);
      const existing = id === null ? null : await coupons.findCouponById(input.services.db, id);
      if (!existing) return invalidCoupon();
      if (!args.data.force) return restError("woocommerce_rest_trash_not_supported", "The coupon does not support trashing. Set 'force' to true.", 501);
      await input.services.db.transaction(async (tx) => {
        await coupons.deleteCouponById(tx, existing.id);
        await audit(input, user, { action: "delete", objectType: "coupon", objectId: existing.id, changes: { code: existing.coupon.code } }, tx);
      });
      return json(couponJson(existing));
    });

    // ── reports ────────────────────────────────────────────────────────────────────────────────────────────────

    rest.register("GET", "wc/v3/reports/sales", async (input) => {
      const user = await staffUser(input, "view_woocommerce_reports", WC_DENIED.list);
      if (isReply(user)) return user;
      const args = parseArgs(reportArgs, requestArgs(input));
      if (!args.ok) return args.reply;
      const range = reportRange(args.data, input.services.now());
      if (isReply(range)) return range;
      const days = await salesByDay(input.services.db, range.from, range.to);
      const sum = (k: "sales" | "orders" | "items" | "shipping" | "discount" | "refunds" | "customers") => days.reduce((n, d) => n + d[k], 0);
      const totalSales = sum("sales");
      const refunds = sum("refunds");
      const shipping = sum("shipping");
      // WooCommerce: net = gross − shipping − tax − refunds; the average is per day of the range (per month when grouped by month).
      const net = totalSales - shipping - refunds;
      const buckets = new Map<string, { sales: number; orders: number; items: number; tax: number; shipping: number; discount: number; customers: number }>();
      for (let t = range.from.getTime(); t < range.to.getTime(); t += DAY) {
        const key = new Date(t).toISOString().slice(0, range.groupBy === "day" ? 10 : 7);
        buckets.set(key, { sales: 0, orders: 0, items: 0, tax: 0, shipping: 0, discount: 0, customers: 0 });
      }
      for (const d of days) {
        const b = buckets.get(range.groupBy === "day" ? d.day : d.day.slice(0, 7));
        if (!b) continue;
        b.sales += d.sales;
        b.orders += d.orders;
        b.items += d.items;
        b.shipping += d.shipping;
        b.discount += d.discount;
        b.customers += d.customers;
      }
      const periods = Math.max(1, buckets.size);
      const totals = Object.fromEntries(
        [...buckets].map(([k, b]) => [
          k,
          {
            sales: money(b.sales),
            orders: b.orders,
            items: b.items,
            tax: money(0),
            shipping: money(b.shipping),
            discount: money(b.discount),
            customers: b.customers,
          },
        ]),
      );
      return json([
        {
          total_sales: money(totalSales),
          net_sales: money(net),
          average_sales: money(Math.round(net / periods)),
          total_orders: sum("orders"),
          total_items: sum("items"),
          total_tax: money(0),
          total_shipping: money(shipping),
          total_refunds: refunds / 100,
          total_discount: sum("discount") / 100,
          totals_grouped_by: range.groupBy,
          totals,
          total_customers: sum("customers"),
        },
      ]);
    });

    rest.register("GET", "wc/v3/reports/top_sellers", async (input) => {
      const user = await staffUser(input, "view_woocommerce_reports", WC_DENIED.list);
      if (isReply(user)) return user;
      const args = parseArgs(reportArgs, requestArgs(input));
      if (!args.ok) return args.reply;
      const range = reportRange(args.data, input.services.now());
      if (isReply(range)) return range;
      const top = await topSellers(input.services.db, range.from, range.to, 12);
      return json(top.map((t) => ({ title: t.name, product_id: t.productId, quantity: t.quantity })));
    });

    // ── data/countries ─────────────────────────────────────────────────────────────────────────────────────────

    const countryJson = (code: string) => ({
      code,
      name: COUNTRIES[code]!.name,
      states: (subdivisionsOf(code) ?? []).map((s) => ({ code: s.code, name: s.name })),
    });

    rest.register("GET", "wc/v3/data/countries", async (input) => {
      const user = await staffUser(input, "manage_woocommerce", WC_DENIED.list);
      if (isReply(user)) return user;
      return json(Object.keys(COUNTRIES).map(countryJson));
    });

    rest.register("GET", "wc/v3/data/countries/:code", async (input) => {
      const user = await staffUser(input, "manage_woocommerce", WC_DENIED.view);
      if (isReply(user)) return user;
      const code = (input.pathParams.code ?? "").toUpperCase();
      if (!Object.hasOwn(COUNTRIES, code)) return restError("woocommerce_rest_data_invalid_location", "There are no locations matching these parameters.", 404);
      return json(countryJson(code));
    });

    // ── system_status ──────────────────────────────────────────────────────────────────────────────────────────

    rest.register("GET", "wc/v3/system_status", async (input) => {
      const user = await staffUser(input, "manage_woocommerce", WC_DENIED.view);
      if (isReply(user)) return user;
      const s = input.services;
      const dbInfo = await databaseInfo(s.db);
      const engine = s.db.kind === "pglite" ? "PGlite" : "PostgreSQL";
      // Names and versions only: never a URL, a path with credentials, a secret or an environment variable's value.
      return json({
        environment: {
          home_url: s.siteUrl,
          site_url: s.siteUrl,
          version: SHOP_VERSION,
          wp_version: `Maskerade ${SHOP_VERSION}`,
          wp_multisite: false,
          wp_debug_mode: process.env.NODE_ENV !== "production",
          language: "en_US",
          server_info: `Node.js ${process.version} (${os.platform()} ${os.arch()})`,
          node_version: process.version,
          php_version: "",
          default_timezone: "UTC",
        },
        database: {
          wc_database_version: SHOP_VERSION,
          database_prefix: "",
          engine,
          engine_version: dbInfo.version,
          database_tables: { woocommerce: Object.fromEntries(dbInfo.tables.map((t) => [t, { data: "", index: "", engine }])), other: {} },
        },
        active_plugins: [],
        theme: { name: s.config.siteName },
        settings: { currency: s.config.currency.code, currency_symbol: s.config.currency.format.symbol, api_enabled: true },
      });
    });
  },
};
