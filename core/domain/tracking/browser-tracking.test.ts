import { describe, expect, it } from "vitest";
import {
  addToCartParams,
  allowedDestinations,
  anyDestination,
  browserTrackingConfig,
  checkTrackingSettings,
  eventIdsCookie,
  formSkipReason,
  linesParams,
  parseEventIds,
  productTrackingData,
  type FormFacts,
} from "./browser-tracking.ts";
import { EVENT_ID_COOKIE, GA4_EVENT_NAMES, newEventId } from "./events.ts";
import { effectiveChoice, parseConsent } from "./consent.ts";
import { pageChoice } from "./choice.ts";
import { SITE_CONFIG } from "../../config/site-config.ts";
import { applySettingsOverrides } from "../../config/settings-overrides.ts";

describe("per-product tracking data (storefront.md §3 'Tracking data')", () => {
  it("prints value, contents, content_ids, items and ecomm_totalvalue for one unit", () => {
    expect(productTrackingData({ id: 12, priceCents: 1599 }, "USD")).toEqual({
      params: {
        value: 15.99,
        currency: "USD",
        contents: [{ id: "12", quantity: 1 }],
        content_ids: ["12"],
        items: [{ id: "12", quantity: 1, price: 15.99 }],
        ecomm_totalvalue: 15.99,
      },
    });
  });
  it("a grouped product carries its child map, and an add sums the children's quantities", () => {
    const data = productTrackingData(
      {
        id: 5,
        priceCents: 500,
        children: [
          { id: 6, priceCents: 500 },
          { id: 7, priceCents: 1250 },
        ],
      },
      "USD",
    );
    expect(data.children).toEqual({ "6": { content_id: "6", price: 5 }, "7": { content_id: "7", price: 12.5 } });
    const params = addToCartParams(data, { grouped: { "6": 2, "7": 1, "99": 4 } });
    expect(params).toMatchObject({
      value: 22.5,
      ecomm_totalvalue: 22.5,
      content_ids: ["6", "7"],
      contents: [
        { id: "6", quantity: 2 },
        { id: "7", quantity: 1 },
      ],
    });
  });
  it("a grouped add with a total of 0 sends nothing (storefront.md §4)", () => {
    const data = productTrackingData(
      {
        id: 5,
        priceCents: 500,
        children: [
          { id: 6, priceCents: 500 },
          { id: 7, priceCents: 0 },
        ],
      },
      "USD",
    );
    expect(addToCartParams(data, { grouped: { "6": 0, "7": 3 } })).toBeNull();
    expect(addToCartParams(data, { grouped: {} })).toBeNull();
    expect(addToCartParams(data, { grouped: { "6": Number.NaN } })).toBeNull();
  });
  it("a simple add multiplies, a variation picks its own id and price", () => {
    const data = productTrackingData({ id: 9, priceCents: 1000, children: [{ id: 90, priceCents: 1400 }] }, "EUR");
    expect(addToCartParams(data, { quantity: 3 })).toMatchObject({ value: 30, content_ids: ["9"], currency: "EUR" });
    expect(addToCartParams(data, { quantity: 2, variationId: 90 })).toMatchObject({ value: 28, items: [{ id: "90", quantity: 2, price: 14 }] });
    // A quantity the form did not say counts 1.
    expect(addToCartParams(data, { quantity: Number.NaN })).toMatchObject({ value: 10 });
  });
  it("a purchase's value is the order's total, not the sum of its lines", () => {
    const p = linesParams(
      [
        { productId: 1, variationId: null, quantity: 2, unitCents: 500 },
        { productId: 2, variationId: 21, quantity: 1, unitCents: 999 },
      ],
      2374,
      "USD",
    );
    expect(p.value).toBe(23.74);
    expect(p.ecomm_totalvalue).toBe(23.74);
    expect(p.content_ids).toEqual(["1", "21"]);
  });
});

describe("form-submit tracking skips the forms of storefront.md §5", () => {
  const form = (f: Partial<FormFacts>): FormFacts => ({ id: "", classes: [], role: null, action: "/", ancestorClasses: [], ...f });
  it.each([
    ["comment", form({ id: "commentform", classes: ["comment-form"] })],
    ["search", form({ classes: ["header-search"], role: "search" })],
    ["admin-bar search", form({ id: "adminbarsearch" })],
    ["product search", form({ classes: ["woocommerce-product-search"] })],
    ["cart", form({ classes: ["cart"] })],
    ["cart form", form({ classes: ["woocommerce-cart-form"] })],
    ["shipping calculator", form({ classes: ["woocommerce-shipping-calculator"] })],
    ["checkout", form({ classes: ["checkout", "woocommerce-checkout"] })],
    ["coupon", form({ classes: ["checkout_coupon", "woocommerce-form-coupon"] })],
    ["download purchase", form({ classes: ["edd_download_purchase_form"] })],
    ["form add-on", form({ classes: ["wpcf7-form"] })],
    ["form add-on", form({ ancestorClasses: ["gform_wrapper"] })],
    ["form add-on", form({ id: "gform_3" })],
  ])("skips a %s form", (reason, f) => expect(formSkipReason(f)).toBe(reason));
  it("tracks any other form", () => {
    expect(formSkipReason(form({ id: "newsletter", classes: ["subscribe"] }))).toBeNull();
    expect(formSkipReason(form({ classes: ["woocommerce-form-register"] }))).toBeNull();
  });
});

describe(`the event id cookie ${EVENT_ID_COOKIE}`, () => {
  it("keeps one id per event name, the latest", () => {
    const a = newEventId();
    const b = newEventId();
    const first = eventIdsCookie("", "AddToCart", a);
    expect(first).toMatch(new RegExp(`^${EVENT_ID_COOKIE}=`));
    const value = decodeURIComponent(first.split(";")[0]!.slice(EVENT_ID_COOKIE.length + 1));
    expect(parseEventIds(value)).toEqual({ AddToCart: a });
    const second = decodeURIComponent(
      eventIdsCookie(value, "Purchase", b)
        .split(";")[0]!
        .slice(EVENT_ID_COOKIE.length + 1),
    );
    expect(parseEventIds(second)).toEqual({ AddToCart: a, Purchase: b });
  });
  it("drops what is not an event name or a 36-character id", () => {
    expect(parseEventIds('{"AddToCart":"short","toString":"x","Nope":"1"}')).toEqual({});
    expect(parseEventIds("not json")).toEqual({});
    expect(parseEventIds("[1]")).toEqual({});
  });
});

describe("consent gating", () => {
  const config = browserTrackingConfig(
    { ...SITE_CONFIG.tracking, gtmContainerId: "GTM-ABC123", ga4MeasurementId: "G-ABC12345", pixels: { facebook: ["1234567890"] } },
    { restUrl: "/wp-json/pys/v1/event", ajaxUrl: "/wp-admin/admin-ajax.php", currency: "USD", userId: 0 },
  );
  it("no choice, a refusal or GPC: nothing loads or is sent", () => {
    for (const c of [null, parseConsent("v1.0.0.1700000000")]) expect(anyDestination(allowedDestinations(config, c))).toBe(false);
  });
  it("analytics only: the dataLayer, tag manager, GA4 and the server copy, never an ad pixel", () => {
    const d = allowedDestinations(config, parseConsent("v1.1.0.1700000000"));
    expect(d).toEqual({ dataLayer: "dataLayer", gtm: "GTM-ABC123", ga4: "G-ABC12345", pixels: {}, server: true });
  });
  it("marketing only: the ad pixels (and their server copy), no analytics destination", () => {
    const d = allowedDestinations(config, parseConsent("v1.0.1.1700000000"));
    expect(d).toEqual({ dataLayer: null, gtm: null, ga4: null, pixels: { facebook: ["1234567890"] }, server: true });
  });
  it("the demo default: only the dataLayer and the server copy, every event on", () => {
    const demo = browserTrackingConfig(SITE_CONFIG.tracking, { restUrl: "", ajaxUrl: "", currency: "USD", userId: 0 });
    expect(allowedDestinations(demo, parseConsent("v1.1.1.1700000000"))).toEqual({ dataLayer: "dataLayer", gtm: null, ga4: null, pixels: {}, server: true });
    expect(demo.events).toContain("Purchase");
  });
});

describe("tracking settings", () => {
  it("SHOP_SETTINGS may configure destinations; a malformed id stops the start", () => {
    const c = applySettingsOverrides(SITE_CONFIG, JSON.stringify({ tracking: { gtmContainerId: "GTM-K9X2", pixels: { facebook: ["123"] } } }));
    expect(c.tracking.gtmContainerId).toBe("GTM-K9X2");
    expect(() => applySettingsOverrides(SITE_CONFIG, JSON.stringify({ tracking: { gtmContainerId: 'x"><script>' } }))).toThrow(/gtmContainerId/);
    expect(() => applySettingsOverrides(SITE_CONFIG, JSON.stringify({ tracking: { pixels: { facebook: ["a b"] } } }))).toThrow(/pixels.facebook/);
    expect(() => applySettingsOverrides(SITE_CONFIG, JSON.stringify({ tracking: { scrollPercent: 0 } }))).toThrow(/scrollPercent/);
    expect(() => applySettingsOverrides(SITE_CONFIG, JSON.stringify({ tracking: { events: ["Purchase", "Nope"] } }))).toThrow(/Nope/);
    expect(() => checkTrackingSettings({ ...SITE_CONFIG.tracking, dataLayerName: "data-layer" })).toThrow(/dataLayerName/);
  });
  it("the GA4 mapping the destinations use", () => {
    expect(GA4_EVENT_NAMES.InitiateCheckout).toBe("begin_checkout");
    expect(GA4_EVENT_NAMES.Lead).toBe("generate_lead");
  });
});

describe("the choice in force (decision 0016)", () => {
  const NOW = 1_790_000_000_000;
  it("an explicit choice wins; GPC refuses; no choice grants nothing unless the shop is opt-out", () => {
    expect(effectiveChoice("v1.1.0.5", true, true, NOW)).toEqual({ analytics: true, marketing: false, decidedAt: 5 });
    expect(effectiveChoice(null, true, false, NOW)).toMatchObject({ analytics: false, marketing: false });
    expect(effectiveChoice(null, false, true, NOW)).toBeNull();
    expect(effectiveChoice("garbage", false, false, NOW)).toEqual({ analytics: true, marketing: true, decidedAt: 0 });
  });
  it("reads the page: the cookie among others, GPC, window.shop_consent.required", () => {
    expect(pageChoice("a=1; shop_consent=v1.0.1.7; b=2", undefined, undefined, NOW)).toEqual({ analytics: false, marketing: true, decidedAt: 7 });
    expect(pageChoice("a=1", undefined, undefined, NOW)).toBeNull();
    expect(pageChoice("a=1", undefined, { required: false }, NOW)).toMatchObject({ analytics: true });
    expect(pageChoice("a=1", true, { required: false }, NOW)).toMatchObject({ analytics: false });
    expect(pageChoice("shop_consent=%E0%A4%A", undefined, undefined, NOW)).toBeNull();
  });
});
