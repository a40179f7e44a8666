import { describe, expect, it } from "vitest";
import { orderPaymentFailedEmail } from "./order-payment-failed.ts";
import { DEFAULT_CURRENCY_FORMAT } from "../../domain/money/money.ts";

describe("payment failed e-mail", () => {
  it("says the order waits for payment and gives the total and the link to pay again", () => {
    const url = "https://shop.example/checkout/order-pay/12/?pay_for_order=true&key=wc_order_abc";
    const mail = orderPaymentFailedEmail({ id: 12, total: 2500, payUrl: url }, { ...DEFAULT_CURRENCY_FORMAT, decimals: 2 });
    expect(mail.subject).toBe("Payment for your order #12 failed");
    expect(mail.body).toBe(
      "The payment for your order did not go through, so the order will not be sent until it is paid.\n\n" +
        "Order #12\nTotal: $25.00\n\n" +
        `To try again with another card or account, open this link:\n${url}\n`,
    );
  });
});
