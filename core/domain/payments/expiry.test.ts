import { describe, expect, it } from "vitest";
import { expandExpiryYear, isExpiryCurrent, isValidExpiry, parseCardExpiry, yearMonthOf } from "./expiry.ts";

describe("expandExpiryYear (a 2-digit year below 70 is 20xx, otherwise 19xx)", () => {
  it.each([
    [0, 2000],
    [1, 2001],
    [25, 2025],
    [69, 2069],
    [70, 1970],
    [71, 1971],
    [99, 1999],
  ])("%i → %i", (yy, yyyy) => {
    expect(expandExpiryYear(yy, 2)).toBe(yyyy);
  });
  it("leaves 4-digit years alone", () => {
    expect(expandExpiryYear(2031, 4)).toBe(2031);
    expect(expandExpiryYear(1969, 4)).toBe(1969);
  });
});

describe("parseCardExpiry", () => {
  it.each([
    ["12 / 30", { month: 12, year: 2030 }],
    ["01 / 25", { month: 1, year: 2025 }],
    ["1 / 25", { month: 1, year: 2025 }],
    ["01/25", { month: 1, year: 2025 }],
    ["01 /25", { month: 1, year: 2025 }],
    ["01 / 2031", { month: 1, year: 2031 }],
    ["09 / 69", { month: 9, year: 2069 }],
    ["09 / 70", { month: 9, year: 1970 }],
    ["０９ / ３０", { month: 9, year: 2030 }],
    ["  03 / 28  ", { month: 3, year: 2028 }],
  ])("%j → %j", (value, expected) => {
    expect(parseCardExpiry(value)).toEqual(expected);
  });
  it.each(["", "12", "12 / ", "00 / 30", "13 / 30", "ab / 30", "12 / 3", "12 / 300", "12 / 20301", "1a / 30", "12 / 3x", "-1 / 30"])("%j → null", (value) => {
    expect(parseCardExpiry(value)).toBeNull();
  });
});

describe("isExpiryCurrent (not before the current month)", () => {
  const now = { year: 2026, month: 5 };
  it("accepts the current month itself (a card works through its expiry month)", () => {
    expect(isExpiryCurrent({ year: 2026, month: 5 }, now)).toBe(true);
  });
  it("refuses the month before", () => {
    expect(isExpiryCurrent({ year: 2026, month: 4 }, now)).toBe(false);
  });
  it("accepts later months and years", () => {
    expect(isExpiryCurrent({ year: 2026, month: 6 }, now)).toBe(true);
    expect(isExpiryCurrent({ year: 2027, month: 1 }, now)).toBe(true);
  });
  it("refuses earlier years even with a later month", () => {
    expect(isExpiryCurrent({ year: 2025, month: 12 }, now)).toBe(false);
  });
  it("crosses the year boundary", () => {
    expect(isExpiryCurrent({ year: 2026, month: 12 }, { year: 2026, month: 12 })).toBe(true);
    expect(isExpiryCurrent({ year: 2026, month: 12 }, { year: 2027, month: 1 })).toBe(false);
    expect(isExpiryCurrent({ year: 2027, month: 1 }, { year: 2026, month: 12 })).toBe(true);
  });
  it("a 2-digit year of 70 or more is in the past", () => {
    expect(isValidExpiry("12 / 99", now)).toBe(false);
    expect(isValidExpiry("12 / 69", now)).toBe(true);
    expect(isValidExpiry("05 / 26", now)).toBe(true);
    expect(isValidExpiry("04 / 26", now)).toBe(false);
  });
});

describe("yearMonthOf", () => {
  it("reads the month in UTC or local time", () => {
    expect(yearMonthOf(new Date(Date.UTC(2026, 0, 31, 23, 59)), "utc")).toEqual({ year: 2026, month: 1 });
    const local = new Date(2026, 11, 1, 0, 0);
    expect(yearMonthOf(local)).toEqual({ year: 2026, month: 12 });
  });
});
