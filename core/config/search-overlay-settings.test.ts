import { describe, expect, it } from "vitest";
import { applySettingsOverrides } from "./settings-overrides.ts";
import { SITE_CONFIG } from "./site-config.ts";

describe("SHOP_SETTINGS searchOverlay", () => {
  it("defaults to the header cover with the spec's 200 ms focus delay and fade", () => {
    expect(SITE_CONFIG.searchOverlay.boxType).toBe("header-cover");
    expect(SITE_CONFIG.searchOverlay.focusDelayMs).toBe(200);
    expect(SITE_CONFIG.timings.searchOverlayFadeMs).toBe(200);
  });
  it("takes the full-screen form", () => {
    expect(applySettingsOverrides(SITE_CONFIG, JSON.stringify({ searchOverlay: { boxType: "full-screen" } })).searchOverlay.boxType).toBe("full-screen");
  });
  it("refuses an unknown box type and out-of-range numbers, naming the setting", () => {
    expect(() => applySettingsOverrides(SITE_CONFIG, JSON.stringify({ searchOverlay: { boxType: "slide-search" } }))).toThrow(/searchOverlay\.boxType/);
    expect(() => applySettingsOverrides(SITE_CONFIG, JSON.stringify({ searchOverlay: { debounceMs: -1 } }))).toThrow(/searchOverlay\.debounceMs/);
    expect(() => applySettingsOverrides(SITE_CONFIG, JSON.stringify({ searchOverlay: { suggestLimit: 0 } }))).toThrow(/searchOverlay\.suggestLimit/);
  });
});
