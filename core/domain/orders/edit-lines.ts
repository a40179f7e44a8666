/**
 * Staff's edit of an order's lines (docs/contract/admin.md 'Order', decision 0048): WooCommerce's `line_items` on
 * `PUT orders/{id}` — `{id, quantity}` changes a line, `quantity: 0` removes it, `{product_id, variation_id, quantity}`
 * adds one. Pure: the use case (core/commerce/order-admin.ts `editOrderLines`) reads the lines and the products under
 * the order's lock and writes what this returns. Amounts in cents.
 *
 * - A line whose quantity changes keeps its unit prices and its discount per unit as stored: its subtotal and total
 *   are scaled by new / old quantity, rounded once, half away from zero (WooCommerce's order editor does the same).
 * - A new line costs the product's shop price (sale or regular) per unit, with no discount.
 * - The order's totals: the subtotal is the lines' subtotals; the discount moves by what the lines' discounts move by
 *   (a cart discount not tied to lines stays as stored); the tax is the checkout's (`cartTax`, computed by the
 *   caller with the shop's rates on the new lines and the kept shipping); the total is lines + shipping + tax.
 */
import type { Cents } from "../money/money.ts";
import { orderTaxLines, type CartTax } from "../pricing/tax.ts";
import type { OrderTaxLine } from "./types.ts";

/** WooCommerce's `is_editable`: only an order awaiting payment or on hold has its lines changed. */
export const EDITABLE_STATUSES = ["pending", "on-hold"] as const;
export const isEditableStatus = (status: string): boolean => (EDITABLE_STATUSES as readonly string[]).includes(status);

export interface EditableLine {
  id: number;
  productId: number;
  variationId: number | null;
  name: string;
  quantity: number;
  subtotal: Cents;
  total: Cents;
}

/** A change of an existing line (`quantity` 0 removes it); `index` is its place in the request's `line_items`. */
export interface LineChange {
  index: number;
  id: number;
  quantity: number;
}

/** A new line, its product already found and priced (`unitPrice`, the shop price). */
export interface LineAddition {
  index: number;
  productId: number;
  variationId: number | null;
  name: string;
  details: string;
  quantity: number;
  unitPrice: Cents;
}

export interface LinePlan {
  /** Every line the order keeps or gets, in order: existing ones (changed or not) then the new ones (`id` null). */
  lines: (Omit<EditableLine, "id"> & { id: number | null; details?: string; /** The request's item that changed or added it. */ index?: number })[];
  changed: { index: number; line: EditableLine; quantity: number; subtotal: Cents; total: Cents }[];
  removed: EditableLine[];
  added: (LineAddition & { subtotal: Cents; total: Cents })[];
}

/** `amount` × `quantity` / `of`, rounded once, half away from zero (amounts are never negative here). */
export function scaleAmount(amount: Cents, quantity: number, of: number): Cents {
  if (of <= 0) return 0;
  return Math.floor((2 * amount * quantity + of) / (2 * of));
}

/**
 * The order's lines after the edit, or the problems keyed by the request's field (`line_items[1].id`), as the API
 * answers them. An order keeps at least one line.
 */
export function planLineEdits(
  lines: readonly EditableLine[],
  changes: readonly LineChange[],
  additions: readonly LineAddition[],
): { ok: true; plan: LinePlan } | { ok: false; problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const asked = new Map<number, LineChange>();
  for (const c of changes) {
    const field = `line_items[${c.index}].id`;
    if (!lines.some((l) => l.id === c.id)) problems[field] = `${field}: the order has no line item ${c.id}.`;
    else if (asked.has(c.id)) problems[field] = `${field}: line item ${c.id} is named twice.`;
    else asked.set(c.id, c);
  }
  if (Object.keys(problems).length) return { ok: false, problems };
  const plan: LinePlan = { lines: [], changed: [], removed: [], added: [] };
  for (const l of lines) {
    const c = asked.get(l.id);
    if (!c || c.quantity === l.quantity) {
      plan.lines.push(l);
      continue;
    }
    if (c.quantity === 0) {
      plan.removed.push(l);
      continue;
    }
    const subtotal = scaleAmount(l.subtotal, c.quantity, l.quantity);
    const total = scaleAmount(l.total, c.quantity, l.quantity);
    plan.changed.push({ index: c.index, line: l, quantity: c.quantity, subtotal, total });
    plan.lines.push({ ...l, quantity: c.quantity, subtotal, total, index: c.index });
  }
  for (const a of additions) {
    const subtotal = a.unitPrice * a.quantity;
    plan.added.push({ ...a, subtotal, total: subtotal });
    plan.lines.push({
      id: null,
      productId: a.productId,
      variationId: a.variationId,
      name: a.name,
      details: a.details,
      quantity: a.quantity,
      subtotal,
      total: subtotal,
      index: a.index,
    });
  }
  if (plan.lines.length === 0) return { ok: false, problems: { line_items: "line_items: an order keeps at least one line; cancel the order instead." } };
  return { ok: true, plan };
}

export interface OrderMoney {
  subtotal: Cents;
  discountTotal: Cents;
  shippingTotal: Cents;
}

export interface EditedTotals {
  subtotal: Cents;
  discountTotal: Cents;
  totalTax: Cents;
  shippingTax: Cents;
  taxLines: OrderTaxLine[];
  total: Cents;
}

/**
 * The order's totals after the edit. `tax` is `cartTax` over the plan's lines keyed by their position
 * (`String(i)`) and the order's shipping, or null when tax is off.
 */
export function editedTotals(before: OrderMoney, oldLines: readonly EditableLine[], plan: LinePlan, tax: CartTax | null): EditedTotals {
  const sum = (ls: readonly { subtotal: Cents; total: Cents }[], f: (l: { subtotal: Cents; total: Cents }) => Cents) => ls.reduce((n, l) => n + f(l), 0);
  const discountBefore = sum(oldLines, (l) => l.subtotal - l.total);
  const discountAfter = sum(plan.lines, (l) => l.subtotal - l.total);
  const linesTotal = sum(plan.lines, (l) => l.total);
  const totalTax = tax?.total ?? 0;
  return {
    subtotal: sum(plan.lines, (l) => l.subtotal),
    discountTotal: Math.max(0, before.discountTotal + discountAfter - discountBefore),
    totalTax,
    shippingTax: tax?.shippingTax ?? 0,
    taxLines: orderTaxLines(tax?.taxLines ?? []),
    total: linesTotal + before.shippingTotal + totalTax,
  };
}

const units = (l: { name: string; quantity: number; details?: string }) => `${l.name}${l.details ? ` (${l.details})` : ""} × ${l.quantity}`;

/** The private note staff's edit leaves ("Added Velvet Bow Tie × 2. Changed quantity of Silk Scarf from 2 to 3."). */
export function lineEditNote(plan: LinePlan): string {
  const parts: string[] = [];
  if (plan.added.length) parts.push(`Added ${plan.added.map(units).join(", ")}.`);
  if (plan.removed.length) parts.push(`Removed ${plan.removed.map(units).join(", ")}.`);
  for (const c of plan.changed) parts.push(`Changed quantity of ${c.line.name} from ${c.line.quantity} to ${c.quantity}.`);
  return parts.join(" ");
}
