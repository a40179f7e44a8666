import { describe, expect, it } from "vitest";
import { orderReceivedEmail } from "./order-received.ts";
import { DEFAULT_CURRENCY_FORMAT } from "../../domain/money/money.ts";

const line = (name: string, quantity: number, total: number, details = "") => ({
  productId: 1,
  variationId: null,
  name,
  details,
  quantity,
  subtotal: total,
  total,
});

describe("order received e-mail", () => {
  it("names the order and lists each line, the shipping and the total in the shop's money format", () => {
    const mail = orderReceivedEmail(
      { id: 42, lines: [line("Velvet Mask", 2, 3000), line("Bow Tie", 1, 1250)], shippingTotal: 500, total: 4750 },
      { ...DEFAULT_CURRENCY_FORMAT, decimals: 2 },
    );
    expect(mail.subject).toBe("Your order #42 has been received");
    expect(mail.body).toBe("Thank you for your order.\n\nOrder #42\nVelvet Mask × 2: $30.00\nBow Tie × 1: $12.50\nShipping: $5.00\nTotal: $47.50\n");
  });

  it("prints each line's choice (variation, bundle contents) under it", () => {
    const mail = orderReceivedEmail(
      { id: 9, lines: [line("Cotton Face Mask", 1, 1500, "Size: M, Color: Blue"), line("Bow Tie", 1, 1250)], shippingTotal: 0, total: 2750 },
      DEFAULT_CURRENCY_FORMAT,
    );
    expect(mail.body).toContain("Cotton Face Mask × 1: $15\n  Size: M, Color: Blue\nBow Tie × 1: $13\n");
  });

  it("prints one row per tax rate charged, before the total", () => {
    const mail = orderReceivedEmail(
      {
        id: 5,
        lines: [line("Mask", 1, 1000)],
        shippingTotal: 500,
        taxLines: [{ rateId: 1, label: "VAT", rate: 200_000, compound: false, taxTotal: 200, shippingTaxTotal: 100 }],
        total: 1800,
      },
      { ...DEFAULT_CURRENCY_FORMAT, decimals: 2 },
    );
    expect(mail.body).toContain("Shipping: $5.00\nVAT: $3.00\nTotal: $18.00\n");
  });

  it("follows the currency format it is given", () => {
    const mail = orderReceivedEmail(
      { id: 7, lines: [line("Mask", 1, 1999)], shippingTotal: 0, total: 1999 },
      { symbol: "€", position: "right_space", decimals: 2, decimalSeparator: ",", thousandSeparator: "." },
    );
    expect(mail.body).toContain("Mask × 1: 19,99");
    expect(mail.body).toContain("Total: 19,99");
  });
});
