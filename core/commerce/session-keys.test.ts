import { describe, expect, it } from "vitest";
import { AWAITING_PAYMENT_KEY, CHECKOUT_TOKEN_KEY, DESTINATION_KEY, ORDERS_SEEN_KEY, STORE_API_CUSTOMER_KEY, sessionFitsKeptPage } from "./session-keys.ts";

describe("sessionFitsKeptPage (decision 0042)", () => {
  it("a guest's session holding only what no kept page reads fits", () => {
    expect(sessionFitsKeptPage({ customerId: null, data: {} })).toBe(true);
    const data = {
      [CHECKOUT_TOKEN_KEY]: "a",
      [AWAITING_PAYMENT_KEY]: 3,
      [ORDERS_SEEN_KEY]: [3],
      [STORE_API_CUSTOMER_KEY]: {},
      [DESTINATION_KEY]: { country: "US" },
    };
    expect(sessionFitsKeptPage({ customerId: null, data })).toBe(true);
  });

  it("a signed-in customer, a notice, a chosen country, an own comment, a flash, the registration flag or an unknown key do not", () => {
    expect(sessionFitsKeptPage({ customerId: 7, data: {} })).toBe(false);
    for (const key of ["notices", "customer_country", "own_comments", "comment_form", "tracking_registered", "something_new"])
      expect(sessionFitsKeptPage({ customerId: null, data: { [key]: 1 } }), key).toBe(false);
  });
});
