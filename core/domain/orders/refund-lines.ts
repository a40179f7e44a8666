/**
 * What is left to refund of each order line (docs/contract/rest/orders.md 'Refunds'): a line's units and money
 * minus what earlier refunds (completed or still pending) took from it. One rule for the server, which refuses a
 * refund above it under the order's lock (core/commerce/order-admin.ts), and the admin's refund form, which offers
 * no more (app/admin/OrderScreen.tsx). Amounts in cents.
 */

export interface RefundableLine {
  id: number;
  quantity: number;
  /** What the customer paid for the line, in cents (after discounts). */
  total: number;
}

export interface LineRefund {
  id: number;
  quantity: number;
  /** Cents. */
  refund_total: number;
}

export interface LineLeft {
  id: number;
  quantity: number;
  total: number;
}

/** Each line's units and cents not yet refunded, given every earlier refund's lines. */
export function lineRefundsLeft(lines: readonly RefundableLine[], earlier: readonly (readonly LineRefund[])[]): LineLeft[] {
  return lines.map((l) => {
    let quantity = l.quantity;
    let total = l.total;
    for (const refund of earlier)
      for (const r of refund)
        if (r.id === l.id) {
          quantity -= r.quantity;
          total -= r.refund_total;
        }
    return { id: l.id, quantity: Math.max(0, quantity), total: Math.max(0, total) };
  });
}

/** Why a refund's lines cannot be refunded (the first problem found), or null when every line is within what is left. */
export function lineRefundProblem(lines: readonly RefundableLine[], earlier: readonly (readonly LineRefund[])[], ask: readonly LineRefund[]): string | null {
  const left = lineRefundsLeft(lines, earlier);
  const seen = new Set<number>();
  for (const a of ask) {
    if (seen.has(a.id)) return `line_items: line item ${a.id} is named twice.`;
    seen.add(a.id);
    const l = left.find((x) => x.id === a.id);
    if (!l) return `line_items: the order has no line item ${a.id}.`;
    if (a.quantity > l.quantity) return `line_items: line item ${a.id} has only ${l.quantity} ${l.quantity === 1 ? "unit" : "units"} left to refund.`;
    if (a.refund_total > l.total) return `line_items: line item ${a.id} has only ${(l.total / 100).toFixed(2)} left to refund.`;
  }
  return null;
}
