/** WooCommerce's money and date formats on the wire (docs/contract/rest/orders.md 'Common rules'). */
import { describe, expect, it } from "vitest";
import { money, moneyArg, wcDate } from "./wc-orders-wire.ts";

describe("money on the wire", () => {
  it("writes cents as WooCommerce's decimal strings", () => {
    expect(money(0)).toBe("0.00");
    expect(money(1250)).toBe("12.50");
    expect(money(5)).toBe("0.05");
    expect(money(-1500)).toBe("-15.00");
  });

  it("reads amounts as strings or numbers with at most two decimals, never negative", () => {
    const arg = moneyArg();
    expect(arg.parse("12.50")).toBe(1250);
    expect(arg.parse("12.5")).toBe(1250);
    expect(arg.parse("12")).toBe(1200);
    expect(arg.parse(" 0.05 ")).toBe(5);
    expect(arg.parse(12.5)).toBe(1250);
    expect(arg.parse(0.1 + 0.2)).toBe(30);
    expect(arg.parse(7)).toBe(700);
    expect(arg.parse(10)).toBe(1000);
    expect(arg.parse(100)).toBe(10000);
    expect(arg.parse(0)).toBe(0);
    for (const bad of ["-1", "1.001", "abc", "", "1e3", "12,50", -3, Number.NaN, Infinity, null, {}])
      expect(arg.safeParse(bad).success, String(bad)).toBe(false);
  });

  it("writes dates without a zone or milliseconds", () => {
    expect(wcDate(new Date("2026-11-27T10:43:17.123Z"))).toBe("2026-11-27T10:43:17");
    expect(wcDate(null)).toBeNull();
  });
});
