import { describe, expect, it } from "vitest";
import { consentAllows, parseConsent, serializeConsent, defaultChoice } from "./consent.ts";
import { GA4_EVENT_NAMES, isEventId, isTrackingEventName, newEventId } from "./events.ts";

describe("tracking events", () => {
  it("maps the contract's events to GA4 names", () => {
    expect(GA4_EVENT_NAMES.ViewContent).toBe("view_item");
    expect(GA4_EVENT_NAMES.AddPaymentInfo).toBe("set_checkout_option");
    expect(GA4_EVENT_NAMES.CompleteRegistration).toBe("sign_up");
  });
  it("knows its event names only", () => {
    expect(isTrackingEventName("Purchase")).toBe(true);
    expect(isTrackingEventName("purchase")).toBe(false);
    expect(isTrackingEventName("toString")).toBe(false);
  });
  it("makes 36-character random ids", () => {
    const a = newEventId();
    expect(a).toHaveLength(36);
    expect(isEventId(a)).toBe(true);
    expect(a).not.toBe(newEventId());
    expect(isEventId("x".repeat(36))).toBe(false);
  });
});

describe("consent", () => {
  it("round-trips the cookie and refuses anything malformed", () => {
    const c = { analytics: true, marketing: false, decidedAt: 1_760_000_000 };
    expect(parseConsent(serializeConsent(c))).toEqual(c);
    for (const bad of ["", "v1.1.1", "v2.1.1.5", "v1.2.0.5", "v1.1.1.x", undefined]) expect(parseConsent(bad)).toBeNull();
  });
  it("grants necessary always and the rest only by choice; GPC refuses", () => {
    expect(consentAllows(null, "necessary")).toBe(true);
    expect(consentAllows(null, "analytics")).toBe(false);
    expect(consentAllows({ analytics: true, marketing: false, decidedAt: 1 }, "analytics")).toBe(true);
    expect(consentAllows({ analytics: true, marketing: false, decidedAt: 1 }, "marketing")).toBe(false);
    expect(consentAllows(defaultChoice(true, 5000), "marketing")).toBe(false);
    expect(defaultChoice(false, 5000)).toBeNull();
  });
});
