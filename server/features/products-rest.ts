/**
 * WooCommerce's `wc/v3/products` and `wc/v3/products/{id}/variations` for staff (docs/contract/rest/products.md):
 * WooCommerce's shapes, list parameters and error codes over the shop's catalogue. Every route needs
 * `edit_products` (a guest gets WooCommerce's 401, a customer its 403); writes go through
 * core/commerce/products-admin.ts (one locked transaction with the audit line, decision 0021).
 */
import type { Request } from "express";
import { z } from "zod";
import { json, type Reply } from "../http/dispatch.ts";
import { restError, type RestInput, type RestUser } from "../http/rest.ts";
import { CONTEXTS, ifMatchOf, pageOutOfRange, pagedJson, parseArgs, requestArgs, restBool, restIdList, restInt } from "../http/rest-args.ts";
import { isReply, staffUser } from "../http/rest-permission.ts";
import { audit } from "../http/rest-audit.ts";
import type { Feature } from "./feature.ts";
import type { Queryable } from "../../core/db/client.ts";
import * as repo from "../../core/db/repositories/products-admin.ts";
import {
  attributeCatalog,
  removeProduct,
  removeVariation,
  productVersion,
  saveProduct,
  saveVariation,
  type AttributeCatalog,
  type ProductInput,
  type VariationInput,
  type WriteError,
  type WriteHooks,
} from "../../core/commerce/products-admin.ts";
import { centsToDecimal, decimalToCents, DECIMAL_PRICE } from "../../core/domain/catalog/rest-product.ts";
import { CATALOG_VISIBILITIES, shopPrice } from "../../core/domain/catalog/product-kinds.ts";
import type { ProductType } from "../../core/domain/catalog/products.ts";
import { downloadSettingsOf } from "../../core/domain/downloads/permissions.ts";
import { formatMoney, type CurrencyFormat } from "../../core/domain/money/money.ts";
import type { AppServices } from "../services.ts";
import { sanitizePostHtml } from "../../core/domain/text/kses.ts";

// ---------------------------------------------------------------------------------------------------
// Permission: WooCommerce's codes, by what the route does
// ---------------------------------------------------------------------------------------------------

const DENIED = {
  list: { code: "woocommerce_rest_cannot_view", message: "Sorry, you cannot list resources." },
  view: { code: "woocommerce_rest_cannot_view", message: "Sorry, you cannot view this resource." },
  create: { code: "woocommerce_rest_cannot_create", message: "Sorry, you are not allowed to create resources." },
  edit: { code: "woocommerce_rest_cannot_edit", message: "Sorry, you are not allowed to edit this resource." },
  delete: { code: "woocommerce_rest_cannot_delete", message: "Sorry, you are not allowed to delete this resource." },
  batch: { code: "woocommerce_rest_cannot_batch", message: "Sorry, you are not allowed to batch manipulate this resource." },
} as const;

const staff = (input: RestInput, what: keyof typeof DENIED) => staffUser(input, "edit_products", DENIED[what]);

const writeError = (e: WriteError): Reply =>
  e.params ? restError(e.code, e.message, e.status, { params: e.params, details: {} }) : restError(e.code, e.message, e.status, e.data ?? {});

// ---------------------------------------------------------------------------------------------------
// Shapes
// ---------------------------------------------------------------------------------------------------

/** WordPress's date fields: local and GMT without a zone suffix. The shop's clock is UTC, so both are the same. */
const wpDate = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString().slice(0, 19) : null);

const origin = (req: Request) => `${req.protocol}://${req.get("host")}`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function amountHtml(cents: number, format: CurrencyFormat): string {
  const number = formatMoney(cents, { ...format, symbol: "", position: "left" });
  const symbol = `<span class="woocommerce-Price-currencySymbol">${escapeHtml(format.symbol)}</span>`;
  const inner = format.position.startsWith("left") ? `${symbol}${number}` : `${number}${symbol}`;
  return `<span class="woocommerce-Price-amount amount"><bdi>${inner}</bdi></span>`;
}

/** WooCommerce's price_html: the price, a sale as <del>/<ins> with screen-reader text, or a range. */
function priceHtml(format: CurrencyFormat, regular: number | null, sale: number | null, min: number | null, max: number | null, range: boolean): string {
  if (range) {
    if (min === null) return "";
    return min === max ? amountHtml(min, format) : `${amountHtml(min, format)} &ndash; ${amountHtml(max ?? min, format)}`;
  }
  if (regular === null && sale === null) return "";
  if (sale !== null && regular !== null && sale < regular) {
    const plain = (c: number) => escapeHtml(formatMoney(c, format));
    return (
      `<del aria-hidden="true">${amountHtml(regular, format)}</del> <span class="screen-reader-text">Original price was: ${plain(regular)}.</span>` +
      `<ins aria-hidden="true">${amountHtml(sale, format)}</ins><span class="screen-reader-text">Current price is: ${plain(sale)}.</span>`
    );
  }
  return amountHtml(regular ?? sale!, format);
}

interface RestFields {
  weight?: string;
  dimensions?: { length: string; width: string; height: string };
  date_on_sale_from?: string | null;
  date_on_sale_to?: string | null;
  tax_status?: string;
  tax_class?: string;
  shipping_class?: string;
  purchase_note?: string;
  meta_data?: { id: number; key: string; value: unknown }[];
  virtual?: boolean;
  default_attributes?: { id: number; name: string; option: string }[];
}

const restFieldsOf = (value: unknown): RestFields => (value && typeof value === "object" ? (value as RestFields) : {});

const imageShape = (base: string, m: { id: number; slug: string; alt: string }, when: string | null) => ({
  id: m.id,
  date_created: when,
  date_created_gmt: when,
  date_modified: when,
  date_modified_gmt: when,
  src: `${base}/media/${m.slug}.svg`,
  name: m.slug,
  alt: m.alt,
});

interface StoredAttribute {
  name: string;
  label: string;
  options: string[];
  variation: boolean;
  visible?: boolean;
  position?: number;
}

function attributeId(catalog: AttributeCatalog, taxonomy: string): number {
  return catalog.taxonomies.find((t) => t.taxonomy === taxonomy)?.id ?? 0;
}

function termName(catalog: AttributeCatalog, taxonomy: string, slug: string): string {
  return catalog.terms.find((t) => t.taxonomy === taxonomy && t.slug === slug)?.name ?? slug;
}

const WIRE_TYPE: Record<string, string> = { downloadable: "simple" };

function productShape(req: Request, services: AppServices, catalog: AttributeCatalog, b: repo.AdminProductBundle) {
  const p = b.row;
  const base = origin(req);
  const format = services.config.currency.format;
  const extra = restFieldsOf(p.rest_fields);
  const details = (p.details as Record<string, unknown>) ?? {};
  const attributes = ((p.attributes as StoredAttribute[]) ?? []).map((a, i) => ({
    id: a.name.startsWith("pa_") ? attributeId(catalog, a.name) : 0,
    name: a.label,
    slug: a.name,
    position: a.position ?? i,
    visible: a.visible ?? true,
    variation: a.variation,
    options: a.name.startsWith("pa_") ? a.options.map((o) => termName(catalog, a.name, o)) : a.options,
  }));
  const range = p.type === "variable" || p.type === "grouped" || p.type === "bundle" || (p.type === "downloadable" && details.priceMode === "multi");
  const price = range ? p.price_min : p.regular_price === null ? p.sale_price : shopPrice(p.regular_price, p.sale_price);
  const onSale = p.sale_price !== null && p.regular_price !== null && p.sale_price < p.regular_price;
  const links = (kind: string) => b.links.filter((l) => l.kind === kind).map((l) => l.linkedId);
  const terms = (taxonomy: string) => b.terms.filter((t) => t.taxonomy === taxonomy).map((t) => ({ id: t.id, name: t.name, slug: t.slug }));
  const created = wpDate(p.created_at);
  const modified = wpDate(p.modified_at);
  const downloadable = p.type === "downloadable";
  const virtual = downloadable || extra.virtual === true;
  const manage = p.stock_quantity !== null;
  const dl = downloadSettingsOf(details);
  return {
    id: p.id,
    name: p.name,
    slug: p.slug,
    permalink: `${base}/product/${p.slug}/`,
    date_created: created,
    date_created_gmt: created,
    date_modified: modified,
    date_modified_gmt: modified,
    type: WIRE_TYPE[p.type] ?? p.type,
    status: p.status,
    featured: p.featured,
    catalog_visibility: p.catalog_visibility,
    description: p.description,
    short_description: p.short_description,
    sku: p.sku ?? "",
    price: centsToDecimal(price),
    regular_price: p.type === "variable" || p.type === "grouped" ? "" : centsToDecimal(p.regular_price),
    sale_price: p.type === "variable" || p.type === "grouped" ? "" : centsToDecimal(p.sale_price),
    date_on_sale_from: extra.date_on_sale_from ?? null,
    date_on_sale_from_gmt: extra.date_on_sale_from ?? null,
    date_on_sale_to: extra.date_on_sale_to ?? null,
    date_on_sale_to_gmt: extra.date_on_sale_to ?? null,
    price_html: priceHtml(format, p.regular_price, p.sale_price, p.price_min, p.price_max, range),
    on_sale: onSale || (p.type === "variable" && (b as ProductBundle).onSaleVariations === true),
    purchasable: p.type !== "external" && p.status === "publish" && price !== null,
    total_sales: p.total_sales,
    virtual,
    downloadable,
    downloads: downloadable ? dl.files.map((f) => ({ id: f.id, name: f.name, file: f.file })) : [],
    download_limit: downloadable ? dl.limit : -1,
    download_expiry: downloadable ? dl.expiryDays : -1,
    external_url: p.type === "external" ? String(details.productUrl ?? "") : "",
    button_text: p.type === "external" ? String(details.buttonText ?? "") : "",
    tax_status: extra.tax_status ?? "taxable",
    tax_class: extra.tax_class ?? "",
    manage_stock: manage,
    stock_quantity: p.stock_quantity,
    stock_status: p.stock_status,
    backorders: "no",
    backorders_allowed: false,
    backordered: false,
    low_stock_amount: null,
    sold_individually: false,
    weight: extra.weight ?? "",
    dimensions: extra.dimensions ?? { length: "", width: "", height: "" },
    shipping_required: !virtual && p.type !== "external",
    shipping_taxable: !virtual && p.type !== "external",
    shipping_class: extra.shipping_class ?? "",
    shipping_class_id: 0,
    reviews_allowed: p.comment_status === "open",
    average_rating: Number(p.rating_average).toFixed(2),
    rating_count: p.rating_count,
    related_ids: b.relatedIds,
    upsell_ids: links("upsell"),
    cross_sell_ids: links("cross_sell"),
    parent_id: 0,
    purchase_note: extra.purchase_note ?? "",
    categories: terms("product_cat"),
    tags: terms("product_tag"),
    images: b.images.map((m) => imageShape(base, m, created)),
    attributes,
    default_attributes: extra.default_attributes ?? [],
    variations: b.variationIds,
    grouped_products: links("grouped_child"),
    menu_order: p.menu_order,
    meta_data: extra.meta_data ?? [],
    // WooCommerce Product Bundles' field (ours: docs/contract/rest/products.md).
    ...(p.type === "bundle"
      ? {
          bundled_items: (
            (details.bundledItems as { bundledItemId: number; product: string; quantity: number; optional: boolean; discountPercent: number }[]) ?? []
          ).map((item) => ({
            bundled_item_id: item.bundledItemId,
            product_id: (b as ProductBundle).bundledIds.get(item.product) ?? 0,
            quantity_default: item.quantity,
            optional: item.optional,
            discount: item.discountPercent,
          })),
        }
      : {}),
    _links: { self: [{ href: `${base}/wp-json/wc/v3/products/${p.id}` }], collection: [{ href: `${base}/wp-json/wc/v3/products` }] },
  };
}

type ProductBundle = repo.AdminProductBundle & { onSaleVariations?: boolean; bundledIds: Map<string, number> };

/** The products in REST shape, in the order of `ids`. */
async function productShapes(db: Queryable, req: Request, services: AppServices, ids: number[]) {
  const [bundles, catalog] = await Promise.all([repo.loadAdminProducts(db, ids), attributeCatalog(db)]);
  const variable = bundles.filter((b) => b.row.type === "variable").map((b) => b.row.id);
  const onSale = new Set(await repo.productsWithSaleVariations(db, variable));
  const bundleSlugs = bundles.flatMap((b) =>
    b.row.type === "bundle" ? ((b.row.details as { bundledItems?: { product: string }[] }).bundledItems ?? []).map((i) => i.product) : [],
  );
  const bundledIds = new Map((await repo.productIdsBySlug(db, bundleSlugs)).map((r) => [r.slug, r.id]));
  return bundles.map((b) => productShape(req, services, catalog, { ...b, onSaleVariations: onSale.has(b.row.id), bundledIds } as ProductBundle));
}

interface VariationParent {
  id: number;
  slug: string;
  name: string;
  /** The parent's attribute names in its order (jsonb keeps a variation's keys in its own order). */
  attributeOrder: string[];
}

function variationShape(req: Request, catalog: AttributeCatalog, parent: VariationParent, v: repo.AdminVariationRow) {
  const base = origin(req);
  const extra = restFieldsOf(v.rest_fields);
  const created = wpDate(v.created_at);
  const modified = wpDate(v.modified_at);
  const rank = (key: string) => {
    const at = parent.attributeOrder.indexOf(key.replace(/^attribute_/, ""));
    return at < 0 ? Number.MAX_SAFE_INTEGER : at;
  };
  const entries = Object.entries((v.attributes as Record<string, string>) ?? {}).sort(([a], [b]) => rank(a) - rank(b));
  const attrs = entries
    .filter(([, value]) => value !== "")
    .map(([key, value]) => {
      const taxonomy = key.replace(/^attribute_/, "");
      const global = taxonomy.startsWith("pa_");
      const label = global ? (catalog.taxonomies.find((t) => t.taxonomy === taxonomy)?.label ?? taxonomy) : taxonomy;
      return { id: global ? attributeId(catalog, taxonomy) : 0, name: label, slug: taxonomy, option: global ? termName(catalog, taxonomy, value) : value };
    });
  const query = entries
    .filter(([, value]) => value !== "")
    .map(([k, value]) => `${encodeURIComponent(k)}=${encodeURIComponent(value)}`)
    .join("&");
  const manage = v.stock_quantity !== null;
  return {
    id: v.id,
    type: "variation",
    parent_id: v.product_id,
    name: [parent.name, ...attrs.map((a) => a.option)].join(" - "),
    date_created: created,
    date_created_gmt: created,
    date_modified: modified,
    date_modified_gmt: modified,
    description: v.description,
    permalink: `${base}/product/${parent.slug}/${query ? `?${query}` : ""}`,
    sku: v.sku ?? "",
    price: centsToDecimal(shopPrice(v.regular_price, v.sale_price)),
    regular_price: centsToDecimal(v.regular_price),
    sale_price: centsToDecimal(v.sale_price),
    date_on_sale_from: extra.date_on_sale_from ?? null,
    date_on_sale_from_gmt: extra.date_on_sale_from ?? null,
    date_on_sale_to: extra.date_on_sale_to ?? null,
    date_on_sale_to_gmt: extra.date_on_sale_to ?? null,
    on_sale: v.sale_price !== null && v.sale_price < v.regular_price,
    status: v.status,
    purchasable: v.status === "publish",
    virtual: extra.virtual === true,
    downloadable: false,
    downloads: [],
    download_limit: -1,
    download_expiry: -1,
    tax_status: extra.tax_status ?? "taxable",
    tax_class: extra.tax_class ?? "",
    manage_stock: manage,
    stock_quantity: v.stock_quantity,
    stock_status: v.stock_status,
    backorders: "no",
    backorders_allowed: false,
    backordered: false,
    low_stock_amount: null,
    weight: extra.weight ?? "",
    dimensions: extra.dimensions ?? { length: "", width: "", height: "" },
    shipping_class: extra.shipping_class ?? "",
    shipping_class_id: 0,
    image: v.image_id !== null && v.image_slug !== null ? imageShape(base, { id: v.image_id, slug: v.image_slug, alt: v.image_alt ?? "" }, created) : null,
    attributes: attrs.map(({ id, name, option }) => ({ id, name, option })),
    menu_order: v.menu_order,
    meta_data: extra.meta_data ?? [],
    _links: {
      self: [{ href: `${base}/wp-json/wc/v3/products/${v.product_id}/variations/${v.id}` }],
      collection: [{ href: `${base}/wp-json/wc/v3/products/${v.product_id}/variations` }],
      up: [{ href: `${base}/wp-json/wc/v3/products/${v.product_id}` }],
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------------------------------

const price = (name: string) =>
  z.string().refine((s) => s === "" || DECIMAL_PRICE.test(s), `${name} must be a decimal string ≥ 0 with at most 2 decimals, like "12.50"`);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const date = z.union([z.string().refine((s) => s === "" || (ISO_DATE.test(s) && !Number.isNaN(Date.parse(s))), "must be an ISO 8601 date"), z.null()]);
const text = (max: number) => z.string().max(max);
const stockQuantity = z.preprocess((v) => (typeof v === "string" && /^-?\d{1,10}$/.test(v.trim()) ? Number(v) : v), z.number().int().min(0).max(1_000_000_000));
const idRefs = z.array(z.object({ id: restInt(1) }).loose()).max(100);
const ids = z.array(restInt(1)).max(100);
const meta = z.array(z.object({ id: restInt(1).optional(), key: text(255).min(1), value: z.unknown() })).max(100);
/** `download_limit` / `download_expiry`: -1 (or blank, as WooCommerce's form sends it) = unlimited / never. */
const downloadCount = z.preprocess((v) => (v === "" || v === null ? -1 : v), restInt(-1, 1_000_000));
const dimension = z.string().refine((s) => s === "" || /^\d{1,7}(\.\d{1,4})?$/.test(s), "must be a decimal string");
const image = z
  .object({
    id: restInt(0).optional(),
    src: z.string().max(2000).optional(),
    name: text(200).optional(),
    alt: text(500).optional(),
    position: restInt(0).optional(),
  })
  .loose();

/** The fields WooCommerce and the shop share; the rest are WooCommerce-only (kept in rest_fields) or fixed. */
const common = {
  sku: text(100).optional(),
  regular_price: price("regular_price").optional(),
  sale_price: price("sale_price").optional(),
  date_on_sale_from: date.optional(),
  date_on_sale_from_gmt: date.optional(),
  date_on_sale_to: date.optional(),
  date_on_sale_to_gmt: date.optional(),
  virtual: restBool().optional(),
  tax_status: z.enum(["taxable", "shipping", "none"]).optional(),
  tax_class: text(100).optional(),
  manage_stock: restBool().optional(),
  stock_quantity: stockQuantity.optional(),
  stock_status: z.enum(["instock", "outofstock", "onbackorder"]).optional(),
  backorders: z.literal("no", { message: 'this shop takes no backorders: only "no"' }).optional(),
  weight: dimension.optional(),
  dimensions: z.object({ length: dimension.optional(), width: dimension.optional(), height: dimension.optional() }).optional(),
  shipping_class: text(100).optional(),
  menu_order: restInt(-1_000_000, 1_000_000).optional(),
  meta_data: meta.optional(),
  description: text(100_000).optional(),
};

const productWriteSchema = z.object({
  ...common,
  name: text(200).optional(),
  slug: text(190).optional(),
  type: z.enum(["simple", "grouped", "external", "variable", "bundle"]).optional(),
  status: z.enum(["draft", "pending", "private", "publish"]).optional(),
  featured: restBool().optional(),
  catalog_visibility: z.enum(CATALOG_VISIBILITIES, { message: `catalog_visibility must be one of: ${CATALOG_VISIBILITIES.join(", ")}` }).optional(),
  short_description: text(20_000).optional(),
  downloadable: restBool().optional(),
  downloads: z
    .array(z.object({ id: z.string().max(64).optional(), name: text(200), file: z.url({ protocol: /^https?$/ }) }))
    .max(50)
    .optional(),
  download_limit: downloadCount.optional(),
  download_expiry: downloadCount.optional(),
  external_url: z.union([z.literal(""), z.url({ protocol: /^https?$/ })]).optional(),
  button_text: text(200).optional(),
  sold_individually: z.literal(false, { message: "this shop has no per-order limit: only false" }).optional(),
  reviews_allowed: restBool().optional(),
  upsell_ids: ids.optional(),
  cross_sell_ids: ids.optional(),
  purchase_note: text(5000).optional(),
  categories: idRefs.optional(),
  tags: idRefs.optional(),
  images: z.array(image).max(50).optional(),
  attributes: z
    .array(
      z.object({
        id: restInt(0).optional(),
        name: text(200).optional(),
        position: restInt(0).optional(),
        visible: restBool().optional(),
        variation: restBool().optional(),
        options: z.array(text(200)).max(200).optional(),
      }),
    )
    .max(50)
    .optional(),
  default_attributes: z
    .array(z.object({ id: restInt(0).optional(), name: text(200).optional(), option: text(200) }))
    .max(50)
    .optional(),
  grouped_products: ids.optional(),
  bundled_items: z
    .array(
      z.object({
        bundled_item_id: restInt(1).optional(),
        product_id: restInt(1),
        quantity_default: restInt(1, 1000).default(1),
        optional: restBool().default(false),
        discount: z.preprocess((v) => (v === "" || v === null ? 0 : typeof v === "string" ? Number(v) : v), z.number().min(0).max(100)).default(0),
      }),
    )
    .max(50)
    .optional(),
});
type ProductWrite = z.output<typeof productWriteSchema>;

const variationWriteSchema = z.object({
  ...common,
  status: z.enum(["draft", "pending", "private", "publish"]).optional(),
  image: z.union([image, z.null()]).optional(),
  attributes: z
    .array(z.object({ id: restInt(0).optional(), name: text(200).optional(), option: text(200) }))
    .max(50)
    .optional(),
});
type VariationWrite = z.output<typeof variationWriteSchema>;

/** The fields only WooCommerce uses, to keep (rest_fields). */
function restFieldsPatch(w: ProductWrite | VariationWrite): Record<string, unknown> | undefined {
  const patch: Record<string, unknown> = {};
  const from = w.date_on_sale_from_gmt ?? w.date_on_sale_from;
  const to = w.date_on_sale_to_gmt ?? w.date_on_sale_to;
  if (from !== undefined) patch.date_on_sale_from = from || null;
  if (to !== undefined) patch.date_on_sale_to = to || null;
  if (w.virtual !== undefined) patch.virtual = w.virtual;
  if (w.tax_status !== undefined) patch.tax_status = w.tax_status;
  if (w.tax_class !== undefined) patch.tax_class = w.tax_class;
  if (w.weight !== undefined) patch.weight = w.weight;
  if (w.dimensions !== undefined) patch.dimensions = { length: "", width: "", height: "", ...w.dimensions };
  if (w.shipping_class !== undefined) patch.shipping_class = w.shipping_class;
  if (w.meta_data !== undefined) patch.meta_data = w.meta_data;
  if ("purchase_note" in w && w.purchase_note !== undefined) patch.purchase_note = w.purchase_note;
  if ("default_attributes" in w && w.default_attributes !== undefined) patch.default_attributes = w.default_attributes;
  return Object.keys(patch).length ? patch : undefined;
}

/** Images by id only: a `src` would make the server fetch a URL; uploads go through wp/v2/media. */
function imageIds(images: z.output<typeof image>[]): number[] | Reply {
  const out: number[] = [];
  for (const img of images) {
    if (!img.id) {
      return restError(
        "woocommerce_product_image_upload_error",
        'Images are accepted by id only: upload the file with POST /wp-json/wp/v2/media and send {"id": <its id>}.',
        400,
      );
    }
    out.push(img.id);
  }
  return out;
}

const cents = (s: string | undefined) => (s === undefined ? undefined : decimalToCents(s));

function productInput(w: ProductWrite, current: { type: string } | null): ProductInput | Reply {
  const wireType = w.type ?? (current ? (WIRE_TYPE[current.type] ?? current.type) : "simple");
  let type: string = wireType;
  if (wireType === "simple") {
    const downloadable = w.downloadable ?? current?.type === "downloadable";
    type = downloadable ? "downloadable" : "simple";
  } else if (w.downloadable === true) {
    return restError("rest_invalid_param", "Invalid parameter(s): downloadable", 400, {
      params: { downloadable: "downloadable: only a simple product can be downloadable" },
    });
  }
  const images = w.images === undefined ? undefined : imageIds(w.images);
  if (images !== undefined && !Array.isArray(images)) return images;
  return {
    name: w.name,
    slug: w.slug,
    type,
    status: w.status,
    featured: w.featured,
    catalogVisibility: w.catalog_visibility,
    // WooCommerce stores both as HTML; what a reader's browser may run never reaches the database (wp_kses_post).
    description: w.description === undefined ? undefined : sanitizePostHtml(w.description),
    shortDescription: w.short_description === undefined ? undefined : sanitizePostHtml(w.short_description),
    sku: w.sku,
    regularPrice: cents(w.regular_price),
    salePrice: cents(w.sale_price),
    manageStock: w.manage_stock,
    stockQuantity: w.stock_quantity,
    stockStatus: w.stock_status,
    menuOrder: w.menu_order,
    reviewsAllowed: w.reviews_allowed,
    categoryIds: w.categories?.map((c) => c.id),
    tagIds: w.tags?.map((t) => t.id),
    imageIds: images,
    attributes: w.attributes,
    upsellIds: w.upsell_ids,
    crossSellIds: w.cross_sell_ids,
    groupedIds: w.grouped_products,
    externalUrl: w.external_url,
    buttonText: w.button_text,
    bundledItems: w.bundled_items?.map((b) => ({
      bundledItemId: b.bundled_item_id,
      productId: b.product_id,
      quantity: b.quantity_default,
      optional: b.optional,
      discount: b.discount,
    })),
    downloads: w.downloads,
    downloadLimit: w.download_limit,
    downloadExpiry: w.download_expiry,
    restFields: restFieldsPatch(w),
  };
}

function variationInput(w: VariationWrite): VariationInput | Reply {
  let imageId: number | null | undefined;
  if (w.image === null) imageId = null;
  else if (w.image !== undefined) {
    const got = imageIds([w.image]);
    if (!Array.isArray(got)) return got;
    imageId = got[0]!;
  }
  return {
    sku: w.sku,
    regularPrice: cents(w.regular_price),
    salePrice: cents(w.sale_price),
    status: w.status,
    manageStock: w.manage_stock,
    stockQuantity: w.stock_quantity,
    stockStatus: w.stock_status,
    imageId,
    menuOrder: w.menu_order,
    description: w.description === undefined ? undefined : sanitizePostHtml(w.description),
    attributes: w.attributes,
    restFields: restFieldsPatch(w),
  };
}

const listSchema = z.object({
  context: z.enum(CONTEXTS).default("view"),
  page: restInt(1, 1_000_000).default(1),
  per_page: restInt(1, 100).default(10),
  offset: restInt(0, 100_000_000).optional(),
  search: z.string().max(200).optional(),
  order: z.enum(["asc", "desc"]).default("desc"),
  orderby: z.enum(["date", "modified", "id", "include", "title", "slug", "price", "popularity", "rating", "menu_order"]).default("date"),
  status: z.enum(["any", "draft", "pending", "private", "publish", "trash"]).default("any"),
  type: z.enum(["simple", "grouped", "external", "variable", "bundle"]).optional(),
  sku: z.string().max(1000).optional(),
  featured: restBool().optional(),
  category: z
    .string()
    .regex(/^\d+(,\d+)*$/, "must be a term id or ids separated by commas")
    .optional(),
  tag: z
    .string()
    .regex(/^\d+(,\d+)*$/, "must be a term id or ids separated by commas")
    .optional(),
  on_sale: restBool().optional(),
  min_price: price("min_price").optional(),
  max_price: price("max_price").optional(),
  stock_status: z.enum(["instock", "outofstock", "onbackorder"]).optional(),
  downloadable: restBool().optional(),
  include: restIdList().optional(),
  exclude: restIdList().optional(),
});

/** The stored types a list asks for: `type` (a downloadable product is a simple one on the wire) narrowed by `downloadable`. */
function listTypes(type: string | undefined, downloadable: boolean | undefined): string[] | undefined {
  const all: ProductType[] = ["simple", "variable", "grouped", "bundle", "external", "downloadable"];
  const types: string[] | undefined = type ? (type === "simple" ? ["simple", "downloadable"] : [type]) : undefined;
  if (downloadable === undefined) return types;
  const narrowed = (types ?? all).filter((t) => (t === "downloadable") === downloadable);
  return narrowed.length ? narrowed : ["none"];
}

const variationListSchema = z.object({
  context: z.enum(CONTEXTS).default("view"),
  page: restInt(1, 1_000_000).default(1),
  per_page: restInt(1, 100).default(10),
  offset: restInt(0, 100_000_000).optional(),
  order: z.enum(["asc", "desc"]).default("desc"),
  orderby: z.enum(["date", "id", "menu_order"]).default("date"),
  include: restIdList().optional(),
  exclude: restIdList().optional(),
  sku: z.string().max(100).optional(),
});

const idParam = (input: RestInput, name = "id") => Number(input.pathParams[name]);

// ---------------------------------------------------------------------------------------------------
// Audit: the REST shape before and after, reduced to the fields that changed
// ---------------------------------------------------------------------------------------------------

const IGNORED = new Set(["date_modified", "date_modified_gmt", "_links"]);

function changedFields(before: Record<string, unknown> | null, after: Record<string, unknown> | null): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const k of keys) {
    if (IGNORED.has(k)) continue;
    const b = before?.[k] ?? null;
    const a = after?.[k] ?? null;
    if (JSON.stringify(b) !== JSON.stringify(a)) changes[k] = { before: b, after: a };
  }
  return changes;
}

function productHooks(input: RestInput, user: RestUser, objectType: "product" | "product_variation", parent?: VariationParent): WriteHooks {
  return {
    async snapshot(tx, id) {
      if (objectType === "product") return ((await productShapes(tx, input.req, input.services, [id]))[0] as Record<string, unknown> | undefined) ?? null;
      const v = await repo.findAdminVariation(tx, id);
      return v && parent ? variationShape(input.req, await attributeCatalog(tx), parent, v) : null;
    },
    async record(tx, action, id, before, after) {
      await audit(input, user, { action, objectType, objectId: id, changes: changedFields(before, after) }, tx);
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------------------------------

async function listProducts(input: RestInput): Promise<Reply> {
  const user = await staff(input, "list");
  if (isReply(user)) return user;
  const args = parseArgs(listSchema, requestArgs(input));
  if (!args.ok) return args.reply;
  const a = args.data;
  const offset = a.offset ?? (a.page - 1) * a.per_page;
  const split = (s: string | undefined) => (s ? s.split(",").map(Number) : undefined);
  const { ids: pageIds, total } = await repo.listAdminProductIds(input.services.db, {
    search: a.search,
    status: a.status,
    types: listTypes(a.type, a.downloadable),
    skus: a.sku
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    featured: a.featured,
    categoryIds: split(a.category),
    tagIds: split(a.tag),
    onSale: a.on_sale,
    minPrice: a.min_price ? (decimalToCents(a.min_price) ?? undefined) : undefined,
    maxPrice: a.max_price ? (decimalToCents(a.max_price) ?? undefined) : undefined,
    stockStatus: a.stock_status,
    include: a.include,
    exclude: a.exclude,
    orderby: a.orderby,
    order: a.order,
    limit: a.per_page,
    offset,
  });
  const outOfRange = a.offset === undefined ? pageOutOfRange(total, a.page, a.per_page) : null;
  if (outOfRange) return outOfRange;
  return pagedJson(input.req, await productShapes(input.services.db, input.req, input.services, pageIds), total, a.page, a.per_page);
}

/**
 * The product's version as an ETag (docs/contract/rest/products.md 'Two editors at once'): a client that sends it
 * back as `If-Match` with an update has the update refused if someone else saved the product in between.
 */
async function versionHeaders(db: Queryable, id: number): Promise<Record<string, string>> {
  const row = await repo.findProductRow(db, id);
  return row ? { ETag: `"${productVersion(row.modified_at)}"` } : {};
}

async function getProduct(input: RestInput): Promise<Reply> {
  const user = await staff(input, "view");
  if (isReply(user)) return user;
  const id = idParam(input);
  const [shape] = await productShapes(input.services.db, input.req, input.services, [id]);
  return shape ? json(shape, 200, await versionHeaders(input.services.db, id)) : restError("woocommerce_rest_product_invalid_id", "Invalid ID.", 404);
}

async function writeProduct(input: RestInput, id: number | null, batchItem = false): Promise<Reply> {
  const user = await staff(input, id === null ? "create" : "edit");
  if (isReply(user)) return user;
  // A body id on an item route is ignored (the path names the product), as WooCommerce does; on create it is refused.
  if (id === null && input.body && typeof input.body === "object" && (input.body as { id?: unknown }).id) {
    return restError("woocommerce_rest_product_exists", "Cannot create existing product.", 400);
  }
  const args = parseArgs(productWriteSchema, requestArgs({ query: {}, body: input.body }));
  if (!args.ok) return args.reply;
  const current = id === null ? null : (await repo.productsByIds(input.services.db, [id]))[0];
  if (id !== null && !current) return restError("woocommerce_rest_product_invalid_id", "Invalid ID.", 404);
  const parsed = productInput(args.data, current ?? null);
  if (isReply(parsed)) return parsed;
  // A batch's items are WooCommerce's last write wins: the batch request's own If-Match names no one product.
  const ifMatch = id === null || batchItem ? undefined : ifMatchOf(input.req);
  const result = await saveProduct(input.services.db, id, { ...parsed, ...(ifMatch === undefined ? {} : { ifMatch }) }, productHooks(input, user, "product"));
  if (!result.ok) return writeError(result.error);
  const [shape] = await productShapes(input.services.db, input.req, input.services, [result.id]);
  return json(shape, id === null ? 201 : 200, await versionHeaders(input.services.db, result.id));
}

async function deleteProductRoute(input: RestInput): Promise<Reply> {
  const user = await staff(input, "delete");
  if (isReply(user)) return user;
  const args = parseArgs(z.object({ force: restBool().default(false) }).loose(), requestArgs(input));
  if (!args.ok) return args.reply;
  const id = idParam(input);
  const result = await removeProduct(input.services.db, id, args.data.force, productHooks(input, user, "product"));
  if (!result.ok) return writeError(result.error);
  // WooCommerce answers the product as it was (force) or as it is now, in the trash.
  if (args.data.force) return json(result.before);
  const [shape] = await productShapes(input.services.db, input.req, input.services, [id]);
  return json(shape);
}

async function variationParent(input: RestInput): Promise<VariationParent | Reply> {
  const id = idParam(input, "product_id");
  const [full] = await repo.loadAdminProducts(input.services.db, [id]);
  if (!full) return restError("woocommerce_rest_product_invalid_id", "Invalid ID.", 404);
  const attributeOrder = ((full.row.attributes as StoredAttribute[]) ?? []).map((a) => a.name);
  return { id, slug: full.row.slug, name: full.row.name, attributeOrder };
}

async function listVariations(input: RestInput): Promise<Reply> {
  const user = await staff(input, "list");
  if (isReply(user)) return user;
  const args = parseArgs(variationListSchema, requestArgs(input));
  if (!args.ok) return args.reply;
  const parent = await variationParent(input);
  if (isReply(parent)) return parent;
  const a = args.data;
  const { rows, total } = await repo.listAdminVariations(input.services.db, parent.id, {
    limit: a.per_page,
    offset: a.offset ?? (a.page - 1) * a.per_page,
    order: a.order,
    orderby: a.orderby,
    include: a.include,
    exclude: a.exclude,
    sku: a.sku,
  });
  const catalog = await attributeCatalog(input.services.db);
  return pagedJson(
    input.req,
    rows.map((v) => variationShape(input.req, catalog, parent, v)),
    total,
    a.page,
    a.per_page,
  );
}

async function getVariation(input: RestInput): Promise<Reply> {
  const user = await staff(input, "view");
  if (isReply(user)) return user;
  const parent = await variationParent(input);
  if (isReply(parent)) return parent;
  const v = await repo.findAdminVariation(input.services.db, idParam(input));
  if (!v || v.product_id !== parent.id) return restError("woocommerce_rest_product_variation_invalid_id", "Invalid ID.", 404);
  return json(variationShape(input.req, await attributeCatalog(input.services.db), parent, v), 200, { ETag: `"${productVersion(v.modified_at)}"` });
}

/**
 * Writes a variation. On its own route an update or delete honours `If-Match` with the variation's ETag (its own
 * version, as for products: docs/contract/rest/products.md 'Two editors at once'); a batch's items do not.
 */
async function writeVariation(input: RestInput, id: number | null, batchItem = false): Promise<Reply> {
  const user = await staff(input, id === null ? "create" : "edit");
  if (isReply(user)) return user;
  const args = parseArgs(variationWriteSchema, requestArgs({ query: {}, body: input.body }));
  if (!args.ok) return args.reply;
  const parent = await variationParent(input);
  if (isReply(parent)) return parent;
  const parsed = variationInput(args.data);
  if (isReply(parsed)) return parsed;
  const ifMatch = id === null || batchItem ? undefined : ifMatchOf(input.req);
  const result = await saveVariation(
    input.services.db,
    parent.id,
    id,
    { ...parsed, ...(ifMatch === undefined ? {} : { ifMatch }) },
    productHooks(input, user, "product_variation", parent),
  );
  if (!result.ok) return writeError(result.error);
  const v = (await repo.findAdminVariation(input.services.db, result.id))!;
  return json(variationShape(input.req, await attributeCatalog(input.services.db), parent, v), id === null ? 201 : 200, {
    ETag: `"${productVersion(v.modified_at)}"`,
  });
}

async function deleteVariationRoute(input: RestInput, batchItem = false): Promise<Reply> {
  const user = await staff(input, "delete");
  if (isReply(user)) return user;
  const args = parseArgs(z.object({ force: restBool().default(false) }).loose(), requestArgs(input));
  if (!args.ok) return args.reply;
  const parent = await variationParent(input);
  if (isReply(parent)) return parent;
  const id = idParam(input);
  const v = await repo.findAdminVariation(input.services.db, id);
  if (!v || v.product_id !== parent.id) return restError("woocommerce_rest_product_variation_invalid_id", "Invalid ID.", 404);
  // Variations are not trashed in WooCommerce: without force it answers 501.
  if (!args.data.force) return restError("woocommerce_rest_trash_not_supported", "Variations do not support trashing.", 501);
  const before = variationShape(input.req, await attributeCatalog(input.services.db), parent, v);
  const ifMatch = batchItem ? undefined : ifMatchOf(input.req);
  const result = await removeVariation(input.services.db, parent.id, id, productHooks(input, user, "product_variation", parent), ifMatch);
  if (!result.ok) return writeError(result.error);
  return json(before);
}

/** WooCommerce's batch: {create: [], update: [{id, …}], delete: [ids]} → the same keys with each item's answer or error. */
async function batch(
  input: RestInput,
  one: { create: (body: unknown) => Promise<Reply>; update: (id: number, body: unknown) => Promise<Reply>; remove: (id: number) => Promise<Reply> },
) {
  const user = await staff(input, "batch");
  if (isReply(user)) return user;
  const schema = z.object({
    create: z.array(z.record(z.string(), z.unknown())).max(100).optional(),
    update: z
      .array(z.object({ id: restInt(1) }).loose())
      .max(100)
      .optional(),
    delete: z.array(restInt(1)).max(100).optional(),
  });
  const args = parseArgs(schema, requestArgs({ query: {}, body: input.body }));
  if (!args.ok) return args.reply;
  const total = (args.data.create?.length ?? 0) + (args.data.update?.length ?? 0) + (args.data.delete?.length ?? 0);
  if (total > 100) return restError("rest_request_entity_too_large", "Unable to accept more than 100 items for this request.", 413);
  const itemOf = (reply: Reply, id?: number) =>
    reply.kind === "json" && (reply.status ?? 200) < 400 ? reply.body : { id: id ?? 0, error: { ...(reply.kind === "json" ? (reply.body as object) : {}) } };
  const out: Record<string, unknown[]> = {};
  if (args.data.create) {
    out.create = [];
    for (const body of args.data.create) out.create.push(itemOf(await one.create(body)));
  }
  if (args.data.update) {
    out.update = [];
    for (const item of args.data.update) out.update.push(itemOf(await one.update(item.id, item), item.id));
  }
  if (args.data.delete) {
    out.delete = [];
    for (const id of args.data.delete) out.delete.push(itemOf(await one.remove(id), id));
  }
  return json(out);
}

const withBody = (input: RestInput, body: unknown, pathParams = input.pathParams, query = input.query): RestInput => ({ ...input, body, pathParams, query });

export const productsRestFeature: Feature = {
  name: "products-rest",
  endpoints({ rest }) {
    if (!rest.namespaces.includes("wc/v3")) rest.namespaces.push("wc/v3");
    const PRODUCT = "wc/v3/products/:id(\\d+)";
    const VARIATIONS = "wc/v3/products/:product_id(\\d+)/variations";
    const VARIATION = `${VARIATIONS}/:id(\\d+)`;
    rest.register("GET", "wc/v3/products", listProducts);
    rest.register("POST", "wc/v3/products", (input) => writeProduct(input, null));
    rest.register("GET", PRODUCT, getProduct);
    for (const method of ["POST", "PUT", "PATCH"]) rest.register(method, PRODUCT, (input) => writeProduct(input, idParam(input)));
    rest.register("DELETE", PRODUCT, deleteProductRoute);
    for (const method of ["POST", "PUT", "PATCH"])
      rest.register(method, "wc/v3/products/batch", (input) =>
        batch(input, {
          create: (body) => writeProduct(withBody(input, body), null),
          update: (id, body) => writeProduct(withBody(input, body, { id: String(id) }), id, true),
          remove: (id) => deleteProductRoute(withBody(input, {}, { id: String(id) }, { force: "true" })),
        }),
      );

    rest.register("GET", VARIATIONS, listVariations);
    rest.register("POST", VARIATIONS, (input) => writeVariation(input, null));
    rest.register("GET", VARIATION, getVariation);
    for (const method of ["POST", "PUT", "PATCH"]) rest.register(method, VARIATION, (input) => writeVariation(input, idParam(input)));
    rest.register("DELETE", VARIATION, (input) => deleteVariationRoute(input));
    for (const method of ["POST", "PUT", "PATCH"])
      rest.register(method, `${VARIATIONS}/batch`, (input) =>
        batch(input, {
          create: (body) => writeVariation(withBody(input, body), null, true),
          update: (id, body) => writeVariation(withBody(input, body, { ...input.pathParams, id: String(id) }), id, true),
          remove: (id) => deleteVariationRoute(withBody(input, {}, { ...input.pathParams, id: String(id) }, { force: "true" }), true),
        }),
      );
  },
};
