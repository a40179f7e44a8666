import { describe, expect, it } from "vitest";
import { indicatorAt, nextExpiry, pruneIndicators, scoreDirection, setIndicator } from "./indicator.ts";

describe("score indicators (docs/contract/storefront.md §9: up 45000 ms, down 8000 ms)", () => {
  it("derives the direction from the scores", () => {
    expect(scoreDirection(0, 1)).toBe("up");
    expect(scoreDirection(2, 1)).toBe("down");
    expect(scoreDirection(1, 1)).toBeNull();
    expect(scoreDirection(null, 0)).toBeNull();
  });
  it("'up' lasts 45 s", () => {
    const s = setIndicator({}, "m", "home", "up", 1000);
    expect(indicatorAt(s, "m", "home", 1000 + 44_999)).toBe("up");
    expect(indicatorAt(s, "m", "home", 1000 + 45_000)).toBeNull();
    expect(indicatorAt(s, "m", "away", 1000)).toBeNull();
  });
  it("'down' lasts 8 s", () => {
    const s = setIndicator({}, "m", "away", "down", 0);
    expect(indicatorAt(s, "m", "away", 7_999)).toBe("down");
    expect(indicatorAt(s, "m", "away", 8_000)).toBeNull();
    expect(nextExpiry(s)).toBe(8_000);
  });
  it("a newer change replaces the older one", () => {
    let s = setIndicator({}, "m", "home", "up", 0);
    s = setIndicator(s, "m", "home", "down", 10_000);
    expect(indicatorAt(s, "m", "home", 12_000)).toBe("down");
    expect(indicatorAt(s, "m", "home", 20_000)).toBeNull();
  });
  it("prunes expired ones and keeps identity when nothing expired", () => {
    let s = setIndicator({}, "m", "home", "up", 0);
    s = setIndicator(s, "m", "away", "down", 0);
    expect(pruneIndicators(s, 1)).toBe(s);
    const p = pruneIndicators(s, 9_000);
    expect(p).toEqual({ m: { home: s.m!.home } });
    expect(pruneIndicators(p, 50_000)).toEqual({});
    expect(nextExpiry({})).toBeNull();
  });
});
