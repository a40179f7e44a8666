/** The server's per-country address rules at checkout: provinces from the list, postcodes by country, labels by country. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { billing, cardFields, openCheckout, productWithStock, shopperWithCart, submitCheckout } from "./checkout-support.ts";

let shop: TestShop;
let productId: number;

beforeAll(async () => {
  shop = await startTestShop();
  productId = await productWithStock(shop, "tie-clip", 50, 1200);
});
afterAll(async () => shop?.close());

const canadian = (over: Record<string, string> = {}) => ({
  ...billing("canada@example.com"),
  billing_country: "CA",
  billing_city: "Ottawa",
  billing_state: "ON",
  billing_postcode: "K1A 0B1",
  ...over,
});

describe("POST /?wc-ajax=checkout: addresses by country", () => {
  it("Canada: a US ZIP code and an unknown province are refused with Canadian labels; a Canadian address orders, its province stored by code", async () => {
    const client = await shopperWithCart(shop, productId);
    const page = await openCheckout(client);
    const bad = await submitCheckout(client, page, { ...canadian({ billing_state: "Texas", billing_postcode: "62701" }), ...cardFields() });
    expect(bad.result).toBe("failure");
    expect(bad.messages).toContain('<li data-id="billing_postcode"><strong>Billing Postal code</strong> is not a valid postcode / ZIP.</li>');
    expect(bad.messages).toMatch(/<li data-id="billing_state"><strong>Billing Province<\/strong> is not valid\. Please enter one of the following: Alberta,/);
    const ok = await submitCheckout(client, page, { ...canadian({ billing_state: "Ontario" }), ...cardFields() });
    expect(ok.result).toBe("success");
    const [a] = await shop.services.db.query<{ state: string; postcode: string; country: string }>(
      `SELECT state, postcode, country FROM order_addresses WHERE email = 'canada@example.com' AND kind = 'billing'`,
    );
    expect(a).toEqual({ state: "ON", postcode: "K1A 0B1", country: "CA" });
  });

  it("the checkout page labels the US fields 'State' and 'ZIP Code' and offers the states as a list", async () => {
    const client = await shopperWithCart(shop, productId);
    const html = (await openCheckout(client)).html;
    expect(html).toMatch(/<select name="billing_state" id="billing_state"/);
    expect(html).toContain('<option value="IL">Illinois</option>');
    expect(/<label for="billing_postcode">([\s\S]*?)<\/label>/.exec(html)![1]).toContain("ZIP Code");
  });
});
