import { describe, expect, it } from "vitest";
import { allocate, formatMoney, parseMoney, percentOf, roundCents } from "./money.ts";

describe("money", () => {
  it("formats as the spec says: $ before, 0 decimals, comma thousands", () => {
    expect(formatMoney(1500)).toBe("$15");
    expect(formatMoney(123456789)).toBe("$1,234,568");
    expect(formatMoney(250)).toBe("$3"); // half away from zero
    expect(formatMoney(0)).toBe("$0");
    expect(formatMoney(-2500)).toBe("-$25");
  });
  it("formats with decimals when configured", () => {
    const f = { symbol: "€", position: "right_space" as const, decimals: 2, decimalSeparator: ",", thousandSeparator: "." };
    expect(formatMoney(123456, f)).toBe("1.234,56\u00a0€");
    expect(formatMoney(5, f)).toBe("0,05\u00a0€");
  });
  it("rounds half away from zero and never returns -0", () => {
    expect(roundCents(2.5)).toBe(3);
    expect(roundCents(-2.5)).toBe(-3);
    expect(Object.is(roundCents(-0.2), 0)).toBe(true);
    expect(percentOf(999, 10)).toBe(100);
  });
  it("allocates exactly", () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocate(1000, [2, 3, 5]).reduce((a, b) => a + b)).toBe(1000);
    expect(allocate(-100, [1, 1, 1]).reduce((a, b) => a + b)).toBe(-100);
  });
  it("parses typed amounts", () => {
    expect(parseMoney("12.5")).toBe(1250);
    expect(parseMoney("$1,200")).toBe(120000);
    expect(parseMoney("abc")).toBeNull();
    expect(parseMoney("1.234")).toBeNull();
  });
});
