import { describe, expect, it } from "vitest";
import { formatDate, formatPhpDate } from "./date.ts";

describe("formatPhpDate", () => {
  const at = new Date("2026-03-01T17:05:09Z");
  it("speaks PHP's date() letters, in a time zone", () => {
    expect(formatPhpDate(at, "F j, Y")).toBe(formatDate(at));
    expect(formatPhpDate(at, "d/m/Y g:i a")).toBe("01/03/2026 5:05 pm");
    expect(formatPhpDate(at, "l, jS M y H:i:s")).toBe("Sunday, 1st Mar 26 17:05:09");
    expect(formatPhpDate(at, "Y-m-d H:i", "Asia/Tokyo")).toBe("2026-03-02 02:05");
    expect(formatPhpDate(at, "\\Y\\e\\a\\r: Y")).toBe("Year: 2026");
    expect(formatPhpDate("nonsense", "Y")).toBe("");
  });
});
