import { describe, expect, it } from "vitest";
import { paymentFieldId } from "./settings.ts";
import { GatewaySettingsSchema, gatewaySettings } from "./settings.schema.ts";
import { DEFAULT_ENABLED_CARD_TYPES } from "./card-types.ts";
import { PAYMENT_MESSAGES, cardTypeInvalidMessage } from "./messages.ts";

describe("gateway settings", () => {
  it("fills the defaults: the six accepted card types", () => {
    expect(gatewaySettings({ id: "sandbox_credit_card" })).toEqual({
      id: "sandbox_credit_card",
      id_dasherized: "sandbox-credit-card",
      plugin_id: "",
      type: "credit-card",
      csc_required: true,
      csc_required_for_tokens: false,
      enabled_card_types: ["visa", "mastercard", "amex", "discover", "dinersclub", "jcb"],
    });
    expect(DEFAULT_ENABLED_CARD_TYPES).toEqual(["visa", "mastercard", "amex", "discover", "dinersclub", "jcb"]);
  });
  it("keeps given values and drops unknown card type names", () => {
    const s = gatewaySettings({
      id: "x",
      id_dasherized: "x-y",
      plugin_id: "p",
      type: "echeck",
      csc_required: false,
      csc_required_for_tokens: true,
      enabled_card_types: ["visa", "mir", "maestro"],
    });
    expect(s).toMatchObject({ id_dasherized: "x-y", plugin_id: "p", type: "echeck", csc_required: false, csc_required_for_tokens: true });
    expect(s.enabled_card_types).toEqual(["visa", "maestro"]);
  });
  it("refuses an invalid type or a missing id", () => {
    expect(GatewaySettingsSchema.safeParse({ id: "x", type: "cash" }).success).toBe(false);
    expect(GatewaySettingsSchema.safeParse({}).success).toBe(false);
  });
  it("field ids follow wc-{id_dasherized}-{field}", () => {
    expect(paymentFieldId({ id_dasherized: "sandbox-credit-card" }, "account-number")).toBe("wc-sandbox-credit-card-account-number");
    expect(paymentFieldId({ id_dasherized: "sandbox-echeck" }, "routing-number")).toBe("wc-sandbox-echeck-routing-number");
  });
});

describe("messages (docs/contract/storefront.md §8, word for word)", () => {
  it("are exactly the spec's", () => {
    expect(PAYMENT_MESSAGES).toEqual({
      general: "An error occurred, please try again or try an alternate form of payment.",
      cardNumberMissing: "Card number is missing",
      cardNumberInvalid: "Card number is invalid",
      cardNumberDigitsInvalid: "Card number is invalid (only digits allowed)",
      cardNumberLengthInvalid: "Card number is invalid (wrong length)",
      cardTypeInvalid: "Card is invalid",
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
    });
  });
  it("fills {card_type}", () => {
    expect(cardTypeInvalidMessage("Visa")).toBe("Visa card is invalid");
    expect(cardTypeInvalidMessage(null)).toBe("Card is invalid");
  });
});
