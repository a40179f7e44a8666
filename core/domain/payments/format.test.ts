import { describe, expect, it } from "vitest";
import { formatCardNumber, formatCsc, formatExpiry, toAsciiDigits } from "./format.ts";

describe("toAsciiDigits", () => {
  it("converts every full-width digit and leaves the rest", () => {
    expect(toAsciiDigits("０１２３４５６７８９")).toBe("0123456789");
    expect(toAsciiDigits("４２４２ abc / ")).toBe("4242 abc / ");
  });
});

describe("formatCardNumber", () => {
  it.each([
    ["", ""],
    ["4", "4"],
    ["4242", "4242"],
    ["42424", "4242 4"],
    ["4242424242424242", "4242 4242 4242 4242"],
    ["4242-4242 4242x4242", "4242 4242 4242 4242"],
    ["42424242424242429999", "4242 4242 4242 4242"], // visa capped at 16
    ["4222222222222", "4222 2222 2222 2"], // 13-digit visa
    // amex 4-6-5, capped at 15
    ["3782", "3782"],
    ["37828", "3782 8"],
    ["378282246", "3782 82246"],
    ["3782822463", "3782 822463"],
    ["37828224631", "3782 822463 1"],
    ["378282246310005", "3782 822463 10005"],
    ["3782822463100059999", "3782 822463 10005"],
    // dinersclub 4-6-4, capped at 14
    ["36227206271667", "3622 720627 1667"],
    ["362272062716679", "3622 720627 1667"],
    ["30569", "3056 9"],
    // unknown types: fours, capped at 16
    ["99999999999999999999", "9999 9999 9999 9999"],
    // maestro and unionpay: up to 19 digits
    ["6759649826438453123", "6759 6498 2643 8453 123"],
    ["67596498264384531234", "6759 6498 2643 8453 123"],
    ["6200000000000000005", "6200 0000 0000 0000 005"],
    ["5555555555554444", "5555 5555 5555 4444"],
    ["５５５５５５５５５５５５４４４４", "5555 5555 5555 4444"],
  ])("%j → %j", (input, expected) => {
    expect(formatCardNumber(input)).toBe(expected);
  });

  it("is idempotent", () => {
    for (const n of ["4242424242424242", "378282246310005", "36227206271667", "6759649826438453123", "12"]) {
      expect(formatCardNumber(formatCardNumber(n))).toBe(formatCardNumber(n));
    }
  });
});

describe("formatExpiry ('MM / YY')", () => {
  it.each([
    ["", ""],
    ["0", "0"],
    ["1", "1"],
    ["2", "02 / "],
    ["5", "05 / "],
    ["9", "09 / "],
    ["01", "01 / "],
    ["12", "12 / "],
    ["13", "01 / 3"],
    ["19", "01 / 9"],
    ["012", "01 / 2"],
    ["0125", "01 / 25"],
    ["012031", "01 / 2031"],
    ["0120319", "01 / 2031"], // at most 6 digits
    ["01 / 2", "01 / 2"],
    ["01/25", "01 / 25"],
    ["1/", "01 / "],
    ["1 / 25", "01 / 25"],
    ["01 /", "0"], // backspace over the separator
    ["12 /", "1"],
    ["01 / ", "01 / "],
    ["０１２５", "01 / 25"],
    ["ab", ""],
  ])("%j → %j", (input, expected) => {
    expect(formatExpiry(input)).toBe(expected);
  });

  it("never keeps more than 6 digits", () => {
    for (const s of ["1234567890", "12 / 345678", "1/23456789"]) {
      expect(formatExpiry(s).replace(/\D/g, "").length).toBeLessThanOrEqual(6);
    }
  });
});

describe("formatCsc", () => {
  it.each([
    ["", ""],
    ["12", "12"],
    ["123", "123"],
    ["1234", "1234"],
    ["12345", "1234"],
    ["1a2b3", "123"],
    ["１２３", "123"],
  ])("%j → %j", (input, expected) => {
    expect(formatCsc(input)).toBe(expected);
  });
});
