import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  bundleModel,
  bundlePrice,
  bundledItemUnitPrice,
  bundlesAvailable,
  shopPrice,
  stockNeeds,
  canAddInPlace,
  downloadKey,
  downloadQuantityField,
  groupedQuantityField,
  trackingQuantity,
  type BundleProduct,
} from "./product-kinds.ts";

const bundle: BundleProduct = {
  kind: "bundle",
  id: 50,
  basePriceCents: 1000,
  bundledItems: [
    { bundledItemId: 1, productId: 10, priceCents: 250, defaultQuantity: 2, optional: false },
    { bundledItemId: 2, productId: 11, priceCents: 399, defaultQuantity: 1, optional: true },
    { bundledItemId: 3, productId: 12, priceCents: 0, defaultQuantity: 1, optional: false },
  ],
};

describe("bundlePrice", () => {
  it("base price plus mandatory items; optional items only when ticked", () => {
    expect(bundlePrice(bundle, { ticked: [] })).toBe(1500);
    expect(bundlePrice(bundle, { ticked: [2] })).toBe(1899);
    expect(bundlePrice(bundle, { ticked: new Set([2]) })).toBe(1899);
  });
  it("uses the shopper's item quantities and the bundle quantity", () => {
    expect(bundlePrice(bundle, { ticked: [2], quantities: { 1: 1, 2: 3 } })).toBe(1000 + 250 + 3 * 399);
    expect(bundlePrice(bundle, { ticked: [], quantities: { 1: 0 } }, 3)).toBe(3000);
    expect(bundlePrice(bundle, { ticked: [] }, 0)).toBe(0);
  });
  it("quantities of unticked optional items do not count", () => {
    expect(bundlePrice(bundle, { ticked: [], quantities: { 2: 5 } })).toBe(1500);
  });
  it("rejects bad quantities and non-integer cents", () => {
    expect(() => bundlePrice(bundle, { ticked: [], quantities: { 1: 1.5 } })).toThrow(RangeError);
    expect(() => bundlePrice(bundle, { ticked: [], quantities: { 1: -1 } })).toThrow(RangeError);
    expect(() => bundlePrice(bundle, { ticked: [] }, -1)).toThrow(RangeError);
    expect(() => bundlePrice({ ...bundle, basePriceCents: 10.5 }, { ticked: [] })).toThrow(RangeError);
  });
  it("is always a whole number of cents and grows with ticked items (property)", () => {
    fc.assert(
      fc.property(fc.subarray([1, 2, 3]), fc.integer({ min: 0, max: 100 }), (ticked, qty) => {
        const price = bundlePrice(bundle, { ticked }, qty);
        expect(Number.isSafeInteger(price)).toBe(true);
        expect(bundlePrice(bundle, { ticked: [1, 2, 3] }, qty)).toBeGreaterThanOrEqual(price);
      }),
    );
  });
});

describe("kinds and field names", () => {
  it("external products never add in place", () => {
    expect(canAddInPlace("external")).toBe(false);
    for (const kind of ["simple", "variable", "grouped", "bundle", "downloadable"] as const) expect(canAddInPlace(kind)).toBe(true);
  });
  it("names download keys and quantity fields", () => {
    expect(downloadKey(7)).toBe("7");
    expect(downloadKey(7, 2)).toBe("7_2");
    expect(downloadKey(7, 0)).toBe("7_0");
    expect(downloadQuantityField()).toBe("edd_download_quantity");
    expect(downloadQuantityField(3)).toBe("edd_download_quantity_3");
    expect(groupedQuantityField(42)).toBe("quantity[42]");
  });
  it("tracking quantities: missing or non-numeric is 0 for grouped children and 1 for downloads", () => {
    expect(trackingQuantity(undefined, "grouped-child")).toBe(0);
    expect(trackingQuantity("abc", "grouped-child")).toBe(0);
    expect(trackingQuantity(null, "download")).toBe(1);
    expect(trackingQuantity("", "download")).toBe(1);
    expect(trackingQuantity("3", "download")).toBe(3);
  });
});

describe("bundle stock", () => {
  const tie = { productId: 1, name: "Tie", unitsPerBundle: 1, stockQuantity: 7 };
  const masks = { productId: 2, name: "Mask", unitsPerBundle: 2, stockQuantity: 9 };
  const clip = { productId: 3, name: "Clip", unitsPerBundle: 1, stockQuantity: null };

  it("bundlesAvailable: the tightest of the bundle's own stock and each product's stock per bundle", () => {
    expect(bundlesAvailable(null, [tie, masks, clip])).toBe(4); // 9 masks / 2 per bundle
    expect(bundlesAvailable(3, [tie, masks])).toBe(3);
    expect(bundlesAvailable(null, [clip])).toBeNull();
    expect(bundlesAvailable(null, [{ ...masks, stockQuantity: 1 }])).toBe(0);
    expect(bundlesAvailable(-2, [])).toBe(0);
  });

  it("stockNeeds: own stock and bundled products, summed per stock item, in a fixed order, unmanaged left out", () => {
    const needs = stockNeeds([
      { productId: 10, variationId: 0, name: "Gift box", quantity: 2, stockQuantity: 5, components: [tie, masks, clip] },
      { productId: 2, variationId: 0, name: "Mask", quantity: 3, stockQuantity: 9, components: [] },
      { productId: 20, variationId: 21, name: "Striped tie", quantity: 1, stockQuantity: 4, components: [] },
      { productId: 30, variationId: 0, name: "E-book", quantity: 1, stockQuantity: null, components: [] },
    ]);
    expect(needs).toEqual([
      { table: "products", id: 1, name: "Tie", quantity: 2 },
      { table: "products", id: 2, name: "Mask", quantity: 7 }, // 2 bundles × 2 + 3 single masks
      { table: "products", id: 10, name: "Gift box", quantity: 2 },
      { table: "variations", id: 21, name: "Striped tie", quantity: 1 },
    ]);
  });
});

describe("bundleModel: the one bundle price rule (page, listing price, discount endpoints, cart)", () => {
  const items = [
    { bundledItemId: 1, product: "tie", quantity: 1, optional: false, discountPercent: 10 },
    { bundledItemId: 2, product: "mask", quantity: 2, optional: false, discountPercent: 0 },
    { bundledItemId: 3, product: "square", quantity: 1, optional: true, discountPercent: 20 },
  ];
  const prices: Record<string, number> = { tie: 2200, mask: 300, square: 1500 };
  const model = bundleModel(200, 2000, items, (slug) => (slug in prices ? { id: 1, price: prices[slug]! } : undefined));
  it("prices the Groomsmen Gift Box: $46 with its mandatory items, $58 with the pocket square", () => {
    expect(bundlePrice(model, { ticked: [] })).toBe(2000 + 1980 + 600);
    expect(bundlePrice(model, { ticked: [3] })).toBe(5780);
  });
  it("rounds each item's discounted price once, half away from zero", () => {
    expect(bundledItemUnitPrice(1505, 10)).toBe(1355);
    expect(bundledItemUnitPrice(999, 0)).toBe(999);
  });
  it("an unknown product counts at 0", () => {
    const m = bundleModel(1, 500, [{ bundledItemId: 9, product: "gone", quantity: 3, optional: false, discountPercent: 0 }], () => undefined);
    expect(bundlePrice(m, { ticked: [] })).toBe(500);
  });
  it("shopPrice: the lower sale price, else the regular one", () => {
    expect(shopPrice(1000, 800)).toBe(800);
    expect(shopPrice(1000, 1200)).toBe(1000);
    expect(shopPrice(1000, null)).toBe(1000);
    expect(shopPrice(null, null)).toBe(0);
  });
});
