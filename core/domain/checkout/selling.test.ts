import { describe, expect, it } from "vitest";
import { ALL_COUNTRIES, sellingCountries, sellingRefusals, sellsTo, shippingCountries, shipsTo, type SellingLocations } from "./selling.ts";
import { COUNTRIES } from "./countries.ts";

describe("selling and shipping locations", () => {
  it("by default the shop sells and ships to every country it knows, and to no other", () => {
    expect(sellingCountries(ALL_COUNTRIES)).toEqual(Object.keys(COUNTRIES));
    expect(shipsTo(ALL_COUNTRIES, "GB")).toBe(true);
    expect(sellsTo(ALL_COUNTRIES, "ZZ")).toBe(false);
  });

  it("specific, all-except and same-as-selling", () => {
    const s: SellingLocations = { sellTo: "all_except", sellToCountries: ["FR"], shipTo: "specific", shipToCountries: ["GB", "IE"] };
    expect(sellsTo(s, "FR")).toBe(false);
    expect(sellsTo(s, "US")).toBe(true);
    expect(shippingCountries(s)).toEqual(["GB", "IE"]);
    const same: SellingLocations = { ...s, shipTo: "same_as_selling" };
    expect(shipsTo(same, "FR")).toBe(false);
    expect(shipsTo(same, "DE")).toBe(true);
  });

  it("refuses a billing country not sold to and a shipping country not shipped to, only when the cart ships", () => {
    const s: SellingLocations = { sellTo: "specific", sellToCountries: ["US", "CA"], shipTo: "specific", shipToCountries: ["US"] };
    expect(sellingRefusals(s, { billingCountry: "US", shippingCountry: null, needsShipping: true })).toEqual([]);
    expect(sellingRefusals(s, { billingCountry: "GB", shippingCountry: "US", needsShipping: true }).map((r) => [r.id, r.text])).toEqual([
      ["billing_country", "Sorry, we do not allow orders from the provided country (GB)"],
    ]);
    expect(sellingRefusals(s, { billingCountry: "US", shippingCountry: "CA", needsShipping: true }).map((r) => [r.id, r.text])).toEqual([
      ["shipping_country", "Sorry, we do not ship orders to the provided country (CA)"],
    ]);
    // Shipped to the billing address: the billing country must be shipped to.
    expect(sellingRefusals(s, { billingCountry: "CA", shippingCountry: null, needsShipping: true }).map((r) => r.id)).toEqual(["billing_country"]);
    expect(sellingRefusals(s, { billingCountry: "CA", shippingCountry: null, needsShipping: false })).toEqual([]);
  });
});
