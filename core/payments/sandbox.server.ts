/**
 * The built-in sandbox processor: a `PaymentGateway` that moves no money but behaves like a real processor —
 * validation, declines, processing errors, timeouts with an unknown outcome, idempotency, and the
 * authorize → capture / void → refund state rules. It approves only the documented test numbers
 * (`test-numbers.ts`, README.md).
 *
 * It never stores, returns or logs a card number, a CSC or a bank account number: the number is read once to
 * validate it, find its brand, last four and test scenario, and then dropped.
 */
import { randomUUID } from "node:crypto";
import type { Cents } from "../domain/money/money.ts";
import { isValidAbaRoutingNumber } from "../domain/payments/aba.ts";
import { detectCardType, isValidCardNumber } from "../domain/payments/card-types.ts";
import { expandExpiryYear, isExpiryCurrent, yearMonthOf } from "../domain/payments/expiry.ts";
import { PAYMENT_MESSAGES as M } from "../domain/payments/messages.ts";
import { cleanCardNumber, isValidCscForType, validateAccountNumber, validateRoutingNumber } from "../domain/payments/validation.ts";
import type {
  AuthorizeRequest,
  AuthorizeResult,
  BankAccountInput,
  BankSummary,
  CallOptions,
  CaptureRequest,
  CaptureResult,
  CardInput,
  CardSource,
  CardSummary,
  ChargeResult,
  ChargeTokenRequest,
  Declined,
  DeclineCode,
  EcheckDebitRequest,
  ErrorCode,
  Failed,
  GatewayOperation,
  GatewayResult,
  LookupResult,
  PaymentGateway,
  PaymentMethodSummary,
  RefundRequest,
  RefundResult,
  TokenizeRequest,
  TokenizeResult,
  VoidRequest,
  VoidResult,
} from "./gateway.ts";
import {
  type AuthorizationRecord,
  type ChargeRecord,
  MemorySandboxStore,
  type RefundRecord,
  type SandboxRecord,
  type SandboxStore,
  type TokenRecord,
} from "./store.server.ts";
import { type SandboxScenario, bankScenario, cardScenario } from "./test-numbers.ts";

export const SANDBOX_MESSAGES = {
  testModeNumber: "test mode: use a documented test number",
  cardDeclined: "Your card was declined.",
  cardInsufficientFunds: "Your card has insufficient funds.",
  incorrectCsc: "Your card's security code is incorrect.",
  bankInsufficientFunds: "The bank account has insufficient funds.",
  accountClosed: "The bank account is closed.",
  routingNumberInvalid: "Routing Number is invalid",
  timeout: "The payment processor did not answer in time.",
  inProgress: "A request with this idempotency key is still being processed.",
  conflict: "The payment changed while this request was processed; please retry.",
  keyReused: "This idempotency key was used for a different request.",
} as const;

/** Largest amount one call may move: $999,999.99. */
export const SANDBOX_MAX_AMOUNT: Cents = 99_999_999;

export type SandboxLogFields = Record<string, string | number | boolean>;

export interface SandboxOptions {
  store?: SandboxStore;
  /** Milliseconds since the epoch. */
  now?: () => number;
  /** How the timeout scenario waits out the caller's deadline; tests pass one that resolves at once. */
  wait?: (ms: number) => Promise<void>;
  newId?: (prefix: "auth" | "ch" | "re" | "tok" | "claim") => string;
  /** Used when a call gives no deadlineMs. */
  defaultDeadlineMs?: number;
  /** Uncaptured authorizations expire after this long (7 days, like most processors). */
  authorizationTtlMs?: number;
  /** A pending idempotency claim older than this belonged to a call that died, and is taken over. */
  staleClaimMs?: number;
  /** Receives one line per call: operation, key, status, code, brand, last four. Never a number or CSC. */
  log?: (event: string, fields: SandboxLogFields) => void;
}

interface Execution<R> {
  result: R;
  writes?: SandboxRecord[];
  /** The processor approved, but its answer does not arrive before the caller's deadline. */
  hang?: boolean;
}

type Checked<T> = ({ ok: true } & T) | { ok: false; result: Declined | Failed };

const declined = (code: DeclineCode, message: string): Declined => ({ status: "declined", code, message });
const failed = (code: ErrorCode, retryable: boolean, message: string): Failed => ({
  status: "error",
  code,
  retryable,
  message,
});

/** What a documented scenario does: at tokenization (a $0 verification) or on a charge. */
function scenarioOutcome(scenario: SandboxScenario, phase: "verify" | "charge", kind: "card" | "bank"): { approve: true; hang: boolean } | Declined | Failed {
  switch (scenario) {
    case "approve":
      return { approve: true, hang: false };
    case "timeout":
      return { approve: true, hang: true };
    case "processing_error":
      return failed("processing_error", true, M.general);
    case "decline":
      return declined("card_declined", SANDBOX_MESSAGES.cardDeclined);
    case "expired_card":
      return declined("expired_card", M.expiryInvalid);
    case "incorrect_csc":
      return declined("incorrect_csc", SANDBOX_MESSAGES.incorrectCsc);
    case "decline_after_tokenize":
      return phase === "verify" ? { approve: true, hang: false } : declined("card_declined", SANDBOX_MESSAGES.cardDeclined);
    case "insufficient_funds":
      // A verification moves no money, so it cannot see the balance.
      if (phase === "verify") return { approve: true, hang: false };
      return declined("insufficient_funds", kind === "bank" ? SANDBOX_MESSAGES.bankInsufficientFunds : SANDBOX_MESSAGES.cardInsufficientFunds);
    case "account_closed":
      if (phase === "verify") return { approve: true, hang: false };
      return declined("account_closed", SANDBOX_MESSAGES.accountClosed);
  }
}

function checkAmount(amount: unknown): Failed | null {
  return typeof amount === "number" && Number.isSafeInteger(amount) && amount > 0 && amount <= SANDBOX_MAX_AMOUNT
    ? null
    : failed("invalid_amount", false, `The amount must be a whole number of cents from 1 to ${SANDBOX_MAX_AMOUNT}.`);
}

function checkCurrency(currency: unknown): Failed | null {
  return typeof currency === "string" && /^[A-Z]{3}$/.test(currency)
    ? null
    : failed("invalid_request", false, "The currency must be an ISO 4217 code such as USD.");
}

function checkCall(call: CallOptions): Failed | null {
  const key: unknown = call.idempotencyKey;
  if (typeof key !== "string" || key.length === 0 || key.length > 255) {
    return failed("invalid_request", false, "Every call needs an idempotency key (1 to 255 characters).");
  }
  if (call.deadlineMs !== undefined && !(call.deadlineMs > 0)) {
    return failed("invalid_request", false, "deadlineMs must be positive.");
  }
  return null;
}

/** The non-sensitive identity of a card, for request fingerprints: never the number. */
function cardFingerprint(card: CardInput): string {
  const digits = cleanCardNumber(String(card.number ?? ""));
  return `card:${detectCardType(digits)?.name ?? "?"}:${digits.length}:${digits.slice(-4)}:${card.expMonth}/${card.expYear}`;
}

function bankFingerprint(account: BankAccountInput): string {
  const acct = String(account.accountNumber ?? "");
  return `bank:${account.routingNumber}:${acct.length}:${acct.slice(-4)}:${account.accountType ?? ""}`;
}

export class SandboxGateway implements PaymentGateway {
  readonly id = "sandbox";
  readonly testMode = true;

  readonly #store: SandboxStore;
  readonly #now: () => number;
  readonly #wait: (ms: number) => Promise<void>;
  readonly #newId: (prefix: "auth" | "ch" | "re" | "tok" | "claim") => string;
  readonly #defaultDeadlineMs: number;
  readonly #authorizationTtlMs: number;
  readonly #staleClaimMs: number;
  readonly #log: (event: string, fields: SandboxLogFields) => void;

  constructor(options: SandboxOptions = {}) {
    this.#store = options.store ?? new MemorySandboxStore();
    this.#now = options.now ?? Date.now;
    this.#wait = options.wait ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#newId = options.newId ?? ((prefix) => `${prefix}_${randomUUID().replace(/-/g, "").slice(0, 24)}`);
    this.#defaultDeadlineMs = options.defaultDeadlineMs ?? 30_000;
    this.#authorizationTtlMs = options.authorizationTtlMs ?? 7 * 24 * 60 * 60 * 1000;
    this.#staleClaimMs = options.staleClaimMs ?? 5 * 60 * 1000;
    this.#log = options.log ?? (() => {});
  }

  // ── the interface ──────────────────────────────────────────────────────────────────────────────────────────

  authorize(request: AuthorizeRequest): Promise<AuthorizeResult> {
    const invalid = checkCall(request) ?? checkAmount(request.amount) ?? checkCurrency(request.currency);
    if (invalid) return this.#reject("authorize", request, invalid);
    const source = request.source;
    const fingerprint = [
      request.amount,
      request.currency,
      source.type === "card" ? cardFingerprint(source.card) : `token:${source.token}`,
      request.customerRef ?? "",
    ];
    return this.#run<AuthorizeResult>("authorize", request, fingerprint, async (now) => {
      const checked = await this.#resolveCardSource(source, now, request.customerRef);
      if (!checked.ok) return { result: checked.result };
      const outcome = scenarioOutcome(checked.scenario, "charge", "card");
      if (!("approve" in outcome)) return { result: outcome };
      const auth: AuthorizationRecord = {
        type: "authorization",
        id: this.#newId("auth"),
        version: 1,
        createdAt: now,
        amount: request.amount,
        currency: request.currency,
        method: checked.summary,
        status: "authorized",
        expiresAt: now + this.#authorizationTtlMs,
      };
      return {
        result: {
          status: "approved",
          authId: auth.id,
          amount: auth.amount,
          currency: auth.currency,
          method: auth.method,
        },
        writes: [auth],
        hang: outcome.hang,
      };
    });
  }

  capture(request: CaptureRequest): Promise<CaptureResult> {
    const invalid = checkCall(request) ?? (request.amount === undefined ? null : checkAmount(request.amount));
    if (invalid) return this.#reject("capture", request, invalid);
    return this.#run<CaptureResult>("capture", request, [request.authId, request.amount ?? "full"], async (now) => {
      const auth = await this.#store.getRecord(request.authId);
      if (auth?.type !== "authorization") return { result: failed("not_found", false, "No such authorization.") };
      if (auth.status === "voided") {
        return { result: failed("invalid_state", false, "The authorization was voided and cannot be captured.") };
      }
      if (auth.status === "captured") {
        return { result: failed("invalid_state", false, "The authorization was already captured.") };
      }
      if (now >= auth.expiresAt) {
        return { result: failed("authorization_expired", false, "The authorization expired before it was captured.") };
      }
      const amount = request.amount ?? auth.amount;
      if (amount > auth.amount) {
        return { result: failed("invalid_amount", false, "The capture amount exceeds the authorized amount.") };
      }
      const charge: ChargeRecord = {
        type: "charge",
        id: this.#newId("ch"),
        version: 1,
        createdAt: now,
        authId: auth.id,
        amount,
        currency: auth.currency,
        method: auth.method,
        refunded: 0,
      };
      return {
        result: { status: "approved", chargeId: charge.id, authId: auth.id, amount, currency: auth.currency },
        writes: [{ ...auth, version: auth.version + 1, status: "captured", chargeId: charge.id }, charge],
      };
    });
  }

  void(request: VoidRequest): Promise<VoidResult> {
    const invalid = checkCall(request);
    if (invalid) return this.#reject("void", request, invalid);
    return this.#run<VoidResult>("void", request, [request.authId], async () => {
      const auth = await this.#store.getRecord(request.authId);
      if (auth?.type !== "authorization") return { result: failed("not_found", false, "No such authorization.") };
      if (auth.status === "captured") {
        return { result: failed("invalid_state", false, "The authorization was captured; refund the charge instead.") };
      }
      if (auth.status === "voided") return { result: failed("invalid_state", false, "The authorization was already voided.") };
      return {
        result: { status: "approved", authId: auth.id },
        writes: [{ ...auth, version: auth.version + 1, status: "voided" }],
      };
    });
  }

  refund(request: RefundRequest): Promise<RefundResult> {
    const invalid = checkCall(request) ?? checkAmount(request.amount);
    if (invalid) return this.#reject("refund", request, invalid);
    return this.#run<RefundResult>("refund", request, [request.chargeId, request.amount], async (now) => {
      const charge = await this.#store.getRecord(request.chargeId);
      if (charge?.type !== "charge") return { result: failed("not_found", false, "No such charge.") };
      const refundable = charge.amount - charge.refunded;
      if (request.amount > refundable) {
        return {
          result: failed("invalid_amount", false, `The refund exceeds what is left to refund (${refundable} cents).`),
        };
      }
      const refund: RefundRecord = {
        type: "refund",
        id: this.#newId("re"),
        version: 1,
        createdAt: now,
        chargeId: charge.id,
        amount: request.amount,
        currency: charge.currency,
      };
      const refundedTotal = charge.refunded + request.amount;
      return {
        result: {
          status: "approved",
          refundId: refund.id,
          chargeId: charge.id,
          amount: request.amount,
          refundedTotal,
          currency: charge.currency,
        },
        writes: [{ ...charge, version: charge.version + 1, refunded: refundedTotal }, refund],
      };
    });
  }

  tokenize(request: TokenizeRequest): Promise<TokenizeResult> {
    const invalid =
      checkCall(request) ??
      (typeof request.customerRef === "string" && request.customerRef !== "" ? null : failed("invalid_request", false, "A customer reference is required."));
    if (invalid) return this.#reject("tokenize", request, invalid);
    const source = request.source;
    const fingerprint = [request.customerRef, source.type === "card" ? cardFingerprint(source.card) : bankFingerprint(source.account)];
    return this.#run<TokenizeResult>("tokenize", request, fingerprint, async (now) => {
      const checked = source.type === "card" ? this.#checkCard(source.card, now) : this.#checkBank(source.account);
      if (!checked.ok) return { result: checked.result };
      const outcome = scenarioOutcome(checked.scenario, "verify", checked.summary.kind);
      if (!("approve" in outcome)) return { result: outcome };
      const record: TokenRecord = {
        type: "token",
        id: this.#newId("tok"),
        version: 1,
        createdAt: now,
        method: checked.summary,
        customerRef: request.customerRef,
        scenario: checked.scenario,
      };
      return {
        result: { status: "approved", token: { token: record.id, ...checked.summary } },
        writes: [record],
        hang: outcome.hang,
      };
    });
  }

  chargeToken(request: ChargeTokenRequest): Promise<ChargeResult> {
    const invalid = checkCall(request) ?? checkAmount(request.amount) ?? checkCurrency(request.currency);
    if (invalid) return this.#reject("chargeToken", request, invalid);
    const fingerprint = [request.token, request.amount, request.currency, request.customerRef ?? ""];
    return this.#run<ChargeResult>("chargeToken", request, fingerprint, async (now) => {
      const token = await this.#getToken(request.token, request.customerRef, now, request.csc);
      if (!token.ok) return { result: token.result };
      return this.#charge(token.summary, token.scenario, request.amount, request.currency, now);
    });
  }

  echeckDebit(request: EcheckDebitRequest): Promise<ChargeResult> {
    const invalid = checkCall(request) ?? checkAmount(request.amount) ?? checkCurrency(request.currency);
    if (invalid) return this.#reject("echeckDebit", request, invalid);
    const source = request.source;
    const fingerprint = [request.amount, request.currency, source.type === "bank" ? bankFingerprint(source.account) : `token:${source.token}`];
    return this.#run<ChargeResult>("echeckDebit", request, fingerprint, async (now) => {
      let checked: Checked<{ summary: PaymentMethodSummary; scenario: SandboxScenario }>;
      if (source.type === "bank") {
        checked = this.#checkBank(source.account);
      } else {
        checked = await this.#getToken(source.token, request.customerRef, now, undefined);
        if (checked.ok && checked.summary.kind !== "bank") {
          checked = { ok: false, result: failed("invalid_request", false, "That saved payment method is not a bank account.") };
        }
      }
      if (!checked.ok) return { result: checked.result };
      return this.#charge(checked.summary, checked.scenario, request.amount, request.currency, now);
    });
  }

  async lookup(idempotencyKey: string): Promise<LookupResult> {
    const record = await this.#store.getKey(idempotencyKey);
    if (!record) return { found: false };
    if (record.state === "pending") return { found: true, state: "in_progress", operation: record.operation };
    return { found: true, state: "completed", operation: record.operation, result: record.result };
  }

  // ── idempotency ───────────────────────────────────────────────────────────────────────────────────────────

  /**
   * Claims the key, runs `execute`, and remembers the result with the writes in one commit. A stored result is
   * returned as is; retryable errors are not remembered (the key is released), so a retry with the same key runs
   * again.
   */
  async #run<R extends GatewayResult>(
    operation: GatewayOperation,
    call: CallOptions,
    fingerprintParts: readonly (string | number)[],
    execute: (now: number) => Promise<Execution<R>>,
  ): Promise<R | Failed> {
    const now = this.#now();
    const claimId = this.#newId("claim");
    const fingerprint = JSON.stringify(fingerprintParts);
    const existing = await this.#store.claimKey({ key: call.idempotencyKey, operation, fingerprint, claimId, claimedAt: now }, now - this.#staleClaimMs);
    if (existing) {
      const result: R | Failed =
        existing.operation !== operation || existing.fingerprint !== fingerprint
          ? failed("idempotency_key_reused", false, SANDBOX_MESSAGES.keyReused)
          : existing.state === "pending"
            ? failed("in_progress", true, SANDBOX_MESSAGES.inProgress)
            : (existing.result as R);
      this.#logCall(operation, call.idempotencyKey, result, { replay: existing.state === "done" });
      return result;
    }

    let execution: Execution<R>;
    try {
      execution = await execute(now);
    } catch (error) {
      await this.#store.releaseKey(call.idempotencyKey, claimId);
      throw error;
    }
    const { result } = execution;
    if (result.status === "error" && result.retryable) {
      await this.#store.releaseKey(call.idempotencyKey, claimId);
      this.#logCall(operation, call.idempotencyKey, result);
      return result;
    }
    const committed = await this.#store.commit({
      key: call.idempotencyKey,
      claimId,
      result,
      completedAt: now,
      writes: execution.writes ?? [],
    });
    if (!committed) {
      await this.#store.releaseKey(call.idempotencyKey, claimId);
      const conflict = failed("conflict", true, SANDBOX_MESSAGES.conflict);
      this.#logCall(operation, call.idempotencyKey, conflict);
      return conflict;
    }
    if (execution.hang) {
      // The processor has acted; its answer is lost past the caller's deadline. Like a dropped connection.
      await this.#wait(call.deadlineMs ?? this.#defaultDeadlineMs);
      const timeout = failed("timeout", true, SANDBOX_MESSAGES.timeout);
      this.#logCall(operation, call.idempotencyKey, timeout);
      return timeout;
    }
    this.#logCall(operation, call.idempotencyKey, result);
    return result;
  }

  /** A malformed request: answered without claiming the key (nothing happened, nothing to remember). */
  async #reject(operation: GatewayOperation, call: CallOptions, error: Failed): Promise<Failed> {
    this.#logCall(operation, typeof call.idempotencyKey === "string" ? call.idempotencyKey : "", error);
    return error;
  }

  #logCall(operation: GatewayOperation, key: string, result: GatewayResult, extra: SandboxLogFields = {}): void {
    const fields: SandboxLogFields = { idempotencyKey: key, status: result.status, ...extra };
    if (result.status !== "approved") fields["code"] = result.code;
    else if ("method" in result) {
      fields["kind"] = result.method.kind;
      fields["last4"] = result.method.last4;
      if (result.method.kind === "card") fields["brand"] = result.method.brand;
    }
    this.#log(`sandbox.${operation}`, fields);
  }

  // ── sources ───────────────────────────────────────────────────────────────────────────────────────────────

  #checkCard(card: CardInput, now: number): Checked<{ summary: CardSummary; scenario: SandboxScenario }> {
    const digits = cleanCardNumber(String(card.number ?? ""));
    if (!isValidCardNumber(digits)) return { ok: false, result: declined("invalid_number", M.cardNumberInvalid) };
    const brand = detectCardType(digits)!.name;
    const expMonth = card.expMonth;
    const expYear = expandExpiryYear(card.expYear, card.expYear >= 0 && card.expYear < 100 ? 2 : 4);
    if (!Number.isInteger(expMonth) || expMonth < 1 || expMonth > 12 || !Number.isInteger(expYear)) {
      return { ok: false, result: declined("invalid_expiry", M.expiryInvalid) };
    }
    if (!isExpiryCurrent({ month: expMonth, year: expYear }, yearMonthOf(new Date(now), "utc"))) {
      return { ok: false, result: declined("expired_card", M.expiryInvalid) };
    }
    const csc = this.#checkCscFormat(card.csc, brand);
    if (csc) return { ok: false, result: csc };
    const scenario = cardScenario(digits);
    if (!scenario) return { ok: false, result: declined("test_mode_number", SANDBOX_MESSAGES.testModeNumber) };
    return { ok: true, summary: { kind: "card", brand, last4: digits.slice(-4), expMonth, expYear }, scenario };
  }

  #checkCscFormat(csc: string | undefined, brand: CardSummary["brand"]): Declined | null {
    if (csc === undefined || csc === "") return null;
    if (/\D/.test(csc)) return declined("invalid_csc", M.cscDigitsInvalid);
    return isValidCscForType(csc, brand) ? null : declined("invalid_csc", M.cscLengthInvalid);
  }

  #checkBank(account: BankAccountInput): Checked<{ summary: BankSummary; scenario: SandboxScenario }> {
    const routing = String(account.routingNumber ?? "");
    const accountNumber = String(account.accountNumber ?? "");
    const routingError = validateRoutingNumber(routing)[0];
    if (routingError) return { ok: false, result: declined("invalid_routing_number", routingError.message) };
    if (!isValidAbaRoutingNumber(routing)) {
      return { ok: false, result: declined("invalid_routing_number", SANDBOX_MESSAGES.routingNumberInvalid) };
    }
    const accountError = validateAccountNumber(accountNumber)[0];
    if (accountError) return { ok: false, result: declined("invalid_account_number", accountError.message) };
    const scenario = bankScenario(accountNumber);
    if (!scenario) return { ok: false, result: declined("test_mode_number", SANDBOX_MESSAGES.testModeNumber) };
    const summary: BankSummary = { kind: "bank", last4: accountNumber.slice(-4), routingLast4: routing.slice(-4) };
    if (account.accountType) summary.accountType = account.accountType;
    return { ok: true, summary, scenario };
  }

  async #resolveCardSource(
    source: CardSource,
    now: number,
    customerRef: string | undefined,
  ): Promise<Checked<{ summary: CardSummary; scenario: SandboxScenario }>> {
    if (source.type === "card") return this.#checkCard(source.card, now);
    const token = await this.#getToken(source.token, customerRef, now, source.csc);
    if (!token.ok) return token;
    if (token.summary.kind !== "card") {
      return { ok: false, result: failed("invalid_request", false, "That saved payment method is not a card.") };
    }
    return { ok: true, summary: token.summary, scenario: token.scenario };
  }

  async #getToken(
    tokenId: string,
    customerRef: string | undefined,
    now: number,
    csc: string | undefined,
  ): Promise<Checked<{ summary: PaymentMethodSummary; scenario: SandboxScenario }>> {
    const token = await this.#store.getRecord(tokenId);
    if (token?.type !== "token") return { ok: false, result: failed("not_found", false, "No such saved payment method.") };
    if (customerRef !== undefined && customerRef !== token.customerRef) {
      return { ok: false, result: failed("token_mismatch", false, "That saved payment method belongs to another customer.") };
    }
    const method = token.method;
    if (method.kind === "card") {
      if (!isExpiryCurrent({ month: method.expMonth, year: method.expYear }, yearMonthOf(new Date(now), "utc"))) {
        return { ok: false, result: declined("expired_card", M.expiryInvalid) };
      }
      const cscError = this.#checkCscFormat(csc, method.brand);
      if (cscError) return { ok: false, result: cscError };
    }
    return { ok: true, summary: method, scenario: token.scenario };
  }

  #charge(method: PaymentMethodSummary, scenario: SandboxScenario, amount: Cents, currency: string, now: number): Execution<ChargeResult> {
    const outcome = scenarioOutcome(scenario, "charge", method.kind);
    if (!("approve" in outcome)) return { result: outcome };
    const charge: ChargeRecord = {
      type: "charge",
      id: this.#newId("ch"),
      version: 1,
      createdAt: now,
      amount,
      currency,
      method,
      refunded: 0,
    };
    return {
      result: { status: "approved", chargeId: charge.id, amount, currency, method },
      writes: [charge],
      hang: outcome.hang,
    };
  }
}
