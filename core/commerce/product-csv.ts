/**
 * WooCommerce's product CSV (the columns its own exporter writes, class-wc-product-csv-exporter.php, and its
 * importer reads) to and from the shop's REST shapes (docs/contract/rest/products.md). Pure: no database. A row
 * becomes the body of a `wc/v3` product or variation write, so the import is validated by the REST API's own rules
 * (prices, stock, enums, lengths: one source of truth); what only a file has (categories and tags by name, images
 * by URL, products named by SKU or `id:N`) is returned beside the body for the import to resolve
 * (server/features/product-csv.ts, docs/decisions/0039-product-csv.md).
 */
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";

/** The columns this shop reads and writes, in WooCommerce's order; attributes, downloads and meta follow. */
export const PRODUCT_COLUMNS = [
  "ID",
  "Type",
  "SKU",
  "Name",
  "Published",
  "Is featured?",
  "Visibility in catalog",
  "Short description",
  "Description",
  "Date sale price starts",
  "Date sale price ends",
  "Tax status",
  "Tax class",
  "In stock?",
  "Stock",
  "Backorders allowed?",
  "Sold individually?",
  "Weight (kg)",
  "Length (cm)",
  "Width (cm)",
  "Height (cm)",
  "Allow customer reviews?",
  "Purchase note",
  "Sale price",
  "Regular price",
  "Categories",
  "Tags",
  "Images",
  "Parent",
  "Grouped products",
  "Upsells",
  "Cross-sells",
  "External URL",
  "Button text",
  "Position",
] as const;

/** The most rows one import takes (the request body's own limit comes first: about 1 MB). */
export const MAX_IMPORT_ROWS = 5000;

// ---------------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------------

export interface CsvRow {
  /** The row's number as a spreadsheet shows it: the header is row 1. */
  line: number;
  values: Record<string, string>;
}

export type ParsedCsv = { ok: true; columns: string[]; rows: CsvRow[] } | { ok: false; message: string };

/** The file's rows by column name (a BOM, CRLF and quoted line breaks allowed); a malformed file is one message. */
export function readProductCsv(text: string): ParsedCsv {
  let records: string[][];
  try {
    records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true, trim: false }) as string[][];
  } catch (error) {
    return { ok: false, message: `The file is not a readable CSV file: ${(error as Error).message}` };
  }
  const [header, ...body] = records;
  if (!header || !header.some((c) => c.trim() !== "")) return { ok: false, message: "The file is empty." };
  const columns = header.map((c) => c.trim());
  if (!columns.includes("Name") && !columns.includes("SKU"))
    return { ok: false, message: 'The first row must name the columns, as WooCommerce\'s exporter writes them ("Type", "SKU", "Name", …).' };
  if (body.length > MAX_IMPORT_ROWS) return { ok: false, message: `The file has ${body.length} rows; at most ${MAX_IMPORT_ROWS} can be imported at once.` };
  const rows = body.map((cells, i) => ({
    line: i + 2,
    // WooCommerce's exporter (and ours) writes `'` before a cell a spreadsheet would run as a formula; read it back off.
    values: Object.fromEntries(columns.map((c, j) => [c, (cells[j] ?? "").trim().replace(/^'(?=[=+\-@])/, "")])),
  }));
  return { ok: true, columns, rows };
}

/** WooCommerce's lists: comma-separated, `\,` for a comma inside a value. */
export function splitList(value: string): string[] {
  const out: string[] = [];
  let current = "";
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === "\\" && value[i + 1] === ",") {
      current += ",";
      i++;
    } else if (c === ",") {
      out.push(current.trim());
      current = "";
    } else current += c;
  }
  out.push(current.trim());
  return out.filter((s) => s !== "");
}

const joinList = (values: string[]) => values.map((v) => v.replace(/,/g, "\\,")).join(", ");

/** A product a file names: by SKU, or `id:N` (the ID column of another row, or an id of this shop). */
export type ProductRef = { sku: string } | { id: number };

export function productRef(value: string): ProductRef | null {
  const v = value.trim();
  if (!v) return null;
  const id = /^id:(\d+)$/i.exec(v);
  return id ? { id: Number(id[1]) } : { sku: v };
}

const BOOL_TRUE = new Set(["1", "yes", "true"]);
const BOOL_FALSE = new Set(["0", "no", "false"]);

export interface RowPlan {
  line: number;
  kind: "product" | "variation";
  /** The ID column (the exporting shop's id): what `id:N` in another row's Parent names. */
  fileId: number | null;
  sku: string;
  name: string;
  /** The REST write's body (wc/v3 product or variation), without what needs the database (below). */
  body: Record<string, unknown>;
  /** For a variation: its parent, by SKU or `id:N`. */
  parent: ProductRef | null;
  /** Category paths by name ("Clothing > Shirts" → ["Clothing", "Shirts"]); tags by name. */
  categories: string[][] | null;
  tags: string[] | null;
  /** Image addresses, the first the main image (a variation's: its image). */
  images: string[] | null;
  grouped: ProductRef[] | null;
  upsells: ProductRef[] | null;
  crossSells: ProductRef[] | null;
  /** Why the row cannot be read at all (the REST API judges the rest). */
  problem: string | null;
}

const present = (values: Record<string, string>, column: string) => column in values && values[column] !== "";

/** WooCommerce writes "2024-05-01 00:00:00" or "2024-05-01"; the REST API takes ISO 8601 ("2024-05-01T00:00:00"). */
const isoDate = (value: string) => value.replace(/^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}(:\d{2})?)$/, "$1T$2");

/** The first column whose name starts with `prefix` ("Weight (" finds "Weight (kg)" or "Weight (lbs)"). */
const columnLike = (values: Record<string, string>, prefix: string) => Object.keys(values).find((k) => k.startsWith(prefix));

export function planRow(row: CsvRow): RowPlan {
  const v = row.values;
  const get = (column: string) => v[column] ?? "";
  const types = splitList(get("Type").toLowerCase());
  const isVariation = types.includes("variation");
  const plan: RowPlan = {
    line: row.line,
    kind: isVariation ? "variation" : "product",
    fileId: /^\d+$/.test(get("ID")) ? Number(get("ID")) : null,
    sku: get("SKU"),
    name: get("Name"),
    body: {},
    parent: isVariation ? productRef(get("Parent")) : null,
    categories: null,
    tags: null,
    images: null,
    grouped: null,
    upsells: null,
    crossSells: null,
    problem: null,
  };
  const refuse = (message: string) => ((plan.problem ??= message), plan);
  const body = plan.body;

  const kind = types.find((t) => ["simple", "variable", "variation", "grouped", "external", "bundle"].includes(t)) ?? (types.length ? null : "simple");
  if (kind === null) return refuse(`Type "${get("Type")}" is not a product type this shop imports (simple, variable, variation, grouped, external).`);
  if (isVariation && !plan.parent) return refuse("A variation needs its parent in the Parent column (its SKU, or id:N).");
  if (!isVariation && !plan.name && !plan.sku) return refuse("A product needs a Name (or the SKU of a product to update).");

  const bool = (column: string, field: string) => {
    if (!present(v, column)) return;
    const value = get(column).toLowerCase();
    if (BOOL_TRUE.has(value)) body[field] = true;
    else if (BOOL_FALSE.has(value)) body[field] = false;
    else refuse(`${column} must be 1 or 0, not "${get(column)}".`);
  };
  const textField = (column: string, field: string) => {
    if (column in v) body[field] = get(column);
  };

  if (!isVariation) {
    body.type = kind;
    if (types.includes("downloadable")) body.downloadable = true;
    if (plan.name) body.name = plan.name;
    bool("Is featured?", "featured");
    if (present(v, "Visibility in catalog")) body.catalog_visibility = get("Visibility in catalog");
    textField("Short description", "short_description");
    bool("Sold individually?", "sold_individually");
    bool("Allow customer reviews?", "reviews_allowed");
    textField("Purchase note", "purchase_note");
    if (kind === "external") {
      textField("External URL", "external_url");
      if (present(v, "Button text")) body.button_text = get("Button text");
    }
    if (present(v, "Categories")) plan.categories = splitList(get("Categories")).map((path) => path.split(">").map((s) => s.trim()));
    else if ("Categories" in v) plan.categories = [];
    if ("Tags" in v) plan.tags = splitList(get("Tags"));
    if (kind === "grouped" && "Grouped products" in v) plan.grouped = splitList(get("Grouped products")).map((s) => productRef(s)!);
    if ("Upsells" in v) plan.upsells = splitList(get("Upsells")).map((s) => productRef(s)!);
    if ("Cross-sells" in v) plan.crossSells = splitList(get("Cross-sells")).map((s) => productRef(s)!);
  }
  if (present(v, "Published")) {
    const status = { "1": "publish", "0": "draft", "-1": "private" }[get("Published")];
    if (!status) return refuse(`Published must be 1, 0 or -1, not "${get("Published")}".`);
    body.status = status;
  }
  if (plan.sku || "SKU" in v) body.sku = plan.sku;
  textField("Description", "description");
  if ("Date sale price starts" in v) body.date_on_sale_from = isoDate(get("Date sale price starts")) || null;
  if ("Date sale price ends" in v) body.date_on_sale_to = isoDate(get("Date sale price ends")) || null;
  if (present(v, "Tax status")) body.tax_status = get("Tax status");
  textField("Tax class", "tax_class");
  if (present(v, "Backorders allowed?")) {
    const backorders = get("Backorders allowed?").toLowerCase();
    body.backorders = BOOL_FALSE.has(backorders) ? "no" : BOOL_TRUE.has(backorders) ? "yes" : backorders;
  }
  const weight = columnLike(v, "Weight (");
  if (weight && present(v, weight)) body.weight = get(weight);
  const dims = Object.fromEntries(
    (["Length", "Width", "Height"] as const).flatMap((d) => {
      const c = columnLike(v, `${d} (`);
      return c && present(v, c) ? [[d.toLowerCase(), get(c)]] : [];
    }),
  );
  if (Object.keys(dims).length) body.dimensions = dims;
  if (present(v, "Position")) body.menu_order = get("Position");

  // Prices and stock: a variable or grouped product has none of its own (its variations or children do).
  if (kind !== "variable" && kind !== "grouped") {
    if ("Regular price" in v) body.regular_price = get("Regular price");
    if ("Sale price" in v) body.sale_price = get("Sale price");
    if (present(v, "Stock")) {
      body.manage_stock = true;
      body.stock_quantity = get("Stock");
    } else if (present(v, "In stock?")) {
      const status = { "1": "instock", "0": "outofstock", backorder: "onbackorder" }[get("In stock?").toLowerCase()];
      if (!status) return refuse(`In stock? must be 1, 0 or backorder, not "${get("In stock?")}".`);
      body.manage_stock = false;
      body.stock_status = status;
    }
  }

  if (present(v, "Images")) plan.images = splitList(get("Images"));
  else if ("Images" in v && !isVariation) plan.images = [];

  // Attributes: "Attribute N name", "… value(s)", "… visible", "… global", "… default".
  const attributes: Record<string, unknown>[] = [];
  const defaults: Record<string, unknown>[] = [];
  for (let n = 1; `Attribute ${n} name` in v; n++) {
    const name = get(`Attribute ${n} name`);
    if (!name) continue;
    const values = splitList(get(`Attribute ${n} value(s)`));
    if (isVariation) {
      attributes.push({ name, option: values[0] ?? "" });
      continue;
    }
    const attribute: Record<string, unknown> = { name, options: values, variation: kind === "variable" };
    const visible = get(`Attribute ${n} visible`);
    if (visible !== "") attribute.visible = BOOL_TRUE.has(visible.toLowerCase());
    attributes.push(attribute);
    if (present(v, `Attribute ${n} default`)) defaults.push({ name, option: get(`Attribute ${n} default`) });
  }
  if (attributes.length || (!isVariation && "Attribute 1 name" in v)) body.attributes = attributes;
  if (defaults.length) body.default_attributes = defaults;

  // Downloads: "Download N ID", "Download N name", "Download N URL".
  const downloads: Record<string, unknown>[] = [];
  for (let n = 1; `Download ${n} URL` in v; n++) {
    if (!present(v, `Download ${n} URL`)) continue;
    downloads.push({ name: get(`Download ${n} name`) || `Download ${n}`, file: get(`Download ${n} URL`) });
  }
  if (downloads.length) body.downloads = downloads;

  // "Meta: key" columns.
  const meta = Object.keys(v)
    .filter((k) => k.startsWith("Meta: ") && present(v, k))
    .map((k) => ({ key: k.slice("Meta: ".length), value: get(k) }));
  if (meta.length) body.meta_data = meta;
  return plan;
}

// ---------------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------------

/** The REST shapes the exporter reads (wc/v3 products and variations), only the fields it writes. */
export interface ExportProduct {
  id: number;
  type: string;
  sku: string;
  name: string;
  status: string;
  featured: boolean;
  catalog_visibility: string;
  short_description: string;
  description: string;
  date_on_sale_from: string | null;
  date_on_sale_to: string | null;
  tax_status: string;
  tax_class: string;
  manage_stock: boolean;
  stock_quantity: number | null;
  stock_status: string;
  weight: string;
  dimensions: { length: string; width: string; height: string };
  reviews_allowed: boolean;
  purchase_note: string;
  regular_price: string;
  sale_price: string;
  downloadable: boolean;
  virtual: boolean;
  downloads: { name: string; file: string }[];
  categories: { id: number; name: string }[];
  tags: { name: string }[];
  images: { src: string }[];
  grouped_products: number[];
  upsell_ids: number[];
  cross_sell_ids: number[];
  external_url: string;
  button_text: string;
  menu_order: number;
  attributes: { id: number; name: string; visible: boolean; variation: boolean; options: string[] }[];
  default_attributes: { name: string; option: string }[];
}

export interface ExportVariation {
  id: number;
  sku: string;
  status: string;
  description: string;
  date_on_sale_from: string | null;
  date_on_sale_to: string | null;
  tax_status: string;
  tax_class: string;
  manage_stock: boolean;
  stock_quantity: number | null;
  stock_status: string;
  weight: string;
  dimensions: { length: string; width: string; height: string };
  regular_price: string;
  sale_price: string;
  image: { src: string } | null;
  attributes: { id: number; name: string; option: string }[];
  menu_order: number;
}

const PUBLISHED: Record<string, string> = { publish: "1", private: "-1" };
const IN_STOCK: Record<string, string> = { instock: "1", outofstock: "0", onbackorder: "backorder" };
const flag = (b: boolean) => (b ? "1" : "0");
/** WooCommerce's own dates in the file: "2024-05-01 00:00:00". */
const csvDate = (d: string | null) => (d ? d.replace("T", " ").replace(/Z$/, "").slice(0, 19) : "");

/**
 * The products as WooCommerce's exporter writes them: each product, then its variations (Parent: the parent's SKU,
 * or `id:N` when it has none), `categoryPath` giving a category's "Parent > Child" name.
 */
export function productsToCsv(products: { product: ExportProduct; variations: ExportVariation[] }[], categoryPath: (id: number) => string): string {
  const ref = (byId: Map<number, ExportProduct>, id: number) => byId.get(id)?.sku || `id:${id}`;
  const byId = new Map(products.map((p) => [p.product.id, p.product]));
  const attributeCount = Math.max(1, ...products.map((p) => p.product.attributes.length));
  const downloadCount = Math.max(0, ...products.map((p) => p.product.downloads.length));
  const columns: string[] = [...PRODUCT_COLUMNS];
  for (let n = 1; n <= downloadCount; n++) columns.push(`Download ${n} name`, `Download ${n} URL`);
  for (let n = 1; n <= attributeCount; n++)
    columns.push(`Attribute ${n} name`, `Attribute ${n} value(s)`, `Attribute ${n} visible`, `Attribute ${n} global`, `Attribute ${n} default`);

  const rows: Record<string, string>[] = [];
  const shared = (x: ExportProduct | ExportVariation): Record<string, string> => ({
    SKU: x.sku,
    Published: PUBLISHED[x.status] ?? "0",
    Description: x.description,
    "Date sale price starts": csvDate(x.date_on_sale_from),
    "Date sale price ends": csvDate(x.date_on_sale_to),
    "Tax status": x.tax_status,
    "Tax class": x.tax_class,
    "In stock?": IN_STOCK[x.stock_status] ?? "1",
    Stock: x.manage_stock && x.stock_quantity !== null ? String(x.stock_quantity) : "",
    "Backorders allowed?": "0",
    "Weight (kg)": x.weight,
    "Length (cm)": x.dimensions.length,
    "Width (cm)": x.dimensions.width,
    "Height (cm)": x.dimensions.height,
    "Sale price": x.sale_price,
    "Regular price": x.regular_price,
    Position: String(x.menu_order),
  });
  for (const { product: p, variations } of products) {
    const type = [p.type, ...(p.downloadable ? ["downloadable"] : []), ...(p.virtual ? ["virtual"] : [])].join(", ");
    const row: Record<string, string> = {
      ...shared(p),
      ID: String(p.id),
      Type: type,
      Name: p.name,
      "Is featured?": flag(p.featured),
      "Visibility in catalog": p.catalog_visibility,
      "Short description": p.short_description,
      "Sold individually?": "0",
      "Allow customer reviews?": flag(p.reviews_allowed),
      "Purchase note": p.purchase_note,
      Categories: joinList(p.categories.map((c) => categoryPath(c.id))),
      Tags: joinList(p.tags.map((t) => t.name)),
      Images: joinList(p.images.map((i) => i.src)),
      "Grouped products": joinList(p.grouped_products.map((id) => ref(byId, id))),
      Upsells: joinList(p.upsell_ids.map((id) => ref(byId, id))),
      "Cross-sells": joinList(p.cross_sell_ids.map((id) => ref(byId, id))),
      "External URL": p.external_url,
      "Button text": p.button_text,
    };
    if (p.type === "variable" || p.type === "grouped") row.Stock = "";
    p.downloads.forEach((d, i) => {
      row[`Download ${i + 1} name`] = d.name;
      row[`Download ${i + 1} URL`] = d.file;
    });
    p.attributes.forEach((a, i) => {
      row[`Attribute ${i + 1} name`] = a.name;
      row[`Attribute ${i + 1} value(s)`] = joinList(a.options);
      row[`Attribute ${i + 1} visible`] = flag(a.visible);
      row[`Attribute ${i + 1} global`] = flag(a.id > 0);
      row[`Attribute ${i + 1} default`] = p.default_attributes.find((d) => d.name === a.name)?.option ?? "";
    });
    rows.push(row);
    for (const v of variations) {
      const vrow: Record<string, string> = {
        ...shared(v),
        ID: String(v.id),
        Type: "variation",
        Name: [p.name, ...v.attributes.map((a) => a.option)].join(" - "),
        Parent: p.sku || `id:${p.id}`,
        Images: v.image ? v.image.src : "",
      };
      // A variation's attributes in its parent's order, as WooCommerce writes them.
      p.attributes.forEach((a, i) => {
        const mine = v.attributes.find((x) => x.name === a.name);
        if (!mine) return;
        vrow[`Attribute ${i + 1} name`] = a.name;
        vrow[`Attribute ${i + 1} value(s)`] = mine.option;
        vrow[`Attribute ${i + 1} global`] = flag(a.id > 0);
      });
      rows.push(vrow);
    }
  }
  return toCsv(columns, rows);
}

/** A CSV file with a header row; cells that a spreadsheet would run as a formula are prefixed with `'`. */
export function toCsv(columns: string[], rows: Record<string, string>[]): string {
  const safe = (s: string) => (/^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?$/.test(s) ? `'${s}` : s);
  return stringify([columns, ...rows.map((r) => columns.map((c) => safe(r[c] ?? "")))], { record_delimiter: "\r\n" });
}
