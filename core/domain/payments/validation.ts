/**
 * The payment form's validation rules (docs/contract/storefront.md §5 'Credit card', 'E-check'), shared by the browser form and the
 * server. Each function returns every error in the spec's order — like the original form, the checks of one
 * field accumulate ('12ab' gets both the length and the digits message) — with the field it belongs to.
 */
import { type CardTypeName, cardTypeByName, detectCardType, isValidCardNumber } from "./card-types.ts";
import { type CardExpiry, type YearMonth, isExpiryCurrent, parseCardExpiry } from "./expiry.ts";
import { toAsciiDigits } from "./format.ts";
import { PAYMENT_LIMITS } from "./limits.ts";
import { PAYMENT_MESSAGES as M, cardTypeInvalidMessage } from "./messages.ts";
import type { GatewaySettings, PaymentFieldKey } from "./settings.ts";

export interface PaymentFieldError {
  field: PaymentFieldKey;
  message: string;
}

export interface CardFormInput {
  /** The card number field as typed; spaces and dashes are allowed. */
  cardNumber?: string | undefined;
  /** The expiry field, 'MM / YY'. */
  expiry?: string | undefined;
  /** The CSC field. Absent and empty are the same: a client cannot dodge 'missing' by leaving the field out. */
  csc?: string | undefined;
  /** A saved payment token is chosen instead of a new card. */
  savedTokenSelected: boolean;
}

export interface CardValidationOptions {
  /** The month to compare the expiry with; passed in, never read from a clock. */
  currentMonth: YearMonth;
  /**
   * Refuse a card whose type is not in settings.enabled_card_types with '{card_type} card is invalid'.
   * Default true: the server must refuse it, and the browser saying so before the round trip is kinder.
   * Pass false to reproduce the original form, which only marked the field (see `liveCardChecks`).
   */
  enforceEnabledCardTypes?: boolean;
}

export type CardValidationResult =
  | {
      ok: true;
      /** The card number with spaces and dashes removed (null when a saved token is used): written back to the field. */
      cardNumber: string | null;
      cardType: CardTypeName | null;
      expiry: CardExpiry | null;
      /** The CSC as entered, or null when empty. */
      csc: string | null;
    }
  | { ok: false; errors: PaymentFieldError[] };

type CardSettings = Pick<GatewaySettings, "csc_required" | "csc_required_for_tokens" | "enabled_card_types">;

/** CSC rules, in order: digits only; 3–4 digits; or, when empty, missing if required. */
export function validateCsc(
  csc: string | undefined,
  settings: Pick<GatewaySettings, "csc_required" | "csc_required_for_tokens">,
  savedTokenSelected: boolean,
): PaymentFieldError[] {
  const errors: PaymentFieldError[] = [];
  const value = csc ?? "";
  if (value !== "") {
    if (/\D/.test(value)) errors.push({ field: "csc", message: M.cscDigitsInvalid });
    if (value.length < PAYMENT_LIMITS.cscMinLength || value.length > PAYMENT_LIMITS.cscMaxLength) {
      errors.push({ field: "csc", message: M.cscLengthInvalid });
    }
  } else if (settings.csc_required && (!savedTokenSelected || settings.csc_required_for_tokens)) {
    errors.push({ field: "csc", message: M.cscMissing });
  }
  return errors;
}

/** Spaces and dashes removed (and full-width digits made ASCII): the number the rules check and the server keeps. */
export function cleanCardNumber(value: string): string {
  return toAsciiDigits(value).replace(/-|\s/g, "");
}

/** Card number rules, in order, on the cleaned number: missing; wrong length; non-digits; invalid. */
export function validateCardNumber(cleaned: string): PaymentFieldError[] {
  if (cleaned === "") return [{ field: "account-number", message: M.cardNumberMissing }];
  const errors: PaymentFieldError[] = [];
  if (cleaned.length < PAYMENT_LIMITS.cardNumberMinLength || cleaned.length > PAYMENT_LIMITS.cardNumberMaxLength) {
    errors.push({ field: "account-number", message: M.cardNumberLengthInvalid });
  }
  if (/\D/.test(cleaned)) errors.push({ field: "account-number", message: M.cardNumberDigitsInvalid });
  // Known type, allowed length for it, Luhn (unionpay exempt).
  if (!isValidCardNumber(cleaned)) errors.push({ field: "account-number", message: M.cardNumberInvalid });
  return errors;
}

/**
 * The enabled-card-types rule: null when allowed, else '{card_type} card is invalid' (or 'Card is invalid' when
 * the type is not known at all).
 */
export function enabledCardTypeError(type: CardTypeName | null, enabled: readonly CardTypeName[]): PaymentFieldError | null {
  if (type !== null && enabled.includes(type)) return null;
  const name = type === null ? null : (cardTypeByName(type)?.displayName ?? null);
  return { field: "account-number", message: cardTypeInvalidMessage(name) };
}

/**
 * The credit-card form: CSC, then (only without a saved token) card number, enabled card type, expiry.
 * On success, the cleaned card number to write back into the field.
 */
export function validateCardForm(input: CardFormInput, settings: CardSettings, options: CardValidationOptions): CardValidationResult {
  const errors = validateCsc(input.csc, settings, input.savedTokenSelected);
  const csc = input.csc ? input.csc : null;
  if (input.savedTokenSelected) {
    return errors.length > 0 ? { ok: false, errors } : { ok: true, cardNumber: null, cardType: null, expiry: null, csc };
  }

  const cardNumber = cleanCardNumber(input.cardNumber ?? "");
  const numberErrors = validateCardNumber(cardNumber);
  errors.push(...numberErrors);
  const cardType = detectCardType(cardNumber)?.name ?? null;
  if (numberErrors.length === 0 && (options.enforceEnabledCardTypes ?? true)) {
    const typeError = enabledCardTypeError(cardType, settings.enabled_card_types);
    if (typeError) errors.push(typeError);
  }

  const expiry = parseCardExpiry(input.expiry ?? "");
  if (expiry === null || !isExpiryCurrent(expiry, options.currentMonth)) {
    errors.push({ field: "expiry", message: M.expiryInvalid });
  }

  return errors.length > 0 ? { ok: false, errors } : { ok: true, cardNumber, cardType, expiry, csc };
}

export interface EcheckFormInput {
  routingNumber?: string | undefined;
  accountNumber?: string | undefined;
  savedTokenSelected: boolean;
  /** Message-only fields (docs/contract/storefront.md §3): validated only when present (not undefined). */
  checkNumber?: string | undefined;
  driversLicenseState?: string | undefined;
  driversLicenseNumber?: string | undefined;
}

export type EcheckValidationResult = { ok: true; routingNumber: string | null; accountNumber: string | null } | { ok: false; errors: PaymentFieldError[] };

/** Routing number rules, in order: missing; exactly 9 characters; digits only. */
export function validateRoutingNumber(value: string | undefined): PaymentFieldError[] {
  const v = value ?? "";
  if (v === "") return [{ field: "routing-number", message: M.routingNumberMissing }];
  const errors: PaymentFieldError[] = [];
  if (v.length !== PAYMENT_LIMITS.routingNumberLength) {
    errors.push({ field: "routing-number", message: M.routingNumberLengthInvalid });
  }
  if (/\D/.test(v)) errors.push({ field: "routing-number", message: M.routingNumberDigitsInvalid });
  return errors;
}

/**
 * Account number rules, in order: missing; length; digits only. The length check allows 3 to 17 characters
 * while its message says 5 to 17 — both exactly as the spec states (docs/contract/storefront.md §5, §9).
 */
export function validateAccountNumber(value: string | undefined): PaymentFieldError[] {
  const v = value ?? "";
  if (v === "") return [{ field: "account-number", message: M.accountNumberMissing }];
  const errors: PaymentFieldError[] = [];
  if (v.length < PAYMENT_LIMITS.accountNumberMinLength || v.length > PAYMENT_LIMITS.accountNumberMaxLength) {
    errors.push({ field: "account-number", message: M.accountNumberLengthInvalid });
  }
  if (/\D/.test(v)) errors.push({ field: "account-number", message: M.accountNumberDigitsInvalid });
  return errors;
}

/** Optional check-number validator: missing; digits only. */
export function validateCheckNumber(value: string): PaymentFieldError[] {
  if (value === "") return [{ field: "check-number", message: M.checkNumberMissing }];
  return /\D/.test(value) ? [{ field: "check-number", message: M.checkNumberDigitsInvalid }] : [];
}

/** Optional driver's-license validators. A number may hold letters, digits, spaces and dashes. */
export function validateDriversLicenseState(value: string): PaymentFieldError[] {
  return value.trim() === "" ? [{ field: "drivers-license-state", message: M.driversLicenseStateMissing }] : [];
}

export function validateDriversLicenseNumber(value: string): PaymentFieldError[] {
  if (value.trim() === "") return [{ field: "drivers-license-number", message: M.driversLicenseNumberMissing }];
  return /^[A-Za-z0-9 -]+$/.test(value) ? [] : [{ field: "drivers-license-number", message: M.driversLicenseNumberInvalid }];
}

/** The e-check form; skipped entirely (valid) when a saved token is selected. No CSC. */
export function validateEcheckForm(input: EcheckFormInput): EcheckValidationResult {
  if (input.savedTokenSelected) return { ok: true, routingNumber: null, accountNumber: null };
  const errors = [...validateRoutingNumber(input.routingNumber), ...validateAccountNumber(input.accountNumber)];
  if (input.checkNumber !== undefined) errors.push(...validateCheckNumber(input.checkNumber));
  if (input.driversLicenseState !== undefined) errors.push(...validateDriversLicenseState(input.driversLicenseState));
  if (input.driversLicenseNumber !== undefined) errors.push(...validateDriversLicenseNumber(input.driversLicenseNumber));
  return errors.length > 0 ? { ok: false, errors } : { ok: true, routingNumber: input.routingNumber ?? "", accountNumber: input.accountNumber ?? "" };
}

/**
 * The CSC check outside the form (docs/contract/storefront.md §5): digits only, with a length the card type allows; for an unknown type,
 * 3 to 4 digits.
 */
export function isValidCscForType(csc: string, type: CardTypeName | null): boolean {
  const value = csc.trim();
  if (!/^\d+$/.test(value)) return false;
  const card = type === null ? null : cardTypeByName(type);
  return card ? card.cscLengths.includes(value.length) : value.length >= PAYMENT_LIMITS.cscMinLength && value.length <= PAYMENT_LIMITS.cscMaxLength;
}

export interface LiveCardChecks {
  /** The detected type, or null ('unknown'). */
  cardType: CardTypeName | null;
  /** A type was detected: the number field shows its logo ('identified'). */
  typeIdentified: boolean;
  /**
   * A detected type that is not enabled: the number field is marked 'invalid-card-type'. An empty or
   * not-yet-recognisable number is not marked (the original marked it too, flagging an empty field as invalid
   * while the shopper had typed nothing); submit still reports it through the card-number rules.
   */
  invalidCardType: boolean;
  expiryIdentified: boolean;
  cscIdentified: boolean;
}

/** The checks run while the shopper types (docs/contract/storefront.md §5 'Live checks while typing'). */
export function liveCardChecks(
  input: { cardNumber?: string | undefined; expiry?: string | undefined; csc?: string | undefined },
  settings: Pick<GatewaySettings, "enabled_card_types">,
  currentMonth: YearMonth,
): LiveCardChecks {
  const cardType = detectCardType(cleanCardNumber(input.cardNumber ?? ""))?.name ?? null;
  const expiry = parseCardExpiry(input.expiry ?? "");
  return {
    cardType,
    typeIdentified: cardType !== null,
    invalidCardType: cardType !== null && !settings.enabled_card_types.includes(cardType),
    expiryIdentified: expiry !== null && isExpiryCurrent(expiry, currentMonth),
    cscIdentified: isValidCscForType(input.csc ?? "", cardType),
  };
}

export type PaymentFormInput = CardFormInput & EcheckFormInput;

/** Dispatches on the gateway's type: one call for the form's submit handler and for the server. */
export function validatePaymentForm(
  input: PaymentFormInput,
  settings: GatewaySettings,
  options: CardValidationOptions,
): { ok: true } | { ok: false; errors: PaymentFieldError[] } {
  const result = settings.type === "echeck" ? validateEcheckForm(input) : validateCardForm(input, settings, options);
  return result.ok ? { ok: true } : { ok: false, errors: result.errors };
}
