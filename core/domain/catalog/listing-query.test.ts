import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { ORDERBY_SORT, normalizeSearch, pageFromPath, parsePageNumber } from "./listing-query.ts";
import { parseListingQuery, parseListingUrl } from "./listing-query.schema.ts";
import { ORDERBY_VALUES } from "./settings.ts";

/** Any well-formed string (cheaper to set up than fast-check's "binary" unit). */
const anyString = (maxLength = 30) =>
  fc
    .array(
      fc.oneof(
        fc.integer({ min: 0, max: 0x7f }),
        fc.integer({ min: 0x80, max: 0x10ffff }).filter((c) => c < 0xd800 || c > 0xdfff),
      ),
      { maxLength },
    )
    .map((cs) => String.fromCodePoint(...cs));

const q = (path: string, search = "") => parseListingQuery(path, new URLSearchParams(search));

describe("parseListingQuery", () => {
  it("defaults", () => {
    expect(q("/shop/")).toEqual({
      orderby: "menu_order",
      page: 1,
      view: "grid",
      search: null,
      price: { minCents: null, maxCents: null },
    });
  });
  it("reads WooCommerce's orderby values; unknown → default", () => {
    for (const value of ORDERBY_VALUES) expect(q("/shop/", `orderby=${value}`).orderby).toBe(value);
    for (const bad of ["title", "PRICE", "price-asc", "", "rand", "menu_order desc"]) {
      expect(q("/shop/", `orderby=${encodeURIComponent(bad)}`).orderby).toBe("menu_order");
    }
  });
  it("reads the page from /page/{n}, positive integers only", () => {
    expect(q("/shop/page/3/").page).toBe(3);
    expect(q("/product-category/masks/page/2").page).toBe(2);
    for (const bad of ["0", "-1", "1.5", "02", "abc", "1e3", "99999999999"]) expect(q(`/shop/page/${bad}/`).page).toBe(1);
  });
  it("falls back to paged when there is no page segment; the segment wins", () => {
    expect(q("/shop/", "paged=4").page).toBe(4);
    expect(q("/shop/page/2/", "paged=4").page).toBe(2);
    expect(q("/shop/", "paged=x").page).toBe(1);
  });
  it("reads view grid|list", () => {
    expect(q("/shop/", "view=list").view).toBe("list");
    expect(q("/shop/", "view=table").view).toBe("grid");
  });
  it("normalises the search term and the price filter", () => {
    expect(q("/", "s=%20%20face%0A%20masks%20&min_price=5&max_price=x")).toMatchObject({
      search: "face masks",
      price: { minCents: 500, maxCents: null },
    });
  });
  it("uses the first of repeated parameters", () => {
    expect(q("/shop/", "orderby=price&orderby=date").orderby).toBe("price");
  });
  it("parses a full URL", () => {
    expect(parseListingUrl("https://shop.test/shop/page/2/?orderby=price-desc&view=list")).toMatchObject({
      page: 2,
      orderby: "price-desc",
      view: "list",
    });
  });
  it("never throws on arbitrary input (property)", () => {
    fc.assert(
      fc.property(anyString(), anyString(), (path, search) => {
        const result = parseListingQuery(path, new URLSearchParams(search));
        expect(ORDERBY_VALUES).toContain(result.orderby);
        expect(Number.isSafeInteger(result.page) && result.page >= 1).toBe(true);
      }),
    );
  });
});

describe("helpers", () => {
  it("parsePageNumber", () => {
    expect(parsePageNumber("1")).toBe(1);
    expect(parsePageNumber("100000")).toBe(100000);
    expect(parsePageNumber("100001")).toBeNull();
    expect(parsePageNumber(" 2")).toBeNull();
    expect(parsePageNumber(null)).toBeNull();
  });
  it("pageFromPath", () => {
    expect(pageFromPath("/shop/page/3/")).toEqual({ basePath: "/shop/", page: 3 });
    expect(pageFromPath("/shop/")).toEqual({ basePath: "/shop/", page: 1 });
    expect(pageFromPath("/shop/page/0/")).toEqual({ basePath: "/shop/", page: null });
  });
  it("normalizeSearch", () => {
    expect(normalizeSearch("  a\tb\u0000c  ")).toBe("a b c");
    expect(normalizeSearch("cafe\u0301")).toBe("café");
    expect(normalizeSearch("   ")).toBeNull();
    expect(normalizeSearch(undefined)).toBeNull();
    expect(normalizeSearch("\u200bmask")).toBe("mask");
    const long = normalizeSearch("😀".repeat(300));
    expect(Array.from(long!)).toHaveLength(200);
  });
  it("every orderby has a deterministic sort ending with the id", () => {
    for (const value of ORDERBY_VALUES) expect(ORDERBY_SORT[value].at(-1)?.key).toBe("id");
    expect(ORDERBY_SORT["price-desc"][0]).toEqual({ key: "max_price", direction: "desc" });
  });
});
