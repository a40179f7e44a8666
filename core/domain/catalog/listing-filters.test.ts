import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  consolidateFilters,
  decodeFilterValue,
  encodeFilterValue,
  escapeTerm,
  filteredAddress,
  filterParamName,
  paginationBaseUrl,
  parseFilterParamName,
  readFiltersFromParams,
  readWidgetPage,
  termOperator,
  unescapeTerm,
  validateLogicalJoin,
  writeWidgetFilters,
  type ConsolidatedTaxonomyFilter,
  type LogicalJoin,
  type WidgetFilters,
} from "./listing-filters.ts";
import { widgetFiltersSchema } from "./listing-filters.schema.ts";

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

const W = "a1b2c3d";

function tax(taxonomy: string, terms: string[], logicalJoin: LogicalJoin, filterType = "taxonomy") {
  return { filterType, filterData: { terms, selectedTaxonomy: taxonomy, logicalJoin } };
}

describe("validateLogicalJoin (docs/contract/storefront.md §5)", () => {
  it("accepts AND or OR, anything else is DISABLED", () => {
    expect(validateLogicalJoin("AND")).toBe("AND");
    expect(validateLogicalJoin("OR")).toBe("OR");
    for (const bad of ["and", "or", "NOT", "", " AND", null, undefined, 1, {}]) {
      expect(validateLogicalJoin(bad)).toBe("DISABLED");
    }
  });
  it("maps joins to query operators", () => {
    expect(termOperator("AND")).toBe("AND");
    expect(termOperator("OR")).toBe("IN");
    expect(termOperator("NOT")).toBe("NOT IN");
    expect(termOperator("DISABLED")).toBe("IN");
  });
  it("the widget filters schema validates and normalises the join", () => {
    const parsed = widgetFiltersSchema.parse({ f1: tax("product_cat", ["masks"], "XOR" as LogicalJoin) });
    expect(parsed.f1?.filterData.logicalJoin).toBe("DISABLED");
    expect(widgetFiltersSchema.safeParse({ f1: tax("bad taxonomy!", ["x"], "AND") }).success).toBe(false);
    expect(widgetFiltersSchema.safeParse({ f1: tax("product_cat", [""], "AND") }).success).toBe(false);
  });
});

describe("consolidateFilters", () => {
  it("groups by filter type, then taxonomy", () => {
    const filters: WidgetFilters = {
      f1: tax("product_cat", ["masks", "ties"], "OR"),
      f2: tax("pa_color", ["red"], "AND"),
      f3: tax("product_tag", ["sale"], "AND", "other"),
      f4: tax("pa_size", [], "AND"),
    };
    expect(consolidateFilters(filters)).toEqual({
      taxonomy: {
        product_cat: { terms: ["masks", "ties"], logicalJoin: "OR" },
        pa_color: { terms: ["red"], logicalJoin: "AND" },
      },
      other: { product_tag: { terms: ["sale"], logicalJoin: "AND" } },
    });
  });
  it("merges filters on the same taxonomy: terms united, first join kept", () => {
    expect(consolidateFilters({ a: tax("pa_color", ["red", "blue"], "AND"), b: tax("pa_color", ["blue", "green"], "OR") })).toEqual({
      taxonomy: { pa_color: { terms: ["red", "blue", "green"], logicalJoin: "AND" } },
    });
  });
});

describe("parameter names", () => {
  it("builds and splits e-filter-{widgetId}-{taxonomy}", () => {
    expect(filterParamName(W, "pa_color")).toBe("e-filter-a1b2c3d-pa_color");
    expect(parseFilterParamName("e-filter-a1b2c3d-pa_color")).toEqual({ widgetId: W, taxonomy: "pa_color" });
    // Taxonomies may contain '-', widget ids may not.
    expect(parseFilterParamName("e-filter-a1b2c3d-my-tax")).toEqual({ widgetId: W, taxonomy: "my-tax" });
  });
  it("rejects malformed names", () => {
    for (const name of ["e-filter-", "e-filter-abc", "e-filter--tax", "e-filter-abc-", "filter-abc-tax", "e-filter-a b-t"]) {
      expect(parseFilterParamName(name)).toBeNull();
    }
    expect(parseFilterParamName(`e-filter-abc-${"x".repeat(33)}`)).toBeNull();
    expect(() => filterParamName("a-b", "pa_color")).toThrow(RangeError);
    expect(() => filterParamName(W, "bad tax")).toThrow(RangeError);
  });
});

describe("encodeFilterValue / decodeFilterValue", () => {
  it("AND joins with '+', OR with '~', NOT prefixes each term with '!'", () => {
    expect(encodeFilterValue({ terms: ["red", "blue"], logicalJoin: "AND" })).toBe("red+blue");
    expect(encodeFilterValue({ terms: ["red", "blue"], logicalJoin: "OR" })).toBe("red~blue");
    expect(encodeFilterValue({ terms: ["red", "blue"], logicalJoin: "NOT" })).toBe("!red!blue");
    expect(encodeFilterValue({ terms: ["red"], logicalJoin: "NOT" })).toBe("!red");
    expect(encodeFilterValue({ terms: ["red"], logicalJoin: "AND" })).toBe("red");
    expect(encodeFilterValue({ terms: ["red", "blue"], logicalJoin: "DISABLED" })).toBe("red~blue");
    expect(encodeFilterValue({ terms: [], logicalJoin: "AND" })).toBeNull();
    expect(encodeFilterValue({ terms: [""], logicalJoin: "AND" })).toBeNull();
  });
  it("escapes separators and other unusual characters inside terms", () => {
    expect(escapeTerm("t-shirt_2.0")).toBe("t-shirt_2.0");
    expect(escapeTerm("a+b~c!d")).toBe("a%2Bb%7Ec%21d");
    expect(escapeTerm("50% off")).toBe("50%25%20off");
    expect(escapeTerm("größe")).toBe("gr%C3%B6%C3%9Fe");
    expect(escapeTerm("\uD800x")).toBe("%EF%BF%BDx"); // lone surrogate → U+FFFD, never throws
    expect(encodeFilterValue({ terms: ["a+b", "c~d"], logicalJoin: "AND" })).toBe("a%2Bb+c%7Ed");
  });
  it("decodes each form", () => {
    expect(decodeFilterValue("red+blue")).toEqual({ terms: ["red", "blue"], logicalJoin: "AND" });
    expect(decodeFilterValue("red blue")).toEqual({ terms: ["red", "blue"], logicalJoin: "AND" });
    expect(decodeFilterValue("red~blue")).toEqual({ terms: ["red", "blue"], logicalJoin: "OR" });
    expect(decodeFilterValue("!red!blue")).toEqual({ terms: ["red", "blue"], logicalJoin: "NOT" });
    expect(decodeFilterValue("red!blue")).toEqual({ terms: ["red", "blue"], logicalJoin: "NOT" });
    expect(decodeFilterValue("!red")).toEqual({ terms: ["red"], logicalJoin: "NOT" });
    expect(decodeFilterValue("red")).toEqual({ terms: ["red"], logicalJoin: "OR" });
    expect(decodeFilterValue("red~~blue~")).toEqual({ terms: ["red", "blue"], logicalJoin: "OR" });
    expect(decodeFilterValue("red~red")).toEqual({ terms: ["red"], logicalJoin: "OR" });
  });
  it("rejects garbage without throwing", () => {
    for (const bad of ["", "~", "+", "!", "a~b+c", "!a~b", "a+b!c", "%zz", "%E0%A4%A", "a&b", "a=b", "é", "a/b", "<x>"]) {
      expect(decodeFilterValue(bad)).toBeNull();
    }
    expect(decodeFilterValue(Array.from({ length: 101 }, (_, i) => `t${i}`).join("~"))).toBeNull();
    expect(decodeFilterValue("x".repeat(201))).toBeNull();
    expect(unescapeTerm("%00")).toBe("\u0000");
  });
});

const nastyChar = fc.constantFrom("+", "~", "!", "%", " ", "&", "=", "#", "?", "/", "é", "😀", "a", "-", "'", "*", "%2B");
const term = fc.oneof(
  fc.array(nastyChar, { minLength: 1, maxLength: 8 }).map((cs) => cs.join("")),
  anyString(30).filter((t) => t.length > 0),
  fc.stringMatching(/^[a-z0-9-]{1,20}$/),
);
const join = fc.constantFrom<LogicalJoin>("AND", "OR", "NOT", "DISABLED");

/** What a filter means: single IN-ish terms read back as OR, DISABLED is OR. */
function canonical(filter: ConsolidatedTaxonomyFilter): ConsolidatedTaxonomyFilter {
  const terms = [...new Set(filter.terms)];
  const j = filter.logicalJoin === "NOT" ? "NOT" : terms.length === 1 || filter.logicalJoin === "DISABLED" ? "OR" : filter.logicalJoin;
  return { terms, logicalJoin: j };
}

describe("address round trip (property)", () => {
  it("value encoding round-trips any terms", () => {
    fc.assert(
      fc.property(fc.array(term, { minLength: 1, maxLength: 6 }), join, (terms, logicalJoin) => {
        const filter = { terms, logicalJoin };
        const value = encodeFilterValue(filter);
        expect(value).not.toBeNull();
        expect(decodeFilterValue(value!)).toEqual(canonical(filter));
      }),
      { numRuns: 500 },
    );
  });
  it("the whole address round-trips through URL serialisation", () => {
    const taxonomy = fc.constantFrom("product_cat", "pa_color", "pa_size", "my-tax");
    fc.assert(
      fc.property(fc.dictionary(taxonomy, fc.record({ terms: fc.array(term, { minLength: 1, maxLength: 4 }), logicalJoin: join })), (byTaxonomy) => {
        const filters: Record<string, ReturnType<typeof tax>> = {};
        for (const [t, f] of Object.entries(byTaxonomy)) filters[`id-${t}`] = tax(t, f.terms, f.logicalJoin);
        const href = filteredAddress("https://shop.test/shop/?orderby=price#top", W, filters);
        const url = new URL(href);
        expect(url.pathname).toBe("/shop/");
        expect(url.hash).toBe("#top");
        expect(url.searchParams.get("orderby")).toBe("price");
        const read = readFiltersFromParams(new URLSearchParams(url.search))[W] ?? {};
        const expected: Record<string, ConsolidatedTaxonomyFilter> = {};
        for (const [t, f] of Object.entries(byTaxonomy)) expected[t] = canonical(f);
        const got: Record<string, ConsolidatedTaxonomyFilter> = {};
        for (const [t, f] of Object.entries(read)) got[t] = { terms: f.filterData.terms, logicalJoin: f.filterData.logicalJoin };
        expect(got).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
  it("decoding arbitrary parameters never throws", () => {
    fc.assert(
      fc.property(anyString(80), anyString(80), (k, v) => {
        const params = new URLSearchParams();
        params.set(`e-filter-${W}-${k}`, v);
        params.set(k, v);
        expect(() => readFiltersFromParams(params)).not.toThrow();
        expect(() => decodeFilterValue(v)).not.toThrow();
      }),
    );
  });
});

describe("writeWidgetFilters / readFiltersFromParams", () => {
  it("replaces the widget's filters, removes its e-page, leaves other widgets alone", () => {
    const params = new URLSearchParams(
      `e-filter-${W}-pa_color=red&e-filter-${W}-pa_size=s&e-page-${W}=3&e-filter-other1-pa_color=blue&e-page-other1=2&orderby=price`,
    );
    const next = writeWidgetFilters(params, W, { taxonomy: { product_cat: { terms: ["masks", "ties"], logicalJoin: "AND" } } });
    expect(next.toString()).toBe("e-filter-other1-pa_color=blue&e-page-other1=2&orderby=price&e-filter-a1b2c3d-product_cat=masks%2Bties");
    expect(params.has(`e-page-${W}`)).toBe(true); // input untouched
  });
  it("writes NOT and OR values that survive serialisation", () => {
    const next = writeWidgetFilters(new URLSearchParams(), W, {
      taxonomy: { pa_color: { terms: ["red", "blue"], logicalJoin: "NOT" }, pa_size: { terms: ["s", "m"], logicalJoin: "OR" } },
      other: { pa_fit: { terms: ["x"], logicalJoin: "AND" } },
    });
    expect(next.toString()).toBe(`e-filter-${W}-pa_color=%21red%21blue&e-filter-${W}-pa_size=s%7Em`);
  });
  it("clearing all filters removes the parameters", () => {
    const href = filteredAddress(`https://shop.test/shop/?e-filter-${W}-pa_color=red&e-page-${W}=2`, W, {});
    expect(href).toBe("https://shop.test/shop/");
  });
  it("reads a typed address where '+' means a space", () => {
    const params = new URLSearchParams(`e-filter-${W}-pa_color=red+blue&e-filter-${W}-product_cat=a%7Eb`);
    expect(readFiltersFromParams(params)).toEqual({
      [W]: {
        pa_color: tax("pa_color", ["red", "blue"], "AND"),
        product_cat: tax("product_cat", ["a", "b"], "OR"),
      },
    });
  });
  it("ignores malformed parameters and other widgets when asked for one", () => {
    const params = new URLSearchParams(
      `e-filter-${W}-pa_color=%25zz&e-filter-${W}-bad%20tax=x&e-filter-${W}=x&e-filter-xyz-pa_size=s&e-filter-${W}-pa_fit=a~b+c&e-filter-${W}-pa_x=ok`,
    );
    expect(readFiltersFromParams(params, W)).toEqual({ [W]: { pa_x: tax("pa_x", ["ok"], "OR") } });
    expect(Object.keys(readFiltersFromParams(params))).toEqual(["xyz", W]);
  });
  it("the first of repeated parameters wins", () => {
    const params = new URLSearchParams(`e-filter-${W}-pa_color=red&e-filter-${W}-pa_color=blue`);
    expect(readFiltersFromParams(params)[W]?.pa_color?.filterData.terms).toEqual(["red"]);
  });
  it("reads the widget page", () => {
    expect(readWidgetPage(new URLSearchParams(`e-page-${W}=3`), W)).toBe(3);
    for (const bad of ["0", "-1", "1.5", "abc", "", "01", "9999999999"]) {
      expect(readWidgetPage(new URLSearchParams({ [`e-page-${W}`]: bad }), W)).toBe(1);
    }
    expect(readWidgetPage(new URLSearchParams(), W)).toBe(1);
  });
});

describe("paginationBaseUrl", () => {
  it("strips page and paged and the /page/N/ segment", () => {
    expect(paginationBaseUrl("https://shop.test/shop/page/3/?orderby=price&paged=3&page=2")).toBe("https://shop.test/shop/?orderby=price");
    expect(paginationBaseUrl("https://shop.test/shop/page/12")).toBe("https://shop.test/shop/");
    expect(paginationBaseUrl("https://shop.test/?page=2")).toBe("https://shop.test/");
  });
  it("keeps filters and paths that merely contain 'page'", () => {
    expect(paginationBaseUrl(`https://shop.test/page/about/?e-filter-${W}-pa_color=red`)).toBe(`https://shop.test/page/about/?e-filter-${W}-pa_color=red`);
    expect(paginationBaseUrl("https://shop.test/homepage/2/")).toBe("https://shop.test/homepage/2/");
  });
});
