/**
 * The card types of the spec (docs/contract/storefront.md §9 'Card types'), type detection by number prefix, and the Luhn checksum.
 * Pure: safe to import from browser code.
 */

export const CARD_TYPE_NAMES = ["maestro", "forbrugsforeningen", "dankort", "visa", "mastercard", "amex", "dinersclub", "discover", "unionpay", "jcb"] as const;

export type CardTypeName = (typeof CARD_TYPE_NAMES)[number];

export interface CardType {
  readonly name: CardTypeName;
  /** Shown in messages such as '{card_type} card is invalid'. */
  readonly displayName: string;
  /** Number prefixes; ranges such as 51–55 are written out. */
  readonly prefixes: readonly string[];
  /** Allowed number lengths, ascending. */
  readonly lengths: readonly number[];
  /** Allowed security-code lengths, ascending. */
  readonly cscLengths: readonly number[];
  readonly luhn: boolean;
  /** Digit groups for display; the last group takes whatever is left. */
  readonly groups: readonly number[];
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const prefixRange = (from: number, to: number): string[] => range(from, to).map(String);

const FOURS = [4, 4, 4, 4, 4] as const;

/** docs/contract/storefront.md §9, row for row, in the spec's order. */
export const CARD_TYPES: readonly CardType[] = [
  {
    name: "maestro",
    displayName: "Maestro",
    prefixes: ["5018", "502", "503", "506", "56", "58", "639", "6220", "67"],
    lengths: range(12, 19),
    cscLengths: [3],
    luhn: true,
    groups: FOURS,
  },
  {
    name: "forbrugsforeningen",
    displayName: "Forbrugsforeningen",
    prefixes: ["600"],
    lengths: [16],
    cscLengths: [3],
    luhn: true,
    groups: FOURS,
  },
  {
    name: "dankort",
    displayName: "Dankort",
    prefixes: ["5019"],
    lengths: [16],
    cscLengths: [3],
    luhn: true,
    groups: FOURS,
  },
  {
    name: "visa",
    displayName: "Visa",
    prefixes: ["4"],
    lengths: [13, 16],
    cscLengths: [3],
    luhn: true,
    groups: FOURS,
  },
  {
    name: "mastercard",
    displayName: "MasterCard",
    prefixes: [...prefixRange(51, 55), ...prefixRange(22, 27)],
    lengths: [16],
    cscLengths: [3],
    luhn: true,
    groups: FOURS,
  },
  {
    name: "amex",
    displayName: "American Express",
    prefixes: ["34", "37"],
    lengths: [15],
    cscLengths: [3, 4],
    luhn: true,
    groups: [4, 6, 5],
  },
  {
    name: "dinersclub",
    displayName: "Diners Club",
    prefixes: ["30", "36", "38", "39"],
    lengths: [14],
    cscLengths: [3],
    luhn: true,
    groups: [4, 6, 4],
  },
  {
    name: "discover",
    displayName: "Discover",
    prefixes: ["60", "64", "65", "622"],
    lengths: [16],
    cscLengths: [3],
    luhn: true,
    groups: FOURS,
  },
  {
    name: "unionpay",
    displayName: "UnionPay",
    prefixes: ["62", "88"],
    lengths: range(16, 19),
    cscLengths: [3],
    luhn: false,
    groups: FOURS,
  },
  {
    name: "jcb",
    displayName: "JCB",
    prefixes: ["35"],
    lengths: [16],
    cscLengths: [3],
    luhn: true,
    groups: FOURS,
  },
];

const BY_NAME: ReadonlyMap<string, CardType> = new Map(CARD_TYPES.map((t) => [t.name, t]));

/** Every prefix with its type, longest first, so the most specific prefix wins. */
const PREFIX_INDEX: readonly { prefix: string; type: CardType }[] = CARD_TYPES.flatMap((type) => type.prefixes.map((prefix) => ({ prefix, type }))).sort(
  (a, b) => b.prefix.length - a.prefix.length,
);

export function isCardTypeName(value: string): value is CardTypeName {
  return BY_NAME.has(value);
}

export function cardTypeByName(name: string): CardType | null {
  return BY_NAME.get(name) ?? null;
}

/**
 * The card type a number belongs to, by its longest matching prefix: 6220… is maestro, 622… discover, 62… unionpay;
 * 600… forbrugsforeningen, 60… discover; 5018… maestro, 5019… dankort. Non-digits (spaces, dashes) are ignored.
 * Returns null when no prefix matches (including an empty or too-short input such as "5").
 */
export function detectCardType(number: string): CardType | null {
  const digits = number.replace(/\D/g, "");
  if (digits === "") return null;
  for (const entry of PREFIX_INDEX) {
    if (digits.startsWith(entry.prefix)) return entry.type;
  }
  return null;
}

/** The Luhn (mod 10) checksum over a string of ASCII digits. False for an empty string or any non-digit. */
export function luhnCheck(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * A complete card number: digits only, of a known type, an allowed length for that type, and passing Luhn
 * (unionpay is exempt). Spaces and dashes must already be stripped.
 */
export function isValidCardNumber(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  const type = detectCardType(digits);
  if (!type) return false;
  if (!type.lengths.includes(digits.length)) return false;
  return !type.luhn || luhnCheck(digits);
}

/** The highest allowed length for a type; 16 when the type is unknown (docs/contract/storefront.md §5 'Input formatting'). */
export function maxCardNumberLength(type: CardType | null): number {
  return type ? type.lengths[type.lengths.length - 1]! : 16;
}

/** The last four digits of a number (spaces and dashes ignored); never more. */
export function lastFour(number: string): string {
  return number.replace(/\D/g, "").slice(-4);
}

export { DEFAULT_ENABLED_CARD_TYPES } from "./default-card-types.ts";
