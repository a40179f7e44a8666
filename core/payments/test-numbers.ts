/**
 * The sandbox processor's documented test numbers (listed for developers in README.md). These are public test
 * values, not secrets; the sandbox approves only these, and declines any other valid number with
 * 'test mode: use a documented test number'.
 */
import type { CardTypeName } from "../domain/payments/card-types.ts";

export type SandboxScenario =
  /** Approved. */
  | "approve"
  /** Declined: card_declined. */
  | "decline"
  | "insufficient_funds"
  /** The processor reports the card expired, whatever expiry was typed. */
  | "expired_card"
  /** The CSC check fails: incorrect_csc. */
  | "incorrect_csc"
  /** A processing error (retryable); nothing is charged. */
  | "processing_error"
  /** The processor approves but its answer never arrives within the call's deadline. */
  | "timeout"
  /** Tokenization succeeds; every charge of the token is declined (card_declined). */
  | "decline_after_tokenize"
  /** Bank account closed. */
  | "account_closed";

export interface SandboxTestCard {
  number: string;
  brand: CardTypeName;
  scenario: SandboxScenario;
  note: string;
}

export const SANDBOX_TEST_CARDS: readonly SandboxTestCard[] = [
  { number: "4242424242424242", brand: "visa", scenario: "approve", note: "Visa, approved" },
  { number: "5555555555554444", brand: "mastercard", scenario: "approve", note: "Mastercard, approved" },
  { number: "2223003122003222", brand: "mastercard", scenario: "approve", note: "Mastercard (2-series), approved" },
  { number: "378282246310005", brand: "amex", scenario: "approve", note: "American Express, approved (4-digit CSC)" },
  { number: "6011111111111117", brand: "discover", scenario: "approve", note: "Discover, approved" },
  { number: "36227206271667", brand: "dinersclub", scenario: "approve", note: "Diners Club (14 digits), approved" },
  { number: "3566002020360505", brand: "jcb", scenario: "approve", note: "JCB, approved" },
  { number: "6200000000000005", brand: "unionpay", scenario: "approve", note: "UnionPay, approved" },
  { number: "6759649826438453", brand: "maestro", scenario: "approve", note: "Maestro, approved" },
  { number: "5019717010103742", brand: "dankort", scenario: "approve", note: "Dankort, approved" },
  { number: "6007220000000004", brand: "forbrugsforeningen", scenario: "approve", note: "Forbrugsforeningen, approved" },
  { number: "4000000000000002", brand: "visa", scenario: "decline", note: "declined (card_declined)" },
  { number: "4000000000009995", brand: "visa", scenario: "insufficient_funds", note: "declined (insufficient_funds)" },
  { number: "4000000000000069", brand: "visa", scenario: "expired_card", note: "declined (expired_card)" },
  { number: "4000000000000127", brand: "visa", scenario: "incorrect_csc", note: "CSC check fails (incorrect_csc)" },
  { number: "4000000000000119", brand: "visa", scenario: "processing_error", note: "processing error (retryable)" },
  { number: "4000000000007700", brand: "visa", scenario: "timeout", note: "approved, but the answer never arrives in time (timeout)" },
  {
    number: "4000000000000341",
    brand: "visa",
    scenario: "decline_after_tokenize",
    note: "saves as a token; every charge of the token is declined",
  },
];

export interface SandboxTestBankAccount {
  accountNumber: string;
  scenario: SandboxScenario;
  note: string;
}

/** Any routing number that passes the ABA checksum is accepted; these are two that do. */
export const SANDBOX_TEST_ROUTING_NUMBERS: readonly string[] = ["110000000", "011000015"];

export const SANDBOX_TEST_BANK_ACCOUNTS: readonly SandboxTestBankAccount[] = [
  { accountNumber: "000123456789", scenario: "approve", note: "debit approved" },
  { accountNumber: "000111111116", scenario: "account_closed", note: "declined (account_closed)" },
  { accountNumber: "000222222227", scenario: "insufficient_funds", note: "declined (insufficient_funds)" },
  { accountNumber: "000333333335", scenario: "processing_error", note: "processing error (retryable)" },
];

const CARD_SCENARIOS: ReadonlyMap<string, SandboxScenario> = new Map(SANDBOX_TEST_CARDS.map((c) => [c.number, c.scenario]));
const BANK_SCENARIOS: ReadonlyMap<string, SandboxScenario> = new Map(SANDBOX_TEST_BANK_ACCOUNTS.map((a) => [a.accountNumber, a.scenario]));

/** The scenario of a documented card number (digits only), or null for any other number. */
export function cardScenario(digits: string): SandboxScenario | null {
  return CARD_SCENARIOS.get(digits) ?? null;
}

export function bankScenario(accountNumber: string): SandboxScenario | null {
  return BANK_SCENARIOS.get(accountNumber) ?? null;
}
