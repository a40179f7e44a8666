import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { cartItemKey } from "./cart.ts";

const md5 = (s: string) => createHash("md5").update(s).digest("hex");

describe("cartItemKey (WooCommerce's generate_cart_id)", () => {
  it("is md5 of the id parts joined by '_', as WooCommerce builds them", () => {
    expect(cartItemKey(12, 0, {}, {})).toBe(md5("12"));
    expect(cartItemKey(12, 34, { attribute_pa_color: "red" }, {})).toBe(md5("12_34_attribute_pa_colorred"));
    expect(cartItemKey(12, 34, { attribute_pa_color: " red ", attribute_size: "m" }, {})).toBe(md5("12_34_attribute_pa_colorredattribute_sizem"));
  });

  it("is stable: attribute and item-data order do not matter, and the same line always gets the same key", () => {
    const a = cartItemKey(7, 8, { attribute_size: "m", attribute_pa_color: "red" }, { freeItem: "rule", bundleOptional: [1, 2] });
    const b = cartItemKey(7, 8, { attribute_pa_color: "red", attribute_size: "m" }, { bundleOptional: [1, 2], freeItem: "rule" });
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
  });

  it("tells apart what makes two lines different: variation, attributes, bundle extras, price option, free item", () => {
    const keys = [
      cartItemKey(7, 0, {}, {}),
      cartItemKey(7, 8, {}, {}),
      cartItemKey(7, 8, { attribute_pa_color: "red" }, {}),
      cartItemKey(7, 8, { attribute_pa_color: "blue" }, {}),
      cartItemKey(7, 0, {}, { bundleOptional: [1] }),
      cartItemKey(7, 0, {}, { bundleOptional: [1, 2] }),
      cartItemKey(7, 0, {}, { priceIndex: 1 }),
      cartItemKey(7, 0, {}, { priceIndex: 2 }),
      cartItemKey(7, 8, { attribute_pa_color: "red" }, { freeItem: "r1" }),
      cartItemKey(70, 0, {}, {}),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    // Undefined item data is the same as none.
    expect(cartItemKey(7, 0, {}, { priceIndex: undefined })).toBe(cartItemKey(7, 0, {}, {}));
  });
});
