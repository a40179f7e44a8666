/**
 * Who may see an order on the order received page (docs/contract/storefront.md 'Order received'). The key in the link
 * is checked first, always. Beyond it, like WooCommerce's order-received e-mail verification: the signed-in owner
 * sees the order, and so does the browser session that placed or paid it; anyone else holding the link must first
 * confirm the order's e-mail address. Confirmations are rate-limited per client address (only the wrong ones count),
 * so the address cannot be guessed through the form.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { Db } from "../db/client.ts";
import type { SessionData } from "../db/repositories/sessions.ts";
import { consumeLimits, releaseEvents } from "./rate-limits.ts";
import { ORDERS_SEEN_KEY } from "./session-keys.ts";

export const ORDER_VERIFY_LIMITS = {
  /** Confirmations per client address per 15 minutes (a right one is not counted). */
  failedPerAddressPer15Min: 10,
  /** How many orders one session remembers having placed, paid or confirmed. */
  seenPerSession: 20,
} as const;

export const ORDER_VERIFY_MESSAGES = {
  prompt: "To view this page, you must either log in or verify the email address associated with the order.",
  mismatch: "We were unable to verify the email address you provided, so the order is not shown. Please check the address and try again.",
  limited: "Too many attempts. Please wait a few minutes and try again.",
  missing: "Please enter the email address associated with the order.",
} as const;

/** The orders this session has placed, paid or confirmed. */
function seenOrders(data: SessionData): number[] {
  const v = data[ORDERS_SEEN_KEY];
  return Array.isArray(v) ? v.filter((x): x is number => typeof x === "number") : [];
}

/** Records that this session may see the order (the newest first, a bounded list). */
export function rememberOrder(data: SessionData, orderId: number): void {
  data[ORDERS_SEEN_KEY] = [orderId, ...seenOrders(data).filter((id) => id !== orderId)].slice(0, ORDER_VERIFY_LIMITS.seenPerSession);
}

/** Whether the visitor sees the order without confirming its e-mail (the key has been checked already). */
export function canSeeOrder(order: { id: number; customerId: number | null }, session: { customerId: number | null; data: SessionData } | null): boolean {
  if (!session) return false;
  if (session.customerId !== null && order.customerId === session.customerId) return true;
  return seenOrders(session.data).includes(order.id);
}

const digest = (v: string) => createHash("sha256").update(v.trim().toLowerCase()).digest();

/** Checks a confirmation of the order's e-mail address: a wrong one is counted against the client address. */
export async function confirmOrderEmail(
  db: Db,
  q: { orderEmail: string; given: string; address: string; now: Date },
): Promise<{ ok: true } | { ok: false; message: string; limited: boolean }> {
  if (!q.given.trim()) return { ok: false, message: ORDER_VERIFY_MESSAGES.missing, limited: false };
  const taken = await consumeLimits(db, q.now, [
    { kind: "order_verify_failed", scope: "address", subject: q.address, max: ORDER_VERIFY_LIMITS.failedPerAddressPer15Min, windowMs: 15 * 60_000 },
  ]);
  if (!taken.ok) return { ok: false, message: ORDER_VERIFY_MESSAGES.limited, limited: true };
  if (q.given.length <= 254 && timingSafeEqual(digest(q.orderEmail), digest(q.given))) {
    await releaseEvents(db, taken.ids);
    return { ok: true };
  }
  return { ok: false, message: ORDER_VERIFY_MESSAGES.mismatch, limited: false };
}
