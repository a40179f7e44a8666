/** Storage for orders, saved payment tokens and the e-mail outbox. Only SQL lives here. */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";
import type { BankToken, CardToken } from "../../payments/gateway.ts";
import type { StockNeed } from "../../domain/catalog/index.ts";
import { parseOrderStatus, type OrderStatus } from "../../domain/orders/status.ts";
import type { OrderAddress, OrderTaxLine, OrderView, OrderSummary, PaymentMethodView, SavedToken } from "../../domain/orders/types.ts";
import { addOrderSales, orderStock, recordOrderStock, returnUnits } from "./stock.ts";
import { releaseOrderCouponUses } from "./coupon-usage.ts";
import { grantOrderDownloads, revokeOrderDownloads } from "./downloads.ts";

export interface NewOrder {
  orderKey: string;
  customerId: number | null;
  billingEmail: string;
  currency: string;
  subtotal: number;
  discountTotal: number;
  shippingTotal: number;
  /** Tax (Settings › Tax; none while it is off): included in `total`. */
  totalTax?: number;
  shippingTax?: number;
  taxLines?: OrderTaxLine[];
  total: number;
  shippingMethodId: string | null;
  shippingMethodTitle: string | null;
  paymentMethod: string;
  paymentMethodTitle: string;
  customerNote: string;
  checkoutKey: string | null;
  billing: OrderAddress;
  shipping: OrderAddress | null;
  /** `details`: the line's choice as the receipt prints it (core/domain/orders/receipt.ts). */
  lines: {
    productId: number;
    variationId: number | null;
    name: string;
    details: string;
    quantity: number;
    subtotal: number;
    total: number;
    subtotalTax?: number;
    totalTax?: number;
  }[];
  /** The managed stock taken for this order (already taken by the caller): recorded so it can be given back. */
  stock: readonly StockNeed[];
  coupons: { code: string; discount: number }[];
  meta: Record<string, string>;
}

export async function insertOrder(tx: Queryable, o: NewOrder): Promise<number> {
  const db = sql(tx);
  const { id } = await db
    .insertInto("orders")
    .values({
      order_key: o.orderKey,
      customer_id: o.customerId,
      billing_email: o.billingEmail,
      currency: o.currency,
      subtotal: o.subtotal,
      discount_total: o.discountTotal,
      shipping_total: o.shippingTotal,
      total_tax: o.totalTax ?? 0,
      shipping_tax: o.shippingTax ?? 0,
      tax_lines: JSON.stringify(o.taxLines ?? []),
      total: o.total,
      shipping_method_id: o.shippingMethodId,
      shipping_method_title: o.shippingMethodTitle,
      payment_method: o.paymentMethod,
      payment_method_title: o.paymentMethodTitle,
      customer_note: o.customerNote,
      checkout_key: o.checkoutKey,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const addresses: ["billing" | "shipping", OrderAddress][] = [["billing", o.billing]];
  if (o.shipping) addresses.push(["shipping", o.shipping]);
  for (const [kind, a] of addresses) {
    await db
      .insertInto("order_addresses")
      .values({
        order_id: id,
        kind,
        first_name: a.first_name,
        last_name: a.last_name,
        company: a.company,
        address_1: a.address_1,
        address_2: a.address_2,
        city: a.city,
        state: a.state,
        postcode: a.postcode,
        country: a.country,
        email: a.email,
        phone: a.phone,
      })
      .execute();
  }
  for (const l of o.lines) await insertOrderLine(tx, id, l);
  await recordOrderStock(tx, id, o.stock);
  for (const c of o.coupons) await db.insertInto("order_coupons").values({ order_id: id, code: c.code, discount: c.discount }).execute();
  for (const [k, v] of Object.entries(o.meta)) {
    await db
      .insertInto("order_meta")
      .values({ order_id: id, key: k, value: v })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  return id;
}

/** One line of an order (placing it, or staff adding one to it: decision 0048); its id. */
export async function insertOrderLine(tx: Queryable, orderId: number, l: NewOrder["lines"][number]): Promise<number> {
  const row = await sql(tx)
    .insertInto("order_lines")
    .values({
      order_id: orderId,
      product_id: l.productId,
      variation_id: l.variationId,
      name: l.name,
      details: l.details,
      quantity: l.quantity,
      subtotal: l.subtotal,
      total: l.total,
      subtotal_tax: l.subtotalTax ?? 0,
      total_tax: l.totalTax ?? 0,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Moves an order along an allowed edge of order_status_transitions (the edges core/domain/orders/status.ts lists);
 * false when the order's status has no edge to `to`. Notes the change on the order.
 */
export async function transition(tx: Queryable, orderId: number, to: OrderStatus, opts: { paid?: boolean } = {}): Promise<boolean> {
  const db = sql(tx);
  const rows = await db
    .updateTable("orders")
    .set({ status: to, updated_at: raw`now()` })
    .$if(opts.paid === true, (q) => q.set((eb) => ({ paid_at: eb.fn.coalesce("paid_at", raw<Date>`now()`) })))
    .where("id", "=", orderId)
    .where("status", "in", (eb) => eb.selectFrom("order_status_transitions").select("from_status").where("to_status", "=", to))
    .returning("id")
    .execute();
  if (!rows.length) return false;
  await addOrderNote(tx, orderId, `Order status changed to ${to}.`);
  // The one place an order's status changes, so the one place its downloads are granted and taken back (decision 0041).
  if (to === "processing" || to === "completed") await grantOrderDownloads(tx, orderId, new Date());
  else if (to === "cancelled" || to === "refunded") await revokeOrderDownloads(tx, orderId);
  return true;
}

/** The lifecycle as the database holds it (order_statuses, order_status_transitions), in a stable order. */
export async function orderStatusTable(tx: Queryable): Promise<{ statuses: { status: string; label: string }[]; transitions: { from: string; to: string }[] }> {
  const db = sql(tx);
  const statuses = await db.selectFrom("order_statuses").select(["status", "label"]).orderBy("status").execute();
  const transitions = await db
    .selectFrom("order_status_transitions")
    .select(["from_status as from", "to_status as to"])
    .orderBy("from_status")
    .orderBy("to_status")
    .execute();
  return { statuses, transitions };
}

export async function addOrderNote(tx: Queryable, orderId: number, note: string): Promise<void> {
  await sql(tx).insertInto("order_notes").values({ order_id: orderId, note }).execute();
}

/** Gives back the stock and coupon usage an unpaid order held (once: guarded by orders.stock_held). */
export async function releaseHeld(tx: Queryable, orderId: number): Promise<boolean> {
  const held = await sql(tx)
    .updateTable("orders")
    .set({ stock_held: false })
    .where("id", "=", orderId)
    .where("stock_held", "=", true)
    .where("paid_at", "is", null)
    .returning("id")
    .execute();
  if (!held.length) return false;
  for (const need of await orderStock(tx, orderId)) await returnUnits(tx, need);
  await addOrderSales(tx, orderId, -1);
  await releaseOrderCouponUses(tx, orderId);
  return true;
}

/** Marks that the order holds its stock and coupon usage again (after they were taken back for it). */
export async function markStockHeld(tx: Queryable, orderId: number): Promise<void> {
  await sql(tx).updateTable("orders").set({ stock_held: true }).where("id", "=", orderId).execute();
}

/** The order row locked for the rest of the transaction (paying or cancelling it); null when it does not exist. */
export async function lockOrder(
  tx: Queryable,
  orderId: number,
): Promise<{ status: OrderStatus; customerId: number | null; stockHeld: boolean; total: number; billingEmail: string } | null> {
  const row = await sql(tx)
    .selectFrom("orders")
    .select(["status", "customer_id", "stock_held", "total", "billing_email"])
    .where("id", "=", orderId)
    .forUpdate()
    .executeTakeFirst();
  return row
    ? { status: parseOrderStatus(row.status), customerId: row.customer_id, stockHeld: row.stock_held, total: row.total, billingEmail: row.billing_email }
    : null;
}

/** The gateway an order is being paid with (order-pay: the method of the new attempt). */
export async function setPaymentMethod(tx: Queryable, orderId: number, method: string, title: string): Promise<void> {
  await sql(tx)
    .updateTable("orders")
    .set({ payment_method: method, payment_method_title: title, updated_at: raw`now()` })
    .where("id", "=", orderId)
    .execute();
}

/** Gives a guest order to a new account (once: only while it has none). True when it was linked. */
export async function linkGuestOrder(tx: Queryable, orderId: number, customerId: number): Promise<boolean> {
  const rows = await sql(tx)
    .updateTable("orders")
    .set({ customer_id: customerId, updated_at: raw`now()` })
    .where("id", "=", orderId)
    .where("customer_id", "is", null)
    .returning("id")
    .execute();
  return rows.length > 0;
}

/** What a "payment failed" e-mail needs of an order. */
export async function orderContact(tx: Queryable, orderId: number): Promise<{ orderKey: string; billingEmail: string; total: number } | null> {
  const row = await sql(tx).selectFrom("orders").select(["order_key", "billing_email", "total"]).where("id", "=", orderId).executeTakeFirst();
  return row ? { orderKey: row.order_key, billingEmail: row.billing_email, total: Number(row.total) } : null;
}

const toAddress = (a: Omit<OrderAddress, never>): OrderAddress => ({
  first_name: a.first_name,
  last_name: a.last_name,
  company: a.company,
  country: a.country,
  address_1: a.address_1,
  address_2: a.address_2,
  city: a.city,
  state: a.state,
  postcode: a.postcode,
  phone: a.phone,
  email: a.email,
});

/** An order's stored tax rows (orders.tax_lines), whatever survives a check of their shape. */
export function taxLinesOf(value: unknown): OrderTaxLine[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((t) => {
    if (!t || typeof t !== "object") return [];
    const r = t as Record<string, unknown>;
    const n = (v: unknown) => (typeof v === "number" && Number.isSafeInteger(v) ? v : 0);
    return [
      {
        rateId: n(r.rateId),
        label: typeof r.label === "string" ? r.label : "Tax",
        rate: n(r.rate),
        compound: r.compound === true,
        taxTotal: n(r.taxTotal),
        shippingTaxTotal: n(r.shippingTaxTotal),
      },
    ];
  });
}

export async function findOrder(tx: Queryable, id: number): Promise<OrderView | null> {
  const db = sql(tx);
  const o = await db
    .selectFrom("orders as o")
    .innerJoin("order_statuses as s", "s.status", "o.status")
    .selectAll("o")
    .select("s.label as status_label")
    .where("o.id", "=", id)
    .executeTakeFirst();
  if (!o) return null;
  // One query at a time: this may run inside a transaction, on one connection.
  const lines = await db.selectFrom("order_lines").selectAll().where("order_id", "=", id).orderBy("id").execute();
  const addresses = await db.selectFrom("order_addresses").selectAll().where("order_id", "=", id).execute();
  const coupons = await db.selectFrom("order_coupons").select(["code", "discount"]).where("order_id", "=", id).orderBy("code").execute();
  const meta = await db.selectFrom("order_meta").select(["key", "value"]).where("order_id", "=", id).orderBy("key").execute();
  const attempt = await db
    .selectFrom("payment_attempts")
    .select("method")
    .where("order_id", "=", id)
    .where("status", "=", "captured")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  const addr: OrderView["addresses"] = {};
  for (const a of addresses) addr[a.kind as "billing" | "shipping"] = toAddress(a);
  return {
    id: o.id,
    orderKey: o.order_key,
    status: parseOrderStatus(o.status),
    statusLabel: o.status_label,
    customerId: o.customer_id,
    billingEmail: o.billing_email,
    currency: o.currency,
    subtotal: Number(o.subtotal),
    discountTotal: Number(o.discount_total),
    shippingTotal: Number(o.shipping_total),
    totalTax: Number(o.total_tax),
    shippingTax: Number(o.shipping_tax),
    taxLines: taxLinesOf(o.tax_lines),
    total: Number(o.total),
    shippingMethodTitle: o.shipping_method_title ?? null,
    paymentMethod: o.payment_method,
    paymentMethodTitle: o.payment_method_title,
    customerNote: o.customer_note,
    createdAt: new Date(o.created_at),
    paidAt: o.paid_at ? new Date(o.paid_at) : null,
    lines: lines.map((l) => ({
      productId: l.product_id,
      variationId: l.variation_id,
      name: l.name,
      details: l.details,
      quantity: l.quantity,
      subtotal: Number(l.subtotal),
      total: Number(l.total),
      subtotalTax: Number(l.subtotal_tax),
      totalTax: Number(l.total_tax),
    })),
    addresses: addr,
    coupons,
    meta: Object.fromEntries(meta.map((m) => [m.key, m.value])),
    paymentMethodSummary: (attempt?.method as PaymentMethodView | null | undefined) ?? null,
  };
}

export async function listCustomerOrders(tx: Queryable, customerId: number, limit = 50): Promise<OrderSummary[]> {
  const rows = await sql(tx)
    .selectFrom("orders as o")
    .innerJoin("order_statuses as s", "s.status", "o.status")
    .select((eb) => [
      "o.id",
      "o.order_key",
      "o.status",
      "s.label",
      "o.total",
      eb
        .selectFrom("order_lines as l")
        .select((e) => e.cast<number>(e.fn.coalesce(e.fn.sum<number>("l.quantity"), e.lit(0)), "integer").as("n"))
        .whereRef("l.order_id", "=", "o.id")
        .as("items"),
      "o.created_at",
    ])
    .where("o.customer_id", "=", customerId)
    .orderBy("o.created_at", "desc")
    .orderBy("o.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    orderKey: r.order_key,
    status: parseOrderStatus(r.status),
    statusLabel: r.label,
    total: Number(r.total),
    items: r.items ?? 0,
    createdAt: new Date(r.created_at),
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// Saved payment tokens (token, brand, last four, expiry — nothing else)
// ---------------------------------------------------------------------------------------------------------------

const toToken = (r: {
  id: number;
  customer_id: number;
  gateway_id: string;
  token: string;
  kind: string;
  brand: string;
  last4: string;
  exp_month: number | null;
  exp_year: number | null;
  is_default: boolean;
}): SavedToken => ({
  id: Number(r.id),
  customerId: Number(r.customer_id),
  gatewayId: r.gateway_id,
  token: r.token,
  kind: r.kind as "card" | "bank",
  brand: r.brand,
  last4: r.last4,
  expMonth: r.exp_month === null ? null : Number(r.exp_month),
  expYear: r.exp_year === null ? null : Number(r.exp_year),
  isDefault: Boolean(r.is_default),
});

export async function saveToken(tx: Queryable, customerId: number, gatewayId: string, t: CardToken | BankToken): Promise<number> {
  const isCard = t.kind === "card";
  const row = await sql(tx)
    .insertInto("payment_tokens")
    .values((eb) => ({
      customer_id: customerId,
      gateway_id: gatewayId,
      token: t.token,
      kind: t.kind,
      brand: isCard ? (t as CardToken).brand : "",
      last4: t.last4,
      exp_month: isCard ? (t as CardToken).expMonth : null,
      exp_year: isCard ? (t as CardToken).expYear : null,
      // The customer's first method of this gateway becomes the default.
      is_default: eb
        .not(eb.exists(eb.selectFrom("payment_tokens").select(eb.lit(1).as("one")).where("customer_id", "=", customerId).where("gateway_id", "=", gatewayId)))
        .$castTo<boolean>(),
    }))
    .onConflict((oc) => oc.columns(["gateway_id", "token"]).doUpdateSet((eb) => ({ last4: eb.ref("excluded.last4") })))
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function listTokens(tx: Queryable, customerId: number): Promise<SavedToken[]> {
  const rows = await sql(tx)
    .selectFrom("payment_tokens")
    .selectAll()
    .where("customer_id", "=", customerId)
    .orderBy("is_default", "desc")
    .orderBy("id")
    .execute();
  return rows.map(toToken);
}

export async function findToken(tx: Queryable, id: number, customerId: number): Promise<SavedToken | null> {
  const row = await sql(tx).selectFrom("payment_tokens").selectAll().where("id", "=", id).where("customer_id", "=", customerId).executeTakeFirst();
  return row ? toToken(row) : null;
}

export async function deleteToken(tx: Queryable, id: number, customerId: number): Promise<boolean> {
  const rows = await sql(tx).deleteFrom("payment_tokens").where("id", "=", id).where("customer_id", "=", customerId).returning("id").execute();
  return rows.length > 0;
}

export async function setDefaultToken(tx: Queryable, id: number, customerId: number): Promise<boolean> {
  const rows = await sql(tx)
    .updateTable("payment_tokens")
    .set((eb) => ({ is_default: eb("id", "=", id).$castTo<boolean>() }))
    .where("customer_id", "=", customerId)
    .where("gateway_id", "=", (eb) => eb.selectFrom("payment_tokens").select("gateway_id").where("id", "=", id).where("customer_id", "=", customerId))
    .returning("id")
    .execute();
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Outbox
// ---------------------------------------------------------------------------------------------------------------

/** Queues an e-mail in the outbox; its id. */
export async function queueEmail(tx: Queryable, e: { kind: string; to: string; subject: string; body: string; orderId?: number | null }): Promise<number> {
  const row = await sql(tx)
    .insertInto("email_outbox")
    .values({ kind: e.kind, to_address: e.to, subject: e.subject, body: e.body, order_id: e.orderId ?? null })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
