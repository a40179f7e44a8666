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
import { findOrder, linkGuestOrder } from "../db/repositories/orders.ts";
import { insertCustomer } from "../db/repositories/customers.ts";
import { hashPassword } from "../security/password.ts";
import { registrationSchema, saveCustomerAddress } from "./accounts.ts";
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

/**
 * "Create an account with this order" (a guest's order received page): a new account on the order's e-mail
 * address, under the shop's registration rules (registrationSchema: the password's length; one account per
 * address), with the order and its addresses linked to it, in one transaction. The caller signs the account in.
 */
export async function createAccountFromOrder(
  db: Db,
  orderId: number,
  password: string,
): Promise<{ ok: true; customerId: number } | { ok: false; message: string }> {
  const order = await findOrder(db, orderId);
  if (!order || order.customerId !== null) return { ok: false, message: ALREADY_LINKED };
  const billing = order.addresses.billing;
  const parsed = registrationSchema.safeParse({
    email: order.billingEmail,
    password,
    first_name: billing?.first_name.slice(0, 100) ?? "",
    last_name: billing?.last_name.slice(0, 100) ?? "",
  });
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]!.message };
  // The slow hash runs before the transaction, so no row stays locked meanwhile.
  const passwordHash = await hashPassword(parsed.data.password);
  const linkedMeanwhile = new Error(ALREADY_LINKED);
  return db
    .transaction(async (tx) => {
      const customerId = await insertCustomer(tx, {
        email: parsed.data.email,
        passwordHash,
        firstName: parsed.data.first_name,
        lastName: parsed.data.last_name,
        displayName: parsed.data.first_name || parsed.data.email.split("@")[0]!,
      });
      if (customerId === null) return { ok: false as const, message: "An account is already registered with your email address. Please log in." };
      // Rolls the new account back: the order went to an account between the read above and here.
      if (!(await linkGuestOrder(tx, orderId, customerId))) throw linkedMeanwhile;
      if (billing) await saveCustomerAddress(tx, customerId, "billing", billing);
      if (order.addresses.shipping) await saveCustomerAddress(tx, customerId, "shipping", order.addresses.shipping);
      return { ok: true as const, customerId };
    })
    .catch((error: unknown) => {
      if (error === linkedMeanwhile) return { ok: false as const, message: ALREADY_LINKED };
      throw error;
    });
}

const ALREADY_LINKED = "This order already belongs to an account. Please log in to see it.";
