/**
 * The payment gateway interface: what the checkout, the order-pay page and the admin call to move money, whatever
 * processor sits behind it. The built-in implementation is the sandbox (`sandbox.server.ts`).
 *
 * Rules every implementation keeps:
 * - Amounts are integer cents (`Cents`), currencies ISO 4217 codes ('USD').
 * - Every call carries an idempotency key. Repeating a call with the same key returns the first result and never
 *   moves money twice. Re-using a key for a different request is refused ('idempotency_key_reused').
 * - Results are values, not exceptions: approved / declined (a reason code and a message safe to show the
 *   shopper) / error (retryable or not). A retryable error is not remembered against the key: retry with the
 *   SAME key. After a 'timeout' the outcome is unknown — retry with the same key or ask `lookup`.
 * - Card numbers and security codes go in, never come out: results carry a token, brand, last four digits and
 *   expiry only.
 */
import type { Cents } from "../domain/money/money.ts";
import type { CardTypeName } from "../domain/payments/card-types.ts";

/** ISO 4217 code, upper case. */
export type CurrencyCode = string;

export interface CallOptions {
  /** Chosen by the caller, unique per intended money movement (e.g. `order-123-attempt-1`). */
  idempotencyKey: string;
  /** How long the caller waits for the processor's answer; past it the call returns a 'timeout' error. */
  deadlineMs?: number;
}

/** A card as typed by the shopper. Only ever held in memory for the length of one call. */
export interface CardInput {
  /** Digits; spaces and dashes are tolerated. */
  number: string;
  expMonth: number;
  /** Four digits (a two-digit year is expanded: below 70 → 20xx). */
  expYear: number;
  csc?: string;
  holderName?: string;
}

export interface BankAccountInput {
  routingNumber: string;
  accountNumber: string;
  accountType?: "checking" | "savings";
  holderName?: string;
}

/** What `authorize` can charge: a new card or a saved card token (with the CSC when the shop asks for it). */
export type CardSource = { type: "card"; card: CardInput } | { type: "token"; token: string; csc?: string };

/** What `echeckDebit` can debit: a bank account or a saved bank token. */
export type BankSource = { type: "bank"; account: BankAccountInput } | { type: "token"; token: string };

export interface CardSummary {
  kind: "card";
  brand: CardTypeName;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface BankSummary {
  kind: "bank";
  last4: string;
  routingLast4?: string;
  accountType?: "checking" | "savings";
}

export type PaymentMethodSummary = CardSummary | BankSummary;

/** A saved card: the token and what may be shown ('Visa ending in 4242, expires 12/30'). */
export interface CardToken extends CardSummary {
  token: string;
}

export interface BankToken extends BankSummary {
  token: string;
}

export type DeclineCode =
  | "card_declined"
  | "insufficient_funds"
  | "incorrect_csc"
  | "invalid_csc"
  | "expired_card"
  | "invalid_number"
  | "invalid_expiry"
  | "invalid_routing_number"
  | "invalid_account_number"
  | "account_closed"
  | "test_mode_number";

export type ErrorCode =
  /** The processor failed; nothing was charged. Retryable. */
  | "processing_error"
  /** No answer within the deadline; the outcome is unknown. Retryable with the same key, or ask `lookup`. */
  | "timeout"
  /** Another call with this key is still running. Retryable. */
  | "in_progress"
  /** A concurrent call changed the same authorization or charge. Retryable. */
  | "conflict"
  | "idempotency_key_reused"
  | "invalid_request"
  | "invalid_amount"
  | "not_found"
  /** E.g. capturing a voided authorization, voiding a captured one. */
  | "invalid_state"
  | "authorization_expired"
  | "token_mismatch";

export interface Declined {
  status: "declined";
  code: DeclineCode;
  /** Safe to show the shopper. */
  message: string;
}

export interface Failed {
  status: "error";
  code: ErrorCode;
  retryable: boolean;
  /** Safe to show; for the shopper, prefer the form's general message. */
  message: string;
}

export type Approved<T> = { status: "approved" } & T;
export type Outcome<T> = Approved<T> | Declined | Failed;

export type AuthorizeResult = Outcome<{
  authId: string;
  amount: Cents;
  currency: CurrencyCode;
  method: PaymentMethodSummary;
}>;
export type CaptureResult = Outcome<{ chargeId: string; authId: string; amount: Cents; currency: CurrencyCode }>;
export type VoidResult = Outcome<{ authId: string }>;
export type RefundResult = Outcome<{
  refundId: string;
  chargeId: string;
  amount: Cents;
  /** All refunds of the charge so far, this one included. */
  refundedTotal: Cents;
  currency: CurrencyCode;
}>;
export type TokenizeResult = Outcome<{ token: CardToken | BankToken }>;
/** A sale: authorized and captured at once (`chargeToken`, `echeckDebit`). */
export type ChargeResult = Outcome<{
  chargeId: string;
  amount: Cents;
  currency: CurrencyCode;
  method: PaymentMethodSummary;
}>;

export type GatewayResult = AuthorizeResult | CaptureResult | VoidResult | RefundResult | TokenizeResult | ChargeResult;

export type GatewayOperation = "authorize" | "capture" | "void" | "refund" | "tokenize" | "chargeToken" | "echeckDebit";

/** What a reconciler learns about an idempotency key after a crash or a timeout. */
export type LookupResult =
  /** The processor never saw this key: nothing happened; retrying with the same key is safe. */
  | { found: false }
  /** A call with this key is running (or died before finishing, in which case nothing was charged). */
  | { found: true; state: "in_progress"; operation: GatewayOperation }
  | { found: true; state: "completed"; operation: GatewayOperation; result: GatewayResult };

export interface AuthorizeRequest extends CallOptions {
  amount: Cents;
  currency: CurrencyCode;
  source: CardSource;
  /** With a token source: the customer the token belongs to; a mismatch is refused ('token_mismatch'). */
  customerRef?: string;
}

export interface CaptureRequest extends CallOptions {
  authId: string;
  /** Defaults to the authorized amount; may be less (the rest is released), never more. */
  amount?: Cents;
}

export interface VoidRequest extends CallOptions {
  authId: string;
}

export interface RefundRequest extends CallOptions {
  chargeId: string;
  amount: Cents;
}

export interface TokenizeRequest extends CallOptions {
  source: { type: "card"; card: CardInput } | { type: "bank"; account: BankAccountInput };
  /** The shop's customer id; a token can only be charged for the customer it was made for. */
  customerRef: string;
}

export interface ChargeTokenRequest extends CallOptions {
  token: string;
  amount: Cents;
  currency: CurrencyCode;
  /** The customer the token belongs to; a mismatch is refused ('token_mismatch'). */
  customerRef?: string;
  /** When the shop requires the CSC for saved cards (csc_required_for_tokens). */
  csc?: string;
}

export interface EcheckDebitRequest extends CallOptions {
  source: BankSource;
  amount: Cents;
  currency: CurrencyCode;
  customerRef?: string;
}

export interface PaymentGateway {
  /** E.g. 'sandbox'. */
  readonly id: string;
  /** True for a processor that moves no real money (the form shows its 'test mode' label). */
  readonly testMode: boolean;
  authorize(request: AuthorizeRequest): Promise<AuthorizeResult>;
  capture(request: CaptureRequest): Promise<CaptureResult>;
  void(request: VoidRequest): Promise<VoidResult>;
  refund(request: RefundRequest): Promise<RefundResult>;
  tokenize(request: TokenizeRequest): Promise<TokenizeResult>;
  chargeToken(request: ChargeTokenRequest): Promise<ChargeResult>;
  echeckDebit(request: EcheckDebitRequest): Promise<ChargeResult>;
  lookup(idempotencyKey: string): Promise<LookupResult>;
}
