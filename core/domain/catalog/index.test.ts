import { describe, expect, it } from "vitest";
import * as catalog from "./index.ts";

describe("catalog barrel", () => {
  it("exports the public API without clashes", () => {
    for (const name of [
      "variationMatches",
      "findVariation",
      "computeSwatchItems",
      "clickSwatch",
      "consolidateFilters",
      "writeWidgetFilters",
      "alignPrice",
      "parseListingQuery",
      "bundlePrice",
      "parseAddToCartForm",
      "saleBadgeText",
      "DEFAULT_SWATCH_SETTINGS",
    ]) {
      expect(catalog).toHaveProperty(name);
    }
  });
});
