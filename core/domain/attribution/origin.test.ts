import { describe, expect, it } from "vitest";
import { originLabel } from "./origin.ts";

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
