/**
 * The gateway settings of docs/contract/storefront.md §3 come from the shop's configuration (SHOP_SETTINGS → payments): the card types the
 * form accepts and whether a saved card needs its security code. The server applies the same settings as the
 * form, and the sandbox's test-number page says which of its numbers this shop accepts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { CARD, billing, cardFields, openCheckout, productWithStock, shopperWithCart, submitCheckout } from "./checkout-support.ts";

let shop: TestShop;
let productId: number;

beforeAll(async () => {
  shop = await startTestShop({ SHOP_SETTINGS: JSON.stringify({ payments: { cscRequiredForTokens: true, enabledCardTypes: ["visa", "unionpay"] } }) });
  productId = await productWithStock(shop, "silk-pocket-square", 100, 1500);
});
afterAll(async () => shop?.close());

describe("configured gateway settings", () => {
  it("the server refuses a card type that is not enabled and accepts one that is", async () => {
    const client = await shopperWithCart(shop, productId);
    const page = await openCheckout(client);
    const mastercard = await submitCheckout(client, page, { ...billing(), ...cardFields("5555 5555 5555 4444") });
    expect(mastercard.result).toBe("failure");
    expect(mastercard.messages).toContain(`<li data-id="${CARD}-account-number">MasterCard card is invalid</li>`);
    const unionpay = await submitCheckout(client, page, { ...billing(), ...cardFields("6200 0000 0000 0005") });
    expect(unionpay.result).toBe("success");
  });

  it("a saved card needs its security code when csc_required_for_tokens is on", async () => {
    const client = await shopperWithCart(shop, productId);
    const email = `csc${Date.now()}@example.com`;
    const first = await submitCheckout(client, await openCheckout(client), {
      ...billing(email),
      ...cardFields(),
      createaccount: "1",
      account_password: "correct horse battery",
      [`${CARD}-tokenize-payment-method`]: "true",
    });
    expect(first.result).toBe("success");
    await client.post("/?wc-ajax=add_to_cart", { product_id: String(productId), quantity: "1" });
    const again = await openCheckout(client);
    const tokenId = /id="wc-sandbox-credit-card-payment-token-(\d+)"/.exec(again.html)![1]!;
    const withoutCsc = await submitCheckout(client, again, { ...billing(email), payment_method: "sandbox_credit_card", [`${CARD}-payment-token`]: tokenId });
    expect(withoutCsc.result).toBe("failure");
    expect(withoutCsc.messages).toContain(`<li data-id="${CARD}-csc">Card security code is missing</li>`);
    const withCsc = await submitCheckout(client, again, {
      ...billing(email),
      payment_method: "sandbox_credit_card",
      [`${CARD}-payment-token`]: tokenId,
      [`${CARD}-csc`]: "123",
    });
    expect(withCsc.result).toBe("success");
  });

  it("the test-number page marks the numbers of card types this shop does not accept", async () => {
    const page = await (await fetch(`${shop.url}/payments/test-numbers/`)).text();
    expect(page).toMatch(/<code>5555 5555 5555 4444<\/code><\/td><td>mastercard<\/td><td>not accepted by this shop/);
    expect(page).toMatch(/<code>6200 0000 0000 0005<\/code><\/td><td>unionpay<\/td><td>UnionPay, approved/);
  });

  it("an unknown card type in the settings stops the start with a clear error", async () => {
    await expect(startTestShop({ SHOP_SETTINGS: JSON.stringify({ payments: { enabledCardTypes: ["visa", "bitcoin"] } }) })).rejects.toThrow(
      /payments\.enabledCardTypes.*bitcoin/,
    );
  });
});
