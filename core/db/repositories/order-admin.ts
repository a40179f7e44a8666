/**
 * Storage for the staff's view of orders (wc/v3/orders, docs/contract/rest/orders.md): filtered lists, the full
 * order with line ids, notes, refunds and the sales reports. Only SQL lives here; the rules are in
 * core/commerce/order-admin.ts.
 */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";
import { parseOrderStatus, type OrderStatus } from "../../domain/orders/status.ts";
import type { OrderAddress, OrderTaxLine } from "../../domain/orders/types.ts";
import { taxLinesOf } from "./orders.ts";

export interface OrderListQuery {
  statuses: OrderStatus[] | null;
  customerId?: number;
  productId?: number;
  include?: number[];
  exclude?: number[];
  search?: string;
  after?: Date;
  before?: Date;
  orderby: "date" | "id" | "include" | "title" | "slug";
  order: "asc" | "desc";
  limit: number;
  offset: number;
}

/** The ids of one page of orders and the size of the whole filtered list. */
export async function listOrderIds(db: Queryable, q: OrderListQuery): Promise<{ ids: number[]; total: number }> {
  const base = sql(db)
    .selectFrom("orders as o")
    .$if(q.statuses !== null, (s) => s.where("o.status", "in", q.statuses!))
    .$if(q.customerId !== undefined, (s) => s.where("o.customer_id", "=", q.customerId!))
    .$if(q.productId !== undefined, (s) =>
      s.where((eb) =>
        eb.exists(
          eb
            .selectFrom("order_lines as l")
            .select(eb.lit(1).as("one"))
            .whereRef("l.order_id", "=", "o.id")
            .where((e) => e.or([e("l.product_id", "=", q.productId!), e("l.variation_id", "=", q.productId!)])),
        ),
      ),
    )
    .$if(q.include !== undefined && q.include.length > 0, (s) => s.where("o.id", "in", q.include!))
    .$if(q.exclude !== undefined && q.exclude.length > 0, (s) => s.where("o.id", "not in", q.exclude!))
    .$if(q.after !== undefined, (s) => s.where("o.created_at", ">", q.after!))
    .$if(q.before !== undefined, (s) => s.where("o.created_at", "<", q.before!))
    .$if(q.search !== undefined && q.search !== "", (s) => {
      const like = `%${q.search!.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return s.where((eb) =>
        eb.or([
          eb("o.billing_email", "ilike", like),
          eb(eb.cast("o.id", "text"), "=", q.search!),
          eb.exists(
            eb
              .selectFrom("order_addresses as a")
              .select(eb.lit(1).as("one"))
              .whereRef("a.order_id", "=", "o.id")
              .where((e) => e.or([e("a.first_name", "ilike", like), e("a.last_name", "ilike", like), e("a.company", "ilike", like)])),
          ),
          eb.exists(eb.selectFrom("order_lines as l").select(eb.lit(1).as("one")).whereRef("l.order_id", "=", "o.id").where("l.name", "ilike", like)),
        ]),
      );
    });
  const counted = await base.select((eb) => eb.cast<number>(eb.fn.countAll(), "integer").as("n")).executeTakeFirst();
  let page = base.select("o.id");
  if (q.orderby === "include" && q.include?.length) {
    page = page.orderBy(raw`array_position(${q.include}::int[], o.id)`);
  } else if (q.orderby === "id" || q.orderby === "title" || q.orderby === "slug") {
    // An order's title and slug are its number (WooCommerce: "Order – <date>"), so both sort as the id does.
    page = page.orderBy("o.id", q.order);
  } else {
    page = page.orderBy("o.created_at", q.order).orderBy("o.id", q.order);
  }
  const rows = await page.limit(q.limit).offset(q.offset).execute();
  return { ids: rows.map((r) => r.id), total: counted?.n ?? 0 };
}

export interface AdminOrderLine {
  id: number;
  productId: number;
  variationId: number | null;
  name: string;
  details: string;
  quantity: number;
  subtotal: number;
  total: number;
  subtotalTax: number;
  totalTax: number;
  sku: string;
}

export interface AdminRefund {
  id: number;
  orderId: number;
  amount: number;
  reason: string;
  refundedBy: number | null;
  apiRefund: boolean;
  restock: boolean;
  lineItems: RefundLine[];
  status: "pending" | "completed";
  gatewayRefundId: string | null;
  createdAt: Date;
}

export interface RefundLine {
  id: number;
  quantity: number;
  refund_total: number;
}

export interface AdminOrder {
  id: number;
  orderKey: string;
  status: OrderStatus;
  customerId: number | null;
  billingEmail: string;
  currency: string;
  subtotal: number;
  discountTotal: number;
  shippingTotal: number;
  /** Tax charged (Settings › Tax), included in `total`; its shipping share; one row per rate. */
  totalTax: number;
  shippingTax: number;
  taxLines: OrderTaxLine[];
  total: number;
  shippingMethodId: string | null;
  shippingMethodTitle: string | null;
  paymentMethod: string;
  paymentMethodTitle: string;
  customerNote: string;
  createdVia: string;
  createdAt: Date;
  updatedAt: Date;
  paidAt: Date | null;
  completedAt: Date | null;
  transactionId: string;
  lines: AdminOrderLine[];
  addresses: Partial<Record<"billing" | "shipping", OrderAddress>>;
  coupons: { code: string; discount: number }[];
  meta: { key: string; value: string }[];
  refunds: AdminRefund[];
}

const toRefund = (r: {
  id: number;
  order_id: number;
  amount: number;
  reason: string;
  refunded_by: number | null;
  api_refund: boolean;
  restock: boolean;
  line_items: unknown;
  status: string;
  gateway_refund_id: string | null;
  created_at: Date | string;
}): AdminRefund => ({
  id: r.id,
  orderId: r.order_id,
  amount: Number(r.amount),
  reason: r.reason,
  refundedBy: r.refunded_by,
  apiRefund: r.api_refund,
  restock: r.restock,
  lineItems: (r.line_items as RefundLine[] | null) ?? [],
  status: r.status as AdminRefund["status"],
  gatewayRefundId: r.gateway_refund_id,
  createdAt: new Date(r.created_at),
});

/** Full orders by id, in the order of `ids` (missing ones left out). A handful of queries whatever the count. */
export async function adminOrders(db: Queryable, ids: readonly number[]): Promise<AdminOrder[]> {
  if (ids.length === 0) return [];
  const s = sql(db);
  const list = [...ids];
  const orders = await s.selectFrom("orders").selectAll().where("id", "in", list).execute();
  const lines = await s
    .selectFrom("order_lines as l")
    .leftJoin("products as p", "p.id", "l.product_id")
    .leftJoin("variations as v", "v.id", "l.variation_id")
    .select([
      "l.id",
      "l.order_id",
      "l.product_id",
      "l.variation_id",
      "l.name",
      "l.details",
      "l.quantity",
      "l.subtotal",
      "l.total",
      "l.subtotal_tax",
      "l.total_tax",
      "p.sku",
      "v.sku as v_sku",
    ])
    .where("l.order_id", "in", list)
    .orderBy("l.id")
    .execute();
  const addresses = await s.selectFrom("order_addresses").selectAll().where("order_id", "in", list).execute();
  const coupons = await s.selectFrom("order_coupons").select(["order_id", "code", "discount"]).where("order_id", "in", list).orderBy("code").execute();
  const meta = await s.selectFrom("order_meta").select(["order_id", "key", "value"]).where("order_id", "in", list).orderBy("key").execute();
  const refunds = await s
    .selectFrom("order_refunds")
    .selectAll()
    .where("order_id", "in", list)
    .where("status", "=", "completed")
    .orderBy("id", "desc")
    .execute();
  const charges = await s
    .selectFrom("payment_attempts")
    .select(["order_id", "charge_id"])
    .where("order_id", "in", list)
    .where("status", "=", "captured")
    .orderBy("id")
    .execute();
  const byId = new Map(orders.map((o) => [o.id, o]));
  return list.flatMap((id) => {
    const o = byId.get(id);
    if (!o) return [];
    const addr: AdminOrder["addresses"] = {};
    for (const a of addresses.filter((x) => x.order_id === id)) {
      addr[a.kind as "billing" | "shipping"] = {
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
      };
    }
    return [
      {
        id: o.id,
        orderKey: o.order_key,
        status: parseOrderStatus(o.status),
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
        shippingMethodId: o.shipping_method_id,
        shippingMethodTitle: o.shipping_method_title,
        paymentMethod: o.payment_method,
        paymentMethodTitle: o.payment_method_title,
        customerNote: o.customer_note,
        createdVia: o.created_via,
        createdAt: new Date(o.created_at),
        updatedAt: new Date(o.updated_at),
        paidAt: o.paid_at ? new Date(o.paid_at) : null,
        completedAt: o.completed_at ? new Date(o.completed_at) : null,
        transactionId: charges.filter((c) => c.order_id === id).at(-1)?.charge_id ?? "",
        lines: lines
          .filter((l) => l.order_id === id)
          .map((l) => ({
            id: l.id,
            productId: l.product_id,
            variationId: l.variation_id,
            name: l.name,
            details: l.details,
            quantity: l.quantity,
            subtotal: Number(l.subtotal),
            total: Number(l.total),
            subtotalTax: Number(l.subtotal_tax),
            totalTax: Number(l.total_tax),
            sku: l.v_sku || l.sku || "",
          })),
        addresses: addr,
        coupons: coupons.filter((c) => c.order_id === id).map((c) => ({ code: c.code, discount: Number(c.discount) })),
        meta: meta.filter((m) => m.order_id === id).map((m) => ({ key: m.key, value: m.value })),
        refunds: refunds.filter((r) => r.order_id === id).map(toRefund),
      },
    ];
  });
}

/** Writes an order's billing or shipping address (the whole address: absent fields are empty). */
export async function saveOrderAddress(tx: Queryable, orderId: number, kind: "billing" | "shipping", a: OrderAddress): Promise<void> {
  const values = {
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
  };
  await sql(tx)
    .insertInto("order_addresses")
    .values({ order_id: orderId, kind, ...values })
    .onConflict((oc) => oc.columns(["order_id", "kind"]).doUpdateSet(values))
    .execute();
  if (kind === "billing" && a.email)
    await sql(tx)
      .updateTable("orders")
      .set({ billing_email: a.email, updated_at: raw`now()` })
      .where("id", "=", orderId)
      .execute();
}

/**
 * The order's version (its `updated_at` in milliseconds, the ETag of `GET wc/v3/orders/{id}`), its row locked for
 * the rest of the transaction; null when there is no such order.
 */
export async function lockOrderVersion(tx: Queryable, orderId: number): Promise<string | null> {
  const row = await sql(tx).selectFrom("orders").select("updated_at").where("id", "=", orderId).forUpdate().executeTakeFirst();
  return row ? String(new Date(row.updated_at).getTime()) : null;
}

/** A line's quantity and money after staff changed it (decision 0048). */
export async function setOrderLine(
  tx: Queryable,
  orderId: number,
  lineId: number,
  l: { quantity: number; subtotal: number; total: number; subtotalTax: number; totalTax: number },
): Promise<void> {
  await sql(tx)
    .updateTable("order_lines")
    .set({ quantity: l.quantity, subtotal: l.subtotal, total: l.total, subtotal_tax: l.subtotalTax, total_tax: l.totalTax })
    .where("order_id", "=", orderId)
    .where("id", "=", lineId)
    .execute();
}

export async function deleteOrderLines(tx: Queryable, orderId: number, lineIds: readonly number[]): Promise<void> {
  if (lineIds.length === 0) return;
  await sql(tx)
    .deleteFrom("order_lines")
    .where("order_id", "=", orderId)
    .where("id", "in", [...lineIds])
    .execute();
}

/** The order's money after its lines changed, and a new version. */
export async function saveOrderTotals(
  tx: Queryable,
  orderId: number,
  t: { subtotal: number; discountTotal: number; totalTax: number; shippingTax: number; taxLines: OrderTaxLine[]; total: number },
): Promise<void> {
  await sql(tx)
    .updateTable("orders")
    .set({
      subtotal: t.subtotal,
      discount_total: t.discountTotal,
      total_tax: t.totalTax,
      shipping_tax: t.shippingTax,
      tax_lines: JSON.stringify(t.taxLines),
      total: t.total,
      updated_at: raw`now()`,
    })
    .where("id", "=", orderId)
    .execute();
}

/** Marks the order as changed now (a new version). */
export async function touchOrder(tx: Queryable, orderId: number): Promise<void> {
  await sql(tx)
    .updateTable("orders")
    .set({ updated_at: raw`now()` })
    .where("id", "=", orderId)
    .execute();
}

export async function setCustomerNote(tx: Queryable, orderId: number, note: string): Promise<void> {
  await sql(tx)
    .updateTable("orders")
    .set({ customer_note: note, updated_at: raw`now()` })
    .where("id", "=", orderId)
    .execute();
}

/** Marks how a new order was made (WooCommerce's created_via) and who it is for. */
export async function setOrderOrigin(tx: Queryable, orderId: number, createdVia: string): Promise<void> {
  await sql(tx).updateTable("orders").set({ created_via: createdVia }).where("id", "=", orderId).execute();
}

export async function markCompletedAt(tx: Queryable, orderId: number): Promise<void> {
  await sql(tx)
    .updateTable("orders")
    .set({ completed_at: raw`now()` })
    .where("id", "=", orderId)
    .execute();
}

/** Deletes the order and everything that cascades with it. True when it existed. */
export async function deleteOrder(tx: Queryable, orderId: number): Promise<boolean> {
  await sql(tx).deleteFrom("coupon_usages").where("order_id", "=", orderId).execute();
  const rows = await sql(tx).deleteFrom("orders").where("id", "=", orderId).returning("id").execute();
  return rows.length > 0;
}

/** Whether the order was paid (paid_at set): a paid order's stock is no longer 'held' but sold. */
export async function orderPaidAt(tx: Queryable, orderId: number): Promise<Date | null> {
  const row = await sql(tx).selectFrom("orders").select("paid_at").where("id", "=", orderId).executeTakeFirst();
  return row?.paid_at ? new Date(row.paid_at) : null;
}

// ---------------------------------------------------------------------------------------------------------------
// Notes
// ---------------------------------------------------------------------------------------------------------------

export interface OrderNote {
  id: number;
  orderId: number;
  note: string;
  customerNote: boolean;
  addedBy: number | null;
  addedByName: string | null;
  createdAt: Date;
}

const noteColumns = ["n.id", "n.order_id", "n.note", "n.customer_note", "n.added_by", "c.display_name", "n.created_at"] as const;
const toNote = (r: {
  id: number;
  order_id: number;
  note: string;
  customer_note: boolean;
  added_by: number | null;
  display_name: string | null;
  created_at: Date | string;
}): OrderNote => ({
  id: r.id,
  orderId: r.order_id,
  note: r.note,
  customerNote: r.customer_note,
  addedBy: r.added_by,
  addedByName: r.display_name,
  createdAt: new Date(r.created_at),
});

export async function listNotes(db: Queryable, orderId: number, type: "any" | "customer" | "internal"): Promise<OrderNote[]> {
  const rows = await sql(db)
    .selectFrom("order_notes as n")
    .leftJoin("customers as c", "c.id", "n.added_by")
    .select(noteColumns)
    .where("n.order_id", "=", orderId)
    .$if(type !== "any", (q) => q.where("n.customer_note", "=", type === "customer"))
    .orderBy("n.created_at", "desc")
    .orderBy("n.id", "desc")
    .execute();
  return rows.map(toNote);
}

export async function findNote(db: Queryable, orderId: number, noteId: number): Promise<OrderNote | null> {
  const row = await sql(db)
    .selectFrom("order_notes as n")
    .leftJoin("customers as c", "c.id", "n.added_by")
    .select(noteColumns)
    .where("n.order_id", "=", orderId)
    .where("n.id", "=", noteId)
    .executeTakeFirst();
  return row ? toNote(row) : null;
}

export async function insertNote(tx: Queryable, orderId: number, note: string, customerNote: boolean, addedBy: number | null): Promise<number> {
  const row = await sql(tx)
    .insertInto("order_notes")
    .values({ order_id: orderId, note, customer_note: customerNote, added_by: addedBy })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function deleteNote(tx: Queryable, orderId: number, noteId: number): Promise<boolean> {
  const rows = await sql(tx).deleteFrom("order_notes").where("order_id", "=", orderId).where("id", "=", noteId).returning("id").execute();
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Refunds
// ---------------------------------------------------------------------------------------------------------------

/** Cents already refunded or being refunded (pending rows count: they hold their amount until they finish). */
export async function refundedSoFar(tx: Queryable, orderId: number): Promise<number> {
  const row = await sql(tx)
    .selectFrom("order_refunds")
    .select((eb) => eb.cast<number>(eb.fn.coalesce(eb.fn.sum<number>("amount"), eb.lit(0)), "integer").as("n"))
    .where("order_id", "=", orderId)
    .executeTakeFirst();
  return row?.n ?? 0;
}

/** The lines of every refund of the order, completed or pending (pending ones hold their lines as their amount). */
export async function refundLinesSoFar(tx: Queryable, orderId: number): Promise<RefundLine[][]> {
  const rows = await sql(tx).selectFrom("order_refunds").select("line_items").where("order_id", "=", orderId).execute();
  return rows.map((r) => (r.line_items as RefundLine[] | null) ?? []);
}

/** Cents refunded by completed refunds only (whether the order is fully refunded). */
export async function completedRefundTotal(tx: Queryable, orderId: number): Promise<number> {
  const row = await sql(tx)
    .selectFrom("order_refunds")
    .select((eb) => eb.cast<number>(eb.fn.coalesce(eb.fn.sum<number>("amount"), eb.lit(0)), "integer").as("n"))
    .where("order_id", "=", orderId)
    .where("status", "=", "completed")
    .executeTakeFirst();
  return row?.n ?? 0;
}

/** The key of the same refund request (same hash) made on the order in the last `windowMs`, if any. */
export async function recentRefundKey(tx: Queryable, orderId: number, requestHash: string, windowMs: number): Promise<string | null> {
  const row = await sql(tx)
    .selectFrom("order_refunds")
    .select("idempotency_key")
    .where("order_id", "=", orderId)
    .where("request_hash", "=", requestHash)
    .where("created_at", ">", raw<Date>`now() - make_interval(secs => ${windowMs / 1000})`)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.idempotency_key ?? null;
}

export async function findRefundByKey(tx: Queryable, orderId: number, key: string): Promise<(AdminRefund & { requestHash: string }) | null> {
  const row = await sql(tx).selectFrom("order_refunds").selectAll().where("order_id", "=", orderId).where("idempotency_key", "=", key).executeTakeFirst();
  return row ? { ...toRefund(row), requestHash: row.request_hash } : null;
}

export async function findRefund(db: Queryable, orderId: number, refundId: number): Promise<AdminRefund | null> {
  const row = await sql(db)
    .selectFrom("order_refunds")
    .selectAll()
    .where("order_id", "=", orderId)
    .where("id", "=", refundId)
    .where("status", "=", "completed")
    .executeTakeFirst();
  return row ? toRefund(row) : null;
}

export async function listRefunds(db: Queryable, orderId: number): Promise<AdminRefund[]> {
  const rows = await sql(db)
    .selectFrom("order_refunds")
    .selectAll()
    .where("order_id", "=", orderId)
    .where("status", "=", "completed")
    .orderBy("id", "desc")
    .execute();
  return rows.map(toRefund);
}

export async function insertPendingRefund(
  tx: Queryable,
  r: {
    orderId: number;
    amount: number;
    reason: string;
    refundedBy: number;
    apiRefund: boolean;
    restock: boolean;
    lineItems: RefundLine[];
    key: string;
    requestHash: string;
  },
): Promise<number> {
  const row = await sql(tx)
    .insertInto("order_refunds")
    .values({
      order_id: r.orderId,
      amount: r.amount,
      reason: r.reason,
      refunded_by: r.refundedBy,
      api_refund: r.apiRefund,
      restock: r.restock,
      line_items: JSON.stringify(r.lineItems),
      idempotency_key: r.key,
      request_hash: r.requestHash,
      status: "pending",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Completes a pending refund; false when it was not pending (another call finished it first). */
export async function completeRefund(tx: Queryable, refundId: number, gatewayRefundId: string | null): Promise<boolean> {
  const rows = await sql(tx)
    .updateTable("order_refunds")
    .set({ status: "completed", gateway_refund_id: gatewayRefundId, completed_at: raw`now()` })
    .where("id", "=", refundId)
    .where("status", "=", "pending")
    .returning("id")
    .execute();
  return rows.length > 0;
}

/** A pending refund the gateway refused: it goes, and with it the amount it held. */
export async function dropPendingRefund(tx: Queryable, refundId: number): Promise<void> {
  await sql(tx).deleteFrom("order_refunds").where("id", "=", refundId).where("status", "=", "pending").execute();
}

export async function deleteRefund(tx: Queryable, orderId: number, refundId: number): Promise<boolean> {
  const rows = await sql(tx)
    .deleteFrom("order_refunds")
    .where("order_id", "=", orderId)
    .where("id", "=", refundId)
    .where("status", "=", "completed")
    .returning("id")
    .execute();
  return rows.length > 0;
}

/** The charge an order was paid with (its captured attempt), for refunding through the gateway. */
export async function orderCharge(tx: Queryable, orderId: number): Promise<{ chargeId: string; amount: number } | null> {
  const row = await sql(tx)
    .selectFrom("payment_attempts")
    .select(["charge_id", "amount"])
    .where("order_id", "=", orderId)
    .where("status", "=", "captured")
    .where("charge_id", "is not", null)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? { chargeId: row.charge_id!, amount: Number(row.amount) } : null;
}

// ---------------------------------------------------------------------------------------------------------------
// Reports
// ---------------------------------------------------------------------------------------------------------------

/** WooCommerce's legacy reports count these statuses as sales. */
export const REPORT_STATUSES: readonly OrderStatus[] = ["processing", "completed", "on-hold", "refunded"];

export interface SalesDay {
  day: string;
  sales: number;
  orders: number;
  items: number;
  shipping: number;
  discount: number;
  customers: number;
  refunds: number;
}

/** Per-day sums of orders placed in [from, to) (UTC days) and of refunds made in the same range. */
export async function salesByDay(db: Queryable, from: Date, to: Date): Promise<SalesDay[]> {
  const s = sql(db);
  const orders = await s
    .selectFrom("orders as o")
    .select((eb) => [
      raw<string>`to_char(o.created_at at time zone 'UTC', 'YYYY-MM-DD')`.as("day"),
      eb.cast<number>(eb.fn.sum<number>("o.total"), "bigint").as("sales"),
      eb.cast<number>(eb.fn.countAll(), "integer").as("orders"),
      eb.cast<number>(eb.fn.sum<number>("o.shipping_total"), "bigint").as("shipping"),
      eb.cast<number>(eb.fn.sum<number>("o.discount_total"), "bigint").as("discount"),
      eb.cast<number>(eb.fn.count<number>("o.customer_id").distinct(), "integer").as("customers"),
      eb
        .cast<number>(
          eb.fn.coalesce(
            eb.fn.sum<number>(
              eb
                .selectFrom("order_lines as l")
                .select((e) => e.fn.sum<number>("l.quantity").as("q"))
                .whereRef("l.order_id", "=", "o.id"),
            ),
            eb.lit(0),
          ),
          "integer",
        )
        .as("items"),
    ])
    .where("o.status", "in", [...REPORT_STATUSES])
    .where("o.created_at", ">=", from)
    .where("o.created_at", "<", to)
    .groupBy(raw`1`)
    .execute();
  const refunds = await s
    .selectFrom("order_refunds as r")
    .select((eb) => [
      raw<string>`to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD')`.as("day"),
      eb.cast<number>(eb.fn.sum<number>("r.amount"), "bigint").as("refunds"),
    ])
    .where("r.status", "=", "completed")
    .where("r.created_at", ">=", from)
    .where("r.created_at", "<", to)
    .groupBy(raw`1`)
    .execute();
  const days = new Map<string, SalesDay>();
  const day = (d: string) => {
    let v = days.get(d);
    if (!v) days.set(d, (v = { day: d, sales: 0, orders: 0, items: 0, shipping: 0, discount: 0, customers: 0, refunds: 0 }));
    return v;
  };
  for (const o of orders) {
    Object.assign(day(o.day), {
      sales: Number(o.sales),
      orders: Number(o.orders),
      items: Number(o.items),
      shipping: Number(o.shipping),
      discount: Number(o.discount),
      customers: Number(o.customers),
    });
  }
  for (const r of refunds) day(r.day).refunds = Number(r.refunds);
  return [...days.values()];
}

/** Products by units sold in orders placed in [from, to), most first. */
export async function topSellers(db: Queryable, from: Date, to: Date, limit: number): Promise<{ productId: number; name: string; quantity: number }[]> {
  const rows = await sql(db)
    .selectFrom("order_lines as l")
    .innerJoin("orders as o", "o.id", "l.order_id")
    .leftJoin("products as p", "p.id", "l.product_id")
    .select((eb) => [
      "l.product_id",
      eb.fn.coalesce(eb.fn.max<string | null>("p.name"), eb.fn.max<string>("l.name")).as("name"),
      eb.cast<number>(eb.fn.sum<number>("l.quantity"), "integer").as("quantity"),
    ])
    .where("o.status", "in", [...REPORT_STATUSES])
    .where("o.created_at", ">=", from)
    .where("o.created_at", "<", to)
    .groupBy("l.product_id")
    .orderBy("quantity", "desc")
    .orderBy("l.product_id")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ productId: r.product_id, name: r.name ?? "", quantity: Number(r.quantity) }));
}

/** The table names of the public schema, and the database server's version (system_status). */
export async function databaseInfo(db: Queryable): Promise<{ version: string; tables: string[] }> {
  const [v] = await db.query<{ v: string }>(`SELECT current_setting('server_version') AS v`);
  const tables = await db.query<{ t: string }>(
    `SELECT table_name AS t FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  return { version: v?.v ?? "", tables: tables.map((t) => t.t) };
}
