import { describe, expect, it } from "vitest";
import { saleBadgeForVariation, saleBadgeText, salePercentage, salePercentagesByVariation } from "./sale-badge.ts";

describe("salePercentage", () => {
  it("rounds (regular - sale) / regular * 100 with Math.round", () => {
    expect(salePercentage(2000, 1500)).toBe(25);
    expect(salePercentage(300, 200)).toBe(33); // 33.33
    expect(salePercentage(300, 100)).toBe(67); // 66.67
    expect(salePercentage(1000, 995)).toBe(1); // 0.5 rounds up
    expect(salePercentage(1000, 996)).toBe(0); // 0.4
    expect(salePercentage(1000, 0)).toBe(100);
  });
  it("no discount, no percentage", () => {
    expect(salePercentage(1000, null)).toBeNull();
    expect(salePercentage(1000, 1000)).toBeNull();
    expect(salePercentage(1000, 1200)).toBeNull();
    expect(salePercentage(0, 0)).toBeNull();
    expect(salePercentage(1000, -1)).toBeNull();
    expect(salePercentage(Number.NaN, 1)).toBeNull();
  });
});

describe("sale badge", () => {
  const map = salePercentagesByVariation([
    { variation_id: 11, regularCents: 2000, saleCents: 1500 },
    { variation_id: 12, regularCents: 2000, saleCents: null },
    { variation_id: 13, regularCents: 1000, saleCents: 500 },
  ]);
  it("maps variation id to percentage, on-sale variations only", () => {
    expect(map).toEqual({ 11: 25, 13: 50 });
  });
  it("fills the template", () => {
    expect(saleBadgeText("-[value]%", 25)).toBe("-25%");
    expect(saleBadgeText("Save [value]% ([value] off)", 10)).toBe("Save 10% (10 off)");
    expect(saleBadgeText("Sale!", 10)).toBe("Sale!");
    expect(saleBadgeText("$& [value]", 5)).toBe("$& 5"); // no replacement-pattern surprises
  });
  it("gives the chosen variation's badge, or null to hide it", () => {
    expect(saleBadgeForVariation(map, 11, "-[value]%")).toBe("-25%");
    expect(saleBadgeForVariation(map, 12, "-[value]%")).toBeNull();
    expect(saleBadgeForVariation(map, null, "-[value]%")).toBeNull();
    expect(saleBadgeForVariation(map, 99, "-[value]%")).toBeNull();
  });
});
