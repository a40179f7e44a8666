/**
 * Moving in (issue 14, docs/decisions/0039-product-csv.md): WooCommerce's product CSV imported and exported, and
 * orders and customers exported as CSV (docs/contract/rest/shop-v1.md 'Import and export').
 *
 * - `POST shop/v1/product-import` `{csv, mode: "preview" | "import"}`: every row is written through the `wc/v3`
 *   routes themselves (their validation, their audit line), each row in a SAVEPOINT of one transaction, so a refused
 *   row changes nothing; "preview" rolls the whole transaction back at the end and so checks every row exactly as an
 *   import would. Rows are matched by SKU (a variation: by SKU, else by its attributes under its parent; a product
 *   without SKU: by its exact name and type), so importing the same file again updates instead of duplicating.
 * - `GET shop/v1/exports/{products,orders,customers}`: text/csv with a download filename, read through the `wc/v3`
 *   list routes (their capability checks and shapes).
 */
import type { Reply } from "../http/dispatch.ts";
import { restError, type RestInput, type RestRouter, type RestUser } from "../http/rest.ts";
import { isReply, staffUser } from "../http/rest-permission.ts";
import { parseArgs, requestArgs } from "../http/rest-args.ts";
import type { Feature } from "./feature.ts";
import type { AppServices } from "../services.ts";
import { z } from "zod";
import { savepointDb } from "../../core/db/savepoints.ts";
import { mediaIdsBySlug } from "../../core/db/repositories/product-csv.ts";
import { uploadImage } from "../../core/media/uploads.server.ts";
import { FetchRefused, fetchPublic } from "../http/fetch-public.ts";
import { roleCan } from "../../core/security/capabilities.ts";
import {
  PRODUCT_COLUMNS,
  planRow,
  productsToCsv,
  readProductCsv,
  toCsv,
  type ExportProduct,
  type ExportVariation,
  type ProductRef,
  type RowPlan,
} from "../../core/commerce/product-csv.ts";

// ---------------------------------------------------------------------------------------------------
// Calling the shop's own REST routes
// ---------------------------------------------------------------------------------------------------

type Call = (method: string, path: string, opts?: { query?: Record<string, unknown>; body?: unknown }) => Promise<Reply>;

function caller(rest: RestRouter, input: RestInput, services: AppServices): Call {
  return async (method, path, opts = {}) => {
    const found = rest.match(method, path);
    if (!found || found === "method") throw new Error(`product-csv: no route ${method} ${path}`);
    return found.route.handler({ ...input, method, pathParams: found.params, query: opts.query ?? {}, body: opts.body ?? {}, services });
  };
}

const ok = (r: Reply): r is Extract<Reply, { kind: "json" }> => r.kind === "json" && (r.status ?? 200) < 400;

const codeOf = (r: Reply) => (r.kind === "json" ? (r.body as { code?: string }).code : undefined);

/** Every page of a `wc/v3` list (100 a page). */
async function listAll<T>(call: Call, path: string, query: Record<string, unknown> = {}): Promise<T[] | Reply> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const reply = await call("GET", path, { query: { ...query, per_page: "100", page: String(page) } });
    if (!ok(reply)) {
      if (page > 1 && codeOf(reply) === "rest_post_invalid_page_number") return out;
      return reply;
    }
    const items = reply.body as T[];
    out.push(...items);
    if (items.length < 100) return out;
  }
}

// ---------------------------------------------------------------------------------------------------
// Import
// ---------------------------------------------------------------------------------------------------

/** The REST fields a refusal names, as the file's columns. */
const COLUMN_OF: Record<string, string> = {
  regular_price: "Regular price",
  sale_price: "Sale price",
  stock_quantity: "Stock",
  stock_status: "In stock?",
  manage_stock: "Stock",
  sku: "SKU",
  name: "Name",
  status: "Published",
  type: "Type",
  featured: "Is featured?",
  catalog_visibility: "Visibility in catalog",
  short_description: "Short description",
  description: "Description",
  date_on_sale_from: "Date sale price starts",
  date_on_sale_to: "Date sale price ends",
  tax_status: "Tax status",
  tax_class: "Tax class",
  backorders: "Backorders allowed?",
  sold_individually: "Sold individually?",
  weight: "Weight",
  dimensions: "Length, Width, Height",
  reviews_allowed: "Allow customer reviews?",
  purchase_note: "Purchase note",
  external_url: "External URL",
  button_text: "Button text",
  menu_order: "Position",
  attributes: "Attributes",
  default_attributes: "Attribute defaults",
  downloads: "Downloads",
  grouped_products: "Grouped products",
  upsell_ids: "Upsells",
  cross_sell_ids: "Cross-sells",
  categories: "Categories",
  tags: "Tags",
  images: "Images",
  image: "Images",
};

/** A refusal's words: the fields it names, as columns ("Sale price: sale_price must be lower than regular_price"). */
export function refusalMessage(reply: Reply): string {
  const body = (reply.kind === "json" ? reply.body : {}) as { message?: string; data?: { params?: Record<string, string> } };
  const params = body.data?.params;
  if (params && Object.keys(params).length)
    return Object.entries(params)
      .map(([field, message]) => `${COLUMN_OF[field] ?? field}: ${message}`)
      .join(" ");
  if ((body as { code?: string }).code === "product_invalid_sku") return "SKU: Invalid or duplicated SKU (another product or variation has it).";
  return body.message ?? "Refused.";
}

class RowRefused extends Error {}
class PreviewDone extends Error {}

export interface RowResult {
  row: number;
  kind: "product" | "variation";
  name: string;
  sku: string;
  action: "create" | "update" | "refused";
  id?: number;
  message?: string;
  notes?: string[];
}

const IMAGE_BYTES = 10 * 1024 * 1024;
const IMAGE_MS = 15_000;
const IMAGE_META = "_shop_import_images";

/** Downloads an image: public addresses only, at most IMAGE_BYTES, within IMAGE_MS (server/http/fetch-public.ts). */
async function download(url: string, allowAddresses: readonly string[]): Promise<Buffer> {
  try {
    return await fetchPublic(url, { maxBytes: IMAGE_BYTES, timeoutMs: IMAGE_MS, allowAddresses });
  } catch (error) {
    if (error instanceof FetchRefused) throw new RowRefused(`Images: ${url} was not downloaded: ${error.message}.`);
    throw error;
  }
}

interface ImportContext {
  call: Call;
  services: AppServices;
  user: RestUser;
  commit: boolean;
  host: string;
  /** The file's ID column → the product it became here. */
  fileIds: Map<number, number>;
  /** SKU → the row that carries it (a SKU twice in a file is refused the second time). */
  skuRows: Map<string, number>;
  /** Image address → attachment, within this import. */
  images: Map<string, number>;
}

interface Found {
  id: number;
  meta_data?: { key: string; value: unknown }[];
  images?: { id: number }[];
  image?: { id: number } | null;
  type?: string;
  name?: string;
  attributes?: { name: string; option: string }[];
}

async function findProduct(ctx: ImportContext, ref: ProductRef): Promise<Found | null> {
  if ("id" in ref) {
    const id = ctx.fileIds.get(ref.id) ?? ref.id;
    const r = await ctx.call("GET", `wc/v3/products/${id}`);
    return ok(r) ? (r.body as Found) : null;
  }
  const r = await ctx.call("GET", "wc/v3/products", { query: { sku: ref.sku, status: "any", per_page: "1" } });
  return ok(r) ? ((r.body as Found[])[0] ?? null) : null;
}

async function productIds(ctx: ImportContext, refs: ProductRef[], column: string): Promise<number[]> {
  const out: number[] = [];
  for (const ref of refs) {
    const p = await findProduct(ctx, ref);
    if (!p)
      throw new RowRefused(
        `${column}: ${"sku" in ref ? `no product has the SKU ${ref.sku}` : `no product id:${ref.id}`} (rows are imported in order: list it earlier).`,
      );
    out.push(p.id);
  }
  return out;
}

/** Term ids by name, created when missing (a category path: each level under the one before). */
async function termIds(ctx: ImportContext, route: string, paths: string[][]): Promise<number[]> {
  const out: number[] = [];
  for (const path of paths) {
    let parent = 0;
    for (const name of path) {
      if (!name) continue;
      const query: Record<string, unknown> = { search: name, per_page: "100", hide_empty: "false" };
      if (route.endsWith("categories")) query.parent = String(parent);
      const found = await ctx.call("GET", route, { query });
      const decode = (s: string) =>
        s
          .replace(/&amp;/g, "&")
          .replace(/&#0?39;/g, "'")
          .replace(/&quot;/g, '"');
      const match = ok(found) ? (found.body as { id: number; name: string }[]).find((t) => decode(t.name).toLowerCase() === name.toLowerCase()) : undefined;
      if (match) parent = match.id;
      else {
        const created = await ctx.call("POST", route, { body: route.endsWith("categories") ? { name, parent } : { name } });
        if (!ok(created)) throw new RowRefused(`${route.endsWith("categories") ? "Categories" : "Tags"}: "${name}": ${refusalMessage(created)}`);
        parent = (created.body as { id: number }).id;
      }
    }
    if (parent) out.push(parent);
  }
  return [...new Set(out)];
}

/**
 * The terms a product's global attributes name that this shop lacks are created (WooCommerce's importer does the
 * same), through `wc/v3/products/attributes/{id}/terms`, in the row's savepoint. An attribute whose name is no global
 * attribute here stays a custom one (the product write decides that, by name).
 */
async function ensureAttributeTerms(ctx: ImportContext, attributes: { name: string; options?: string[] }[]): Promise<void> {
  const globals = await ctx.call("GET", "wc/v3/products/attributes");
  if (!ok(globals)) return;
  for (const a of attributes) {
    const name = a.name.trim().toLowerCase();
    const g = (globals.body as { id: number; name: string; slug: string }[]).find(
      (x) => x.name.toLowerCase() === name || x.slug === name || x.slug === `pa_${name}` || x.slug.replace(/^pa_/, "") === name,
    );
    if (!g || !a.options?.length) continue;
    const terms = await listAll<{ name: string; slug: string }>(ctx.call, `wc/v3/products/attributes/${g.id}/terms`, { hide_empty: "false" });
    if (isReply(terms)) continue;
    for (const option of a.options) {
      const o = option.toLowerCase();
      if (terms.some((t) => t.name.toLowerCase() === o || t.slug === o)) continue;
      const made = await ctx.call("POST", `wc/v3/products/attributes/${g.id}/terms`, { body: { name: option } });
      if (!ok(made)) throw new RowRefused(`Attributes: "${option}" could not be added to ${g.name}: ${refusalMessage(made)}`);
      terms.push(made.body as { name: string; slug: string });
    }
  }
}

/** Attachment ids for the addresses: this shop's own images by their slug, others downloaded (import only). */
async function imageIds(ctx: ImportContext, urls: string[], notes: string[]): Promise<number[] | null> {
  const out: number[] = [];
  let toFetch = 0;
  for (const raw of urls) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new RowRefused(`Images: "${raw}" is not an address.`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new RowRefused(`Images: only http and https addresses are imported, not "${raw}".`);
    const own = url.host === ctx.host ? /^\/media\/([a-z0-9-]+)\.svg$/.exec(url.pathname) : null;
    if (own) {
      const id = (await mediaIdsBySlug(ctx.services.db, [own[1]!])).get(own[1]!);
      if (id === undefined) throw new RowRefused(`Images: ${raw} is not an image of this shop.`);
      out.push(id);
      continue;
    }
    const known = ctx.images.get(url.href);
    if (known !== undefined) {
      out.push(known);
      continue;
    }
    toFetch++;
    if (!ctx.commit) continue;
    if (!roleCan(ctx.user.role, "upload_files")) throw new RowRefused("Images: you are not allowed to upload files.");
    let bytes: Buffer;
    try {
      bytes = await download(url.href, ctx.services.media.remoteAllowAddresses ?? []);
    } catch (error) {
      if (error instanceof RowRefused) throw error;
      throw new RowRefused(`Images: ${raw} could not be downloaded (${(error as Error).message}).`);
    }
    const name = decodeURIComponent(url.pathname.split("/").pop() || "image");
    const uploaded = await uploadImage(ctx.services.db, ctx.services.media, bytes, { filename: name }, ctx.user.id, ctx.services.now());
    if (!uploaded.ok) throw new RowRefused(`Images: ${raw}: ${uploaded.message}`);
    ctx.images.set(url.href, uploaded.id);
    out.push(uploaded.id);
  }
  if (toFetch && !ctx.commit) {
    notes.push(`${toFetch} image${toFetch === 1 ? "" : "s"} will be downloaded.`);
    return null; // the preview leaves images as they are
  }
  return out;
}

/** The image addresses a product or variation was imported from: the same ones again are not downloaded again. */
const importedFrom = (f: Found | null) => f?.meta_data?.find((m) => m.key === IMAGE_META)?.value;

async function importRow(ctx: ImportContext, plan: RowPlan): Promise<RowResult> {
  const base = { row: plan.line, kind: plan.kind, name: plan.name, sku: plan.sku };
  if (plan.problem) throw new RowRefused(plan.problem);
  if (plan.sku) {
    const earlier = ctx.skuRows.get(plan.sku.toLowerCase());
    if (earlier !== undefined) throw new RowRefused(`SKU: ${plan.sku} is also on row ${earlier}.`);
    ctx.skuRows.set(plan.sku.toLowerCase(), plan.line);
  }
  const notes: string[] = [];
  const body: Record<string, unknown> = { ...plan.body };
  const sameImages = (existing: Found | null, urls: string[]) => existing !== null && importedFrom(existing) === urls.join(" ");

  if (plan.kind === "product") {
    let existing: Found | null = null;
    if (plan.sku) existing = await findProduct(ctx, { sku: plan.sku });
    else {
      const r = await ctx.call("GET", "wc/v3/products", { query: { search: plan.name, status: "any", per_page: "100" } });
      const type = String(body.type ?? "simple");
      existing = ok(r) ? ((r.body as Found[]).find((p) => p.name === plan.name && p.type === type) ?? null) : null;
    }
    if (existing && !plan.name) delete body.name;
    if (Array.isArray(body.attributes)) await ensureAttributeTerms(ctx, body.attributes as { name: string; options?: string[] }[]);
    if (plan.categories) body.categories = (await termIds(ctx, "wc/v3/products/categories", plan.categories)).map((id) => ({ id }));
    if (plan.tags)
      body.tags = (
        await termIds(
          ctx,
          "wc/v3/products/tags",
          plan.tags.map((t) => [t]),
        )
      ).map((id) => ({ id }));
    if (plan.grouped) body.grouped_products = await productIds(ctx, plan.grouped, "Grouped products");
    if (plan.upsells) body.upsell_ids = await productIds(ctx, plan.upsells, "Upsells");
    if (plan.crossSells) body.cross_sell_ids = await productIds(ctx, plan.crossSells, "Cross-sells");
    if (plan.images && !sameImages(existing, plan.images)) {
      const ids = await imageIds(ctx, plan.images, notes);
      if (ids) {
        body.images = ids.map((id) => ({ id }));
        body.meta_data = [...((body.meta_data as unknown[]) ?? []), { key: IMAGE_META, value: plan.images.join(" ") }];
      }
    }
    const reply = existing ? await ctx.call("PUT", `wc/v3/products/${existing.id}`, { body }) : await ctx.call("POST", "wc/v3/products", { body });
    if (!ok(reply)) throw new RowRefused(refusalMessage(reply));
    const id = (reply.body as { id: number }).id;
    if (plan.fileId !== null) ctx.fileIds.set(plan.fileId, id);
    return { ...base, action: existing ? "update" : "create", id, ...(notes.length ? { notes } : {}) };
  }

  // A variation: under its parent, matched by SKU, else by its attributes.
  const parent = await findProduct(ctx, plan.parent!);
  if (!parent) {
    const ref = plan.parent!;
    throw new RowRefused(`Parent: ${"sku" in ref ? `no product has the SKU ${ref.sku}` : `no product id:${ref.id}`} (list the parent before its variations).`);
  }
  if (parent.type !== "variable") throw new RowRefused(`Parent: ${parent.name ?? parent.id} is not a variable product.`);
  const variations = await listAll<Found>(ctx.call, `wc/v3/products/${parent.id}/variations`);
  if (isReply(variations)) throw new RowRefused(refusalMessage(variations));
  const attrs = (body.attributes as { name: string; option: string }[] | undefined) ?? [];
  const same = (v: Found) =>
    (v.attributes ?? []).length === attrs.length &&
    attrs.every((a) => (v.attributes ?? []).some((x) => x.name.toLowerCase() === a.name.toLowerCase() && x.option.toLowerCase() === a.option.toLowerCase()));
  const skuOf = (v: Found) => (v as { sku?: string }).sku ?? "";
  const existing = plan.sku ? (variations.find((v) => skuOf(v).toLowerCase() === plan.sku.toLowerCase()) ?? null) : (variations.find(same) ?? null);
  if (plan.images && plan.images.length && !sameImages(existing, plan.images.slice(0, 1))) {
    const ids = await imageIds(ctx, plan.images.slice(0, 1), notes);
    if (ids) {
      body.image = ids.length ? { id: ids[0] } : null;
      body.meta_data = [...((body.meta_data as unknown[]) ?? []), { key: IMAGE_META, value: plan.images[0] }];
    }
  }
  const path = `wc/v3/products/${parent.id}/variations`;
  const reply = existing ? await ctx.call("PUT", `${path}/${existing.id}`, { body }) : await ctx.call("POST", path, { body });
  if (!ok(reply)) throw new RowRefused(refusalMessage(reply));
  const id = (reply.body as { id: number }).id;
  return { ...base, name: plan.name || (reply.body as { name: string }).name, action: existing ? "update" : "create", id, ...(notes.length ? { notes } : {}) };
}

/** One import at a time in this process: a second one is refused, not queued behind a long transaction. */
let importRunning = false;

const importSchema = z.object({
  csv: z.string().min(1, "csv must hold the file's text"),
  mode: z.enum(["preview", "import"]).default("preview"),
});

async function productImport(rest: RestRouter, input: RestInput): Promise<Reply> {
  const user = await staffUser(input, "edit_products");
  if (isReply(user)) return user;
  const args = parseArgs(importSchema, requestArgs({ query: {}, body: input.body }));
  if (!args.ok) return args.reply;
  const parsed = readProductCsv(args.data.csv);
  if (!parsed.ok) return restError("shop_import_invalid_file", parsed.message, 400);
  if (importRunning) return restError("shop_import_busy", "Another import is running. Try again when it has finished.", 409);
  importRunning = true;
  try {
    const commit = args.data.mode === "import";
    const plans = parsed.rows.map(planRow);
    const results: RowResult[] = [];
    const db = input.services.db;
    try {
      await db.transaction(async (tx) => {
        results.length = 0; // a retried transaction starts over
        const sp = savepointDb(db, tx);
        const services = { ...input.services, db: sp };
        const ctx: ImportContext = {
          call: caller(rest, input, services),
          services,
          user,
          commit,
          host: input.req.get("host") ?? "",
          fileIds: new Map(),
          skuRows: new Map(),
          images: new Map(),
        };
        for (const plan of plans) {
          try {
            results.push(await sp.step(() => importRow(ctx, plan)));
          } catch (error) {
            if (!(error instanceof RowRefused)) throw error;
            results.push({ row: plan.line, kind: plan.kind, name: plan.name, sku: plan.sku, action: "refused", message: error.message });
          }
        }
        if (!commit) throw new PreviewDone();
      });
    } catch (error) {
      if (!(error instanceof PreviewDone)) throw error;
    }
    const count = (action: RowResult["action"]) => results.filter((r) => r.action === action).length;
    const known = new Set<string>(PRODUCT_COLUMNS);
    const ignored = parsed.columns.filter(
      (c) =>
        c &&
        !known.has(c) &&
        !/^(Attribute \d+ (name|value\(s\)|visible|global|default)|Download \d+ (ID|name|URL)|Meta: .+|(Weight|Length|Width|Height) \(.*\))$/.test(c),
    );
    return {
      kind: "json",
      status: 200,
      body: {
        mode: args.data.mode,
        summary: { rows: results.length, create: count("create"), update: count("update"), refused: count("refused") },
        ignored_columns: ignored,
        rows: results,
      },
    };
  } finally {
    importRunning = false;
  }
}

// ---------------------------------------------------------------------------------------------------
// Exports
// ---------------------------------------------------------------------------------------------------

const csvReply = (filename: string, body: string): Reply => ({
  kind: "text",
  status: 200,
  body: `\uFEFF${body}`, // the BOM tells spreadsheets the file is UTF-8
  contentType: "text/csv; charset=UTF-8",
  headers: { "Content-Disposition": `attachment; filename="${filename}"`, "Cache-Control": "no-store" },
});

const today = (services: AppServices) => services.now().toISOString().slice(0, 10);

async function exportProducts(rest: RestRouter, input: RestInput): Promise<Reply> {
  const user = await staffUser(input, "edit_products");
  if (isReply(user)) return user;
  const call = caller(rest, input, input.services);
  const products = await listAll<ExportProduct>(call, "wc/v3/products", { status: "any", orderby: "id", order: "asc" });
  if (isReply(products)) return products;
  const categories = await listAll<{ id: number; name: string; parent: number }>(call, "wc/v3/products/categories", { hide_empty: "false" });
  if (isReply(categories)) return categories;
  const byId = new Map(categories.map((c) => [c.id, c]));
  const decode = (s: string) =>
    s
      .replace(/&amp;/g, "&")
      .replace(/&#0?39;/g, "'")
      .replace(/&quot;/g, '"');
  const path = (id: number): string => {
    const c = byId.get(id);
    if (!c) return "";
    return c.parent && byId.has(c.parent) ? `${path(c.parent)} > ${decode(c.name)}` : decode(c.name);
  };
  const withVariations: { product: ExportProduct; variations: ExportVariation[] }[] = [];
  for (const product of products.filter((p) => p.status !== "trash")) {
    let variations: ExportVariation[] = [];
    if (product.type === "variable") {
      const got = await listAll<ExportVariation>(call, `wc/v3/products/${product.id}/variations`, { orderby: "id", order: "asc" });
      if (isReply(got)) return got;
      variations = got;
    }
    withVariations.push({ product, variations });
  }
  return csvReply(`wc-product-export-${today(input.services)}.csv`, productsToCsv(withVariations, path));
}

interface OrderAddress {
  first_name: string;
  last_name: string;
  company: string;
  address_1: string;
  address_2: string;
  city: string;
  state: string;
  postcode: string;
  country: string;
  email?: string;
  phone?: string;
}

interface OrderJson {
  id: number;
  number: string;
  status: string;
  currency: string;
  date_created: string;
  date_paid: string | null;
  customer_id: number;
  customer_note: string;
  billing: OrderAddress;
  shipping: OrderAddress;
  payment_method_title: string;
  transaction_id: string;
  discount_total: string;
  shipping_total: string;
  total_tax: string;
  total: string;
  line_items: { name: string; sku: string; quantity: number; total: string }[];
  coupon_lines?: { code: string }[];
  refunds?: { total: string }[];
}

const ADDRESS_FIELDS = ["first_name", "last_name", "company", "address_1", "address_2", "city", "state", "postcode", "country"] as const;
const addressColumns = (kind: string) => ADDRESS_FIELDS.map((f) => `${kind} ${f.replace(/_/g, " ")}`);
const addressCells = (kind: string, a: OrderAddress | undefined) =>
  Object.fromEntries(ADDRESS_FIELDS.map((f) => [`${kind} ${f.replace(/_/g, " ")}`, String(a?.[f] ?? "")]));

const exportQuery = z.object({
  status: z.string().max(200).optional(),
  after: z.string().max(40).optional(),
  before: z.string().max(40).optional(),
  search: z.string().max(200).optional(),
});

async function exportOrders(rest: RestRouter, input: RestInput): Promise<Reply> {
  const user = await staffUser(input, "edit_shop_orders");
  if (isReply(user)) return user;
  const args = parseArgs(exportQuery, requestArgs({ query: input.query, body: {} }));
  if (!args.ok) return args.reply;
  const filters = Object.fromEntries(Object.entries(args.data).filter(([, v]) => v !== undefined && v !== ""));
  const orders = await listAll<OrderJson>(caller(rest, input, input.services), "wc/v3/orders", { ...filters, orderby: "id", order: "asc" });
  if (isReply(orders)) return orders;
  const columns = [
    "Order ID",
    "Order number",
    "Date created",
    "Date paid",
    "Status",
    "Customer ID",
    "Email",
    "Phone",
    ...addressColumns("Billing"),
    ...addressColumns("Shipping"),
    "Payment method",
    "Transaction ID",
    "Currency",
    "Discount total",
    "Shipping total",
    "Tax total",
    "Order total",
    "Refunded",
    "Coupons",
    "Items",
    "Customer note",
  ];
  const money = (cents: number) => (cents / 100).toFixed(2);
  const rows = orders.map((o) => ({
    "Order ID": String(o.id),
    "Order number": o.number,
    "Date created": o.date_created.replace("T", " "),
    "Date paid": (o.date_paid ?? "").replace("T", " "),
    Status: o.status,
    "Customer ID": String(o.customer_id),
    Email: o.billing.email ?? "",
    Phone: o.billing.phone ?? "",
    ...addressCells("Billing", o.billing),
    ...addressCells("Shipping", o.shipping),
    "Payment method": o.payment_method_title,
    "Transaction ID": o.transaction_id,
    Currency: o.currency,
    "Discount total": o.discount_total,
    "Shipping total": o.shipping_total,
    "Tax total": o.total_tax,
    "Order total": o.total,
    // Refund totals are negative decimal strings in WooCommerce's shape; summed in cents.
    Refunded: money(Math.abs((o.refunds ?? []).reduce((sum, r) => sum + Math.round(Number(r.total) * 100), 0))),
    Coupons: (o.coupon_lines ?? []).map((c) => c.code).join(", "),
    Items: o.line_items.map((l) => `${l.quantity} × ${l.name}${l.sku ? ` (${l.sku})` : ""}`).join("; "),
    "Customer note": o.customer_note,
  }));
  return csvReply(`orders-export-${today(input.services)}.csv`, toCsv(columns, rows));
}

interface CustomerJson {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  username: string;
  date_created: string;
  billing: OrderAddress;
  shipping: OrderAddress;
  orders_count?: number;
  total_spent?: string;
}

async function exportCustomers(rest: RestRouter, input: RestInput): Promise<Reply> {
  const user = await staffUser(input, "list_users");
  if (isReply(user)) return user;
  const customers = await listAll<CustomerJson>(caller(rest, input, input.services), "wc/v3/customers", { orderby: "id", order: "asc" });
  if (isReply(customers)) return customers;
  const columns = [
    "Customer ID",
    "Email",
    "First name",
    "Last name",
    "Username",
    "Date registered",
    "Phone",
    ...addressColumns("Billing"),
    ...addressColumns("Shipping"),
    "Orders",
    "Total spent",
  ];
  const rows = customers.map((c) => ({
    "Customer ID": String(c.id),
    Email: c.email,
    "First name": c.first_name,
    "Last name": c.last_name,
    Username: c.username,
    "Date registered": (c.date_created ?? "").replace("T", " "),
    Phone: c.billing?.phone ?? "",
    ...addressCells("Billing", c.billing),
    ...addressCells("Shipping", c.shipping),
    Orders: c.orders_count === undefined ? "" : String(c.orders_count),
    "Total spent": c.total_spent ?? "",
  }));
  return csvReply(`customers-export-${today(input.services)}.csv`, toCsv(columns, rows));
}

export const productCsvFeature: Feature = {
  name: "product-csv",
  endpoints({ rest }) {
    rest.register("POST", "shop/v1/product-import", (input) => productImport(rest, input));
    rest.register("GET", "shop/v1/exports/products", (input) => exportProducts(rest, input));
    rest.register("GET", "shop/v1/exports/orders", (input) => exportOrders(rest, input));
    rest.register("GET", "shop/v1/exports/customers", (input) => exportCustomers(rest, input));
  },
};
