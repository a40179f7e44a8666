import { describe, expect, it } from "vitest";
import { isValidAbaRoutingNumber } from "./aba.ts";

describe("isValidAbaRoutingNumber (weights 3-7-1)", () => {
  it.each(["011000015", "110000000", "021000021", "026009593", "111000025", "122105155"])("%s passes", (n) => {
    expect(isValidAbaRoutingNumber(n)).toBe(true);
  });
  it.each(["011000016", "110000001", "021000022", "123456789", "", "12345678", "0110000150", "01100001a", " 11000000"])("%j fails", (n) => {
    expect(isValidAbaRoutingNumber(n)).toBe(false);
  });
  it("weights are 3, 7, 1", () => {
    // 1×3 = 3, 1×7 = 7 → 10
    expect(isValidAbaRoutingNumber("110000000")).toBe(true);
    // 1×7 + 3×1 = 10
    expect(isValidAbaRoutingNumber("013000000")).toBe(true);
    // swapping the first two digits changes the sum: 7×1... 1×3 + 3×7 = 24
    expect(isValidAbaRoutingNumber("130000000")).toBe(false);
  });
});
