import { describe, expect, it } from "vitest";
import { escapeHtml, formatDate } from "./index.ts";

describe("escapeHtml", () => {
  it("escapes the five characters the way esc_html / esc_attr do", () => {
    expect(escapeHtml(`<a href="x">Tom & Jerry's</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#039;s&lt;/a&gt;");
  });
  it("leaves other text alone and does not double-escape differently from WordPress", () => {
    expect(escapeHtml("Café — 10% off")).toBe("Café — 10% off");
    expect(escapeHtml("&amp;")).toBe("&amp;amp;");
    expect(escapeHtml("")).toBe("");
  });
});

describe("formatDate", () => {
  it("formats F j, Y in UTC by default", () => {
    expect(formatDate("2026-11-24T10:00:00Z")).toBe("November 24, 2026");
    expect(formatDate(new Date(Date.UTC(2027, 0, 5)))).toBe("January 5, 2027");
  });
  it("takes the time zone as an argument", () => {
    expect(formatDate("2026-11-24T23:30:00Z")).toBe("November 24, 2026");
    expect(formatDate("2026-11-24T23:30:00Z", "Europe/Amsterdam")).toBe("November 25, 2026");
    expect(formatDate("2026-01-01T03:00:00Z", "America/New_York")).toBe("December 31, 2025");
  });
  it("gives an empty string for an invalid instant", () => {
    expect(formatDate("not a date")).toBe("");
  });
});
