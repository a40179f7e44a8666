/**
 * The order lifecycle as one typed state machine. Migration 0004 holds the same statuses and edges as rows
 * (order_statuses, order_status_transitions), which the status UPDATE checks against; this table is their
 * TypeScript twin, and tests/http/order-status.test.ts proves the two are equal after migrating.
 */

/** Every order status, in the order the migration lists them. */
export const ORDER_STATUSES = ["pending", "processing", "on-hold", "completed", "cancelled", "refunded", "failed"] as const;

export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** What the shopper reads for each status (order_statuses.label). */
export const ORDER_STATUS_LABELS: Readonly<Record<OrderStatus, string>> = {
  pending: "Pending payment",
  processing: "Processing",
  "on-hold": "On hold",
  completed: "Completed",
  cancelled: "Cancelled",
  refunded: "Refunded",
  failed: "Failed",
};

/** The allowed edges (order_status_transitions): from each status, the statuses it may move to. */
export const ORDER_STATUS_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  pending: ["processing", "on-hold", "failed", "cancelled"],
  failed: ["pending", "processing", "cancelled"],
  "on-hold": ["processing", "cancelled"],
  processing: ["completed", "refunded", "cancelled"],
  completed: ["refunded"],
  cancelled: [],
  refunded: [],
};

/** Statuses a customer may still pay for, or cancel, from the account (WooCommerce's 'pay' and 'cancel' actions). */
export const PAYABLE_STATUSES: readonly OrderStatus[] = ["pending", "failed"];

export function isOrderStatus(value: string): value is OrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(value);
}

/** Reads a status from storage; an unknown value is a broken invariant (the column references order_statuses). */
export function parseOrderStatus(value: string): OrderStatus {
  if (!isOrderStatus(value)) throw new Error(`unknown order status: ${value}`);
  return value;
}

/** Whether an order in `from` may move to `to` along an allowed edge. */
export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_STATUS_TRANSITIONS[from].includes(to);
}

/** The statuses from which `to` can be reached in one step. */
export function statusesLeadingTo(to: OrderStatus): OrderStatus[] {
  return ORDER_STATUSES.filter((from) => canTransition(from, to));
}

/** Whether the order is still unpaid and open: it may be paid (again) or cancelled by its customer. */
export function isPayable(status: OrderStatus): boolean {
  return PAYABLE_STATUSES.includes(status);
}

/** Whether the order has been paid for (the order-received page's "thank you"). */
export function isPaidStatus(status: OrderStatus): boolean {
  return status === "processing" || status === "completed";
}

/** Every allowed edge as a pair, in a stable order (for comparing with the database's rows). */
export function transitionPairs(): [OrderStatus, OrderStatus][] {
  return ORDER_STATUSES.flatMap((from) => ORDER_STATUS_TRANSITIONS[from].map((to): [OrderStatus, OrderStatus] => [from, to]));
}
