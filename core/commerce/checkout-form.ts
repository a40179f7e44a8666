/**
 * The checkout form as the server reads it (docs/contract/wire.md §1.3 'checkout'): every field checked here, with
 * WooCommerce's wording, and the payment fields checked by the SAME validation code the browser form runs
 * (core/domain/payments). Pure: no I/O, the current month is an argument.
 */
import {
  type GatewaySettings,
  type PaymentFieldError,
  type YearMonth,
  paymentFieldId,
  validateCardForm,
  validateEcheckForm,
  toAsciiDigits,
  parseCardExpiry,
} from "../domain/payments/index.ts";
import { escapeHtml } from "../domain/text/html.ts";
import type { Address } from "../domain/checkout/address.ts";
import { field, isTrue, readDetails, sanitizeText, type FieldError } from "../domain/checkout/address-form.ts";

export type { Address } from "../domain/checkout/address.ts";

export const NOTE_MAX = 2000;

export type PaymentChoice =
  | { kind: "card"; number: string; expMonth: number; expYear: number; csc: string | null; tokenize: boolean }
  | { kind: "card_token"; tokenId: number; csc: string | null }
  | { kind: "bank"; routingNumber: string; accountNumber: string; tokenize: boolean }
  | { kind: "bank_token"; tokenId: number };

export interface CheckoutInput {
  billing: Address;
  shipping: Address | null;
  orderComments: string;
  paymentMethod: string;
  payment: PaymentChoice | null;
  shippingMethodId: string | null;
  createAccount: { password: string } | null;
  attribution: Record<string, string>;
}

export type CheckoutParse = { ok: true; value: CheckoutInput } | { ok: false; errors: FieldError[] };

export { escapeHtml, field, sanitizeText, type FieldError };
export { errorListHtml, readAddress } from "../domain/checkout/address-form.ts";

export const ATTRIBUTION_FIELDS = [
  "source_type",
  "referrer",
  "utm_campaign",
  "utm_source",
  "utm_medium",
  "utm_content",
  "utm_id",
  "utm_term",
  "utm_source_platform",
  "utm_creative_format",
  "utm_marketing_tactic",
  "session_entry",
  "session_start_time",
  "session_pages",
  "session_count",
  "user_agent",
] as const;

/**
 * docs/contract/wire.md §4.5: a missing field counts as '(none)' and '(none)' is dropped; the rest are sanitized.
 * device_type is derived from the user agent. Keys are the stored meta keys.
 */
export function attributionMeta(form: Record<string, unknown>): Record<string, string> {
  const meta: Record<string, string> = {};
  for (const name of ATTRIBUTION_FIELDS) {
    const value = sanitizeText(field(form, `wc_order_attribution_${name}`)).slice(0, 1000);
    if (value === "" || value === "(none)") continue;
    meta[`_wc_order_attribution_${name}`] = value;
  }
  const ua = meta._wc_order_attribution_user_agent;
  if (ua)
    meta._wc_order_attribution_device_type = /tablet|ipad|playbook|silk/i.test(ua) ? "Tablet" : /mobi|android|iphone|ipod/i.test(ua) ? "Mobile" : "Desktop";
  return meta;
}

export interface PaymentGatewayConfig {
  card: GatewaySettings;
  echeck: GatewaySettings;
}

/** The payment fields of the chosen gateway, validated with the browser form's own rules. */
export function readPayment(
  form: Record<string, unknown>,
  gateways: PaymentGatewayConfig,
  currentMonth: YearMonth,
  opts: { ownedTokenIds: ReadonlySet<number>; canTokenize: boolean },
): { ok: true; value: PaymentChoice } | { ok: false; errors: FieldError[] } {
  const method = field(form, "payment_method");
  const toErrors = (settings: GatewaySettings, list: PaymentFieldError[]): FieldError[] =>
    list.map((e) => ({ id: paymentFieldId(settings, e.field), html: escapeHtml(e.message) }));
  const tokenField = (s: GatewaySettings) => field(form, `wc-${s.id_dasherized}-payment-token`);
  const chosenToken = (s: GatewaySettings): number | null | "bad" => {
    const raw = tokenField(s);
    if (raw === "" || raw === "new") return null;
    const id = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
    return opts.ownedTokenIds.has(id) ? id : "bad";
  };
  if (method === gateways.card.id) {
    const s = gateways.card;
    const token = chosenToken(s);
    if (token === "bad")
      return { ok: false, errors: [{ id: `wc-${s.id_dasherized}-payment-token`, html: "Please choose a saved payment method or enter a new card." }] };
    const rawNumber = field(form, `wc-${s.id_dasherized}-account-number`);
    const rawExpiry = field(form, `wc-${s.id_dasherized}-expiry`);
    const rawCsc = field(form, `wc-${s.id_dasherized}-csc`);
    if (rawNumber.length > 40 || rawExpiry.length > 20 || rawCsc.length > 10) {
      return { ok: false, errors: [{ id: `wc-${s.id_dasherized}-account-number`, html: escapeHtml("Card number is invalid") }] };
    }
    const result = validateCardForm(
      { cardNumber: toAsciiDigits(rawNumber), expiry: toAsciiDigits(rawExpiry), csc: toAsciiDigits(rawCsc), savedTokenSelected: token !== null },
      s,
      { currentMonth },
    );
    if (!result.ok) return { ok: false, errors: toErrors(s, result.errors) };
    if (token !== null) return { ok: true, value: { kind: "card_token", tokenId: token, csc: result.csc } };
    const expiry = result.expiry ?? parseCardExpiry(rawExpiry)!;
    return {
      ok: true,
      value: {
        kind: "card",
        number: result.cardNumber!,
        expMonth: expiry.month,
        expYear: expiry.year,
        csc: result.csc,
        tokenize: opts.canTokenize && isTrue(field(form, `wc-${s.id_dasherized}-tokenize-payment-method`)),
      },
    };
  }
  if (method === gateways.echeck.id) {
    const s = gateways.echeck;
    const token = chosenToken(s);
    if (token === "bad")
      return { ok: false, errors: [{ id: `wc-${s.id_dasherized}-payment-token`, html: "Please choose a saved payment method or enter a new bank account." }] };
    const routing = toAsciiDigits(field(form, `wc-${s.id_dasherized}-routing-number`));
    const account = toAsciiDigits(field(form, `wc-${s.id_dasherized}-account-number`));
    if (routing.length > 40 || account.length > 40) {
      return {
        ok: false,
        errors: [{ id: `wc-${s.id_dasherized}-account-number`, html: escapeHtml("Account Number is invalid (must be between 5 and 17 digits)") }],
      };
    }
    const result = validateEcheckForm({ routingNumber: routing, accountNumber: account, savedTokenSelected: token !== null });
    if (!result.ok) return { ok: false, errors: toErrors(s, result.errors) };
    if (token !== null) return { ok: true, value: { kind: "bank_token", tokenId: token } };
    return {
      ok: true,
      value: {
        kind: "bank",
        routingNumber: result.routingNumber!,
        accountNumber: result.accountNumber!,
        tokenize: opts.canTokenize && isTrue(field(form, `wc-${s.id_dasherized}-tokenize-payment-method`)),
      },
    };
  }
  return { ok: false, errors: [{ id: "payment_method", html: "Invalid payment method." }] };
}

/** Every checkout field; payment fields only when the address fields are sound enough to place an order. */
export function parseCheckoutForm(
  form: Record<string, unknown>,
  gateways: PaymentGatewayConfig,
  currentMonth: YearMonth,
  opts: { loggedIn: boolean; ownedTokenIds: ReadonlySet<number>; guestCheckout: boolean },
): CheckoutParse {
  const errors: FieldError[] = [];
  const { billing, shipping, createAccount } = readDetails(form, opts, errors);
  const rawNote = field(form, "order_comments");
  if (rawNote.length > NOTE_MAX) errors.push({ id: "order_comments", html: `<strong>Order notes</strong> are too long (at most ${NOTE_MAX} characters).` });
  // Control characters out (U+0000–U+001F and U+007F, except tab, LF and CR).
  const orderComments = rawNote
    .replace(/<[^>]*>?/g, "")
    .replace(/[^\P{Cc}\t\n\r\x80-\x9f]/gu, "")
    .trim()
    .slice(0, NOTE_MAX);

  const rawShipping = form.shipping_method;
  let shippingMethodId: string | null = null;
  const first = Array.isArray(rawShipping)
    ? rawShipping[0]
    : rawShipping && typeof rawShipping === "object"
      ? (rawShipping as Record<string, unknown>)["0"]
      : rawShipping;
  if (typeof first === "string" && /^[\w:-]{1,64}$/.test(first)) shippingMethodId = first;

  const payment = readPayment(form, gateways, currentMonth, { ownedTokenIds: opts.ownedTokenIds, canTokenize: opts.loggedIn || createAccount !== null });
  if (!payment.ok) errors.push(...payment.errors);

  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    value: {
      billing,
      shipping,
      orderComments,
      paymentMethod: field(form, "payment_method"),
      payment: payment.ok ? payment.value : null,
      shippingMethodId,
      createAccount,
      attribution: attributionMeta(form),
    },
  };
}

/** A message not tied to a field (escaped). */
export function errorNoticeHtml(message: string): string {
  return `<ul class="woocommerce-error" role="alert"><li>${escapeHtml(message)}</li></ul>`;
}
