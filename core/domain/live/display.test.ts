import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDate, formatTime, leadingTeam, listStatus, minuteDisplay, statusLine } from "./display.ts";
import { LIVE_TEXTS } from "./i18n.ts";

const LIVE_EN = LIVE_TEXTS.en.statuses[5]!;

describe("minuteDisplay (docs/contract/storefront.md §9)", () => {
  it("shows text index 5 for a missing, negative or unparseable minute", () => {
    expect(LIVE_EN).toBe("Live");
    expect(minuteDisplay(null, LIVE_EN)).toBe("Live");
    expect(minuteDisplay(undefined, LIVE_EN)).toBe("Live");
    expect(minuteDisplay(-1, LIVE_EN)).toBe("Live");
    expect(minuteDisplay("-3", LIVE_EN)).toBe("Live");
    expect(minuteDisplay("", LIVE_EN)).toBe("Live");
    expect(minuteDisplay(Number.NaN, LIVE_EN)).toBe("Live");
  });
  it("caps numbers above 90 at '90+'", () => {
    expect(minuteDisplay(91, LIVE_EN)).toBe("90+");
    expect(minuteDisplay(118, LIVE_EN)).toBe("90+");
    expect(minuteDisplay("95", LIVE_EN)).toBe("90+");
  });
  it("keeps a string that already has '+'", () => {
    expect(minuteDisplay("90+4", LIVE_EN)).toBe("90+4'");
    expect(minuteDisplay("45+2", LIVE_EN)).toBe("45+2'");
  });
  it("otherwise appends an apostrophe, 0 and 90 included", () => {
    expect(minuteDisplay(0, LIVE_EN)).toBe("0'");
    expect(minuteDisplay(37, LIVE_EN)).toBe("37'");
    expect(minuteDisplay(90, LIVE_EN)).toBe("90'");
    expect(minuteDisplay("12", LIVE_EN)).toBe("12'");
  });
});

const match = (stage: string, matchTime: number | string | null, home: number | null = 1, away: number | null = 2) => ({
  stage,
  matchTime,
  home: { score: home },
  away: { score: away },
});

describe("statusLine (docs/contract/storefront.md §4)", () => {
  it("before kick-off shows '-' for both scores and no status", () => {
    expect(statusLine(match("plan", 10, 3, 4), "en")).toEqual({ home: "-", away: "-", status: "" });
  });
  it("in play shows the minute", () => {
    expect(statusLine(match("live", 63), "en")).toEqual({ home: "1", away: "2", status: "63'" });
    expect(statusLine(match("overtime", 104), "en").status).toBe("90+");
    expect(statusLine(match("live", null), "nl").status).toBe("Live");
  });
  it("other stages show the fixed texts of the 13-entry table", () => {
    expect(statusLine(match("finished", 90), "en").status).toBe("Finished");
    expect(statusLine(match("halftime", 45), "en").status).toBe("Half time");
    expect(statusLine(match("break_time", 90), "en").status).toBe("Break time");
    expect(statusLine(match("finished_penalty", 120), "en").status).toBe("Finished (P)");
    expect(statusLine(match("finished_technical_defeat", null), "en").status).toBe("Awarded");
    expect(statusLine(match("halftime", 45), "pl").status).toBe("Przerwa");
    expect(statusLine(match("finished", 90), "de").status).toBe("Finished"); // de is not a live-widget language
  });
  it("an unknown stage shows '?'", () => {
    expect(statusLine(match("abandoned", 50), "en").status).toBe("?");
  });
  it("a missing score shows '-'", () => {
    expect(statusLine(match("live", 5, null, 0), "en")).toMatchObject({ home: "-", away: "0" });
  });
});

describe("listStatus", () => {
  it("labels stages in the list widget's language, minute while live", () => {
    expect(listStatus({ stage: "live", matchTime: 12 }, "fr")).toBe("12'");
    expect(listStatus({ stage: "live", matchTime: null }, "fr")).toBe("En direct");
    expect(listStatus({ stage: "2nd_quarter", matchTime: null }, "en")).toBe("Q2");
    expect(listStatus({ stage: "overtime", matchTime: 100 }, "en")).toBe("OT");
    expect(listStatus({ stage: "plan", matchTime: null }, "en")).toBe("");
    expect(listStatus({ stage: "weird", matchTime: null }, "en")).toBe("?");
  });
});

describe("date and time", () => {
  // 2024-03-05T07:04:00Z
  const t = Date.UTC(2024, 2, 5, 7, 4) / 1000;
  it("formats DD/MM/YYYY and HH:MM in UTC", () => {
    expect(formatDate(t)).toBe("05/03/2024");
    expect(formatTime(t)).toBe("07:04");
  });
  it("applies a timezone offset that crosses midnight", () => {
    expect(formatDate(t, -8 * 60)).toBe("04/03/2024");
    expect(formatTime(t, -8 * 60)).toBe("23:04");
    expect(formatTime(t, 330)).toBe("12:34");
  });
});

describe("leadingTeam", () => {
  it("is the team with the higher score, none on a draw or unknown", () => {
    expect(leadingTeam(2, 1)).toBe("home");
    expect(leadingTeam(0, 3)).toBe("away");
    expect(leadingTeam(1, 1)).toBeNull();
    expect(leadingTeam(null, 1)).toBeNull();
  });
});

describe("minuteDisplay properties", () => {
  it("never shows a number above 90 and always ends with an apostrophe or is capped/missing", () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -200, max: 200 }), fc.double({ noNaN: false }), fc.string()), (v) => {
        const out = minuteDisplay(v, "Live");
        const n = Number.parseInt(out, 10);
        if (typeof v === "string" && v.includes("+")) return out === `${v.trim()}'`;
        return out === "Live" || out === "90+" || (out.endsWith("'") && n >= 0 && n <= 90);
      }),
    );
  });
});
