/** Payment limits (docs/contract/storefront.md §9 'Payment limits'). */
export const PAYMENT_LIMITS = {
  cardNumberMinLength: 12,
  cardNumberMaxLength: 19,
  cscMinLength: 3,
  cscMaxLength: 4,
  routingNumberLength: 9,
  /** The check allows 3; the message says 5 ('must be between 5 and 17 digits'). Both stand, as the spec says. */
  accountNumberMinLength: 3,
  accountNumberMaxLength: 17,
  /** Expiry input: at most 6 digits (MMYYYY). */
  expiryMaxDigits: 6,
  /** A 2-digit expiry year below this is 20xx, otherwise 19xx. */
  twoDigitYearPivot: 70,
} as const;
