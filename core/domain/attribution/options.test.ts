import { describe, expect, it } from "vitest";
import { attributionOptions, validLifetime, validOrganics, validPromocode, validReferrals, validSessionLength } from "./options.ts";
import { OOPS, decodeCookieValue, encodeCookieValue, sbjsInit, type PageLoad } from "./sourcebuster.ts";

const T0 = new Date("2026-03-04T05:06:07Z");
const page = (over: Partial<PageLoad>): PageLoad => ({ url: "https://shop.example/", referrer: "", now: T0, userAgent: "UA", cookies: {}, ...over });

describe("attribution options (docs/contract/storefront.md §5 'Attribution options')", () => {
  it("lifetime is a number, else 6 months; WooCommerce's 0.00001 stays (session cookies)", () => {
    expect(validLifetime("0.00001")).toBe(0.00001);
    expect(validLifetime(12)).toBe(12);
    for (const bad of ["six", "", null, undefined, Number.NaN, Infinity, 0, -1, {}]) expect(validLifetime(bad)).toBe(6);
  });
  it("session_length is an integer, else 30 minutes", () => {
    expect(validSessionLength("45")).toBe(45);
    expect(validSessionLength(10)).toBe(10);
    for (const bad of ["30.5", 12.5, "x", "", null, 0, -5]) expect(validSessionLength(bad)).toBe(30);
  });
  it("promo-code min and max are integers, else 100000 and 999999; off unless configured", () => {
    expect(validPromocode(undefined)).toBeNull();
    expect(validPromocode(false)).toBeNull();
    expect(validPromocode({ enabled: false, min: 1, max: 2 })).toBeNull();
    expect(validPromocode({ min: 10, max: 20 })).toEqual({ min: 10, max: 20 });
    expect(validPromocode({ min: "1.5", max: "x" })).toEqual({ min: 100000, max: 999999 });
    expect(validPromocode({ min: 5 })).toEqual({ min: 5, max: 999999 });
    expect(validPromocode({ min: 50, max: 10 })).toEqual({ min: 100000, max: 999999 });
  });
  it("custom referral entries need a host; custom organic entries a host and a query parameter", () => {
    expect(
      validReferrals([
        { host: "news.example" },
        { medium: "social" },
        { host: "" },
        "x",
        { host: "https://Blog.Example/path", medium: "blog", display: "Our blog" },
      ]),
    ).toEqual([
      { host: "news.example", medium: "referral", display: "news.example" },
      { host: "blog.example", medium: "blog", display: "Our blog" },
    ]);
    expect(
      validOrganics([
        { host: "duckduckgo.com", param: "q" },
        { host: "search.example" },
        { param: "q" },
        { host: "ecosia.org", param: "q", display: "ecosia" },
      ]),
    ).toEqual([
      { host: "duckduckgo.com", param: "q", display: "duckduckgo.com" },
      { host: "ecosia.org", param: "q", display: "ecosia" },
    ]);
    expect(validReferrals("nope")).toEqual([]);
  });
  it("the whole set: WooCommerce's printed strings, custom parameters kept only when given", () => {
    const o = attributionOptions({
      lifetime: "0.00001",
      session: "30",
      base64: false,
      timezone_offset: "0",
      campaign_param: "cid",
      term_param: " ",
      content_param: "",
    });
    expect(o).toMatchObject({ lifetimeMonths: 0.00001, sessionLengthMinutes: 30, base64: false, timezoneOffsetHours: 0, campaignParam: "cid" });
    expect(o.termParam).toBeUndefined();
    expect(o.contentParam).toBeUndefined();
    expect(attributionOptions({ timezone_offset: "99" }).timezoneOffsetHours).toBe(0);
  });
});

describe("classification with the configured options (docs/contract/storefront.md §4 'Traffic classification')", () => {
  it("custom campaign, term and content parameters count as a campaign and fill their parts", () => {
    const o = attributionOptions({ campaign_param: "cid", term_param: "kw", content_param: "ad" });
    const { data } = sbjsInit(page({ url: "https://shop.example/?cid=winter&kw=silk&ad=banner" }), o);
    expect(data.current).toMatchObject({ typ: "utm", cmp: "winter", trm: "silk", cnt: "banner", src: "(none)" });
    // Without the setting the same address is a direct visit.
    expect(sbjsInit(page({ url: "https://shop.example/?cid=winter" }), attributionOptions({})).data.current.typ).toBe("typein");
  });
  it("custom organic engines and referral sources (subdomains too) come before the built-in ones", () => {
    const o = attributionOptions({
      organics: [{ host: "duckduckgo.com", param: "q", display: "ddg" }],
      referrals: [{ host: "t.co", medium: "social", display: "X" }],
    });
    expect(sbjsInit(page({ referrer: "https://html.duckduckgo.com/?q=masks" }), o).data.current).toMatchObject({ typ: "organic", src: "ddg", mdm: "organic" });
    expect(sbjsInit(page({ referrer: "https://duckduckgo.com/about" }), o).data.current).toMatchObject({ typ: "referral", src: "duckduckgo.com" });
    expect(sbjsInit(page({ referrer: "https://t.co/abc" }), o).data.current).toMatchObject({ typ: "referral", src: "X", mdm: "social", cnt: "/abc" });
  });
  it("the promo code is written once, within its range, with the attribution lifetime", () => {
    const o = attributionOptions({ lifetime: 1, promocode: { min: 10, max: 12 } });
    const first = sbjsInit(page({ random: () => 0.999 }), o).writes.find((w) => w.name === "sbjs_promo")!;
    expect(decodeCookieValue(first.value)).toEqual({ code: "12" });
    expect(first.expires!.getTime()).toBe(T0.getTime() + 30 * 24 * 60 * 60_000);
    expect(sbjsInit(page({ cookies: { sbjs_promo: first.value } }), o).writes.some((w) => w.name === "sbjs_promo")).toBe(false);
    expect(sbjsInit(page({}), attributionOptions({})).writes.some((w) => w.name === "sbjs_promo")).toBe(false);
  });
  it("a kept record that cannot be read names its unknown parts '(Houston, we have a problem)'", () => {
    const cookies = {
      sbjs_current: encodeCookieValue({ cmp: "x" }, false),
      sbjs_first: encodeCookieValue({ typ: "utm", src: "a", mdm: "b" }, false),
      sbjs_session: encodeCookieValue({ pgs: "1" }, false),
    };
    const { data } = sbjsInit(page({ cookies }), attributionOptions({}));
    expect(data.current).toMatchObject({ typ: OOPS, src: OOPS, mdm: OOPS, cmp: "x" });
    expect(data.first).toMatchObject({ typ: "utm", src: "a", mdm: "b" });
  });
});
