import { describe, expect, it } from "vitest";
import { applySettingsOverrides } from "./settings-overrides.ts";
import { SITE_CONFIG } from "./site-config.ts";

describe("SHOP_SETTINGS overrides", () => {
  it("deep-merges known settings and leaves the rest", () => {
    const config = applySettingsOverrides(SITE_CONFIG, JSON.stringify({ shop: { infiniteScrollEvent: "scroll", perPage: 6 } }));
    expect(config.shop.infiniteScrollEvent).toBe("scroll");
    expect(config.shop.perPage).toBe(6);
    expect(config.shop.noMorePostMessage).toBe(SITE_CONFIG.shop.noMorePostMessage);
    expect(config.cart).toBe(SITE_CONFIG.cart);
    expect(SITE_CONFIG.shop.infiniteScrollEvent).toBe("click"); // the defaults are not mutated
  });
  it("refuses unknown keys, wrong kinds and bad JSON", () => {
    expect(() => applySettingsOverrides(SITE_CONFIG, '{"shop":{"perPgae":6}}')).toThrow(/unknown setting shop.perPgae/);
    expect(() => applySettingsOverrides(SITE_CONFIG, '{"shop":{"perPage":"6"}}')).toThrow(/shop.perPage must be a number/);
    expect(() => applySettingsOverrides(SITE_CONFIG, "{nope")).toThrow(/not valid JSON/);
    expect(() => applySettingsOverrides(SITE_CONFIG, "[1]")).toThrow(/JSON object/);
    expect(applySettingsOverrides(SITE_CONFIG, undefined)).toBe(SITE_CONFIG);
  });
  it("checks the tracking settings: cookie groups the site can turn off, custom referral and organic entries", () => {
    const ok = applySettingsOverrides(
      SITE_CONFIG,
      JSON.stringify({
        consent: { disabledCookies: ["externalID", "utmTerms"] },
        attribution: { referrals: [{ host: "news.example" }], organics: [{ host: "ddg.example", param: "q" }] },
      }),
    );
    expect(ok.consent.disabledCookies).toEqual(["externalID", "utmTerms"]);
    expect(() => applySettingsOverrides(SITE_CONFIG, JSON.stringify({ consent: { disabledCookies: ["pbid", "all"] } }))).toThrow(/unknown cookie groups: pbid/);
    expect(() => applySettingsOverrides(SITE_CONFIG, JSON.stringify({ attribution: { referrals: [{ medium: "social" }] } }))).toThrow(/needs a host/);
    expect(() => applySettingsOverrides(SITE_CONFIG, JSON.stringify({ attribution: { organics: [{ host: "ddg.example" }] } }))).toThrow(/host and a param/);
    expect(() => applySettingsOverrides(SITE_CONFIG, JSON.stringify({ attribution: { allowTracking: "no" } }))).toThrow(/must be a boolean/);
  });
});
