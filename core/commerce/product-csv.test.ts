import { describe, expect, it } from "vitest";
import { planRow, productsToCsv, readProductCsv, splitList, type ExportProduct, type ExportVariation } from "./product-csv.ts";

/** A file as WooCommerce's exporter writes it: a variable product, two variations, a simple one. */
const WOO_FILE = [
  'ID,Type,SKU,Name,Published,"Is featured?","Visibility in catalog","Short description",Description,"Date sale price starts","Date sale price ends","Tax status","Tax class","In stock?",Stock,"Backorders allowed?","Sold individually?","Weight (kg)","Length (cm)","Width (cm)","Height (cm)","Allow customer reviews?","Purchase note","Sale price","Regular price",Categories,Tags,Images,Parent,"Grouped products",Upsells,Cross-sells,"External URL","Button text",Position,"Attribute 1 name","Attribute 1 value(s)","Attribute 1 visible","Attribute 1 global","Attribute 1 default","Meta: _origin"',
  '10,variable,HOODIE,Hoodie,1,1,visible,"Warm, soft","Line one\nLine two",,,taxable,,1,,0,0,0.5,,,,1,,,,"Clothing > Hoodies, Sale\\, now",winter,"https://old.example/a.jpg, https://old.example/b.jpg",,,,,,,0,Color,"Red, Blue",1,1,Red,woo',
  '11,variation,HOODIE-RED,Hoodie - Red,1,0,visible,,,"2024-05-01 00:00:00","2024-05-31 23:59:59",taxable,,1,5,0,0,,,,,0,,15,20.50,,,https://old.example/red.jpg,HOODIE,,,,,,1,Color,Red,,1,,',
  "12,variation,,Hoodie - Blue,-1,0,visible,,,,,taxable,,0,,0,0,,,,,0,,,20,,,,id:10,,,,,,2,Color,Blue,,1,,",
  '13,"simple, virtual",MUG,\'=Mug,0,0,visible,,,,,taxable,,1,,0,0,,,,,1,,,7,,,,,,HOODIE,,,,0,,,,,,',
].join("\r\n");

describe("reading WooCommerce's product CSV", () => {
  const parsed = readProductCsv(WOO_FILE);
  if (!parsed.ok) throw new Error(parsed.message);
  const [hoodie, red, blue, mug] = parsed.rows.map(planRow);

  it("numbers rows as a spreadsheet does and keeps quoted line breaks", () => {
    expect(parsed.rows.map((r) => r.line)).toEqual([2, 3, 4, 5]);
    expect(hoodie!.body.description).toBe("Line one\nLine two");
  });

  it("maps a variable product to a wc/v3 product body, with what needs the database beside it", () => {
    expect(hoodie).toMatchObject({ kind: "product", fileId: 10, sku: "HOODIE", name: "Hoodie", problem: null });
    expect(hoodie!.body).toMatchObject({
      type: "variable",
      name: "Hoodie",
      status: "publish",
      featured: true,
      catalog_visibility: "visible",
      short_description: "Warm, soft",
      tax_status: "taxable",
      weight: "0.5",
      reviews_allowed: true,
      backorders: "no",
      sold_individually: false,
      menu_order: "0",
      attributes: [{ name: "Color", options: ["Red", "Blue"], variation: true, visible: true }],
      default_attributes: [{ name: "Color", option: "Red" }],
      meta_data: [{ key: "_origin", value: "woo" }],
    });
    // A variable product has no price or stock of its own.
    expect(hoodie!.body).not.toHaveProperty("regular_price");
    expect(hoodie!.body).not.toHaveProperty("stock_quantity");
    expect(hoodie!.categories).toEqual([["Clothing", "Hoodies"], ["Sale, now"]]);
    expect(hoodie!.tags).toEqual(["winter"]);
    expect(hoodie!.images).toEqual(["https://old.example/a.jpg", "https://old.example/b.jpg"]);
  });

  it("maps variations: parent by SKU or id:N, prices and stock as the REST API takes them, one option each", () => {
    expect(red).toMatchObject({ kind: "variation", parent: { sku: "HOODIE" }, images: ["https://old.example/red.jpg"] });
    expect(red!.body).toMatchObject({
      sku: "HOODIE-RED",
      status: "publish",
      regular_price: "20.50",
      sale_price: "15",
      manage_stock: true,
      stock_quantity: "5",
      date_on_sale_from: "2024-05-01T00:00:00",
      date_on_sale_to: "2024-05-31T23:59:59",
      attributes: [{ name: "Color", option: "Red" }],
    });
    expect(blue).toMatchObject({ kind: "variation", parent: { id: 10 }, sku: "" });
    expect(blue!.body).toMatchObject({ status: "private", manage_stock: false, stock_status: "outofstock", regular_price: "20", sale_price: "" });
  });

  it("reads a simple product's flags, draft status, references and a formula-escaped name", () => {
    expect(mug!.body).toMatchObject({ type: "simple", name: "=Mug", status: "draft", regular_price: "7" });
    expect(mug!.upsells).toEqual([{ sku: "HOODIE" }]);
  });

  it("leaves money and stock to the REST API's rules (not re-validated here)", () => {
    const file = readProductCsv("Type,Name,Regular price,Stock\nsimple,Bad,12.345,-3\n");
    if (!file.ok) throw new Error(file.message);
    const plan = planRow(file.rows[0]!);
    expect(plan.problem).toBeNull();
    expect(plan.body).toMatchObject({ regular_price: "12.345", stock_quantity: "-3" });
  });

  it("refuses rows it cannot read, with the reason", () => {
    const file = readProductCsv("Type,Name,Parent,Published\nvariation,Orphan,,1\nbooking,Room,,1\nsimple,X,,maybe\n");
    if (!file.ok) throw new Error(file.message);
    expect(file.rows.map(planRow).map((p) => p.problem)).toEqual([
      "A variation needs its parent in the Parent column (its SKU, or id:N).",
      'Type "booking" is not a product type this shop imports (simple, variable, variation, grouped, external).',
      'Published must be 1, 0 or -1, not "maybe".',
    ]);
  });

  it("refuses a file without a header or with a broken quote", () => {
    expect(readProductCsv("")).toEqual({ ok: false, message: "The file is empty." });
    expect(readProductCsv('Name\n"open').ok).toBe(false);
    expect(readProductCsv("a,b\n1,2").ok).toBe(false);
  });

  it("splits WooCommerce's lists with \\, for a comma inside a value", () => {
    expect(splitList("a, b\\, c ,, d")).toEqual(["a", "b, c", "d"]);
  });
});

describe("writing WooCommerce's product CSV", () => {
  const base: ExportProduct = {
    id: 7,
    type: "variable",
    sku: "TEE",
    name: "Tee",
    status: "publish",
    featured: false,
    catalog_visibility: "visible",
    short_description: "Short",
    description: "- a dash first",
    date_on_sale_from: null,
    date_on_sale_to: null,
    tax_status: "taxable",
    tax_class: "",
    manage_stock: false,
    stock_quantity: null,
    stock_status: "instock",
    weight: "",
    dimensions: { length: "", width: "", height: "" },
    reviews_allowed: true,
    purchase_note: "",
    regular_price: "",
    sale_price: "",
    downloadable: false,
    virtual: false,
    downloads: [],
    categories: [{ id: 3, name: "Tops" }],
    tags: [{ name: "cotton" }],
    images: [{ src: "https://shop.example/media/tee.svg" }],
    grouped_products: [],
    upsell_ids: [],
    cross_sell_ids: [],
    external_url: "",
    button_text: "",
    menu_order: 0,
    attributes: [{ id: 1, name: "Color", visible: true, variation: true, options: ["Red", "Blue"] }],
    default_attributes: [],
  };
  const variation: ExportVariation = {
    id: 8,
    sku: "",
    status: "publish",
    description: "",
    date_on_sale_from: "2024-05-01T00:00:00",
    date_on_sale_to: null,
    tax_status: "taxable",
    tax_class: "",
    manage_stock: true,
    stock_quantity: 4,
    stock_status: "instock",
    weight: "",
    dimensions: { length: "", width: "", height: "" },
    regular_price: "10.00",
    sale_price: "8.00",
    image: null,
    attributes: [{ id: 1, name: "Color", option: "Red" }],
    menu_order: 1,
  };
  const simple: ExportProduct = {
    ...base,
    id: 9,
    type: "simple",
    sku: "",
    name: "Mug",
    regular_price: "5.00",
    manage_stock: true,
    stock_quantity: 3,
    attributes: [],
    upsell_ids: [7],
  };
  const csv = productsToCsv(
    [
      { product: base, variations: [variation] },
      { product: simple, variations: [] },
    ],
    (id) => (id === 3 ? "Clothing > Tops" : ""),
  );

  it("writes WooCommerce's columns and rows: parent, then its variations (Parent: its SKU)", () => {
    const file = readProductCsv(csv);
    if (!file.ok) throw new Error(file.message);
    expect(file.columns.slice(0, 6)).toEqual(["ID", "Type", "SKU", "Name", "Published", "Is featured?"]);
    expect(file.columns).toContain("Attribute 1 value(s)");
    const [p, v, m] = file.rows.map((r) => r.values);
    expect(p).toMatchObject({ Type: "variable", Categories: "Clothing > Tops", "Attribute 1 value(s)": "Red, Blue", "Attribute 1 global": "1" });
    expect(v).toMatchObject({ Type: "variation", Parent: "TEE", Name: "Tee - Red", Stock: "4", "Date sale price starts": "2024-05-01 00:00:00" });
    expect(m).toMatchObject({ Upsells: "TEE", Stock: "3", "Regular price": "5.00" });
    expect(csv).toContain("'- a dash first"); // a spreadsheet would read it as a formula
  });

  it("round trip: what it writes reads back as the same REST bodies", () => {
    const file = readProductCsv(csv);
    if (!file.ok) throw new Error(file.message);
    const [p, v, m] = file.rows.map(planRow);
    expect(p!.body).toMatchObject({
      type: "variable",
      sku: "TEE",
      name: "Tee",
      status: "publish",
      description: "- a dash first",
      short_description: "Short",
      attributes: [{ name: "Color", options: ["Red", "Blue"], visible: true, variation: true }],
    });
    expect(p!.categories).toEqual([["Clothing", "Tops"]]);
    expect(p!.images).toEqual(["https://shop.example/media/tee.svg"]);
    expect(v!.parent).toEqual({ sku: "TEE" });
    expect(v!.body).toMatchObject({ regular_price: "10.00", sale_price: "8.00", stock_quantity: "4", attributes: [{ name: "Color", option: "Red" }] });
    expect(m!.body).toMatchObject({ type: "simple", regular_price: "5.00", stock_quantity: "3" });
    expect(m!.upsells).toEqual([{ sku: "TEE" }]);
  });
});
