import { describe, expect, it } from "vitest";
import { orderAttribution, originLabel } from "./origin.ts";

describe("originLabel", () => {
  it("names an order's origin as WooCommerce's order list does", () => {
    expect(originLabel("utm", "google")).toBe("Source: google");
    expect(originLabel("organic", "bing")).toBe("Organic: bing");
    expect(originLabel("referral", "example.com")).toBe("Referral: example.com");
    expect(originLabel("typein", "(direct)")).toBe("Direct");
    expect(originLabel("admin", "")).toBe("Web admin");
    expect(originLabel("mobile_app", "")).toBe("Mobile app");
    expect(originLabel("", "")).toBe("Unknown");
    expect(originLabel("utm", "(none)")).toBe("Source: (none)");
  });
});

describe("orderAttribution", () => {
  const meta = (fields: Record<string, string>) => Object.entries(fields).map(([k, value]) => ({ key: `_wc_order_attribution_${k}`, value }));

  it("is null for an order the checkout stored no attribution with", () => {
    expect(orderAttribution([])).toBeNull();
    expect(orderAttribution([{ key: "_billing_vat", value: "x" }, ...meta({ utm_source: "google" })])).toBeNull();
  });

  it("names the origin and lists the stored fields in WooCommerce's order, labelled, skipping the rest", () => {
    const a = orderAttribution([
      { key: "other", value: "x" },
      ...meta({ device_type: "Mobile", utm_source: "newsletter", source_type: "utm", utm_medium: "email", session_pages: "4", utm_campaign: "" }),
    ]);
    expect(a?.origin).toBe("Source: newsletter");
    expect(a?.details).toEqual([
      { label: "Source type", value: "UTM" },
      { label: "UTM source", value: "newsletter" },
      { label: "UTM medium", value: "email" },
      { label: "Pages viewed", value: "4" },
      { label: "Device type", value: "Mobile" },
    ]);
  });

  it("shows a direct visit as Direct and an unknown source type as stored", () => {
    expect(orderAttribution(meta({ source_type: "typein" }))).toEqual({ origin: "Direct", details: [{ label: "Source type", value: "Direct" }] });
    expect(orderAttribution(meta({ source_type: "carrier_pigeon" }))?.details[0]).toEqual({ label: "Source type", value: "carrier_pigeon" });
  });
});
