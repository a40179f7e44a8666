import { describe, expect, it } from "vitest";
import { nextStickyState, RELEASED, stickyDevice, stickyHeaderSettingsErrors, stickyMode, type StickyState } from "./sticky-header.ts";

const run = (mode: Parameters<typeof nextStickyState>[1]["mode"], ys: number[], threshold = 80, delta = 5): StickyState[] => {
  const out: StickyState[] = [];
  let s = RELEASED;
  for (const scrollY of ys) out.push((s = nextStickyState(s, { mode, scrollY, threshold, delta })));
  return out;
};

describe("sticky header state", () => {
  it("'none' never engages", () => {
    expect(run("none", [0, 500, 2000]).every((s) => !s.active)).toBe(true);
  });

  it("slide, fade and shrink engage past the header's height and release at or above it", () => {
    for (const mode of ["slide", "fade", "shrink"] as const) {
      expect(run(mode, [0, 80, 81, 400, 80]).map((s) => s.active)).toEqual([false, false, true, true, false]);
    }
  });

  it("hide-on-scroll: down hides, up shows, moves of 5 px or less change nothing", () => {
    const states = run("hide-on-scroll", [0, 300, 305, 600, 596, 590, 588, 700]);
    expect(states.map((s) => [s.active, s.hidden])).toEqual([
      [false, false],
      [true, true], // engaged while scrolling down: hidden
      [true, true], // +5: within the delta
      [true, true],
      [true, true], // -4: within the delta
      [true, false], // -10 from 600: shown
      [true, false],
      [true, true], // +110 from 590: hidden
    ]);
  });

  it("device by the break point, unknown modes are 'none'", () => {
    expect(stickyDevice(1280, 921)).toBe("desktop");
    expect(stickyDevice(921, 921)).toBe("mobile");
    expect(stickyMode("shrink")).toBe("shrink");
    expect(stickyMode("bounce")).toBe("none");
  });

  it("settings: unknown modes and negative numbers are named", () => {
    expect(stickyHeaderSettingsErrors({ desktop: "slide", mobile: "none", scrollDelta: 5, reevaluateMs: 300 })).toEqual([]);
    expect(stickyHeaderSettingsErrors({ desktop: "bounce", mobile: "none", scrollDelta: -1, reevaluateMs: 300 })).toEqual([
      "stickyHeader.desktop must be one of none, slide, fade, hide-on-scroll, shrink",
      "stickyHeader.scrollDelta must be 0 or more",
    ]);
  });
});
