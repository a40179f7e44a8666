import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { alignPrice, initialPriceRange, normalizeRange, parsePriceFilter, parsePriceValue, priceSliderKey, setPriceHandle } from "./price-filter.ts";

const bounds = { min: 0, max: 100 };

describe("alignPrice", () => {
  it("clamps to [min, max]", () => {
    expect(alignPrice(-5, bounds)).toBe(0);
    expect(alignPrice(150, bounds)).toBe(100);
    expect(alignPrice(Number.POSITIVE_INFINITY, bounds)).toBe(100);
    expect(alignPrice(Number.NaN, bounds)).toBe(0);
  });
  it("aligns to the step counted from min, default 1, halves up", () => {
    expect(alignPrice(12.4, bounds)).toBe(12);
    expect(alignPrice(12.5, bounds)).toBe(13);
    expect(alignPrice(12, { min: 0, max: 100, step: 5 })).toBe(10);
    expect(alignPrice(13, { min: 0, max: 100, step: 5 })).toBe(15);
    expect(alignPrice(13, { min: 3, max: 100, step: 5 })).toBe(13);
    expect(alignPrice(0.3, { min: 0, max: 1, step: 0.1 })).toBe(0.3); // no 0.30000000000000004
  });
  it("lowers an unaligned max to the last reachable step", () => {
    expect(alignPrice(99, { min: 0, max: 99, step: 10 })).toBe(90);
  });
  it("survives nonsense bounds", () => {
    expect(alignPrice(50, { min: 100, max: 0 })).toBe(50);
    expect(alignPrice(50, { min: 0, max: 100, step: 0 })).toBe(50);
    expect(alignPrice(50.5, { min: 0, max: 100, step: -3 })).toBe(51);
    expect(alignPrice(5, { min: Number.NaN, max: 10 })).toBe(5);
  });
  it("always lands within bounds and on a step (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1000, max: 1000 }),
        fc.integer({ min: 0, max: 2000 }),
        fc.integer({ min: 1, max: 50 }),
        fc.double({ noNaN: true, min: -1e6, max: 1e6 }),
        (min, span, step, value) => {
          const b = { min, max: min + span, step };
          const aligned = alignPrice(value, b);
          expect(aligned).toBeGreaterThanOrEqual(min);
          expect(aligned).toBeLessThanOrEqual(min + span);
          expect((aligned - min) % step).toBe(0);
        },
      ),
    );
  });
});

describe("handles", () => {
  it("moves a handle, aligned", () => {
    expect(setPriceHandle({ from: 0, to: 100 }, "from", 20.2, bounds)).toEqual({ from: 20, to: 100 });
    expect(setPriceHandle({ from: 0, to: 100 }, "to", 120, bounds)).toEqual({ from: 0, to: 100 });
  });
  it("handles can't cross", () => {
    expect(setPriceHandle({ from: 20, to: 50 }, "from", 70, bounds)).toEqual({ from: 50, to: 50 });
    expect(setPriceHandle({ from: 20, to: 50 }, "to", 10, bounds)).toEqual({ from: 20, to: 20 });
  });
  it("normalizes a reversed range", () => {
    expect(normalizeRange({ from: 80, to: 20 }, bounds)).toEqual({ from: 20, to: 80 });
  });
  it("keeps from ≤ to whatever happens (property)", () => {
    fc.assert(
      fc.property(
        fc.double({ noNaN: true }),
        fc.double({ noNaN: true }),
        fc.constantFrom("from" as const, "to" as const),
        fc.double({ noNaN: true }),
        (a, b, handle, v) => {
          const r = setPriceHandle({ from: a, to: b }, handle, v, { min: 0, max: 500, step: 5 });
          expect(r.from).toBeLessThanOrEqual(r.to);
          expect(r.from).toBeGreaterThanOrEqual(0);
          expect(r.to).toBeLessThanOrEqual(500);
        },
      ),
    );
  });
});

describe("priceSliderKey", () => {
  const b = { min: 0, max: 200, step: 5 };
  const r = { from: 50, to: 150 };
  it("arrows move one step", () => {
    expect(priceSliderKey(r, "from", "ArrowLeft", b)).toEqual({ from: 45, to: 150 });
    expect(priceSliderKey(r, "from", "ArrowDown", b)).toEqual({ from: 45, to: 150 });
    expect(priceSliderKey(r, "to", "ArrowRight", b)).toEqual({ from: 50, to: 155 });
    expect(priceSliderKey(r, "to", "ArrowUp", b)).toEqual({ from: 50, to: 155 });
  });
  it("PageUp/PageDown move ten steps", () => {
    expect(priceSliderKey(r, "from", "PageUp", b)).toEqual({ from: 100, to: 150 });
    expect(priceSliderKey(r, "to", "PageDown", b)).toEqual({ from: 50, to: 100 });
  });
  it("Home/End go to the ends the handle can reach", () => {
    expect(priceSliderKey(r, "from", "Home", b)).toEqual({ from: 0, to: 150 });
    expect(priceSliderKey(r, "from", "End", b)).toEqual({ from: 150, to: 150 });
    expect(priceSliderKey(r, "to", "Home", b)).toEqual({ from: 50, to: 50 });
    expect(priceSliderKey(r, "to", "End", b)).toEqual({ from: 50, to: 200 });
  });
  it("stops at the bounds and the other handle", () => {
    expect(priceSliderKey({ from: 0, to: 10 }, "from", "ArrowLeft", b)).toEqual({ from: 0, to: 10 });
    expect(priceSliderKey({ from: 10, to: 10 }, "from", "ArrowRight", b)).toEqual({ from: 10, to: 10 });
    expect(priceSliderKey({ from: 0, to: 195 }, "to", "PageUp", b)).toEqual({ from: 0, to: 200 });
  });
  it("ignores other keys", () => {
    expect(priceSliderKey(r, "from", "Tab", b)).toBeNull();
    expect(priceSliderKey(r, "from", "a", b)).toBeNull();
  });
});

describe("parsePriceFilter (min_price / max_price)", () => {
  const p = (q: string) => parsePriceFilter(new URLSearchParams(q));
  it("reads plain amounts into cents", () => {
    expect(p("min_price=10&max_price=50")).toEqual({ minCents: 1000, maxCents: 5000 });
    expect(p("min_price=10.5")).toEqual({ minCents: 1050, maxCents: null });
    expect(p("max_price=0")).toEqual({ minCents: null, maxCents: 0 });
    expect(p(" ")).toEqual({ minCents: null, maxCents: null });
  });
  it("ignores non-numeric, negative and exotic values", () => {
    for (const bad of ["abc", "-5", "1e3", "$10", "", "10.999", "0x10", "Infinity", "NaN", "1,000", "9999999999"]) {
      expect(parsePriceValue(bad)).toBeNull();
    }
    expect(p("min_price=abc&max_price=40")).toEqual({ minCents: null, maxCents: 4000 });
  });
  it("swaps min and max when reversed", () => {
    expect(p("min_price=50&max_price=10")).toEqual({ minCents: 1000, maxCents: 5000 });
  });
  it("trims surrounding space", () => {
    expect(parsePriceValue(" 12 ")).toBe(1200);
  });
});

describe("initialPriceRange", () => {
  it("starts from the address's values, else the bounds", () => {
    expect(initialPriceRange(bounds, { min: null, max: null })).toEqual({ from: 0, to: 100 });
    expect(initialPriceRange(bounds, { min: 20, max: 500 })).toEqual({ from: 20, to: 100 });
    expect(initialPriceRange(bounds, { min: 70, max: 30 })).toEqual({ from: 30, to: 70 });
  });
});
