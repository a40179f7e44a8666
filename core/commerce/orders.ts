/**
 * Placing an order and paying for it.
 *
 * 1. Claim the checkout's idempotency key (one row, INSERT … ON CONFLICT): a double click, a retry or a second tab
 *    finds the claim and never creates a second order or charge.
 * 2. One transaction: re-price the cart with the pricing engine, lock the coupons used (FOR UPDATE) and count their
 *    usage, take stock with one conditional UPDATE per line (never read-then-write), create the order and record
 *    the payment attempt — all before any money moves.
 * 3. Call the gateway outside any transaction, with idempotency keys derived from the attempt.
 * 4. One transaction marks the order paid, or fails it and gives back its stock and coupon usage (voiding an
 *    authorization first when one exists).
 * A crash anywhere leaves a 'started' or 'authorized' attempt, which `reconcilePayments` finishes: no captured
 * payment is left without its order, and no order is charged twice.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Db, Queryable } from "../db/client.ts";
import type { Gate } from "../db/gate.ts";
import { normalizeCouponCode } from "../domain/pricing/index.ts";
import { orderTaxLines } from "../domain/pricing/tax.ts";
import type { Coupon, CartResult } from "../domain/pricing/index.ts";
import { loadPricedCart, type CartOwner, type PricingOptions } from "./cart.ts";
import { findCart } from "../db/repositories/cart.ts";
import { couponSchema } from "../domain/pricing/index.ts";
import type { PaymentGateway, PaymentMethodSummary, GatewayResult } from "../payments/gateway.ts";
import type { CheckoutInput, FieldError, PaymentChoice } from "./checkout-form.ts";
import { escapeHtml } from "./checkout-form.ts";
import { PAYMENT_MESSAGES } from "../domain/payments/index.ts";
import type { CurrencyFormat } from "../domain/money/money.ts";
import * as repo from "../db/repositories/orders.ts";
import { insertCustomer } from "../db/repositories/customers.ts";
import * as stock from "../db/repositories/stock.ts";
import * as attempts from "../db/repositories/payment-attempts.ts";
import * as claims from "../db/repositories/checkout-claims.ts";
import * as couponUse from "../db/repositories/coupon-usage.ts";
import { isPayable, type OrderStatus } from "../domain/orders/status.ts";
import { orderReceivedEmail } from "../mail/templates/order-received.ts";
import { orderDownloads } from "./downloads.ts";
import { orderPaymentFailedEmail } from "../mail/templates/order-payment-failed.ts";
import { stockNeeds, type StockNeed } from "../domain/catalog/index.ts";
import { lineReceiptDetails } from "../domain/orders/receipt.ts";
import { saveCustomerAddress } from "./accounts.ts";

export interface OrderDeps {
  db: Db;
  /** How many order transactions run at once, and how long the others wait for their turn. */
  orderGate: Gate;
  gateway: PaymentGateway;
  currency: string;
  currencyFormat: CurrencyFormat;
  now: () => Date;
  log: (msg: string, fields?: Record<string, unknown>) => void;
  /** Gateway ids of the two forms, e.g. sandbox_credit_card / sandbox_echeck. */
  cardGatewayId: string;
  echeckGatewayId: string;
  /** The shop's canonical address (no trailing slash): links in e-mails are built on it, never on a request's Host. */
  siteUrl: string;
}

export interface PlaceOrderRequest {
  claimKey: string;
  customerId: number | null;
  input: CheckoutInput;
  /** Whose cart is ordered; it is loaded and priced inside the order transaction. */
  owner: CartOwner;
  /** A new account to create in the same transaction (the password already hashed). */
  newAccount?: { email: string; passwordHash: string; firstName: string; lastName: string } | null;
  /** Where the order is shipped (its shipping address, else its billing one): the cart is priced with that zone's rates. */
  shipping?: Pick<PricingOptions, "destination" | "shippable">;
  /** Settings › Tax on: the address whose rates the order is charged (core/commerce/tax.ts). */
  tax?: PricingOptions["tax"];
}

export type PlaceOrderResult =
  | { ok: true; orderId: number; orderKey: string; replay: boolean; customerId: number | null }
  | {
      ok: false;
      errors: FieldError[];
      refresh?: boolean;
      reload?: boolean;
      customerId?: number | null;
      /** Set when an order was created and its payment failed. */ orderId?: number;
    };

class CheckoutRefusal extends Error {
  constructor(
    readonly errors: FieldError[],
    readonly reload = false,
  ) {
    super("checkout refused");
  }
}

const notice = (message: string, id = ""): FieldError => ({ id, html: escapeHtml(message) });

export const ALREADY_PROCESSING = "Your order is already being processed. Please wait a moment, then check your e-mail or your account before trying again.";

/** Step 1. Returns the attempt number when this call owns the claim, or what the earlier submission produced. */
async function claim(
  db: Db,
  key: string,
): Promise<{ owned: true } | { owned: false; status: claims.ClaimStatus; orderId: number | null; orderKey: string | null }> {
  if (await claims.claimCheckout(db, key)) return { owned: true };
  const row = await claims.findClaim(db, key);
  return { owned: false, status: row?.status ?? "processing", orderId: row?.orderId ?? null, orderKey: row?.orderKey ?? null };
}

/** The gateway operation a payment choice uses: a new card is authorized then captured, a token is charged, a bank account debited. */
function operationOf(choice: PaymentChoice): attempts.AttemptOperation {
  return choice.kind === "card" && !choice.tokenize
    ? "authorize_capture"
    : choice.kind === "bank" || choice.kind === "bank_token"
      ? "echeck_debit"
      : "charge_token";
}

/** The title an order shows for the gateway (form) it is paid with. */
function paymentMethodTitle(deps: Pick<OrderDeps, "echeckGatewayId">, gatewayId: string): string {
  return gatewayId === deps.echeckGatewayId ? "eCheck" : "Credit Card";
}

/** The gateway (form) a payment choice belongs to: what the order records as its payment method. */
function gatewayOf(deps: Pick<OrderDeps, "cardGatewayId" | "echeckGatewayId">, choice: PaymentChoice): string {
  return choice.kind === "bank" || choice.kind === "bank_token" ? deps.echeckGatewayId : deps.cardGatewayId;
}

function customerKeyOf(customerId: number | null, email: string): string {
  return customerId ? `c:${customerId}` : `e:${email.toLowerCase()}`;
}

interface CreatedOrder {
  orderId: number;
  orderKey: string;
  total: number;
  attemptId: number | null;
  attemptKey: string | null;
  customerId: number | null;
}

function notStockedNotice(name: string, available: number): FieldError {
  return notice(
    available === 0
      ? `Sorry, "${name}" is not in stock. Please edit your cart and try again. We apologize for any inconvenience caused.`
      : `Sorry, we do not have enough "${name}" in stock to fulfill your order (${available} available). We apologize for any inconvenience caused.`,
  );
}

/**
 * Before queueing for the order transaction: is something in the cart already sold out? A plain read, so in a storm
 * on one product the shoppers after the last unit are answered at once instead of each waiting for the gate and
 * the product's row lock. It only ever refuses what the transaction would refuse (stock never comes back on its
 * own); the transaction's conditional UPDATE stays the rule for who gets the last units.
 */
async function soldOutNotice(deps: OrderDeps, req: PlaceOrderRequest): Promise<FieldError | null> {
  const cart = await loadPricedCart(deps.db, req.owner, {
    now: deps.now(),
    loggedIn: req.customerId !== null,
    currencyFormat: deps.currencyFormat,
    ...req.shipping,
    ...(req.tax ? { tax: req.tax } : {}),
  });
  for (const need of stockNeeds(cart.lines)) {
    const available = await stock.unitsLeft(deps.db, need);
    if (available < need.quantity) return notStockedNotice(need.name, available);
  }
  return null;
}

/** Step 2: everything that must be all-or-nothing before money moves. */
async function createOrder(deps: OrderDeps, req: PlaceOrderRequest): Promise<CreatedOrder> {
  return deps.db.transaction(async (tx) => {
    let customerId = req.customerId;
    if (req.newAccount) {
      const a = req.newAccount;
      const id = await insertCustomer(tx, {
        email: a.email,
        passwordHash: a.passwordHash,
        firstName: a.firstName,
        lastName: a.lastName,
        displayName: a.firstName || a.email.split("@")[0]!,
      });
      if (id === null) throw new CheckoutRefusal([{ id: "billing_email", html: "An account is already registered with your email address. Please log in." }]);
      customerId = id;
    }

    // Coupons are locked first, so the usage counts the pricing below reads are final: a coupon's limit holds
    // under concurrent checkouts (READ COMMITTED reads the winner's increment once its lock is released).
    const stored = await findCart(tx, req.owner);
    const codes = [...new Set((stored?.coupons ?? []).map(normalizeCouponCode))].sort();
    const locked = await couponUse.lockCoupons(tx, codes);
    // The cart re-priced on the server, inside this transaction, by the same function the cart page uses.
    const cart = await loadPricedCart(tx, req.owner, {
      now: deps.now(),
      loggedIn: customerId !== null,
      currencyFormat: deps.currencyFormat,
      ...req.shipping,
      ...(req.tax ? { tax: req.tax } : {}),
    });
    const priced: CartResult = cart.result;
    if (cart.lines.length === 0) throw new CheckoutRefusal([notice("Sorry, your session has expired. Return to shop")], true);
    if (priced.coupons.refused.length) throw new CheckoutRefusal(priced.coupons.refused.map((r) => notice(r.message)));
    const customerKey = customerKeyOf(customerId, req.input.billing.email);
    for (const row of locked) {
      const coupon = couponSchema.parse(row.data) as Coupon;
      if (!coupon.usageLimitPerCustomer || !priced.coupons.applied.some((a) => normalizeCouponCode(a.code) === row.code)) continue;
      const mine = await couponUse.countCustomerUses(tx, row.code, [customerKey, `e:${req.input.billing.email.toLowerCase()}`]);
      if (mine >= coupon.usageLimitPerCustomer) throw new CheckoutRefusal([notice("Coupon usage limit has been reached.")]);
    }
    if (priced.shipping.needsShipping && !priced.shipping.chosenRateId) {
      throw new CheckoutRefusal([notice("No shipping method has been selected. Please double check your address, or contact us if you need any help.")]);
    }
    // Stock: a plain read first, so a shopper after the last unit is refused before writing anything; the units are
    // taken at the end (below).
    const needs = stockNeeds(cart.lines);
    for (const need of needs) {
      const available = await stock.unitsLeft(tx, need);
      if (available < need.quantity) throw new CheckoutRefusal([notStockedNotice(need.name, available)]);
    }
    const nameOf = new Map(cart.lines.map((l) => [l.key, l.name]));
    const detailsOf = new Map(cart.lines.map((l) => [l.key, lineReceiptDetails(l)]));

    const shippingRate = priced.shipping.rates.find((r) => r.id === priced.shipping.chosenRateId) ?? null;
    const orderKey = `wc_order_${randomBytes(12).toString("base64url")}`;
    const paymentTitle = paymentMethodTitle(deps, req.input.paymentMethod);
    const orderId = await repo.insertOrder(tx, {
      orderKey,
      customerId,
      billingEmail: req.input.billing.email,
      currency: deps.currency,
      subtotal: priced.totals.subtotal,
      discountTotal: priced.totals.discountTotal,
      shippingTotal: priced.totals.shipping,
      totalTax: cart.tax?.total ?? 0,
      shippingTax: cart.tax?.shippingTax ?? 0,
      taxLines: orderTaxLines(cart.tax?.taxLines ?? []),
      total: priced.totals.grandTotal,
      shippingMethodId: shippingRate?.id ?? null,
      shippingMethodTitle: shippingRate?.label ?? null,
      paymentMethod: req.input.paymentMethod,
      paymentMethodTitle: paymentTitle,
      customerNote: req.input.orderComments,
      checkoutKey: req.claimKey,
      billing: req.input.billing,
      shipping: req.input.shipping ?? (priced.shipping.needsShipping ? { ...req.input.billing, email: "", phone: "" } : null),
      lines: priced.lines.map((l) => ({
        productId: l.productId,
        variationId: l.variationId && l.variationId > 0 ? l.variationId : null,
        name: nameOf.get(l.key)!,
        details: detailsOf.get(l.key) ?? "",
        quantity: l.quantity,
        subtotal: l.subtotal,
        total: l.total,
        subtotalTax: cart.tax?.lines[l.key]?.subtotalTax ?? 0,
        totalTax: cart.tax?.lines[l.key]?.totalTax ?? 0,
      })),
      stock: needs,
      coupons: priced.coupons.applied.map((c) => ({ code: c.code, discount: c.discount })),
      meta: req.input.attribution,
    });
    for (const c of priced.coupons.applied) await couponUse.recordCouponUse(tx, normalizeCouponCode(c.code), customerKey, orderId);

    let attemptId: number | null = null;
    let attemptKey: string | null = null;
    if (priced.totals.grandTotal > 0) {
      const payment = req.input.payment!;
      attemptKey = `order-${orderId}-${randomBytes(6).toString("hex")}`;
      attemptId = await attempts.insertAttempt(tx, {
        orderId,
        key: attemptKey,
        gateway: deps.gateway.id,
        operation: operationOf(payment),
        amount: priced.totals.grandTotal,
        currency: deps.currency,
      });
    }
    // The account keeps the addresses it ordered with (WooCommerce saves them to the customer), for the next
    // checkout and My account → Addresses. They were validated by readAddress, like the address form's.
    if (customerId !== null) {
      await saveCustomerAddress(tx, customerId, "billing", req.input.billing);
      if (req.input.shipping) await saveCustomerAddress(tx, customerId, "shipping", req.input.shipping);
    }
    await claims.setClaimOrder(tx, req.claimKey, orderId);
    await takeStockLast(tx, needs, priced.lines);
    return { orderId, orderKey, total: priced.totals.grandTotal, attemptId, attemptKey, customerId };
  });
}

/**
 * The hot rows last: one conditional UPDATE per stock item (each line's own product or variation and every product
 * inside a bundle, summed across lines), then the products' sales counts, each in a fixed order so concurrent orders
 * cannot deadlock. A hot product's row is locked from here to the COMMIT only, a couple of round trips, instead of
 * across every insert of the order: under a storm on one product that lock is what the orders queue for, and each
 * round trip waits for a busy event loop (docs/decisions/0027). Short stock rolls the whole order back.
 */
async function takeStockLast(tx: Queryable, needs: StockNeed[], lines: readonly { productId: number; quantity: number }[]): Promise<void> {
  for (const need of needs) {
    if (await stock.takeUnits(tx, need)) continue;
    throw new CheckoutRefusal([notStockedNotice(need.name, await stock.unitsLeft(tx, need))]);
  }
  const sold = new Map<number, number>();
  for (const l of lines) sold.set(l.productId, (sold.get(l.productId) ?? 0) + l.quantity);
  for (const [productId, quantity] of [...sold].sort(([a], [b]) => a - b)) await stock.addProductSales(tx, productId, quantity);
}

export async function placeOrder(deps: OrderDeps, req: PlaceOrderRequest): Promise<PlaceOrderResult> {
  const claimed = await claim(deps.db, req.claimKey);
  if (!claimed.owned) {
    if (claimed.status === "done" && claimed.orderId && claimed.orderKey) {
      return { ok: true, orderId: claimed.orderId, orderKey: claimed.orderKey, replay: true, customerId: null };
    }
    return { ok: false, errors: [notice(ALREADY_PROCESSING)] };
  }
  // Past the sold-out check, the order is made and paid through the connections set aside for it (Db.orderLane).
  const lane: OrderDeps = { ...deps, db: deps.db.orderLane };
  let created: CreatedOrder;
  try {
    const soldOut = await soldOutNotice(deps, req);
    if (soldOut) throw new CheckoutRefusal([soldOut]);
    created = await deps.orderGate.run(() => createOrder(lane, req));
  } catch (error) {
    await claims.releaseClaim(deps.db, req.claimKey);
    if (error instanceof CheckoutRefusal) return { ok: false, errors: error.errors, reload: error.reload };
    throw error;
  }
  if (created.attemptId === null) {
    await markPaid(lane, created.orderId, null, null);
    return { ok: true, orderId: created.orderId, orderKey: created.orderKey, replay: false, customerId: created.customerId };
  }
  const outcome = await pay(lane, {
    attemptId: created.attemptId,
    key: created.attemptKey!,
    orderId: created.orderId,
    amount: created.total,
    customerId: created.customerId,
    choice: req.input.payment!,
  });
  if (outcome.kind === "paid") {
    return { ok: true, orderId: created.orderId, orderKey: created.orderKey, replay: false, customerId: created.customerId };
  }
  if (outcome.kind === "unknown") {
    return {
      ok: false,
      errors: [notice(`We could not confirm your payment yet. Your order number is ${created.orderId}; please check your e-mail before trying again.`)],
      customerId: created.customerId,
      orderId: created.orderId,
    };
  }
  return { ok: false, errors: [notice(outcome.message)], customerId: created.customerId, orderId: created.orderId };
}

// ---------------------------------------------------------------------------------------------------------------
// Paying
// ---------------------------------------------------------------------------------------------------------------

export interface PaymentJob {
  attemptId: number;
  key: string;
  orderId: number;
  amount: number;
  customerId: number | null;
  choice: PaymentChoice;
}

type PayOutcome = { kind: "paid" } | { kind: "failed"; message: string } | { kind: "unknown" };

const customerRef = (customerId: number | null) => (customerId ? `customer-${customerId}` : undefined);

/** What the shopper reads after a refusal: the processor's reason (safe to show) as a sentence, then the general advice. */
export function declineMessage(result: GatewayResult): string {
  if (result.status !== "declined") return PAYMENT_MESSAGES.general;
  const reason = result.message.trim();
  if (!reason) return PAYMENT_MESSAGES.general;
  const sentence = reason.charAt(0).toUpperCase() + reason.slice(1);
  return `${/[.!?]$/.test(sentence) ? sentence : `${sentence}.`} ${PAYMENT_MESSAGES.general}`;
}

async function pay(deps: OrderDeps, job: PaymentJob): Promise<PayOutcome> {
  const g = deps.gateway;
  const c = job.choice;
  const currency = deps.currency;
  const fail = async (result: GatewayResult): Promise<PayOutcome> => {
    await markFailed(deps, job.orderId, job.attemptId, result.status === "declined" ? "declined" : "failed", result.status === "approved" ? null : result.code);
    return { kind: "failed", message: declineMessage(result) };
  };
  const unknownOr = async (result: GatewayResult): Promise<PayOutcome> => {
    if (result.status === "error" && result.code === "timeout") return { kind: "unknown" };
    return fail(result);
  };

  if (c.kind === "card" && !(c.tokenize && job.customerId)) {
    const auth = await g.authorize({
      idempotencyKey: `${job.key}:auth`,
      amount: job.amount,
      currency,
      source: { type: "card", card: { number: c.number, expMonth: c.expMonth, expYear: c.expYear, csc: c.csc ?? undefined } },
    });
    if (auth.status !== "approved") return unknownOr(auth);
    if (!(await attempts.markAuthorized(deps.db, job.attemptId, auth.authId, auth.method))) return lateAuthorization(deps, job, auth.authId);
    return captureOrVoid(deps, job, auth.authId, auth.method);
  }

  let token: string;
  if (c.kind === "card_token" || c.kind === "bank_token") {
    const row = await repo.findToken(deps.db, c.tokenId, job.customerId ?? -1);
    if (!row) return fail({ status: "error", code: "not_found", retryable: false, message: PAYMENT_MESSAGES.general });
    token = row.token;
  } else {
    // A new method the shopper asked to save: tokenize first, then charge the token.
    if (c.kind === "card") {
      const tok = await tokenizeCard(deps, `${job.key}:tok`, job.customerId!, c);
      if (tok.status !== "approved") return unknownOr(tok);
      token = tok.token.token;
    } else if (!c.tokenize || !job.customerId) {
      const debit = await g.echeckDebit({
        idempotencyKey: `${job.key}:charge`,
        amount: job.amount,
        currency,
        source: { type: "bank", account: { routingNumber: c.routingNumber, accountNumber: c.accountNumber } },
      });
      return debit.status === "approved" ? paid(deps, job, debit.chargeId, debit.method) : unknownOr(debit);
    } else {
      const tok = await g.tokenize({
        idempotencyKey: `${job.key}:tok`,
        customerRef: customerRef(job.customerId)!,
        source: { type: "bank", account: { routingNumber: c.routingNumber, accountNumber: c.accountNumber } },
      });
      if (tok.status !== "approved") return unknownOr(tok);
      await repo.saveToken(deps.db, job.customerId, deps.echeckGatewayId, tok.token);
      token = tok.token.token;
    }
  }
  if (c.kind === "bank" || c.kind === "bank_token") {
    const debit = await g.echeckDebit({
      idempotencyKey: `${job.key}:charge`,
      amount: job.amount,
      currency,
      customerRef: customerRef(job.customerId),
      source: { type: "token", token },
    });
    return debit.status === "approved" ? paid(deps, job, debit.chargeId, debit.method) : unknownOr(debit);
  }
  const charge = await g.chargeToken({
    idempotencyKey: `${job.key}:charge`,
    token,
    amount: job.amount,
    currency,
    customerRef: customerRef(job.customerId),
    csc: c.kind === "card_token" ? (c.csc ?? undefined) : undefined,
  });
  return charge.status === "approved" ? paid(deps, job, charge.chargeId, charge.method) : unknownOr(charge);
}

/** Card tokenize-and-charge path, kept apart so `pay` reads top to bottom. */
export async function tokenizeCard(
  deps: OrderDeps,
  key: string,
  customerId: number,
  card: { number: string; expMonth: number; expYear: number; csc: string | null },
) {
  const tok = await deps.gateway.tokenize({
    idempotencyKey: key,
    customerRef: customerRef(customerId)!,
    source: { type: "card", card: { number: card.number, expMonth: card.expMonth, expYear: card.expYear, csc: card.csc ?? undefined } },
  });
  if (tok.status === "approved") await repo.saveToken(deps.db, customerId, deps.cardGatewayId, tok.token);
  return tok;
}

async function paid(deps: OrderDeps, job: PaymentJob, chargeId: string, method: PaymentMethodSummary): Promise<PayOutcome> {
  if ((await markPaid(deps, job.orderId, job.attemptId, { chargeId, method })) === "late") return lateCharge(deps, job);
  return { kind: "paid" };
}

/**
 * Late answers. The reconciler closes an attempt whose call it judges dead (older than its deadline, unknown to or
 * unfinished at the processor) and fails the order, giving its stock back. Should that call still land — a
 * stalled process, a processor slower than it promised — the money must not pay the failed order (its stock may
 * be sold already) and must not stay taken: an authorization is voided, a charge refunded. The refund is recorded
 * first ('late_captured'), so a crash before it is finished is picked up by the reconciler.
 */
async function lateAuthorization(deps: OrderDeps, job: { attemptId: number; key: string; orderId: number }, authId: string): Promise<PayOutcome> {
  // The reconciler may have found this very authorization and be capturing it: then it is not late.
  const a = await attempts.attemptState(deps.db, job.attemptId);
  if (a?.authId === authId && a.status === "captured") return { kind: "paid" };
  if (a?.authId === authId && a.status === "authorized") return captureOrVoid(deps, job, authId, null);
  deps.log("late authorization voided", { attemptId: job.attemptId, orderId: job.orderId });
  await deps.gateway.void({ idempotencyKey: `${job.key}:void`, authId });
  return { kind: "failed", message: PAYMENT_MESSAGES.general };
}

async function lateCharge(deps: OrderDeps, job: { attemptId: number; key: string; orderId: number }): Promise<PayOutcome> {
  deps.log("late charge refunded", { attemptId: job.attemptId, orderId: job.orderId });
  await refundLateCharge(deps, job.attemptId);
  return { kind: "failed", message: PAYMENT_MESSAGES.general };
}

/** Refunds a 'late_captured' attempt's charge, once (the key is the attempt's). True when it is refunded. */
async function refundLateCharge(deps: OrderDeps, attemptId: number): Promise<boolean> {
  const a = await attempts.lateCapture(deps.db, attemptId);
  if (!a) return false;
  const refund = await deps.gateway.refund({ idempotencyKey: `${a.idempotencyKey}:late-refund`, chargeId: a.chargeId, amount: a.amount });
  if (refund.status === "approved") {
    await attempts.markRefunded(deps.db, attemptId, refund.refundId);
    return true;
  }
  // A retryable error is retried by the reconciler; anything else needs a person, and says so in the row and log.
  if (!(refund.status === "error" && refund.retryable)) {
    await attempts.setAttemptError(deps.db, attemptId, `refund_${refund.code}`);
    deps.log("late charge could not be refunded: refund it by hand", { attemptId, code: refund.code });
  }
  return false;
}

/** `notify`: the shopper is not on the page (the reconciler's call), so a failure is e-mailed with the order-pay link. */
async function captureOrVoid(
  deps: OrderDeps,
  job: { attemptId: number; key: string; orderId: number },
  authId: string,
  method: PaymentMethodSummary | null,
  notify = false,
): Promise<PayOutcome> {
  const cap = await deps.gateway.capture({ idempotencyKey: `${job.key}:capture`, authId });
  if (cap.status === "approved") {
    if ((await markPaid(deps, job.orderId, job.attemptId, { chargeId: cap.chargeId, method })) === "late") return lateCharge(deps, job);
    return { kind: "paid" };
  }
  if (cap.status === "error" && cap.retryable) return { kind: "unknown" };
  // A failure after authorization voids it, so the shopper's funds are not held.
  const v = await deps.gateway.void({ idempotencyKey: `${job.key}:void`, authId });
  if (v.status === "error" && v.retryable) return { kind: "unknown" };
  await markFailed(deps, job.orderId, job.attemptId, "voided", cap.code, { notify });
  return { kind: "failed", message: PAYMENT_MESSAGES.general };
}

/**
 * Pays the order with its attempt's charge, in one transaction. Only an attempt that is still open pays: one the
 * reconciler closed meanwhile is marked 'late_captured' and the order is left alone ("late": the caller refunds).
 * Paying twice with the same charge (a retry, two reconcilers) changes nothing.
 */
export async function markPaid(
  deps: Pick<OrderDeps, "db" | "currencyFormat" | "siteUrl">,
  orderId: number,
  attemptId: number | null,
  charge: { chargeId: string; method: PaymentMethodSummary | null } | null,
): Promise<"paid" | "late"> {
  return deps.db.transaction(async (tx) => {
    if (attemptId !== null) {
      if (!(await attempts.markCaptured(tx, attemptId, charge?.chargeId ?? null, charge?.method ?? null))) {
        const a = await attempts.lockAttempt(tx, attemptId);
        if (a?.status === "captured") return "paid";
        if (a && (a.status === "late_captured" || a.status === "refunded")) return a.status === "late_captured" ? "late" : "paid";
        await attempts.markLateCaptured(tx, attemptId, charge?.chargeId ?? null);
        return "late";
      }
    }
    const moved = await repo.transition(tx, orderId, "processing", { paid: true });
    // Only the checkout still waiting on this payment completes its claim. A claim released by a failure stays
    // released: paying that order later (order-pay) must not make the session's next checkout replay it.
    await claims.settleOrderClaim(tx, orderId, "done");
    if (moved) {
      const order = await repo.findOrder(tx, orderId);
      // The downloads the payment just granted are listed with their links (decision 0041).
      const downloads = order
        ? (await orderDownloads(tx, orderId, new Date())).map((d) => ({ name: d.downloadName || d.productName, url: `${deps.siteUrl}${d.url}` }))
        : [];
      if (order)
        await repo.queueEmail(tx, { kind: "order_received", to: order.billingEmail, ...orderReceivedEmail(order, deps.currencyFormat, downloads), orderId });
    }
    return "paid";
  });
}

/**
 * Whether a key from a URL is the order's key, compared in constant time (both sides hashed first, so neither
 * the content nor the length of the real key shows in the timing). The key is a guest's proof of the order.
 */
export function orderKeyMatches(orderKey: string, given: string): boolean {
  const digest = (v: string) => createHash("sha256").update(v).digest();
  return given.length > 0 && timingSafeEqual(digest(orderKey), digest(given));
}

/** The order-pay page's path for an order: where a shopper pays a pending or failed order again. */
export function orderPayPath(orderId: number, orderKey: string): string {
  return `/checkout/order-pay/${orderId}/?pay_for_order=true&key=${encodeURIComponent(orderKey)}`;
}

/** The same, absolute on the shop's canonical address (for e-mails: never the request's Host). */
export function orderPayUrl(siteUrl: string, orderId: number, orderKey: string): string {
  return `${siteUrl}${orderPayPath(orderId, orderKey)}`;
}

/**
 * Fails an unpaid order and gives back what it held: stock and coupon usage. Safe to call twice. With `notify`
 * (the reconciler: the shopper left with "check your e-mail") the "payment failed" e-mail with the link to pay
 * again is queued, only by the call that moved the order to failed. A decline the shopper sees on the page is not
 * e-mailed: they retry there, and the retry's order supersedes this one.
 */
export async function markFailed(
  deps: Pick<OrderDeps, "db" | "currencyFormat" | "siteUrl">,
  orderId: number,
  attemptId: number | null,
  attemptStatus: "declined" | "failed" | "voided",
  code: string | null,
  opts: { notify?: boolean } = {},
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (attemptId !== null) {
      await attempts.closeAttempt(tx, attemptId, attemptStatus, code);
    }
    const moved = await repo.transition(tx, orderId, "failed");
    await repo.releaseHeld(tx, orderId);
    await claims.settleOrderClaim(tx, orderId, "failed");
    if (moved && opts.notify) {
      const o = await repo.orderContact(tx, orderId);
      if (o) {
        const mail = orderPaymentFailedEmail({ id: orderId, total: o.total, payUrl: orderPayUrl(deps.siteUrl, orderId, o.orderKey) }, deps.currencyFormat);
        await repo.queueEmail(tx, { kind: "order_failed", to: o.billingEmail, ...mail, orderId });
      }
    }
  });
}

/** The nonce action of the account's Cancel forms (the orders list and the order view post to the order view). */
export const CANCEL_ORDER_NONCE_ACTION = "woocommerce-cancel_order";

/** The account's actions on one of the customer's orders beyond 'View': where to pay it and where to cancel it. */
export function orderActionsFor(o: { id: number; orderKey: string; status: OrderStatus }): { pay: string | null; cancel: string | null } {
  const open = isPayable(o.status);
  return { pay: open ? orderPayPath(o.id, o.orderKey) : null, cancel: open ? `/my-account/view-order/${o.id}/` : null };
}

/**
 * Cancels a customer's own unpaid (pending or failed) order and gives back what it still holds — its stock and
 * coupon usage — through the same release as a failed payment, along the status table's edge. Refused while a
 * payment for it is under way (the order row is locked, so none can start meanwhile): money that lands must find
 * its order payable, never cancelled.
 */
export async function cancelUnpaidOrder(db: Db, orderId: number, customerId: number): Promise<boolean> {
  return cancelUnpaid(db, orderId, customerId, "Order cancelled by customer.");
}

/**
 * A checkout that failed and was then placed again from the same session leaves its earlier failed order behind
 * (WooCommerce's "order awaiting payment"): once the new order exists, the old one is cancelled, so its order-pay
 * link cannot charge the shopper a second time for the same cart.
 */
export async function cancelSupersededOrder(db: Db, orderId: number): Promise<boolean> {
  return cancelUnpaid(db, orderId, null, "Order cancelled: the checkout was placed again as a new order.");
}

async function cancelUnpaid(db: Db, orderId: number, customerId: number | null, note: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const o = await repo.lockOrder(tx, orderId);
    if (!o || (customerId !== null && o.customerId !== customerId) || !isPayable(o.status)) return false;
    if (await attempts.hasOpenAttempt(tx, orderId)) return false;
    if (!(await repo.transition(tx, orderId, "cancelled"))) return false;
    await repo.releaseHeld(tx, orderId);
    await repo.addOrderNote(tx, orderId, note);
    return true;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Reconciler
// ---------------------------------------------------------------------------------------------------------------

/**
 * Finishes every payment attempt left unfinished by a crash or a timeout, older than `olderThanMs` (which must
 * exceed the gateway's call deadline, or be 0 at the start of a single-process shop, when every call is dead):
 * an approved authorization is captured and its order paid; a charge the processor completed pays its order;
 * an attempt the processor never saw (or declined) fails its order and returns the stock. Returns what it did.
 */
export async function reconcilePayments(deps: OrderDeps, olderThanMs: number): Promise<{ paid: number; failed: number; pending: number; refunded: number }> {
  const counts = { paid: 0, failed: 0, pending: 0, refunded: 0 };
  const cutoff = new Date(deps.now().getTime() - olderThanMs);
  const open = await attempts.staleOpenAttempts(deps.db, cutoff);
  for (const a of open) {
    try {
      const job = { attemptId: a.id, key: a.idempotencyKey, orderId: a.orderId };
      let outcome: PayOutcome;
      if (a.status === "authorized" && a.authId) {
        outcome = await captureOrVoid(deps, job, a.authId, null, true);
      } else if (a.operation === "authorize_capture") {
        const found = await deps.gateway.lookup(`${a.idempotencyKey}:auth`);
        if (found.found && found.state === "completed" && found.result.status === "approved" && "authId" in found.result) {
          await attempts.markAuthorized(deps.db, a.id, found.result.authId, "method" in found.result ? found.result.method : null);
          outcome = await captureOrVoid(deps, job, found.result.authId, "method" in found.result ? found.result.method : null, true);
        } else {
          // Not found, declined, or still 'in progress' past the call's deadline (the call died with its
          // process before the processor committed anything): nothing was charged.
          await markFailed(
            deps,
            a.orderId,
            a.id,
            "failed",
            found.found && found.state === "completed" && found.result.status !== "approved" ? found.result.code : "not_processed",
            { notify: true },
          );
          outcome = { kind: "failed", message: "" };
        }
      } else {
        const found = await deps.gateway.lookup(`${a.idempotencyKey}:charge`);
        if (found.found && found.state === "completed" && found.result.status === "approved" && "chargeId" in found.result) {
          const r = await markPaid(deps, a.orderId, a.id, {
            chargeId: found.result.chargeId,
            method: "method" in found.result ? (found.result.method as PaymentMethodSummary) : null,
          });
          outcome = r === "paid" ? { kind: "paid" } : await lateCharge(deps, job);
        } else {
          // Not found, declined, or still 'in progress' past the call's deadline (the call died with its
          // process before the processor committed anything): nothing was charged.
          await markFailed(
            deps,
            a.orderId,
            a.id,
            "failed",
            found.found && found.state === "completed" && found.result.status !== "approved" ? found.result.code : "not_processed",
            { notify: true },
          );
          outcome = { kind: "failed", message: "" };
        }
      }
      if (outcome.kind === "paid") counts.paid++;
      else if (outcome.kind === "failed") counts.failed++;
      else counts.pending++;
    } catch (error) {
      counts.pending++;
      deps.log("reconcile attempt failed", { attemptId: a.id, error: (error as Error).message });
    }
  }
  // Late charges whose refund did not finish (a crash, a retryable error): refund them now.
  for (const id of await attempts.unrefundedLateCaptures(deps.db)) {
    try {
      if (await refundLateCharge(deps, id)) counts.refunded++;
      else counts.pending++;
    } catch (error) {
      counts.pending++;
      deps.log("late refund failed", { attemptId: id, error: (error as Error).message });
    }
  }
  // Claims whose process died before the order existed: let the shopper try again.
  await claims.releaseAbandonedClaims(deps.db, cutoff);
  return counts;
}

// ---------------------------------------------------------------------------------------------------------------
// Paying for an existing order (the order-pay page)
// ---------------------------------------------------------------------------------------------------------------

export type PayOrderResult = { ok: true } | { ok: false; message: string };

/**
 * Pays a pending or failed order again. A failed order gave its stock back, so the stock is taken again with the
 * same conditional updates (refused when it is gone); then a new attempt is recorded and paid like a checkout.
 */
export async function payExistingOrder(deps: OrderDeps, orderId: number, customerId: number | null, choice: PaymentChoice): Promise<PayOrderResult> {
  const prepared = await deps.db
    .transaction(async (tx) => {
      const order = await repo.lockOrder(tx, orderId);
      if (!order || !isPayable(order.status)) return { ok: false as const, message: "This order's status is not pending or failed; it cannot be paid for." };
      if (await attempts.hasOpenAttempt(tx, orderId)) return { ok: false as const, message: ALREADY_PROCESSING };
      if (!order.stockHeld) {
        for (const need of await stock.orderStock(tx, orderId)) {
          // Plain text (not `notice`): the order-pay page renders this message as text.
          if (!(await stock.takeUnits(tx, need)))
            throw new CheckoutRefusal([{ id: "", html: `Sorry, "${need.name}" is not in stock. We apologize for any inconvenience caused.` }]);
        }
        await stock.addOrderSales(tx, orderId, 1);
        // The coupons it used are counted again under their row locks, so a usage limit still holds.
        for (const used of await couponUse.orderCouponCodes(tx, orderId)) {
          const code = normalizeCouponCode(used);
          const row = await couponUse.lockCoupon(tx, code);
          const coupon = row ? (couponSchema.parse(row.data) as Coupon) : null;
          if (coupon?.usageLimit !== undefined && row!.usageCount >= coupon.usageLimit) {
            throw new CheckoutRefusal([{ id: "", html: "Coupon usage limit has been reached." }]);
          }
          await couponUse.recordCouponUse(tx, code, customerKeyOf(order.customerId, order.billingEmail), orderId);
        }
        await repo.markStockHeld(tx, orderId);
      }
      // The order records the method it is paid with now, not the one of an earlier (declined) attempt.
      const gatewayId = gatewayOf(deps, choice);
      await repo.setPaymentMethod(tx, orderId, gatewayId, paymentMethodTitle(deps, gatewayId));
      // A failed order becomes payable again along its edge back to 'pending'.
      if (order.status === "failed") await repo.transition(tx, orderId, "pending");
      const key = `order-${orderId}-${randomBytes(6).toString("hex")}`;
      const attemptId = await attempts.insertAttempt(tx, {
        orderId,
        key,
        gateway: deps.gateway.id,
        operation: operationOf(choice),
        amount: order.total,
        currency: deps.currency,
      });
      return { ok: true as const, key, attemptId, amount: order.total, customerId: order.customerId ?? customerId };
    })
    .catch((error) => {
      if (error instanceof CheckoutRefusal) return { ok: false as const, message: error.errors.map((e) => e.html).join(" ") };
      throw error;
    });
  if (!prepared.ok) return prepared;
  const outcome = await pay(deps, {
    attemptId: prepared.attemptId,
    key: prepared.key,
    orderId,
    amount: prepared.amount,
    customerId: prepared.customerId,
    choice,
  });
  if (outcome.kind === "paid") return { ok: true };
  if (outcome.kind === "unknown") return { ok: false, message: "We could not confirm your payment yet; please check your e-mail before trying again." };
  return { ok: false, message: outcome.message };
}
