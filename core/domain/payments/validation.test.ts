import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { PAYMENT_MESSAGES as M } from "./messages.ts";
import { gatewaySettings } from "./settings.schema.ts";
import {
  cleanCardNumber,
  enabledCardTypeError,
  isValidCscForType,
  liveCardChecks,
  validateCardForm,
  validateCheckNumber,
  validateDriversLicenseNumber,
  validateDriversLicenseState,
  validateEcheckForm,
  validatePaymentForm,
  type CardFormInput,
  type CardValidationOptions,
} from "./validation.ts";

const NOW: CardValidationOptions = { currentMonth: { year: 2026, month: 5 } };
const card = gatewaySettings({ id: "sandbox_credit_card", csc_required: true, csc_required_for_tokens: false });
const good: CardFormInput = {
  cardNumber: "4242 4242 4242 4242",
  expiry: "12 / 30",
  csc: "123",
  savedTokenSelected: false,
};
const messages = (input: Partial<CardFormInput>, settings = card, options = NOW) => {
  const r = validateCardForm({ ...good, ...input }, settings, options);
  return r.ok ? [] : r.errors.map((e) => e.message);
};

describe("validateCardForm: success", () => {
  it("returns the cleaned number, its type, the expiry and the CSC", () => {
    expect(validateCardForm({ ...good, cardNumber: "4242-4242 4242-4242" }, card, NOW)).toEqual({
      ok: true,
      cardNumber: "4242424242424242",
      cardType: "visa",
      expiry: { month: 12, year: 2030 },
      csc: "123",
    });
  });
  it("accepts every enabled type's documented number", () => {
    for (const n of ["5555555555554444", "2223003122003222", "378282246310005", "6011111111111117", "36227206271667", "3566002020360505"]) {
      expect(messages({ cardNumber: n, csc: n.startsWith("37") ? "1234" : "123" })).toEqual([]);
    }
  });
});

describe("validateCardForm: CSC", () => {
  it("non-digits → 'Card security code is invalid (only digits are allowed)'", () => {
    expect(messages({ csc: "12a" })).toEqual([M.cscDigitsInvalid]);
  });
  it("fewer than 3 or more than 4 → 'Card security code is invalid (must be 3 or 4 digits)'", () => {
    expect(messages({ csc: "12" })).toEqual([M.cscLengthInvalid]);
    expect(messages({ csc: "12345" })).toEqual([M.cscLengthInvalid]);
    expect(messages({ csc: "1234" })).toEqual([]);
  });
  it("both CSC messages at once, digits first", () => {
    expect(messages({ csc: "1a" })).toEqual([M.cscDigitsInvalid, M.cscLengthInvalid]);
  });
  it("the messages are the spec's words", () => {
    expect(M.cscMissing).toBe("Card security code is missing");
    expect(M.cscDigitsInvalid).toBe("Card security code is invalid (only digits are allowed)");
    expect(M.cscLengthInvalid).toBe("Card security code is invalid (must be 3 or 4 digits)");
  });

  // csc_required × saved token × csc_required_for_tokens → missing?
  it.each([
    [true, false, false, true],
    [true, false, true, true],
    [true, true, false, false],
    [true, true, true, true],
    [false, false, false, false],
    [false, false, true, false],
    [false, true, false, false],
    [false, true, true, false],
  ])("csc_required=%s, saved token=%s, csc_required_for_tokens=%s → missing: %s", (required, token, forTokens, missing) => {
    const settings = gatewaySettings({ id: "g", csc_required: required, csc_required_for_tokens: forTokens });
    for (const csc of ["", undefined]) {
      const r = validateCardForm({ ...good, csc, savedTokenSelected: token }, settings, NOW);
      expect(r.ok ? [] : r.errors.map((e) => e.message)).toEqual(missing ? [M.cscMissing] : []);
    }
  });

  it("still checks an entered CSC when a saved token is selected", () => {
    expect(validateCardForm({ csc: "12", savedTokenSelected: true }, card, NOW)).toEqual({
      ok: false,
      errors: [{ field: "csc", message: M.cscLengthInvalid }],
    });
    expect(validateCardForm({ csc: "123", savedTokenSelected: true }, card, NOW)).toEqual({
      ok: true,
      cardNumber: null,
      cardType: null,
      expiry: null,
      csc: "123",
    });
  });
});

describe("validateCardForm: card number", () => {
  it("empty (after stripping) → 'Card number is missing' only", () => {
    expect(messages({ cardNumber: "" })).toEqual([M.cardNumberMissing]);
    expect(messages({ cardNumber: " - -  " })).toEqual([M.cardNumberMissing]);
    expect(messages({ cardNumber: undefined })).toEqual([M.cardNumberMissing]);
  });
  it("length outside 12–19 → wrong length (and invalid, since no type allows it)", () => {
    expect(messages({ cardNumber: "42424242424" })).toEqual([M.cardNumberLengthInvalid, M.cardNumberInvalid]);
    expect(messages({ cardNumber: "42424242424242424242" })).toEqual([M.cardNumberLengthInvalid, M.cardNumberInvalid]);
  });
  it("non-digits → 'only digits allowed' then 'invalid'", () => {
    expect(messages({ cardNumber: "4242 4242 4242 424a" })).toEqual([M.cardNumberDigitsInvalid, M.cardNumberInvalid]);
  });
  it("all three number messages in the spec's order", () => {
    expect(messages({ cardNumber: "42ab" })).toEqual([M.cardNumberLengthInvalid, M.cardNumberDigitsInvalid, M.cardNumberInvalid]);
  });
  it("Luhn failure → 'Card number is invalid'", () => {
    expect(messages({ cardNumber: "4242424242424241" })).toEqual([M.cardNumberInvalid]);
  });
  it("unknown type → 'Card number is invalid'", () => {
    expect(messages({ cardNumber: "9999999999999995" })).toEqual([M.cardNumberInvalid]);
  });
  it("a length the type does not allow → 'Card number is invalid'", () => {
    expect(messages({ cardNumber: "42424242424242" })).toEqual([M.cardNumberInvalid]); // 14-digit visa
  });
  it("unionpay is exempt from Luhn", () => {
    const unionpay = gatewaySettings({ id: "g", enabled_card_types: ["unionpay"] });
    expect(messages({ cardNumber: "6200000000000001" }, unionpay)).toEqual([]);
  });
  it("is not checked when a saved token is selected", () => {
    expect(messages({ cardNumber: "nonsense", expiry: "nonsense", savedTokenSelected: true })).toEqual([]);
  });
  it("the messages are the spec's words", () => {
    expect(M.cardNumberMissing).toBe("Card number is missing");
    expect(M.cardNumberInvalid).toBe("Card number is invalid");
    expect(M.cardNumberDigitsInvalid).toBe("Card number is invalid (only digits allowed)");
    expect(M.cardNumberLengthInvalid).toBe("Card number is invalid (wrong length)");
  });
  it("cleanCardNumber strips dashes and whitespace only", () => {
    expect(cleanCardNumber(" 4242-4242\t4242 4242 ")).toBe("4242424242424242");
    expect(cleanCardNumber("4242.4242")).toBe("4242.4242");
  });
});

describe("validateCardForm: card number length limits", () => {
  const maestro = gatewaySettings({ id: "g", enabled_card_types: ["maestro"] });
  it("12 and 19 digits pass for maestro; 11 and 20 do not", () => {
    expect(messages({ cardNumber: "675964982648" }, maestro)).toEqual([]);
    expect(messages({ cardNumber: "6759649826438453128" }, maestro)).toEqual([]);
    expect(messages({ cardNumber: "67596498260" }, maestro)).toEqual([M.cardNumberLengthInvalid, M.cardNumberInvalid]);
    expect(messages({ cardNumber: "67596498264384531230" }, maestro)).toEqual([M.cardNumberLengthInvalid, M.cardNumberInvalid]);
  });
});

describe("validateCardForm: enabled card types", () => {
  it("a valid card of a type that is not enabled → '{card_type} card is invalid'", () => {
    // 6759… is a valid maestro number; maestro is not in the default list
    expect(messages({ cardNumber: "6759649826438453" })).toEqual(["Maestro card is invalid"]);
    expect(messages({ cardNumber: "6200000000000005" })).toEqual(["UnionPay card is invalid"]);
    expect(messages({ cardNumber: "378282246310005", csc: "1234" }, gatewaySettings({ id: "g", enabled_card_types: ["visa"] }))).toEqual([
      "American Express card is invalid",
    ]);
  });
  it("is on the number field, after the number rules and before the expiry", () => {
    const r = validateCardForm({ ...good, cardNumber: "6759649826438453", expiry: "01 / 20" }, card, NOW);
    expect(r).toEqual({
      ok: false,
      errors: [
        { field: "account-number", message: "Maestro card is invalid" },
        { field: "expiry", message: M.expiryInvalid },
      ],
    });
  });
  it("is not added on top of the number's own errors", () => {
    expect(messages({ cardNumber: "6759649826438454" })).toEqual([M.cardNumberInvalid]);
  });
  it("can be switched off (the original form only marked the field)", () => {
    expect(messages({ cardNumber: "6759649826438453" }, card, { ...NOW, enforceEnabledCardTypes: false })).toEqual([]);
  });
  it("enabledCardTypeError: 'Card is invalid' when the type is not known", () => {
    expect(enabledCardTypeError(null, ["visa"])).toEqual({ field: "account-number", message: M.cardTypeInvalid });
    expect(enabledCardTypeError("visa", ["visa"])).toBeNull();
    expect(enabledCardTypeError("jcb", ["visa"])).toEqual({ field: "account-number", message: "JCB card is invalid" });
    expect(M.cardTypeInvalid).toBe("Card is invalid");
    expect(M.cardTypeInvalidSpecific).toBe("{card_type} card is invalid");
  });
});

describe("validateCardForm: expiry", () => {
  it.each(["", "12", "00 / 30", "13 / 30", "1a / 30", "12 / 3", "04 / 26", "12 / 25", "12 / 99", "12 / 1999"])(
    "%j → 'Card expiration date is invalid'",
    (expiry) => {
      expect(messages({ expiry })).toEqual([M.expiryInvalid]);
      expect(M.expiryInvalid).toBe("Card expiration date is invalid");
    },
  );
  it.each(["05 / 26", "5 / 26", "05/2026", "12 / 69", "01 / 27"])("%j passes in May 2026", (expiry) => {
    expect(messages({ expiry })).toEqual([]);
  });
  it("current-month boundary: valid through its month, invalid the month after", () => {
    expect(messages({ expiry: "05 / 26" }, card, { currentMonth: { year: 2026, month: 5 } })).toEqual([]);
    expect(messages({ expiry: "05 / 26" }, card, { currentMonth: { year: 2026, month: 6 } })).toEqual([M.expiryInvalid]);
    expect(messages({ expiry: "12 / 26" }, card, { currentMonth: { year: 2027, month: 1 } })).toEqual([M.expiryInvalid]);
  });
});

describe("validateCardForm: order of all messages", () => {
  it("CSC, then card number, then expiry, each with its field", () => {
    const r = validateCardForm({ cardNumber: "12ab", expiry: "99 / 99", csc: "x", savedTokenSelected: false }, card, NOW);
    expect(r).toEqual({
      ok: false,
      errors: [
        { field: "csc", message: M.cscDigitsInvalid },
        { field: "csc", message: M.cscLengthInvalid },
        { field: "account-number", message: M.cardNumberLengthInvalid },
        { field: "account-number", message: M.cardNumberDigitsInvalid },
        { field: "account-number", message: M.cardNumberInvalid },
        { field: "expiry", message: M.expiryInvalid },
      ],
    });
  });
  it("an empty form with a required CSC", () => {
    const r = validateCardForm({ cardNumber: "", expiry: "", csc: "", savedTokenSelected: false }, card, NOW);
    expect(r.ok ? [] : r.errors.map((e) => e.message)).toEqual([M.cscMissing, M.cardNumberMissing, M.expiryInvalid]);
  });
  it("never throws and never accepts a number that is not digits of a valid card", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (cardNumber, expiry, csc) => {
        const r = validateCardForm({ cardNumber, expiry, csc, savedTokenSelected: false }, card, NOW);
        if (r.ok) {
          expect(r.cardNumber).toMatch(/^\d{12,19}$/);
          expect(r.csc).toMatch(/^\d{3,4}$/);
        }
      }),
    );
  });
});

describe("validateEcheckForm", () => {
  const ok = { routingNumber: "011000015", accountNumber: "000123456789", savedTokenSelected: false };
  const msgs = (input: Partial<typeof ok> & Record<string, unknown>) => {
    const r = validateEcheckForm({ ...ok, ...input });
    return r.ok ? [] : r.errors.map((e) => `${e.field}: ${e.message}`);
  };
  it("accepts a routing number and an account number", () => {
    expect(validateEcheckForm(ok)).toEqual({ ok: true, routingNumber: "011000015", accountNumber: "000123456789" });
  });
  it("is skipped entirely when a saved token is selected", () => {
    expect(validateEcheckForm({ routingNumber: "", accountNumber: "x", savedTokenSelected: true })).toEqual({
      ok: true,
      routingNumber: null,
      accountNumber: null,
    });
  });
  it("routing number: missing / must be 9 digits / only digits, in that order", () => {
    expect(msgs({ routingNumber: "" })).toEqual(["routing-number: Routing Number is missing"]);
    expect(msgs({ routingNumber: undefined as unknown as string })).toEqual(["routing-number: Routing Number is missing"]);
    expect(msgs({ routingNumber: "12345678" })).toEqual(["routing-number: Routing Number is invalid (must be 9 digits)"]);
    expect(msgs({ routingNumber: "1234567890" })).toEqual(["routing-number: Routing Number is invalid (must be 9 digits)"]);
    expect(msgs({ routingNumber: "12345678a" })).toEqual(["routing-number: Routing Number is invalid (only digits are allowed)"]);
    expect(msgs({ routingNumber: "12a" })).toEqual([
      "routing-number: Routing Number is invalid (must be 9 digits)",
      "routing-number: Routing Number is invalid (only digits are allowed)",
    ]);
  });
  it("the form does not run the ABA checksum (that is the server's and the processor's)", () => {
    expect(msgs({ routingNumber: "123456789" })).toEqual([]);
  });
  it("account number: missing / 3 to 17 (message says 5 to 17) / only digits", () => {
    expect(msgs({ accountNumber: "" })).toEqual(["account-number: Account Number is missing"]);
    expect(msgs({ accountNumber: "12" })).toEqual(["account-number: Account Number is invalid (must be between 5 and 17 digits)"]);
    expect(msgs({ accountNumber: "123" })).toEqual([]); // the check allows 3, though the message says 5
    expect(msgs({ accountNumber: "1234" })).toEqual([]);
    expect(msgs({ accountNumber: "12345678901234567" })).toEqual([]);
    expect(msgs({ accountNumber: "123456789012345678" })).toEqual(["account-number: Account Number is invalid (must be between 5 and 17 digits)"]);
    expect(msgs({ accountNumber: "1234a" })).toEqual(["account-number: Account Number is invalid (only digits are allowed)"]);
    expect(msgs({ accountNumber: "1a" })).toEqual([
      "account-number: Account Number is invalid (must be between 5 and 17 digits)",
      "account-number: Account Number is invalid (only digits are allowed)",
    ]);
  });
  it("routing errors come before account errors", () => {
    expect(msgs({ routingNumber: "", accountNumber: "" })).toEqual(["routing-number: Routing Number is missing", "account-number: Account Number is missing"]);
  });
  it("validates the message-only fields when present", () => {
    expect(msgs({ checkNumber: "", driversLicenseState: "", driversLicenseNumber: "" })).toEqual([
      "check-number: Check Number is missing",
      "drivers-license-state: Driver's license state is missing",
      "drivers-license-number: Driver's license number is missing",
    ]);
    expect(msgs({ checkNumber: "12x", driversLicenseState: "CA", driversLicenseNumber: "D12#" })).toEqual([
      "check-number: Check Number is invalid (only digits are allowed)",
      "drivers-license-number: Driver's license number is invalid",
    ]);
    expect(msgs({ checkNumber: "1001", driversLicenseState: "CA", driversLicenseNumber: "D123-456 7" })).toEqual([]);
  });
});

describe("optional validators", () => {
  it("check number", () => {
    expect(validateCheckNumber("")).toEqual([{ field: "check-number", message: "Check Number is missing" }]);
    expect(validateCheckNumber("1 2")).toEqual([{ field: "check-number", message: "Check Number is invalid (only digits are allowed)" }]);
    expect(validateCheckNumber("123")).toEqual([]);
  });
  it("driver's license", () => {
    expect(validateDriversLicenseState("  ")).toEqual([{ field: "drivers-license-state", message: "Driver's license state is missing" }]);
    expect(validateDriversLicenseState("NY")).toEqual([]);
    expect(validateDriversLicenseNumber("")).toEqual([{ field: "drivers-license-number", message: "Driver's license number is missing" }]);
    expect(validateDriversLicenseNumber("A1_2")).toEqual([{ field: "drivers-license-number", message: "Driver's license number is invalid" }]);
    expect(validateDriversLicenseNumber("A1 2-3")).toEqual([]);
  });
});

describe("isValidCscForType (the CSC check outside the form)", () => {
  it.each([
    ["123", "visa", true],
    ["1234", "visa", false],
    ["12", "visa", false],
    ["123", "amex", true],
    ["1234", "amex", true],
    ["12345", "amex", false],
    ["123", null, true],
    ["1234", null, true],
    ["12", null, false],
    ["12345", null, false],
    ["12a", null, false],
    ["", null, false],
    [" 123 ", "visa", true],
    ["123", "maestro", true],
    ["1234", "dinersclub", false],
  ] as const)("%j for %s → %s", (csc, type, expected) => {
    expect(isValidCscForType(csc, type)).toBe(expected);
  });
});

describe("liveCardChecks", () => {
  const now = NOW.currentMonth;
  it("identifies an enabled type, a valid expiry and a valid CSC", () => {
    expect(liveCardChecks({ cardNumber: "4242 42", expiry: "12 / 30", csc: "123" }, card, now)).toEqual({
      cardType: "visa",
      typeIdentified: true,
      invalidCardType: false,
      expiryIdentified: true,
      cscIdentified: true,
    });
  });
  it("marks a detected type that is not enabled", () => {
    expect(liveCardChecks({ cardNumber: "6759" }, card, now)).toMatchObject({
      cardType: "maestro",
      typeIdentified: true,
      invalidCardType: true,
    });
  });
  it("does not mark an empty or unrecognised number as an invalid type", () => {
    expect(liveCardChecks({ cardNumber: "" }, card, now)).toMatchObject({ cardType: null, typeIdentified: false, invalidCardType: false });
    expect(liveCardChecks({ cardNumber: "5" }, card, now)).toMatchObject({ cardType: null, invalidCardType: false });
  });
  it("checks the CSC length against the detected type", () => {
    expect(liveCardChecks({ cardNumber: "4242", csc: "1234" }, card, now).cscIdentified).toBe(false);
    expect(liveCardChecks({ cardNumber: "3782", csc: "1234" }, card, now).cscIdentified).toBe(true);
    expect(liveCardChecks({ cardNumber: "", csc: "1234" }, card, now).cscIdentified).toBe(true);
  });
  it("does not identify a past or partial expiry", () => {
    expect(liveCardChecks({ expiry: "04 / 26" }, card, now).expiryIdentified).toBe(false);
    expect(liveCardChecks({ expiry: "05 / 2" }, card, now).expiryIdentified).toBe(false);
    expect(liveCardChecks({ expiry: "05 / 26" }, card, now).expiryIdentified).toBe(true);
  });
});

describe("validatePaymentForm", () => {
  it("dispatches on the gateway's type", () => {
    const echeck = gatewaySettings({ id: "sandbox_echeck", type: "echeck" });
    expect(validatePaymentForm({ savedTokenSelected: false, routingNumber: "", accountNumber: "1234" }, echeck, NOW)).toEqual({
      ok: false,
      errors: [{ field: "routing-number", message: M.routingNumberMissing }],
    });
    expect(validatePaymentForm({ ...good }, card, NOW)).toEqual({ ok: true });
    expect(validatePaymentForm({ ...good, csc: "" }, card, NOW)).toEqual({
      ok: false,
      errors: [{ field: "csc", message: M.cscMissing }],
    });
  });
});
