import { describe, expect, it } from "vitest";
import { daysIn, percentChange, previousPeriod } from "./compare.ts";

const d = (s: string) => new Date(`${s}T00:00:00Z`);

describe("previousPeriod", () => {
  it("is the same number of days, ending where the period starts", () => {
    const p = previousPeriod(d("2026-03-01"), d("2026-04-01"));
    expect(p).toEqual({ from: d("2026-01-29"), to: d("2026-03-01") });
    expect(daysIn(p.from, p.to)).toBe(31);
    expect(previousPeriod(d("2026-05-10"), d("2026-05-11"))).toEqual({ from: d("2026-05-09"), to: d("2026-05-10") });
  });
});

describe("percentChange", () => {
  it("answers the change in percent with one decimal, and null without a base", () => {
    expect(percentChange(150, 100)).toBe(50);
    expect(percentChange(2, 3)).toBe(-33.3);
    expect(percentChange(0, 40)).toBe(-100);
    expect(percentChange(100, 100)).toBe(0);
    expect(percentChange(5, 0)).toBeNull();
    expect(percentChange(null, 3)).toBeNull();
    expect(percentChange(3, null)).toBeNull();
  });
});
