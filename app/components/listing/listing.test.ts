import { describe, expect, it } from "vitest";
import { filterHref } from "./Listing.tsx";
import { pageHref, pageWindow, resultCountText } from "./Loop.tsx";
import { termConditions } from "./load-listing.server.ts";
import { listingOfAddress } from "../../lib/listing-params.ts";

const widgets = [
  { taxonomy: "pa_color", label: "Color", logicalJoin: "OR" as const, terms: [] },
  { taxonomy: "product_tag", label: "Tags", logicalJoin: "AND" as const, terms: [] },
];

describe("filter addresses", () => {
  it("writes each taxonomy with its join's separator and drops page and paged", () => {
    const href = filterHref("/shop/", "?orderby=price&paged=3&page=2", { pa_color: ["red", "navy"], product_tag: ["silk", "wool"] }, widgets);
    const url = new URL(href, "http://x");
    expect(url.pathname).toBe("/shop/");
    expect(url.searchParams.get("orderby")).toBe("price");
    expect(url.searchParams.get("paged")).toBeNull();
    expect(url.searchParams.get("page")).toBeNull();
    expect(url.searchParams.get("e-filter-shop-pa_color")).toBe("red~navy");
    expect(url.searchParams.get("e-filter-shop-product_tag")).toBe("silk+wool");
  });

  it("removes a taxonomy with no terms left, and the widget's page", () => {
    expect(filterHref("/shop/", "?e-filter-shop-pa_color=red&e-page-shop=4", { pa_color: [] }, widgets)).toBe("/shop/");
  });
});

describe("term conditions", () => {
  it("maps AND, OR, NOT and DISABLED, ignoring unknown taxonomies", () => {
    const c = termConditions({
      taxonomy: {
        pa_color: { terms: ["red"], logicalJoin: "OR" },
        product_tag: { terms: ["a", "b"], logicalJoin: "AND" },
        pa_size: { terms: ["s"], logicalJoin: "NOT" },
        product_cat: { terms: ["ties"], logicalJoin: "DISABLED" },
        secret_tax: { terms: ["x"], logicalJoin: "OR" },
      },
      other: { pa_color: { terms: ["blue"], logicalJoin: "AND" } },
    });
    expect(c).toEqual({ termsAll: { product_tag: ["a", "b"] }, termsAny: { pa_color: ["red"], product_cat: ["ties"] }, termsNone: { pa_size: ["s"] } });
  });
});

describe("pagination and counts", () => {
  it("links pages under the listing path, page 1 without a segment", () => {
    expect(pageHref("/shop/", 1, "?orderby=price")).toBe("/shop/?orderby=price");
    expect(pageHref("/product-category/ties/", 3, "")).toBe("/product-category/ties/page/3/");
  });

  it("words the result count as WooCommerce does", () => {
    expect(resultCountText(1, 0, 0)).toBe("No products were found matching your selection.");
    expect(resultCountText(1, 1, 1)).toBe("Showing the single result");
    expect(resultCountText(1, 9, 9)).toBe("Showing all 9 results");
    expect(resultCountText(13, 24, 43)).toBe("Showing 13–24 of 43 results");
    expect(resultCountText(1, 48, 43)).toBe("Showing all 43 results");
  });

  it("windows numbered pages around the current one", () => {
    expect(pageWindow(6, 20)).toEqual([1, null, 4, 5, 6, 7, 8, null, 20]);
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
  });
});

describe("refresh-loop pagination base addresses", () => {
  it("names the shop or a category, with page segments and parameters stripped", () => {
    expect(listingOfAddress("http://a.test/shop/page/4/?paged=2&orderby=price")?.url.search).toBe("?orderby=price");
    expect(listingOfAddress("/shop/")?.basePath).toBe("/shop/");
    expect(listingOfAddress("/product-category/ties/page/2/")).toMatchObject({ basePath: "/product-category/ties/", categorySlug: "ties" });
  });

  it("refuses anything else without throwing", () => {
    for (const bad of ["/cart/", "/product-category/", "/product-category/a/b/", "http://[bad", "/product-category/%E0%A4%A/", "javascript:alert(1)"]) {
      expect(listingOfAddress(bad), bad).toBeNull();
    }
  });
});
