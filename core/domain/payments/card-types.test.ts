import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  CARD_TYPES,
  CARD_TYPE_NAMES,
  cardTypeByName,
  detectCardType,
  isCardTypeName,
  isValidCardNumber,
  lastFour,
  luhnCheck,
  maxCardNumberLength,
} from "./card-types.ts";

/** Appends the Luhn check digit to a digit string. */
function withLuhn(body: string): string {
  for (let d = 0; d <= 9; d++) if (luhnCheck(body + d)) return body + d;
  throw new Error("unreachable");
}
/** A number of `length` digits starting with `prefix`, Luhn-valid. */
function cardNumber(prefix: string, length: number): string {
  return withLuhn(prefix.padEnd(length - 1, "1"));
}

describe("the card types table (docs/contract/storefront.md §9)", () => {
  const row = (name: string) => cardTypeByName(name)!;

  it("has the ten types in the spec's order", () => {
    expect(CARD_TYPES.map((t) => t.name)).toEqual([...CARD_TYPE_NAMES]);
    expect(CARD_TYPE_NAMES).toEqual(["maestro", "forbrugsforeningen", "dankort", "visa", "mastercard", "amex", "dinersclub", "discover", "unionpay", "jcb"]);
  });

  it.each([
    ["maestro", ["5018", "502", "503", "506", "56", "58", "639", "6220", "67"], [12, 13, 14, 15, 16, 17, 18, 19], [3], true],
    ["forbrugsforeningen", ["600"], [16], [3], true],
    ["dankort", ["5019"], [16], [3], true],
    ["visa", ["4"], [13, 16], [3], true],
    ["mastercard", ["51", "52", "53", "54", "55", "22", "23", "24", "25", "26", "27"], [16], [3], true],
    ["amex", ["34", "37"], [15], [3, 4], true],
    ["dinersclub", ["30", "36", "38", "39"], [14], [3], true],
    ["discover", ["60", "64", "65", "622"], [16], [3], true],
    ["unionpay", ["62", "88"], [16, 17, 18, 19], [3], false],
    ["jcb", ["35"], [16], [3], true],
  ] as const)("%s: prefixes %j, lengths %j, CSC %j, Luhn %s", (name, prefixes, lengths, csc, luhn) => {
    const t = row(name);
    expect(t.prefixes).toEqual(prefixes);
    expect(t.lengths).toEqual(lengths);
    expect(t.cscLengths).toEqual(csc);
    expect(t.luhn).toBe(luhn);
  });

  it("knows its names", () => {
    expect(isCardTypeName("visa")).toBe(true);
    expect(isCardTypeName("Visa")).toBe(false);
    expect(isCardTypeName("mir")).toBe(false);
    expect(cardTypeByName("nope")).toBeNull();
  });
});

describe("detectCardType", () => {
  // Every prefix of every row resolves to its own row: no prefix is shadowed by another type.
  const everyPrefix = CARD_TYPES.flatMap((t) => t.prefixes.map((p) => [p, t.name] as const));
  it.each(everyPrefix)("prefix %s → %s", (prefix, name) => {
    expect(detectCardType(prefix)?.name).toBe(name);
    expect(detectCardType(cardNumber(prefix, 16))?.name).toBe(name);
  });

  it.each([
    ["5018 0000 0000 0009", "maestro"], // not mastercard (which is 51–55 anyway) — 5018 is maestro's own
    ["5019 7170 1010 3742", "dankort"],
    ["5020", "maestro"],
    ["5100", "mastercard"],
    ["5500", "mastercard"],
    ["5600", "maestro"],
    ["2200", "mastercard"],
    ["2720", "mastercard"],
    ["2800", null],
    ["6000", "forbrugsforeningen"], // 600 beats discover's 60
    ["6010", "discover"],
    ["6011 1111 1111 1117", "discover"],
    ["6220 0000", "maestro"], // 6220 beats discover's 622 and unionpay's 62
    ["6221 2600", "discover"], // 622 beats unionpay's 62
    ["6229", "discover"],
    ["6200 0000 0000 0005", "unionpay"],
    ["6212", "unionpay"],
    ["6390", "maestro"],
    ["6400", "discover"],
    ["6500", "discover"],
    ["6700", "maestro"],
    ["8800", "unionpay"],
    ["3400", "amex"],
    ["3700", "amex"],
    ["3500", "jcb"],
    ["3000", "dinersclub"],
    ["3600", "dinersclub"],
    ["3800", "dinersclub"],
    ["3900", "dinersclub"],
    ["3100", null],
    ["3300", null],
    ["5", null], // too short to tell
    ["6", null],
    ["62", "unionpay"],
    ["622", "discover"],
    ["50", null],
    ["501", null],
    ["504", null],
    ["1234", null],
    ["9999", null],
    ["", null],
    ["4", "visa"],
    ["4-2 4 2", "visa"],
  ])("%j → %s", (number, expected) => {
    expect(detectCardType(number)?.name ?? null).toBe(expected);
  });
});

describe("luhnCheck", () => {
  it.each(["4242424242424242", "79927398713", "0", "00", "378282246310005"])("%s passes", (n) => {
    expect(luhnCheck(n)).toBe(true);
  });
  it.each(["4242424242424241", "79927398710", "1", "", "4242 4242 4242 4242", "abc"])("%j fails", (n) => {
    expect(luhnCheck(n)).toBe(false);
  });
  it("detects every single-digit change", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{11,18}$/), fc.nat(), fc.integer({ min: 1, max: 9 }), (body, pos, delta) => {
        const good = withLuhn(body);
        const i = pos % good.length;
        const bad = good.slice(0, i) + String((Number(good[i]) + delta) % 10) + good.slice(i + 1);
        expect(luhnCheck(bad)).toBe(false);
      }),
    );
  });
});

describe("isValidCardNumber", () => {
  it.each(CARD_TYPES.flatMap((t) => t.lengths.map((len) => [t.name, len, cardNumber(t.prefixes[0]!, len)] as const)))(
    "%s with %i digits is valid",
    (_name, _len, n) => {
      expect(isValidCardNumber(n)).toBe(true);
    },
  );

  it.each([
    ["visa 14 digits", cardNumber("4", 14)],
    ["visa 19 digits", cardNumber("4", 19)],
    ["mastercard 15", cardNumber("51", 15)],
    ["amex 16", cardNumber("34", 16)],
    ["dinersclub 16", cardNumber("36", 16)],
    ["jcb 15", cardNumber("35", 15)],
    ["unionpay 15", cardNumber("62", 15)],
    ["maestro 11", cardNumber("67", 11)],
    ["unknown prefix", cardNumber("9", 16)],
    ["Luhn failure", "4242424242424241"],
    ["spaces", "4242 4242 4242 4242"],
    ["empty", ""],
  ])("rejects %s", (_label, n) => {
    expect(isValidCardNumber(n)).toBe(false);
  });

  it("exempts unionpay from Luhn only", () => {
    expect(isValidCardNumber("6200000000000001")).toBe(true);
    expect(luhnCheck("6200000000000001")).toBe(false);
    expect(isValidCardNumber("6011000000000001")).toBe(false); // discover is not exempt
  });
});

describe("helpers", () => {
  it("maxCardNumberLength: the type's longest, 16 when unknown", () => {
    expect(maxCardNumberLength(cardTypeByName("visa"))).toBe(16);
    expect(maxCardNumberLength(cardTypeByName("amex"))).toBe(15);
    expect(maxCardNumberLength(cardTypeByName("dinersclub"))).toBe(14);
    expect(maxCardNumberLength(cardTypeByName("maestro"))).toBe(19);
    expect(maxCardNumberLength(cardTypeByName("unionpay"))).toBe(19);
    expect(maxCardNumberLength(null)).toBe(16);
  });
  it("lastFour", () => {
    expect(lastFour("4242 4242 4242 4242")).toBe("4242");
    expect(lastFour("378282246310005")).toBe("0005");
  });
});
