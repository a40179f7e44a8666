import { describe, expect, it } from "vitest";
import { centsToDecimal, decimalToCents, DECIMAL_PRICE, managedStockStatus, priceRange, slugify } from "./rest-product.ts";

describe("products REST rules", () => {
  it("converts WooCommerce's decimal strings and cents both ways", () => {
    for (const [text, cents] of [
      ["12", 1200],
      ["12.5", 1250],
      ["12.50", 1250],
      ["0.07", 7],
      ["", null],
    ] as const)
      expect(decimalToCents(text)).toBe(cents);
    expect(centsToDecimal(1250)).toBe("12.50");
    expect(centsToDecimal(7)).toBe("0.07");
    expect(centsToDecimal(null)).toBe("");
    for (const bad of ["-1", "1.999", "1,00", "abc", "1e3", " 1"]) expect(DECIMAL_PRICE.test(bad), bad).toBe(false);
  });

  it("derives the price range per kind, and the stock status of a managed stock", () => {
    const base = { regular: null, sale: null, details: {}, variations: [], children: [] };
    expect(priceRange({ ...base, type: "simple", regular: 1000, sale: 800 }, [])).toEqual([800, 800]);
    expect(priceRange({ ...base, type: "simple" }, [])).toEqual([null, null]);
    expect(
      priceRange(
        {
          ...base,
          type: "variable",
          variations: [
            { regular: 500, sale: null },
            { regular: 700, sale: 400 },
          ],
        },
        [],
      ),
    ).toEqual([400, 500]);
    const children = [
      { id: 1, slug: "a", price: 300 },
      { id: 2, slug: "b", price: 900 },
    ];
    expect(priceRange({ ...base, type: "grouped", children }, [1, 2])).toEqual([300, 900]);
    const details = {
      bundledItems: [
        { bundledItemId: 1, product: "a", quantity: 2, optional: false, discountPercent: 0 },
        { bundledItemId: 2, product: "b", quantity: 1, optional: true, discountPercent: 0 },
      ],
    };
    expect(priceRange({ ...base, type: "bundle", regular: 1000, details, children }, [])).toEqual([1600, 1600]);
    expect(managedStockStatus(0)).toBe("outofstock");
    expect(managedStockStatus(3)).toBe("instock");
    expect(slugify("Ünïcode Tie — Navy!")).toBe("unicode-tie-navy");
  });
});
