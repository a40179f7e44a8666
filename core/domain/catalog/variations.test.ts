import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  allAttributeOptionsStates,
  attributeOptionsState,
  chosenAttributesSummary,
  findMatchingVariations,
  findVariation,
  isChoiceComplete,
  variationMatches,
  variationsLoadOnDemand,
  type Variation,
} from "./variations.ts";
import { productSchema, variationSchema } from "./variations.schema.ts";

const C = "attribute_pa_color";
const S = "attribute_pa_size";

function variation(id: number, color: string, size: string, inStock = true, maxQty: number | null = 10): Variation {
  return {
    variation_id: id,
    attributes: { [C]: color, [S]: size },
    is_in_stock: inStock,
    max_qty: maxQty,
    variation_stock_left: maxQty ?? 0,
    is_bundled: false,
  };
}

// red/S, red/M (out of stock), blue/any size, green/L (out of stock)
const variations = [variation(1, "red", "s"), variation(2, "red", "m", false), variation(3, "blue", ""), variation(4, "green", "l", false)];
const ON = { disableOutOfStock: true };
const OFF = { disableOutOfStock: false };

describe("variationMatches (docs/contract/storefront.md §5)", () => {
  it("matches when each attribute is empty on either side or equal", () => {
    expect(variationMatches({ [C]: "red", [S]: "s" }, { [C]: "red", [S]: "s" })).toBe(true);
    expect(variationMatches({ [C]: "red", [S]: "s" }, { [C]: "red", [S]: "" })).toBe(true);
    expect(variationMatches({ [C]: "", [S]: "s" }, { [C]: "blue", [S]: "s" })).toBe(true);
    expect(variationMatches({ [C]: "red" }, {})).toBe(true);
    expect(variationMatches({}, { [C]: "red" })).toBe(true);
  });
  it("does not match when both sides have different values", () => {
    expect(variationMatches({ [C]: "red", [S]: "s" }, { [C]: "blue", [S]: "" })).toBe(false);
    expect(variationMatches({ [C]: "red", [S]: "s" }, { [C]: "red", [S]: "m" })).toBe(false);
  });
  it("is case-sensitive like WooCommerce's string comparison", () => {
    expect(variationMatches({ [C]: "Red" }, { [C]: "red" })).toBe(false);
  });
  it("is symmetric and an empty choice matches everything (property)", () => {
    const attrs = fc.dictionary(fc.constantFrom(C, S, "attribute_x"), fc.constantFrom("", "a", "b"));
    fc.assert(
      fc.property(attrs, attrs, (a, b) => {
        expect(variationMatches(a, b)).toBe(variationMatches(b, a));
        expect(variationMatches(a, {})).toBe(true);
      }),
    );
  });
  it("ignores inherited object keys such as toString", () => {
    expect(variationMatches({ toString: "x" }, {})).toBe(true);
  });
});

describe("findMatchingVariations / findVariation", () => {
  it("with disable_out_of_stock on, not-in-stock variations are unavailable", () => {
    expect(findMatchingVariations(variations, { [C]: "red", [S]: "" }, ON).map((v) => v.variation_id)).toEqual([1]);
    expect(findMatchingVariations(variations, { [C]: "red", [S]: "" }, OFF).map((v) => v.variation_id)).toEqual([1, 2]);
  });
  it("finds the single fully-matching variation only once every attribute is chosen", () => {
    expect(findVariation(variations, { [C]: "red", [S]: "" }, ON)).toBeUndefined();
    expect(findVariation(variations, { [C]: "red" }, ON)).toBeUndefined();
    expect(findVariation(variations, { [C]: "red", [S]: "s" }, ON)?.variation_id).toBe(1);
    expect(findVariation(variations, { [C]: "blue", [S]: "xl" }, ON)?.variation_id).toBe(3);
  });
  it("out-of-stock full match: unavailable when disable_out_of_stock is on, found when off", () => {
    expect(findVariation(variations, { [C]: "red", [S]: "m" }, ON)).toBeUndefined();
    expect(findVariation(variations, { [C]: "red", [S]: "m" }, OFF)?.variation_id).toBe(2);
  });
  it("returns undefined for no variations (loaded on demand)", () => {
    expect(findVariation([], { [C]: "red" }, ON)).toBeUndefined();
    expect(variationsLoadOnDemand({ product_id: 1, product_variations: [] })).toBe(true);
    expect(variationsLoadOnDemand({ product_id: 1, product_variations: variations })).toBe(false);
  });
  it("first match wins when several match", () => {
    const vs = [variation(9, "", ""), variation(10, "red", "s")];
    expect(findVariation(vs, { [C]: "red", [S]: "s" }, ON)?.variation_id).toBe(9);
  });
  it("isChoiceComplete counts attributes of variations and of the choice", () => {
    expect(isChoiceComplete(variations, { [C]: "red", [S]: "s" })).toBe(true);
    expect(isChoiceComplete(variations, { [C]: "red", [S]: "s", attribute_extra: "" })).toBe(false);
  });
});

describe("attributeOptionsState (enabled options)", () => {
  const colors = ["red", "blue", "green", "black"];
  const sizes = ["s", "m", "l", "xl"];
  it("enables options that some available variation matches given the other choices", () => {
    const nothing = { [C]: "", [S]: "" };
    expect(attributeOptionsState(variations, nothing, C, colors, ON)).toEqual({
      enabled: ["red", "blue"],
      outOfStock: [],
    });
    // blue has 'any' size, so every size is enabled.
    expect(attributeOptionsState(variations, nothing, S, sizes, ON).enabled).toEqual(["s", "m", "l", "xl"]);
    expect(attributeOptionsState(variations, { [C]: "red", [S]: "" }, S, sizes, ON).enabled).toEqual(["s"]);
  });
  it("ignores the attribute's own current choice", () => {
    expect(attributeOptionsState(variations, { [C]: "red", [S]: "s" }, C, colors, ON).enabled).toEqual(["red", "blue"]);
  });
  it("with disable_out_of_stock off, out-of-stock options are enabled and reported", () => {
    expect(attributeOptionsState(variations, { [C]: "", [S]: "" }, C, colors, OFF)).toEqual({
      enabled: ["red", "blue", "green"],
      outOfStock: ["green"],
    });
    expect(attributeOptionsState(variations, { [C]: "red", [S]: "" }, S, sizes, OFF)).toEqual({
      enabled: ["s", "m"],
      outOfStock: ["m"],
    });
  });
  it("an option is in stock when any variation enabling it is", () => {
    const vs = [variation(1, "red", "s", false), variation(2, "red", "m", true)];
    expect(attributeOptionsState(vs, { [C]: "", [S]: "" }, C, ["red"], OFF)).toEqual({
      enabled: ["red"],
      outOfStock: [],
    });
  });
  it("reports values variations carry that the list lacks, after the list's own", () => {
    const vs = [variation(1, "pink", "s")];
    expect(attributeOptionsState(vs, {}, C, ["red"], ON).enabled).toEqual(["pink"]);
  });
  it("computes every list at once", () => {
    const all = allAttributeOptionsStates(
      variations,
      { [C]: "red", [S]: "" },
      [
        { attribute_name: C, attribute_values: colors },
        { attribute_name: S, attribute_values: sizes },
      ],
      ON,
    );
    expect(all[S]?.enabled).toEqual(["s"]);
    expect(all[C]?.enabled).toEqual(["red", "blue"]);
  });
});

describe("chosenAttributesSummary", () => {
  it("counts attributes and chosen ones", () => {
    expect(chosenAttributesSummary({ [C]: "red", [S]: "" })).toEqual({
      count: 2,
      chosenCount: 1,
      data: { [C]: "red", [S]: "" },
    });
    expect(chosenAttributesSummary({})).toEqual({ count: 0, chosenCount: 0, data: {} });
  });
});

describe("schemas for the form's embedded JSON", () => {
  const raw = {
    variation_id: 21,
    attributes: { [C]: "red" },
    is_in_stock: true,
    max_qty: "",
    variation_stock_left: 3,
    is_bundled: false,
  };
  it("reads WooCommerce's variation data, '' max_qty meaning unmanaged stock", () => {
    expect(variationSchema.parse(raw)).toEqual({ ...raw, max_qty: null });
    expect(variationSchema.parse({ ...raw, max_qty: 4, variation_id: "21" })).toMatchObject({ max_qty: 4, variation_id: 21 });
  });
  it("tolerates missing optional flags", () => {
    const { variation_stock_left: _a, is_bundled: _b, ...minimal } = raw;
    expect(variationSchema.parse(minimal)).toMatchObject({ variation_stock_left: 0, is_bundled: false });
  });
  it("rejects malformed variations", () => {
    expect(variationSchema.safeParse({ ...raw, variation_id: 0 }).success).toBe(false);
    expect(variationSchema.safeParse({ ...raw, is_in_stock: "yes" }).success).toBe(false);
    expect(variationSchema.safeParse({ ...raw, attributes: { [C]: 1 } }).success).toBe(false);
    expect(variationSchema.safeParse({ ...raw, max_qty: -1 }).success).toBe(false);
  });
  it("product_variations false means load on demand", () => {
    expect(productSchema.parse({ product_id: 5, product_variations: false })).toEqual({ product_id: 5, product_variations: [] });
    expect(productSchema.parse({ product_id: 5, product_variations: [raw] }).product_variations).toHaveLength(1);
  });
});
