/**
 * What staff do to orders through the REST API (docs/contract/rest/orders.md): create an order for a customer,
 * move it along the status machine, add notes, delete it, and refund it through the payment gateway.
 *
 * Refunds (decision 0022): one transaction under the order's row lock checks what is left to refund (completed
 * AND pending refunds count) and records the refund 'pending'; the gateway is called outside any transaction with
 * a key derived from that row; a second transaction completes it, restocks and moves the order to 'refunded' when
 * nothing is left. A request repeated with the same idempotency key finds its row: a completed one is answered
 * again, a pending one (a timeout) is resumed with the same gateway key, so money moves at most once.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Db, Queryable } from "../db/client.ts";
import * as repo from "../db/repositories/orders.ts";
import * as admin from "../db/repositories/order-admin.ts";
import * as stock from "../db/repositories/stock.ts";
import * as attempts from "../db/repositories/payment-attempts.ts";
import { sellables, termNames, type SellableRecord } from "../db/repositories/cart.ts";
import { cachedPricingSetup } from "../db/repositories/discounts.ts";
import { canTransition, ORDER_STATUS_TRANSITIONS, type OrderStatus } from "../domain/orders/status.ts";
import type { OrderAddress } from "../domain/orders/types.ts";
import { shopPrice, stockNeeds, type StockNeed } from "../domain/catalog/index.ts";
import { formatMoney, type CurrencyFormat } from "../domain/money/money.ts";
import type { PaymentGateway } from "../payments/gateway.ts";
import { lineRefundProblem } from "../domain/orders/refund-lines.ts";
import { editedTotals, isEditableStatus, lineEditNote, planLineEdits, type LineAddition, type LinePlan } from "../domain/orders/edit-lines.ts";
import { cartTax, type TaxAddress } from "../domain/pricing/tax.ts";
import { orderDetailsEmail } from "../mail/templates/order-received.ts";
import { orderNoteEmail, orderRefundedEmail } from "../mail/templates/order-note.ts";

/** A refusal the REST layer answers in WooCommerce's shape. */
export class OrderAdminError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface OrderAdminDeps {
  db: Db;
  gateway: PaymentGateway;
  currency: string;
  currencyFormat: CurrencyFormat;
}

// ---------------------------------------------------------------------------------------------------------------
// Creating an order for a customer
// ---------------------------------------------------------------------------------------------------------------

export interface StaffOrderRequest {
  customerId: number | null;
  billing: OrderAddress;
  shipping: OrderAddress | null;
  lines: { productId: number; variationId: number; quantity: number; subtotal?: number; total?: number }[];
  shippingLines: { methodId: string; methodTitle: string; total: number }[];
  customerNote: string;
  paymentMethod: string;
  paymentMethodTitle: string;
}

/**
 * A pending order made by staff: priced at the products' shop prices unless the line gives its own subtotal/total
 * (as WooCommerce's API allows), its managed stock taken with the checkout's conditional updates
 * (stock.takeUnits, in the fixed stock order, so it cannot oversell against concurrent checkouts), so the
 * customer can pay it on the order-pay page and a cancellation gives the stock back as a checkout's would.
 */
export async function createStaffOrder(deps: OrderAdminDeps, req: StaffOrderRequest, actorId: number): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const found = await sellables(
      tx,
      req.lines.map((l) => ({ productId: l.productId, variationId: l.variationId })),
    );
    const lines = req.lines.map((l, i) => {
      const s = found.get(`${l.productId}:${l.variationId}`);
      if (!s)
        throw new OrderAdminError("woocommerce_rest_invalid_product_id", `line_items[${i}]: no such product or variation.`, 400, { params: ["line_items"] });
      if (s.type === "bundle" || s.type === "grouped" || s.type === "external" || (s.type === "variable" && !l.variationId)) {
        throw new OrderAdminError("woocommerce_rest_invalid_product_id", `line_items[${i}]: a ${s.type} product cannot be ordered through the API.`, 400, {
          params: ["line_items"],
        });
      }
      const unit = shopPrice(s.regularPrice, s.salePrice);
      const subtotal = l.subtotal ?? unit * l.quantity;
      return { sellable: s, quantity: l.quantity, subtotal, total: l.total ?? subtotal, variationId: l.variationId };
    });
    const needs = stockNeeds(
      lines.map((l) => ({
        productId: l.sellable.productId,
        variationId: l.variationId,
        name: l.sellable.name,
        quantity: l.quantity,
        stockQuantity: l.sellable.stockQuantity,
        components: [],
      })),
    );
    for (const need of needs) {
      if (await stock.takeUnits(tx, need)) continue;
      const left = await stock.unitsLeft(tx, need);
      throw new OrderAdminError("woocommerce_rest_invalid_stock", `Not enough "${need.name}" in stock (${left} available).`, 400, { params: ["line_items"] });
    }
    const subtotal = lines.reduce((n, l) => n + l.subtotal, 0);
    const linesTotal = lines.reduce((n, l) => n + l.total, 0);
    const shippingTotal = req.shippingLines.reduce((n, s) => n + s.total, 0);
    const ship = req.shippingLines[0];
    const orderId = await repo.insertOrder(tx, {
      orderKey: `wc_order_${randomBytes(12).toString("base64url")}`,
      customerId: req.customerId,
      billingEmail: req.billing.email,
      currency: deps.currency,
      subtotal,
      discountTotal: Math.max(0, subtotal - linesTotal),
      shippingTotal,
      total: linesTotal + shippingTotal,
      shippingMethodId: ship?.methodId ?? null,
      shippingMethodTitle: ship?.methodTitle ?? null,
      paymentMethod: req.paymentMethod,
      paymentMethodTitle: req.paymentMethodTitle,
      customerNote: req.customerNote,
      checkoutKey: null,
      billing: req.billing,
      shipping: req.shipping,
      lines: lines.map((l) => ({
        productId: l.sellable.productId,
        variationId: l.variationId > 0 ? l.variationId : null,
        name: l.sellable.name,
        details: "",
        quantity: l.quantity,
        subtotal: l.subtotal,
        total: l.total,
      })),
      stock: needs,
      coupons: [],
      meta: {},
    });
    for (const l of lines) await stock.addProductSales(tx, l.sellable.productId, l.quantity);
    await admin.setOrderOrigin(tx, orderId, "rest-api");
    await admin.insertNote(tx, orderId, "Order created through the REST API.", false, actorId);
    return orderId;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Status, addresses, notes, deletion
// ---------------------------------------------------------------------------------------------------------------

const PAID_STATUSES: readonly OrderStatus[] = ["processing", "completed"];

/**
 * Moves the order to `to` along an allowed edge of the status machine (core/domain/orders/status.ts, the same
 * edges as order_status_transitions), with what each move means for stock: cancelling or failing an unpaid order
 * gives back what it holds (repo.releaseHeld, as the account's Cancel does); cancelling a paid one gives back the
 * units not yet restocked; moving a failed order on takes its stock again. 'refunded' is reached only through a
 * refund, so the money and the status never disagree. Returns the previous status.
 */
export async function changeOrderStatus(deps: OrderAdminDeps, orderId: number, to: OrderStatus, actorId: number): Promise<OrderStatus | null> {
  return deps.db.transaction(async (tx) => {
    const o = await repo.lockOrder(tx, orderId);
    if (!o) return null;
    if (o.status === to) return o.status;
    if (to === "refunded") {
      throw new OrderAdminError(
        "woocommerce_rest_invalid_order_status",
        "An order becomes refunded through POST orders/{id}/refunds, which refunds the payment.",
        400,
        {
          from: o.status,
          to,
        },
      );
    }
    if (!canTransition(o.status, to)) {
      throw new OrderAdminError("woocommerce_rest_invalid_order_status", `Cannot change the order status from ${o.status} to ${to}.`, 400, {
        from: o.status,
        to,
        allowed: ORDER_STATUS_TRANSITIONS[o.status],
      });
    }
    // Money that lands must find the order as its payment left it (the account's Cancel refuses the same way).
    if (await attempts.hasOpenAttempt(tx, orderId)) {
      throw new OrderAdminError("woocommerce_rest_invalid_order_status", "A payment for this order is under way; try again in a minute.", 409, {
        from: o.status,
        to,
      });
    }
    const paidAt = await admin.orderPaidAt(tx, orderId);
    if (!o.stockHeld && (to === "pending" || to === "processing" || to === "on-hold")) {
      // A failed order gave its stock back: take it again, as paying it on the order-pay page would.
      for (const need of await stock.orderStock(tx, orderId)) {
        if (!(await stock.takeUnits(tx, need))) {
          throw new OrderAdminError("woocommerce_rest_invalid_stock", `"${need.name}" is no longer in stock.`, 400, { from: o.status, to });
        }
      }
      await stock.addOrderSales(tx, orderId, 1);
      await repo.markStockHeld(tx, orderId);
    }
    if (!(await repo.transition(tx, orderId, to, { paid: PAID_STATUSES.includes(to) }))) {
      throw new OrderAdminError("woocommerce_rest_invalid_order_status", `Cannot change the order status from ${o.status} to ${to}.`, 400, {
        from: o.status,
        to,
      });
    }
    if (to === "cancelled" || to === "failed") {
      if (paidAt === null) await repo.releaseHeld(tx, orderId);
      else await restockAll(tx, orderId);
    }
    if (to === "completed") await admin.markCompletedAt(tx, orderId);
    await admin.insertNote(tx, orderId, `Order status changed from ${o.status} to ${to} by staff.`, false, actorId);
    return o.status;
  });
}

/** Gives back every unit a paid order still holds (cancelling it after payment). */
async function restockAll(tx: Queryable, orderId: number): Promise<void> {
  for (const s of await stock.unreturnedStock(tx, orderId)) await stock.returnOrderUnits(tx, orderId, { ...s, quantity: s.left });
}

/** An address on one line, as an order note quotes it ("none" when empty). */
export function addressLine(a: OrderAddress | undefined): string {
  if (!a) return "none";
  const line = [
    [a.first_name, a.last_name].filter(Boolean).join(" "),
    a.company,
    a.address_1,
    a.address_2,
    a.city,
    [a.state, a.postcode].filter(Boolean).join(" "),
    a.country,
    a.email,
    a.phone,
  ]
    .filter(Boolean)
    .join(", ");
  return line || "none";
}

/**
 * Staff's change of an order's addresses or customer note. With `version` (the ETag read with the order, sent back
 * as `If-Match`) the save is refused (412 `woocommerce_rest_order_changed`) when the order was changed in between;
 * each address that changed gets a private note "Billing address changed from … to …" by the actor.
 */
export async function updateOrderDetails(
  deps: OrderAdminDeps,
  orderId: number,
  changes: { billing?: OrderAddress; shipping?: OrderAddress; customerNote?: string },
  opts: { actorId?: number | null; version?: string; before?: Partial<Record<"billing" | "shipping", OrderAddress>> } = {},
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const version = await admin.lockOrderVersion(tx, orderId);
    if (opts.version !== undefined && version !== opts.version) {
      throw new OrderAdminError(
        "woocommerce_rest_order_changed",
        "This order was changed since you opened it. Reload to see the changes, then make yours again.",
        412,
      );
    }
    for (const kind of ["billing", "shipping"] as const) {
      const next = changes[kind];
      if (!next) continue;
      await admin.saveOrderAddress(tx, orderId, kind, next);
      const from = addressLine(opts.before?.[kind]);
      const to = addressLine(next);
      if (from !== to) {
        const title = kind === "billing" ? "Billing" : "Shipping";
        await admin.insertNote(tx, orderId, `${title} address changed from ${from} to ${to}.`, false, opts.actorId ?? null);
      }
    }
    if (changes.customerNote !== undefined) await admin.setCustomerNote(tx, orderId, changes.customerNote);
    await admin.touchOrder(tx, orderId);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Editing the lines (decision 0048)
// ---------------------------------------------------------------------------------------------------------------

export interface LineEditRequest {
  /** `{id, quantity}` of `line_items` (0 removes the line); `index` is the item's place in the request. */
  changes: { index: number; id: number; quantity: number }[];
  /** `{product_id, variation_id, quantity}` of `line_items` without an id. */
  additions: { index: number; productId: number; variationId: number; quantity: number }[];
}

/** What changed, for the audit log; null when the request changed nothing. */
export interface LineEditOutcome {
  added: { product_id: number; variation_id: number; quantity: number }[];
  removed: { id: number; quantity: number }[];
  changed: { id: number; from: number; to: number }[];
  total: { from: number; to: number };
  note: string;
}

const orderChanged = () =>
  new OrderAdminError("woocommerce_rest_order_changed", "This order was changed since you opened it. Reload to see the changes, then make yours again.", 412);

const lineProblem = (params: Record<string, string>) =>
  new OrderAdminError("rest_invalid_param", `Invalid parameter(s): ${Object.keys(params).join(", ")}`, 400, { params });

/** "Colour: Red, Size: M" for a variation's own attributes (the receipt's line details, as the cart writes them). */
async function variationDetails(tx: Queryable, s: SellableRecord): Promise<string> {
  const chosen = Object.entries(s.variationAttributes ?? {})
    .filter(([, slug]) => slug)
    .map(([name, slug]) => ({ taxonomy: name.replace(/^attribute_/, ""), slug }));
  const names = await termNames(tx, chosen);
  return chosen
    .map(({ taxonomy, slug }) => {
      const bare = taxonomy.replace(/^pa_/, "").replace(/[-_]/g, " ");
      return `${bare.charAt(0).toUpperCase()}${bare.slice(1)}: ${names.get(`${taxonomy}:${slug}`) ?? slug}`;
    })
    .join(", ");
}

/**
 * Staff's change of an order's lines (WooCommerce's `line_items` on `PUT orders/{id}`), in one transaction under the
 * order's row lock: only while the order is editable (pending or on hold, no payment under way, no refund made); the
 * lines planned by core/domain/orders/edit-lines.ts; the tax by the checkout's own `cartTax` with the shop's rates
 * for the order's address (`tax`, as core/commerce/tax.ts picks it; absent while tax is off); and, when the order
 * holds its stock (`stock_held`), the difference taken or given back per stock item in the fixed stock order —
 * taking with the checkout's conditional update, so stock never goes below zero. A private note by the actor says
 * what changed. Nothing is written when anything is refused.
 */
export async function editOrderLines(
  deps: Pick<OrderAdminDeps, "db">,
  orderId: number,
  req: LineEditRequest,
  opts: { actorId: number | null; version?: string; tax?: { address: TaxAddress | null; shippingTaxable: boolean } },
): Promise<LineEditOutcome | null> {
  return deps.db.transaction(async (tx) => {
    const version = await admin.lockOrderVersion(tx, orderId);
    if (version === null) throw new OrderAdminError("woocommerce_rest_shop_order_invalid_id", "Invalid ID.", 404);
    if (opts.version !== undefined && version !== opts.version) throw orderChanged();
    const o = (await repo.lockOrder(tx, orderId))!;
    if (!isEditableStatus(o.status)) {
      throw new OrderAdminError(
        "woocommerce_rest_order_not_editable",
        `This order's items cannot be edited: it is ${o.status}. Only orders pending payment or on hold can be edited.`,
        409,
        { status: o.status },
      );
    }
    if (await attempts.hasOpenAttempt(tx, orderId)) {
      throw new OrderAdminError("woocommerce_rest_order_not_editable", "A payment for this order is under way; try again in a minute.", 409);
    }
    if ((await admin.refundedSoFar(tx, orderId)) > 0) {
      throw new OrderAdminError("woocommerce_rest_order_not_editable", "This order has refunds: its items can no longer be edited.", 409);
    }
    const order = (await admin.adminOrders(tx, [orderId]))[0]!;

    // The products: of the lines the order has and of the ones added (a product alone too, to name the wrong field).
    const found = await sellables(tx, [
      ...order.lines.map((l) => ({ productId: l.productId, variationId: l.variationId ?? 0 })),
      ...req.additions.flatMap((a) => [
        { productId: a.productId, variationId: a.variationId },
        { productId: a.productId, variationId: 0 },
      ]),
    ]);
    const params: Record<string, string> = {};
    const additions: LineAddition[] = [];
    for (const a of req.additions) {
      const at = `line_items[${a.index}]`;
      const product = found.get(`${a.productId}:0`);
      const s = found.get(`${a.productId}:${a.variationId}`);
      if (!product) params[`${at}.product_id`] = `${at}.product_id: no product ${a.productId}.`;
      else if (product.type === "variable" && !a.variationId) params[`${at}.variation_id`] = `${at}.variation_id: choose a variation of ${product.name}.`;
      else if (!s) params[`${at}.variation_id`] = `${at}.variation_id: ${product.name} has no variation ${a.variationId}.`;
      else if (s.type === "bundle" || s.type === "grouped" || s.type === "external")
        params[`${at}.product_id`] = `${at}.product_id: a ${s.type} product cannot be added to an order here.`;
      else {
        additions.push({
          index: a.index,
          productId: s.productId,
          variationId: a.variationId > 0 ? a.variationId : null,
          name: s.name,
          details: a.variationId > 0 ? await variationDetails(tx, s) : "",
          quantity: a.quantity,
          unitPrice: shopPrice(s.regularPrice, s.salePrice),
        });
      }
    }
    const sellableOf = (l: { productId: number; variationId: number | null }) => found.get(`${l.productId}:${l.variationId ?? 0}`);
    for (const c of req.changes) {
      const line = order.lines.find((l) => l.id === c.id);
      // A bundle's stock is its items': its units are not moved by hand here (decision 0048).
      if (line && c.quantity !== line.quantity && sellableOf(line)?.type === "bundle") {
        params[`line_items[${c.index}].quantity`] = `line_items[${c.index}].quantity: a bundle's line cannot be changed or removed here.`;
      }
    }
    if (Object.keys(params).length) throw lineProblem(params);
    const planned = planLineEdits(order.lines, req.changes, additions);
    if (!planned.ok) throw lineProblem(planned.problems);
    const plan = planned.plan;
    if (!plan.added.length && !plan.removed.length && !plan.changed.length) return null;

    // Stock, only when the order holds it: the difference per managed stock item, in the fixed order.
    if (o.stockHeld) await moveLineStock(tx, orderId, order.lines, plan, sellableOf);

    // Tax as the checkout computes it, on the lines as they will be and the shipping as it is.
    const tax = opts.tax
      ? cartTax((await cachedPricingSetup(deps.db, tx)).taxRates, opts.tax.address, {
          lines: plan.lines.map((l, i) => ({ key: String(i), subtotal: l.subtotal, total: l.total })),
          shipping: order.shippingTotal,
          shippingTaxable: opts.tax.shippingTaxable,
        })
      : null;
    const lineTax = (i: number) => tax?.lines[String(i)] ?? { subtotalTax: 0, totalTax: 0 };
    await admin.deleteOrderLines(
      tx,
      orderId,
      plan.removed.map((l) => l.id),
    );
    for (const [i, l] of plan.lines.entries()) {
      const money = { quantity: l.quantity, subtotal: l.subtotal, total: l.total, ...lineTax(i) };
      if (l.id !== null) await admin.setOrderLine(tx, orderId, l.id, money);
      else await repo.insertOrderLine(tx, orderId, { productId: l.productId, variationId: l.variationId, name: l.name, details: l.details ?? "", ...money });
    }
    const totals = editedTotals(order, order.lines, plan, tax);
    await admin.saveOrderTotals(tx, orderId, totals);
    const note = lineEditNote(plan);
    await admin.insertNote(tx, orderId, note, false, opts.actorId);
    return {
      added: plan.added.map((a) => ({ product_id: a.productId, variation_id: a.variationId ?? 0, quantity: a.quantity })),
      removed: plan.removed.map((l) => ({ id: l.id, quantity: l.quantity })),
      changed: plan.changed.map((c) => ({ id: c.line.id, from: c.line.quantity, to: c.quantity })),
      total: { from: order.total, to: totals.total },
      note,
    };
  });
}

/**
 * Takes or gives back the stock an edit moves: per managed stock item (the line's variation, else its product),
 * the units of the new lines minus those of the old ones. Taking is the checkout's conditional update (refused, with
 * nothing written, when short: the shop takes no backorders); giving back never returns more than the order holds.
 * The products' sales counts move with the units.
 */
async function moveLineStock(
  tx: Queryable,
  orderId: number,
  before: readonly { productId: number; variationId: number | null; quantity: number }[],
  plan: LinePlan,
  sellableOf: (l: { productId: number; variationId: number | null }) => SellableRecord | undefined,
): Promise<void> {
  const items = new Map<string, { need: StockNeed; delta: number; field: string }>();
  const sales = new Map<number, number>();
  const count = (l: { productId: number; variationId: number | null; quantity: number }, sign: 1 | -1, field: string) => {
    sales.set(l.productId, (sales.get(l.productId) ?? 0) + sign * l.quantity);
    const s = sellableOf(l);
    if (!s || s.stockQuantity === null) return;
    const table = l.variationId ? ("variations" as const) : ("products" as const);
    const id = l.variationId ?? l.productId;
    const k = `${table}:${String(id).padStart(10, "0")}`;
    const item = items.get(k) ?? { need: { table, id, name: s.name, quantity: 0 }, delta: 0, field };
    item.delta += sign * l.quantity;
    // A shortage is reported at the request's item that asks for more of it.
    if (sign === 1 && field !== "line_items") item.field = field;
    items.set(k, item);
  };
  for (const l of before) count(l, -1, "line_items");
  for (const l of plan.lines) count(l, 1, l.index !== undefined ? `line_items[${l.index}].quantity` : "line_items");
  for (const [, { need, delta, field }] of [...items.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    if (delta > 0) {
      const take = { ...need, quantity: delta };
      if (!(await stock.takeUnits(tx, take))) {
        const left = await stock.unitsLeft(tx, take);
        throw new OrderAdminError("woocommerce_rest_invalid_stock", `Not enough "${need.name}" in stock (${left} available).`, 400, {
          params: { [field]: `Not enough "${need.name}" in stock: ${left} more available.` },
        });
      }
      await stock.holdMoreOrderUnits(tx, orderId, take);
    } else if (delta < 0) await stock.dropOrderUnits(tx, orderId, { ...need, quantity: -delta });
  }
  for (const [productId, delta] of [...sales.entries()].sort(([a], [b]) => a - b)) await stock.moveProductSales(tx, productId, delta);
}

/**
 * A note on the order. A note "to the customer" is e-mailed to the billing address through the outbox, in the
 * same transaction (WooCommerce's customer note e-mail).
 */
export async function addOrderNote(deps: OrderAdminDeps, orderId: number, note: string, customerNote: boolean, actorId: number): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const id = await admin.insertNote(tx, orderId, note, customerNote, actorId);
    if (customerNote) {
      const contact = await repo.orderContact(tx, orderId);
      if (contact) await repo.queueEmail(tx, { kind: "order_note", to: contact.billingEmail, ...orderNoteEmail({ id: orderId }, note), orderId });
    }
    return id;
  });
}

/**
 * WooCommerce's "Send order details to customer" (`POST orders/{id}/actions/send_order_details`): the order's
 * details e-mailed again to its billing address through the outbox, with a private note saying so. Null when the
 * order does not exist; the address it went to otherwise.
 */
export async function sendOrderDetails(deps: OrderAdminDeps, orderId: number, actorId: number): Promise<string | null> {
  return deps.db.transaction(async (tx) => {
    const order = await repo.findOrder(tx, orderId);
    if (!order) return null;
    if (!order.billingEmail) {
      throw new OrderAdminError("woocommerce_rest_missing_email", "Order does not have an email address.", 400);
    }
    await repo.queueEmail(tx, { kind: "order_details", to: order.billingEmail, ...orderDetailsEmail(order, deps.currencyFormat), orderId });
    await admin.insertNote(tx, orderId, `Order details sent to ${order.billingEmail}, via REST API.`, false, actorId);
    return order.billingEmail;
  });
}

/** Deletes an order for good. An unpaid order first gives back the stock and coupon uses it holds. */
export async function deleteOrderForGood(deps: OrderAdminDeps, orderId: number): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const o = await repo.lockOrder(tx, orderId);
    if (!o) return false;
    if (await attempts.hasOpenAttempt(tx, orderId)) {
      throw new OrderAdminError("woocommerce_rest_cannot_delete", "A payment for this order is under way; try again in a minute.", 409);
    }
    await repo.releaseHeld(tx, orderId);
    return admin.deleteOrder(tx, orderId);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Refunds
// ---------------------------------------------------------------------------------------------------------------

export interface RefundRequest {
  /** Cents; when absent, the sum of the lines' refund_total. */
  amount: number | null;
  reason: string;
  lineItems: admin.RefundLine[];
  restock: boolean;
  apiRefund: boolean;
  /** The client's idempotency key (Idempotency-Key header or idempotency_key); null = none given. */
  key: string | null;
}

export type RefundOutcome = { refund: admin.AdminRefund; replay: boolean };

/** Without a key, the same refund of the same order asked again within this window is the same request (a double click). */
const DOUBLE_SUBMIT_MS = 60_000;

function requestHash(orderId: number, r: RefundRequest): string {
  const lines = [...r.lineItems].sort((a, b) => a.id - b.id);
  return createHash("sha256")
    .update(JSON.stringify([orderId, r.amount, r.reason, lines, r.restock, r.apiRefund]))
    .digest("hex");
}

export async function refundOrder(deps: OrderAdminDeps, orderId: number, req: RefundRequest, actorId: number): Promise<RefundOutcome> {
  const hash = requestHash(orderId, req);
  // Phase 1: reserve the amount under the order's lock.
  const reserved = await deps.db.transaction(async (tx) => {
    const o = await repo.lockOrder(tx, orderId);
    if (!o) throw new OrderAdminError("woocommerce_rest_invalid_order_id", "Invalid order ID.", 404);
    const key = req.key ?? (await admin.recentRefundKey(tx, orderId, hash, DOUBLE_SUBMIT_MS)) ?? `auto-${randomBytes(12).toString("hex")}`;
    const earlier = await admin.findRefundByKey(tx, orderId, key);
    if (earlier) {
      if (earlier.requestHash !== hash) {
        throw new OrderAdminError("woocommerce_rest_idempotency_key_reused", "This idempotency key was used for a different refund.", 409);
      }
      return { id: earlier.id, amount: earlier.amount, status: earlier.status, refund: earlier };
    }
    if ((await admin.orderPaidAt(tx, orderId)) === null) {
      throw new OrderAdminError("woocommerce_rest_cannot_create_order_refund", "Only a paid order can be refunded.", 400);
    }
    // Per line: never more units or money than the line has left after every earlier refund (core/domain/orders/refund-lines.ts).
    const lines = await admin.adminOrders(tx, [orderId]).then((os) => os[0]!.lines);
    const problem = lineRefundProblem(lines, await admin.refundLinesSoFar(tx, orderId), req.lineItems);
    if (problem) throw new OrderAdminError("woocommerce_rest_invalid_order_refund", problem, 400, { params: ["line_items"] });
    const amount = req.amount ?? req.lineItems.reduce((n, l) => n + l.refund_total, 0);
    if (!(amount > 0)) throw new OrderAdminError("woocommerce_rest_invalid_order_refund", "Refund amount must be greater than zero.", 400);
    if (req.amount !== null && req.lineItems.reduce((n, l) => n + l.refund_total, 0) > req.amount) {
      throw new OrderAdminError("woocommerce_rest_invalid_order_refund", "line_items: the lines' refund_total add up to more than the amount.", 400, {
        params: ["line_items"],
      });
    }
    const left = o.total - (await admin.refundedSoFar(tx, orderId));
    if (amount > left) {
      throw new OrderAdminError("woocommerce_rest_invalid_order_refund", "Invalid refund amount.", 400, { remaining: (left / 100).toFixed(2) });
    }
    const charge = req.apiRefund ? await admin.orderCharge(tx, orderId) : null;
    if (req.apiRefund && !charge) {
      throw new OrderAdminError("woocommerce_rest_cannot_create_order_refund", "The payment gateway for this order does not support automatic refunds.", 400);
    }
    const id = await admin.insertPendingRefund(tx, {
      orderId,
      amount,
      reason: req.reason,
      refundedBy: actorId,
      apiRefund: req.apiRefund,
      restock: req.restock,
      lineItems: req.lineItems,
      key,
      requestHash: hash,
    });
    return { id, amount, status: "pending" as const, refund: null };
  });
  if (reserved.status === "completed" && reserved.refund) return { refund: reserved.refund, replay: true };

  // Phase 2: the gateway, outside any transaction, keyed by the refund row (a resumed refund reuses the key).
  let gatewayRefundId: string | null = null;
  if (req.apiRefund) {
    const charge = await admin.orderCharge(deps.db, orderId);
    const result = charge
      ? await deps.gateway.refund({ idempotencyKey: `order-${orderId}-refund-${reserved.id}`, chargeId: charge.chargeId, amount: reserved.amount })
      : ({ status: "error", code: "not_found", retryable: false, message: "The order has no charge to refund." } as const);
    if (result.status !== "approved") {
      const retryable = result.status === "error" && result.retryable;
      // A refusal changed nothing at the processor: the reservation goes. An unknown outcome (timeout) keeps it,
      // so the amount stays reserved until the same request is retried and finds out.
      if (!retryable) await admin.dropPendingRefund(deps.db, reserved.id);
      throw new OrderAdminError(
        "woocommerce_rest_cannot_create_order_refund",
        result.message || "The payment gateway refused the refund.",
        retryable ? 503 : 500,
        {
          gateway_code: result.code,
          retryable,
        },
      );
    }
    gatewayRefundId = result.refundId;
  }

  // Phase 3: complete, restock, note, status.
  return deps.db.transaction(async (tx) => {
    const o = await repo.lockOrder(tx, orderId);
    if (!o) throw new OrderAdminError("woocommerce_rest_invalid_order_id", "Invalid order ID.", 404);
    const completed = await admin.completeRefund(tx, reserved.id, gatewayRefundId);
    const refund = (await admin.findRefund(tx, orderId, reserved.id))!;
    if (!completed) return { refund, replay: true };
    if (refund.restock) await restockLines(tx, orderId, refund.lineItems);
    const money = formatMoney(refund.amount, deps.currencyFormat);
    await admin.insertNote(
      tx,
      orderId,
      `Refunded ${money}${refund.apiRefund ? ` through the payment gateway (refund ${gatewayRefundId})` : " by hand (no money moved through the gateway)"}${refund.reason ? ` – ${refund.reason}` : ""}.`,
      false,
      actorId,
    );
    const full = (await admin.completedRefundTotal(tx, orderId)) >= o.total;
    if (full && canTransition(o.status, "refunded")) await repo.transition(tx, orderId, "refunded");
    const contact = await repo.orderContact(tx, orderId);
    if (contact)
      await repo.queueEmail(tx, {
        kind: "order_refunded",
        to: contact.billingEmail,
        ...orderRefundedEmail({ id: orderId }, refund.amount, full, deps.currencyFormat),
        orderId,
      });
    return { refund, replay: false };
  });
}

/**
 * Gives back the stock of the refunded lines: each line's own stock item (its variation, else its product), never
 * more than the order still holds of it, through the statement every release uses (stock.returnUnits).
 */
async function restockLines(tx: Queryable, orderId: number, lines: readonly admin.RefundLine[]): Promise<void> {
  const held = await stock.unreturnedStock(tx, orderId);
  const orderLines = (await admin.adminOrders(tx, [orderId]))[0]?.lines ?? [];
  const give = new Map<string, StockNeed & { left: number }>();
  for (const li of lines) {
    const line = orderLines.find((l) => l.id === li.id);
    if (!line || li.quantity <= 0) continue;
    const table = line.variationId ? "variations" : "products";
    const itemId = line.variationId ?? line.productId;
    const h = held.find((s) => s.table === table && s.id === itemId);
    if (!h) continue;
    const k = `${table}:${itemId}`;
    const prev = give.get(k);
    const quantity = Math.min(h.left, (prev?.quantity ?? 0) + li.quantity);
    give.set(k, { ...h, quantity });
  }
  for (const need of [...give.values()].sort((a, b) => a.table.localeCompare(b.table) || a.id - b.id)) {
    await stock.returnOrderUnits(tx, orderId, need);
  }
}

/**
 * Deletes a refund record made by hand (api_refund false). A gateway refund moved money and stays: deleting its
 * record would let the same money be refunded again.
 */
export async function deleteManualRefund(deps: OrderAdminDeps, orderId: number, refundId: number): Promise<admin.AdminRefund | null> {
  return deps.db.transaction(async (tx) => {
    await repo.lockOrder(tx, orderId);
    const refund = await admin.findRefund(tx, orderId, refundId);
    if (!refund) return null;
    if (refund.apiRefund) {
      throw new OrderAdminError("woocommerce_rest_cannot_delete", "A refund made through the payment gateway cannot be deleted.", 400);
    }
    await admin.deleteRefund(tx, orderId, refundId);
    return refund;
  });
}
