/**
 * The payment form's messages (docs/contract/storefront.md §8 'Payment form'), word for word. One place, so the browser form, the
 * server's checks and the tests all use the same strings.
 */
export const PAYMENT_MESSAGES = {
  general: "An error occurred, please try again or try an alternate form of payment.",

  cardNumberMissing: "Card number is missing",
  cardNumberInvalid: "Card number is invalid",
  cardNumberDigitsInvalid: "Card number is invalid (only digits allowed)",
  cardNumberLengthInvalid: "Card number is invalid (wrong length)",

  cardTypeInvalid: "Card is invalid",
  /** Contains the placeholder `{card_type}`; use `cardTypeInvalidMessage`. */
  cardTypeInvalidSpecific: "{card_type} card is invalid",

  cscMissing: "Card security code is missing",
  cscDigitsInvalid: "Card security code is invalid (only digits are allowed)",
  cscLengthInvalid: "Card security code is invalid (must be 3 or 4 digits)",
  expiryInvalid: "Card expiration date is invalid",

  checkNumberDigitsInvalid: "Check Number is invalid (only digits are allowed)",
  checkNumberMissing: "Check Number is missing",

  driversLicenseStateMissing: "Driver's license state is missing",
  driversLicenseNumberMissing: "Driver's license number is missing",
  driversLicenseNumberInvalid: "Driver's license number is invalid",

  accountNumberMissing: "Account Number is missing",
  accountNumberDigitsInvalid: "Account Number is invalid (only digits are allowed)",
  accountNumberLengthInvalid: "Account Number is invalid (must be between 5 and 17 digits)",

  routingNumberMissing: "Routing Number is missing",
  routingNumberDigitsInvalid: "Routing Number is invalid (only digits are allowed)",
  routingNumberLengthInvalid: "Routing Number is invalid (must be 9 digits)",

  scriptError: "A script error has occurred.",
} as const;

/**
 * '{card_type} card is invalid' with the type's display name, or 'Card is invalid' when the type is not known.
 */
export function cardTypeInvalidMessage(displayName: string | null | undefined): string {
  return displayName ? PAYMENT_MESSAGES.cardTypeInvalidSpecific.replace("{card_type}", displayName) : PAYMENT_MESSAGES.cardTypeInvalid;
}
