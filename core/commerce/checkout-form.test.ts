import { describe, expect, it } from "vitest";
import { attributionMeta, errorListHtml, parseCheckoutForm, sanitizeText, ATTRIBUTION_FIELDS } from "./checkout-form.ts";
import { gatewaySettings } from "../domain/payments/settings.schema.ts";

const gateways = {
  card: gatewaySettings({ id: "sandbox_credit_card", plugin_id: "sandbox", type: "credit-card" }),
  echeck: gatewaySettings({ id: "sandbox_echeck", plugin_id: "sandbox", type: "echeck", csc_required: false }),
};
const month = { year: 2026, month: 11 };
const opts = { loggedIn: false, ownedTokenIds: new Set<number>(), guestCheckout: true };
const valid = {
  billing_first_name: "Ada",
  billing_last_name: "Lovelace",
  billing_country: "US",
  billing_address_1: "1 Way",
  billing_city: "Springfield",
  billing_state: "IL",
  billing_postcode: "62701",
  billing_phone: "555 123 4567",
  billing_email: "ada@example.com",
  payment_method: "sandbox_credit_card",
  "wc-sandbox-credit-card-account-number": "4242 4242 4242 4242",
  "wc-sandbox-credit-card-expiry": "12 / 30",
  "wc-sandbox-credit-card-csc": "123",
};

describe("order attribution (docs/contract/wire.md §4.5)", () => {
  it("drops '(none)' and missing fields, sanitizes the rest, derives the device type", () => {
    const meta = attributionMeta({
      wc_order_attribution_source_type: "utm",
      wc_order_attribution_utm_source: "  news<b>letter</b>\n",
      wc_order_attribution_utm_medium: "(none)",
      wc_order_attribution_user_agent: "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)",
    });
    expect(meta).toEqual({
      _wc_order_attribution_source_type: "utm",
      _wc_order_attribution_utm_source: "newsletter",
      _wc_order_attribution_user_agent: "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)",
      _wc_order_attribution_device_type: "Tablet",
    });
    expect(ATTRIBUTION_FIELDS).toHaveLength(16);
    expect(attributionMeta({})).toEqual({});
  });
});

describe("parseCheckoutForm", () => {
  it("accepts a complete form and reads the payment with the form's own rules", () => {
    const result = parseCheckoutForm({ ...valid, "shipping_method[0]": "x", shipping_method: ["local_pickup:1"] }, gateways, month, opts);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.payment).toEqual({ kind: "card", number: "4242424242424242", expMonth: 12, expYear: 2030, csc: "123", tokenize: false });
    expect(result.value.shippingMethodId).toBe("local_pickup:1");
  });

  it("tokenize is honoured only for signed-in shoppers or a new account", () => {
    const form = { ...valid, "wc-sandbox-credit-card-tokenize-payment-method": "true" };
    const guest = parseCheckoutForm(form, gateways, month, opts);
    const creating = parseCheckoutForm({ ...form, createaccount: "1", account_password: "long enough 1" }, gateways, month, opts);
    expect(guest.ok && guest.value.payment).toMatchObject({ tokenize: false });
    expect(creating.ok && creating.value.payment).toMatchObject({ tokenize: true });
  });

  it("lists every bad field with WooCommerce's wording; arrays and objects count as missing", () => {
    const result = parseCheckoutForm(
      { ...valid, billing_first_name: ["a", "b"], billing_postcode: "ABC", billing_country: "ZZ", "wc-sandbox-credit-card-csc": "" },
      gateways,
      month,
      opts,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.id)).toEqual(["billing_first_name", "billing_country", "wc-sandbox-credit-card-csc"]);
    expect(result.errors[0]!.html).toBe("<strong>Billing First name</strong> is a required field.");
  });

  it("a saved token must be one of the shopper's own", () => {
    const result = parseCheckoutForm({ ...valid, "wc-sandbox-credit-card-payment-token": "7" }, gateways, month, { ...opts, loggedIn: true });
    expect(result.ok).toBe(false);
    const mine = parseCheckoutForm({ ...valid, "wc-sandbox-credit-card-payment-token": "7" }, gateways, month, {
      ...opts,
      loggedIn: true,
      ownedTokenIds: new Set([7]),
    });
    expect(mine.ok && mine.value.payment).toEqual({ kind: "card_token", tokenId: 7, csc: "123" });
  });
});

describe("escaping", () => {
  it("sanitizeText removes tags and control characters", () => {
    expect(sanitizeText("<script>alert(1)</script>Bob\t\u0000 Smith")).toBe("alert(1)Bob Smith");
  });
  it("control characters are U+0000–U+001F and U+007F only: C1 characters and the rest pass", () => {
    expect(sanitizeText("a\u0001\u001f\u007fb")).toBe("a b");
    expect(sanitizeText("a\u0080\u009fb\u00adc")).toBe("a\u0080\u009fb\u00adc");
  });
  it("order notes lose control characters but keep tab and line breaks", () => {
    const result = parseCheckoutForm({ ...valid, order_comments: "  a\u0000\u0008\u000b\u000c\u000e\u001f\u007fb\tc\r\nd\u0085 " }, gateways, month, opts);
    expect(result.ok && result.value.orderComments).toBe("ab\tc\r\nd\u0085");
  });
  it("errorListHtml escapes the field id", () => {
    expect(errorListHtml([{ id: '"><img>', html: "x" }])).toBe('<ul class="woocommerce-error" role="alert"><li data-id="&quot;&gt;&lt;img&gt;">x</li></ul>');
  });
});
