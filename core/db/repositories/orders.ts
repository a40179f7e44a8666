/** Storage for orders, payment attempts, saved payment tokens and the e-mail outbox. Only SQL lives here. */
import type { Queryable } from "../client.ts";
import type { Address } from "../../commerce/checkout-form.ts";
import type { BankToken, CardToken } from "../../payments/gateway.ts";
import type { StockNeed } from "../../domain/catalog/index.ts";
import { orderStock, recordOrderStock, returnUnits } from "./stock.ts";

export interface NewOrder {
  orderKey: string;
  customerId: number | null;
  billingEmail: string;
  currency: string;
  subtotal: number;
  discountTotal: number;
  shippingTotal: number;
  total: number;
  shippingMethodId: string | null;
  shippingMethodTitle: string | null;
  paymentMethod: string;
  paymentMethodTitle: string;
  customerNote: string;
  checkoutKey: string | null;
  billing: Address;
  shipping: Address | null;
  lines: { productId: number; variationId: number | null; name: string; quantity: number; subtotal: number; total: number }[];
  /** The managed stock taken for this order (already taken by the caller): recorded so it can be given back. */
  stock: readonly StockNeed[];
  coupons: { code: string; discount: number }[];
  meta: Record<string, string>;
}

export async function insertOrder(tx: Queryable, o: NewOrder): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO orders (order_key, customer_id, billing_email, currency, subtotal, discount_total, shipping_total, total,
       shipping_method_id, shipping_method_title, payment_method, payment_method_title, customer_note, checkout_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
    [o.orderKey, o.customerId, o.billingEmail, o.currency, o.subtotal, o.discountTotal, o.shippingTotal, o.total, o.shippingMethodId, o.shippingMethodTitle, o.paymentMethod, o.paymentMethodTitle, o.customerNote, o.checkoutKey],
  );
  const id = row!.id;
  const addresses: [string, Address][] = [["billing", o.billing]];
  if (o.shipping) addresses.push(["shipping", o.shipping]);
  for (const [kind, a] of addresses) {
    await tx.query(
      `INSERT INTO order_addresses (order_id, kind, first_name, last_name, company, address_1, address_2, city, state, postcode, country, email, phone)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [id, kind, a.first_name, a.last_name, a.company, a.address_1, a.address_2, a.city, a.state, a.postcode, a.country, a.email, a.phone],
    );
  }
  for (const l of o.lines) {
    await tx.query(`INSERT INTO order_lines (order_id, product_id, variation_id, name, quantity, subtotal, total) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
      id,
      l.productId,
      l.variationId,
      l.name,
      l.quantity,
      l.subtotal,
      l.total,
    ]);
  }
  await recordOrderStock(tx, id, o.stock);
  for (const c of o.coupons) await tx.query(`INSERT INTO order_coupons (order_id, code, discount) VALUES ($1, $2, $3)`, [id, c.code, c.discount]);
  for (const [k, v] of Object.entries(o.meta)) await tx.query(`INSERT INTO order_meta (order_id, key, value) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [id, k, v]);
  return id;
}

/** Moves an order along an allowed edge of order_status_transitions; false when the edge does not exist. */
export async function transition(tx: Queryable, orderId: number, to: string, opts: { paid?: boolean } = {}): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE orders SET status = $2, updated_at = now()${opts.paid ? ", paid_at = coalesce(paid_at, now())" : ""}
     WHERE id = $1 AND status IN (SELECT from_status FROM order_status_transitions WHERE to_status = $2) RETURNING id`,
    [orderId, to],
  );
  if (rows.length) await tx.query(`INSERT INTO order_notes (order_id, note) VALUES ($1, $2)`, [orderId, `Order status changed to ${to}.`]);
  return rows.length > 0;
}

/** Gives back the stock and coupon usage an unpaid order held (once: guarded by orders.stock_held). */
export async function releaseHeld(tx: Queryable, orderId: number): Promise<boolean> {
  const held = await tx.query(`UPDATE orders SET stock_held = false WHERE id = $1 AND stock_held AND paid_at IS NULL RETURNING id`, [orderId]);
  if (!held.length) return false;
  for (const need of await orderStock(tx, orderId)) await returnUnits(tx, need);
  await tx.query(`UPDATE products p SET total_sales = greatest(0, p.total_sales - l.n) FROM (SELECT product_id, sum(quantity)::int AS n FROM order_lines WHERE order_id = $1 GROUP BY product_id) l WHERE l.product_id = p.id`, [orderId]);
  const coupons = await tx.query<{ code: string }>(`SELECT code FROM order_coupons WHERE order_id = $1 ORDER BY code`, [orderId]);
  for (const c of coupons) await tx.query(`UPDATE coupons SET usage_count = usage_count - 1 WHERE code = lower($1) AND usage_count > 0`, [c.code]);
  await tx.query(`DELETE FROM coupon_usages WHERE order_id = $1`, [orderId]);
  return true;
}

export async function insertAttempt(tx: Queryable, a: { orderId: number; key: string; gateway: string; operation: string; amount: number; currency: string }): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO payment_attempts (order_id, idempotency_key, gateway, operation, amount, currency, status) VALUES ($1, $2, $3, $4, $5, $6, 'started') RETURNING id`,
    [a.orderId, a.key, a.gateway, a.operation, a.amount, a.currency],
  );
  return row!.id;
}

export interface OrderLineView {
  productId: number;
  variationId: number | null;
  name: string;
  quantity: number;
  subtotal: number;
  total: number;
}

export interface OrderView {
  id: number;
  orderKey: string;
  status: string;
  statusLabel: string;
  customerId: number | null;
  billingEmail: string;
  currency: string;
  subtotal: number;
  discountTotal: number;
  shippingTotal: number;
  total: number;
  shippingMethodTitle: string | null;
  paymentMethod: string;
  paymentMethodTitle: string;
  customerNote: string;
  createdAt: Date;
  paidAt: Date | null;
  lines: OrderLineView[];
  addresses: Partial<Record<"billing" | "shipping", Address>>;
  coupons: { code: string; discount: number }[];
  meta: Record<string, string>;
  paymentMethodSummary: { brand?: string; last4?: string; kind?: string } | null;
}

export async function findOrder(db: Queryable, id: number): Promise<OrderView | null> {
  const [o] = await db.query<Record<string, unknown>>(
    `SELECT o.*, s.label AS status_label FROM orders o JOIN order_statuses s ON s.status = o.status WHERE o.id = $1`,
    [id],
  );
  if (!o) return null;
  // One query at a time: this may run inside a transaction, on one connection.
  const lines = await db.query<Record<string, unknown>>(`SELECT * FROM order_lines WHERE order_id = $1 ORDER BY id`, [id]);
  const addresses = await db.query<Record<string, unknown>>(`SELECT * FROM order_addresses WHERE order_id = $1`, [id]);
  const coupons = await db.query<{ code: string; discount: number }>(`SELECT code, discount FROM order_coupons WHERE order_id = $1 ORDER BY code`, [id]);
  const meta = await db.query<{ key: string; value: string }>(`SELECT key, value FROM order_meta WHERE order_id = $1 ORDER BY key`, [id]);
  const attempt = await db.query<{ method: { brand?: string; last4?: string; kind?: string } | null }>(
    `SELECT method FROM payment_attempts WHERE order_id = $1 AND status = 'captured' ORDER BY id DESC LIMIT 1`,
    [id],
  );
  const addr: OrderView["addresses"] = {};
  for (const a of addresses) {
    addr[a.kind as "billing" | "shipping"] = {
      first_name: String(a.first_name),
      last_name: String(a.last_name),
      company: String(a.company),
      country: String(a.country),
      address_1: String(a.address_1),
      address_2: String(a.address_2),
      city: String(a.city),
      state: String(a.state),
      postcode: String(a.postcode),
      phone: String(a.phone),
      email: String(a.email),
    };
  }
  return {
    id: Number(o.id),
    orderKey: String(o.order_key),
    status: String(o.status),
    statusLabel: String(o.status_label),
    customerId: o.customer_id === null ? null : Number(o.customer_id),
    billingEmail: String(o.billing_email),
    currency: String(o.currency),
    subtotal: Number(o.subtotal),
    discountTotal: Number(o.discount_total),
    shippingTotal: Number(o.shipping_total),
    total: Number(o.total),
    shippingMethodTitle: (o.shipping_method_title as string | null) ?? null,
    paymentMethod: String(o.payment_method),
    paymentMethodTitle: String(o.payment_method_title),
    customerNote: String(o.customer_note),
    createdAt: new Date(o.created_at as string),
    paidAt: o.paid_at ? new Date(o.paid_at as string) : null,
    lines: lines.map((l) => ({
      productId: Number(l.product_id),
      variationId: l.variation_id === null ? null : Number(l.variation_id),
      name: String(l.name),
      quantity: Number(l.quantity),
      subtotal: Number(l.subtotal),
      total: Number(l.total),
    })),
    addresses: addr,
    coupons,
    meta: Object.fromEntries(meta.map((m) => [m.key, m.value])),
    paymentMethodSummary: attempt[0]?.method ?? null,
  };
}

export async function listCustomerOrders(db: Queryable, customerId: number, limit = 50): Promise<{ id: number; orderKey: string; status: string; statusLabel: string; total: number; items: number; createdAt: Date }[]> {
  const rows = await db.query<{ id: number; order_key: string; status: string; label: string; total: number; items: number; created_at: string }>(
    `SELECT o.id, o.order_key, o.status, s.label, o.total, (SELECT coalesce(sum(quantity), 0)::int FROM order_lines l WHERE l.order_id = o.id) AS items, o.created_at
     FROM orders o JOIN order_statuses s ON s.status = o.status WHERE o.customer_id = $1 ORDER BY o.created_at DESC, o.id DESC LIMIT $2`,
    [customerId, limit],
  );
  return rows.map((r) => ({ id: r.id, orderKey: r.order_key, status: r.status, statusLabel: r.label, total: Number(r.total), items: r.items, createdAt: new Date(r.created_at) }));
}

// ---------------------------------------------------------------------------------------------------------------
// Saved payment tokens (token, brand, last four, expiry — nothing else)
// ---------------------------------------------------------------------------------------------------------------

export interface SavedToken {
  id: number;
  customerId: number;
  gatewayId: string;
  token: string;
  kind: "card" | "bank";
  brand: string;
  last4: string;
  expMonth: number | null;
  expYear: number | null;
  isDefault: boolean;
}

const toToken = (r: Record<string, unknown>): SavedToken => ({
  id: Number(r.id),
  customerId: Number(r.customer_id),
  gatewayId: String(r.gateway_id),
  token: String(r.token),
  kind: r.kind as "card" | "bank",
  brand: String(r.brand),
  last4: String(r.last4),
  expMonth: r.exp_month === null ? null : Number(r.exp_month),
  expYear: r.exp_year === null ? null : Number(r.exp_year),
  isDefault: Boolean(r.is_default),
});

export async function saveToken(db: Queryable, customerId: number, gatewayId: string, t: CardToken | BankToken): Promise<number> {
  const isCard = t.kind === "card";
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO payment_tokens (customer_id, gateway_id, token, kind, brand, last4, exp_month, exp_year, is_default)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NOT EXISTS (SELECT 1 FROM payment_tokens WHERE customer_id = $1 AND gateway_id = $2))
     ON CONFLICT (gateway_id, token) DO UPDATE SET last4 = EXCLUDED.last4 RETURNING id`,
    [customerId, gatewayId, t.token, t.kind, isCard ? (t as CardToken).brand : "", t.last4, isCard ? (t as CardToken).expMonth : null, isCard ? (t as CardToken).expYear : null],
  );
  return row!.id;
}

export async function listTokens(db: Queryable, customerId: number): Promise<SavedToken[]> {
  const rows = await db.query<Record<string, unknown>>(`SELECT * FROM payment_tokens WHERE customer_id = $1 ORDER BY is_default DESC, id`, [customerId]);
  return rows.map(toToken);
}

export async function findToken(db: Queryable, id: number, customerId: number): Promise<SavedToken | null> {
  const [row] = await db.query<Record<string, unknown>>(`SELECT * FROM payment_tokens WHERE id = $1 AND customer_id = $2`, [id, customerId]);
  return row ? toToken(row) : null;
}

export async function deleteToken(db: Queryable, id: number, customerId: number): Promise<boolean> {
  const rows = await db.query(`DELETE FROM payment_tokens WHERE id = $1 AND customer_id = $2 RETURNING id`, [id, customerId]);
  return rows.length > 0;
}

export async function setDefaultToken(db: Queryable, id: number, customerId: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE payment_tokens SET is_default = (id = $1) WHERE customer_id = $2 AND gateway_id = (SELECT gateway_id FROM payment_tokens WHERE id = $1 AND customer_id = $2) RETURNING id`,
    [id, customerId],
  );
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Outbox
// ---------------------------------------------------------------------------------------------------------------

export async function queueEmail(db: Queryable, e: { kind: string; to: string; subject: string; body: string; orderId?: number | null }): Promise<void> {
  await db.query(`INSERT INTO email_outbox (kind, to_address, subject, body, order_id) VALUES ($1, $2, $3, $4, $5)`, [e.kind, e.to, e.subject, e.body, e.orderId ?? null]);
}
