import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { fitsProductKind, parseAddToCartForm, type AddToCartRequest } from "./add-to-cart.ts";

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

const parse = (body: string) => parseAddToCartForm(new URLSearchParams(body));
function ok(body: string): AddToCartRequest {
  const result = parse(body);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}
function errors(body: string) {
  const result = parse(body);
  if (result.ok) throw new Error(`expected errors, got ${JSON.stringify(result.value)}`);
  return result.errors;
}

describe("simple", () => {
  it("reads add-to-cart and quantity", () => {
    expect(ok("add-to-cart=12&quantity=3")).toEqual({ kind: "simple", productId: 12, quantity: 3 });
  });
  it("missing or empty quantity means 1", () => {
    expect(ok("add-to-cart=12")).toEqual({ kind: "simple", productId: 12, quantity: 1 });
    expect(ok("add-to-cart=12&quantity=")).toEqual({ kind: "simple", productId: 12, quantity: 1 });
  });
  it("accepts FormData-like entry lists; the last repeated value wins", () => {
    expect(
      parseAddToCartForm([
        ["add-to-cart", "5"],
        ["quantity", "2"],
        ["quantity", "4"],
      ]),
    ).toEqual({
      ok: true,
      value: { kind: "simple", productId: 5, quantity: 4 },
    });
  });
  it("rejects negative, fractional, huge and non-numeric quantities with clear messages", () => {
    const cases: [string, string][] = [
      ["-2", "Quantity must be at least 1."],
      ["-1.5", "Quantity must be at least 1."],
      ["1.5", "Quantity must be a whole number."],
      [".5", "Quantity must be a whole number."],
      ["10000", "Quantity must be at most 9999."],
      ["99999999999999999999", "Quantity must be at most 9999."],
      ["abc", "Quantity must be a number."],
      ["1e3", "Quantity must be a number."],
      ["0x10", "Quantity must be a number."],
      ["+1", "Quantity must be a number."],
    ];
    for (const [raw, message] of cases) {
      expect(errors(`add-to-cart=12&quantity=${encodeURIComponent(raw)}`)).toEqual([{ field: "quantity", message }]);
    }
    expect(ok("add-to-cart=12&quantity=9999")).toMatchObject({ quantity: 9999 });
    expect(ok("add-to-cart=12&quantity=%207%20")).toMatchObject({ quantity: 7 });
  });
  it("requires a valid product id", () => {
    expect(errors("quantity=1")).toEqual([{ field: "add-to-cart", message: "The product is missing." }]);
    for (const bad of ["0", "-1", "abc", "1.5", "", "99999999999999999999"]) {
      expect(errors(`add-to-cart=${bad}`)[0]?.field).toBe("add-to-cart");
    }
  });
  it("ignores unrelated fields (nonces, tracking)", () => {
    expect(ok("add-to-cart=12&_wpnonce=abc&gtm4wp_id=1")).toEqual({ kind: "simple", productId: 12, quantity: 1 });
  });
});

describe("variation", () => {
  it("reads variation_id and attribute_* fields", () => {
    expect(ok("add-to-cart=20&quantity=2&variation_id=21&attribute_pa_color=red&attribute_size=")).toEqual({
      kind: "variation",
      productId: 20,
      variationId: 21,
      attributes: { attribute_pa_color: "red", attribute_size: "" },
      quantity: 2,
    });
  });
  it("variation_id '' or 0 means not chosen yet", () => {
    expect(ok("add-to-cart=20&variation_id=0&attribute_pa_color=red")).toMatchObject({ variationId: null });
    expect(ok("add-to-cart=20&variation_id=&attribute_pa_color=red")).toMatchObject({ variationId: null });
  });
  it("accepts encoded and non-ASCII attribute names", () => {
    expect(ok("add-to-cart=20&variation_id=21&attribute_gr%25c3%25b6%25c3%259fe=xl")).toMatchObject({
      attributes: { "attribute_gr%c3%b6%c3%9fe": "xl" },
    });
    expect(ok("add-to-cart=20&variation_id=21&attribute_größe=xl")).toMatchObject({ attributes: { attribute_größe: "xl" } });
  });
  it("rejects bad variation ids, attribute names and long values", () => {
    expect(errors("add-to-cart=20&variation_id=abc")[0]).toEqual({
      field: "variation_id",
      message: "The variation id must be a positive whole number.",
    });
    expect(errors("add-to-cart=20&variation_id=21&attribute_=x")[0]?.field).toBe("attribute_");
    expect(errors("add-to-cart=20&variation_id=21&attribute_a%20b=x")[0]?.message).toBe("The attribute name is not valid.");
    expect(errors(`add-to-cart=20&variation_id=21&attribute_c=${"x".repeat(201)}`)[0]?.field).toBe("attribute_c");
    expect(errors("add-to-cart=20&variation_id=21&quantity=-1")[0]?.field).toBe("quantity");
  });

  it("adds one for a missing, empty or 0 quantity, as WooCommerce's form handler does", () => {
    for (const q of ["", "&quantity=", "&quantity=0", "&quantity=%200%20"]) expect(ok(`add-to-cart=20&variation_id=21${q}`)).toMatchObject({ quantity: 1 });
  });
});

describe("grouped", () => {
  it("reads quantity[childId], skipping empty and zero", () => {
    expect(ok("add-to-cart=30&quantity%5B31%5D=2&quantity%5B32%5D=&quantity%5B33%5D=0&quantity%5B34%5D=1")).toEqual({
      kind: "grouped",
      productId: 30,
      children: [
        { productId: 31, quantity: 2 },
        { productId: 34, quantity: 1 },
      ],
    });
  });
  it("asks to choose a quantity when none is above 0", () => {
    expect(errors("add-to-cart=30&quantity[31]=0&quantity[32]=")).toEqual([
      { field: "quantity", message: "Please choose the quantity of items you wish to add to your cart…" },
    ]);
  });
  it("rejects bad child ids and quantities", () => {
    expect(errors("add-to-cart=30&quantity[abc]=1")[0]?.message).toBe("The item id must be a positive whole number.");
    expect(errors("add-to-cart=30&quantity[]=1")[0]?.field).toBe("quantity[]");
    expect(errors("add-to-cart=30&quantity[31]=-1")).toEqual([{ field: "quantity[31]", message: "Quantity must be at least 0." }]);
    expect(errors("add-to-cart=30&quantity[31]=1.5")[0]?.message).toBe("Quantity must be a whole number.");
    expect(errors("add-to-cart=30&quantity[31]=10000")[0]?.message).toBe("Quantity must be at most 9999.");
  });
  it("rejects a single quantity mixed with per-child quantities", () => {
    expect(errors("add-to-cart=30&quantity=1&quantity[31]=1")[0]?.field).toBe("quantity");
  });
});

describe("bundle", () => {
  it("reads bundled item quantities, ticked optional items, variations and attributes", () => {
    expect(
      ok(
        "add-to-cart=50&quantity=2&bundle_quantity_1=2&bundle_selected_optional_2=yes&bundle_quantity_2=1&bundle_variation_id_3=77&bundle_attribute_pa_color_3=red",
      ),
    ).toEqual({
      kind: "bundle",
      productId: 50,
      quantity: 2,
      items: [
        { bundledItemId: 1, quantity: 2, selected: false, variationId: null, attributes: {} },
        { bundledItemId: 2, quantity: 1, selected: true, variationId: null, attributes: {} },
        { bundledItemId: 3, quantity: null, selected: false, variationId: 77, attributes: { attribute_pa_color: "red" } },
      ],
    });
  });
  it("allows a bundled quantity of 0 but not negative or fractional ones", () => {
    expect(ok("add-to-cart=50&bundle_quantity_1=0")).toMatchObject({ items: [{ bundledItemId: 1, quantity: 0 }] });
    expect(errors("add-to-cart=50&bundle_quantity_1=-1")[0]?.field).toBe("bundle_quantity_1");
    expect(errors("add-to-cart=50&bundle_quantity_1=2.5")[0]?.message).toBe("Quantity must be a whole number.");
    expect(errors("add-to-cart=50&bundle_quantity_x=1")[0]?.message).toBe("Unknown bundle field.");
    expect(errors("add-to-cart=50&bundle_quantity_1=1&quantity=-1")[0]?.field).toBe("quantity");
  });
});

describe("downloads (EDD)", () => {
  it("single price: edd_download_quantity, default 1", () => {
    expect(ok("download_id=70&edd_download_quantity=3")).toEqual({
      kind: "download",
      downloadId: 70,
      lines: [{ priceIndex: null, quantity: 3 }],
    });
    expect(ok("download_id=70")).toEqual({ kind: "download", downloadId: 70, lines: [{ priceIndex: null, quantity: 1 }] });
  });
  it("multi price: edd_options[price_id][] with edd_download_quantity_{priceIndex}", () => {
    expect(ok("download_id=70&edd_options%5Bprice_id%5D%5B%5D=1&edd_options%5Bprice_id%5D%5B%5D=3&edd_download_quantity_1=2")).toEqual({
      kind: "download",
      downloadId: 70,
      lines: [
        { priceIndex: 1, quantity: 2 },
        { priceIndex: 3, quantity: 1 },
      ],
    });
  });
  it("rejects bad download ids, price options and quantities", () => {
    expect(errors("edd_download_quantity=1")[0]?.message).toBe("The download is missing.");
    expect(errors("download_id=x")[0]?.field).toBe("download_id");
    expect(errors("download_id=70&edd_options[price_id][]=a")[0]?.message).toBe("The price option must be a whole number.");
    expect(errors("download_id=70&edd_download_quantity=0")[0]?.message).toBe("Quantity must be at least 1.");
    expect(errors("download_id=70&edd_options[price_id][]=1&edd_download_quantity_1=1.5")[0]?.field).toBe("edd_download_quantity_1");
    expect(errors("download_id=70&edd_download_quantity_2=1")[0]?.message).toMatch(/not chosen/);
  });
});

describe("guards", () => {
  it("rejects forms mixing kinds", () => {
    expect(errors("add-to-cart=1&variation_id=2&quantity[3]=1")[0]?.message).toBe("The form mixes fields of different product kinds.");
    expect(errors("add-to-cart=1&download_id=2")[0]?.message).toMatch(/mixes/);
  });
  it("rejects oversized forms", () => {
    const body = Array.from({ length: 2000 }, (_, i) => `quantity[${i + 1}]=1`).join("&");
    expect(errors(`add-to-cart=1&${body}`)[0]?.message).toBe("The form has too many fields.");
  });
  it("never throws and every error names a message (property)", () => {
    const name = fc.oneof(
      fc.constantFrom(
        "add-to-cart",
        "quantity",
        "variation_id",
        "attribute_pa_color",
        "quantity[5]",
        "bundle_quantity_1",
        "download_id",
        "edd_options[price_id][]",
        "edd_download_quantity_1",
      ),
      fc.string(),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(name, anyString()), { maxLength: 12 }), (entries) => {
        const result = parseAddToCartForm(entries);
        if (!result.ok) for (const e of result.errors) expect(e.message.length).toBeGreaterThan(0);
        else if ("quantity" in result.value) expect(result.value.quantity).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 500 },
    );
  });
});

describe("fitsProductKind", () => {
  it("matches requests to product kinds", () => {
    const simple = ok("add-to-cart=1");
    expect(fitsProductKind(simple, "simple")).toBe(true);
    expect(fitsProductKind(simple, "bundle")).toBe(true);
    expect(fitsProductKind(simple, "variable")).toBe(false);
    expect(fitsProductKind(simple, "external")).toBe(false);
    expect(fitsProductKind(ok("add-to-cart=1&variation_id=2"), "variable")).toBe(true);
    expect(fitsProductKind(ok("add-to-cart=1&quantity[2]=1"), "grouped")).toBe(true);
    expect(fitsProductKind(ok("download_id=1"), "downloadable")).toBe(true);
    expect(fitsProductKind(ok("download_id=1"), "external")).toBe(false);
  });
});
