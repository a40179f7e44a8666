import { describe, expect, it } from "vitest";
import {
  attributionAllowed,
  consentFilterValues,
  effectiveChoice,
  needsChoice,
  serializeConsent,
  trackingCookieAllowed,
  trackingCookiesToClear,
  unknownDisabledCookies,
} from "./consent.ts";

const NOW = 1_790_000_000_000;
const yes = serializeConsent({ analytics: true, marketing: true, decidedAt: 100 });
const analyticsOnly = serializeConsent({ analytics: true, marketing: false, decidedAt: 100 });
const no = serializeConsent({ analytics: false, marketing: false, decidedAt: 100 });

describe("the consent that applies (decision 0017)", () => {
  it("opt-in mode: nothing before a choice; an explicit choice wins over GPC; GPC alone is a refusal", () => {
    expect(effectiveChoice(undefined, false, true, NOW)).toBeNull();
    expect(effectiveChoice("garbage", false, true, NOW)).toBeNull();
    expect(effectiveChoice(undefined, true, true, NOW)).toMatchObject({ analytics: false, marketing: false });
    expect(effectiveChoice(yes, true, true, NOW)).toMatchObject({ analytics: true, marketing: true });
  });
  it("opt-out mode: allowed until refused, and GPC still refuses", () => {
    expect(effectiveChoice(undefined, false, false, NOW)).toEqual({ analytics: true, marketing: true, decidedAt: 0 });
    expect(effectiveChoice(undefined, true, false, NOW)).toMatchObject({ analytics: false, marketing: false });
    expect(effectiveChoice(no, false, false, NOW)).toMatchObject({ analytics: false });
  });
  it("the banner asks only while nothing is decided (GPC counts as decided)", () => {
    expect(needsChoice(undefined, false)).toBe(true);
    expect(needsChoice(undefined, true)).toBe(false);
    expect(needsChoice(no, false)).toBe(false);
  });
  it("attribution needs the owner's allowTracking and analytics consent", () => {
    const c = (v: string | undefined, gpc = false) => effectiveChoice(v, gpc, true, NOW);
    expect(attributionAllowed(c(yes), true)).toBe(true);
    expect(attributionAllowed(c(analyticsOnly), true)).toBe(true);
    expect(attributionAllowed(c(yes), false)).toBe(false);
    expect(attributionAllowed(c(no), true)).toBe(false);
    expect(attributionAllowed(c(undefined), true)).toBe(false);
    expect(attributionAllowed(c(undefined, true), true)).toBe(false);
  });
});

describe("the cookies the site can turn off (docs/contract/storefront.md §9 'Tracking (analytics)')", () => {
  const all = effectiveChoice(yes, false, true, NOW);
  it("a cookie is written only when its group is on and its category consented", () => {
    expect(trackingCookieAllowed("pbid", all, [])).toBe(true);
    expect(trackingCookieAllowed("pbid", all, ["externalID"])).toBe(false);
    expect(trackingCookieAllowed("pbid", effectiveChoice(analyticsOnly, false, true, NOW), [])).toBe(false);
    expect(trackingCookieAllowed("last_pys_landing_page", all, ["landing_page"])).toBe(false);
    expect(trackingCookieAllowed("pys_utm_source", all, ["utmId"])).toBe(true);
    expect(trackingCookieAllowed("pys_utm_id", all, ["utmId"])).toBe(false);
    expect(trackingCookieAllowed("pysTrafficSource", all, ["all"])).toBe(false);
    expect(trackingCookieAllowed("not_on_the_list", all, [])).toBe(false);
  });
  it("refusal clears every cookie of the list; analytics only keeps the analytics ones", () => {
    const cleared = trackingCookiesToClear(null, []);
    expect(cleared).toEqual(
      expect.arrayContaining([
        "pbid",
        "pys_advanced_form_data",
        "pys_landing_page",
        "last_pys_landing_page",
        "pysTrafficSource",
        "last_pysTrafficSource",
        "pys_first_visit",
        "pys_utm_term",
        "last_pys_utm_campaign",
        "pys_utm_id",
      ]),
    );
    expect(trackingCookiesToClear(effectiveChoice(analyticsOnly, false, true, NOW), [])).toEqual(["pbid", "pys_advanced_form_data"]);
    expect(trackingCookiesToClear(all, [])).toEqual([]);
    expect(trackingCookiesToClear(all, ["first_visit"])).toEqual(["pys_first_visit"]);
    // The event id cookie: gone once both categories are refused, whatever the tracker did.
    expect(cleared).toContain("pys_fb_event_id");
    expect(trackingCookiesToClear(effectiveChoice(no, false, true, NOW), [])).toContain("pys_fb_event_id");
    const marketingOnly = effectiveChoice(serializeConsent({ analytics: false, marketing: true, decidedAt: 100 }), false, true, NOW);
    expect(trackingCookiesToClear(marketingOnly, [])).not.toContain("pys_fb_event_id");
  });
  it("the setting accepts the group names and 'all' only", () => {
    expect(unknownDisabledCookies(["all", "externalID", "utmTerms"])).toEqual([]);
    expect(unknownDisabledCookies(["pbid", "landing_page", "sbjs_current"])).toEqual(["pbid", "sbjs_current"]);
  });
  it("the consent filter values say what is off for this visitor", () => {
    const v = consentFilterValues(effectiveChoice(analyticsOnly, false, true, NOW), ["landing_page"]);
    expect(v).toMatchObject({
      all_disabled_by_api: false,
      analytics_disabled_by_api: false,
      facebook_disabled_by_api: true,
      externalID_disabled_by_api: true,
      disabled_landing_page_cookie: true,
      disabled_trafficsource_cookie: false,
      disabled_all_cookie: false,
      consent: { necessary: true, analytics: true, marketing: false, decided: true },
    });
    expect(consentFilterValues(null, [])).toMatchObject({
      all_disabled_by_api: true,
      disabled_all_cookie: true,
      consent: { analytics: false, decided: false },
    });
  });
});
