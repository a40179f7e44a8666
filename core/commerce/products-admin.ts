/**
 * Writing the catalogue through the staff REST API (docs/contract/rest/products.md, decision 0021): one transaction
 * per write that locks the product (or variation) row first, checks every reference (categories, tags, images,
 * linked products, attribute terms, the SKU), writes, recomputes the price range the listing shows (its own and
 * that of grouped products and bundles containing it) and records the audit line, so the storefront shows the
 * change with its next request and a concurrent checkout never loses a stock update.
 */
import { randomUUID } from "node:crypto";
import type { Db, Queryable } from "../db/client.ts";
import * as repo from "../db/repositories/products-admin.ts";
import { lockKey } from "../db/repositories/locks.ts";
import { findDownloadFile } from "../db/repositories/downloads.ts";
import { privateKeyOf } from "../domain/downloads/permissions.ts";
import { listAttributes } from "../db/repositories/taxonomies.ts";
import { invalidatePricingSetupCache } from "../db/repositories/discounts.ts";
import { managedStockStatus, priceRange, slugify } from "../domain/catalog/rest-product.ts";
import { shopPrice, type StoredBundledItem } from "../domain/catalog/product-kinds.ts";

/** A refusal the REST layer answers as is: `params` makes it `rest_invalid_param` naming the fields. */
export interface WriteError {
  code: string;
  message: string;
  status: number;
  params?: Record<string, string>;
  data?: Record<string, unknown>;
}

export type WriteResult = { ok: true; id: number } | { ok: false; error: WriteError };

const invalid = (field: string, message: string): WriteError => ({
  code: "rest_invalid_param",
  message: `Invalid parameter(s): ${field}`,
  status: 400,
  params: { [field]: message },
});

export interface AttributeInput {
  id?: number;
  name?: string;
  options?: string[];
  option?: string;
  variation?: boolean;
  visible?: boolean;
  position?: number;
}

/** A product write as the REST layer parsed it: prices in cents, every field optional (an update changes what it names). */
export interface ProductInput {
  name?: string;
  slug?: string;
  /** Stored kind: simple, variable, grouped, external, bundle, downloadable. */
  type?: string;
  status?: string;
  featured?: boolean;
  /** visible | catalog | search | hidden: where the storefront lists it (core/db/repositories/catalog.ts). */
  catalogVisibility?: string;
  description?: string;
  shortDescription?: string;
  sku?: string | null;
  regularPrice?: number | null;
  salePrice?: number | null;
  manageStock?: boolean;
  stockQuantity?: number;
  stockStatus?: string;
  menuOrder?: number;
  reviewsAllowed?: boolean;
  categoryIds?: number[];
  tagIds?: number[];
  imageIds?: number[];
  attributes?: AttributeInput[];
  upsellIds?: number[];
  crossSellIds?: number[];
  groupedIds?: number[];
  externalUrl?: string;
  buttonText?: string;
  bundledItems?: { bundledItemId?: number; productId: number; quantity: number; optional: boolean; discount: number }[];
  downloads?: { id?: string; name: string; file: string }[];
  /** -1 = unlimited (WooCommerce's `download_limit`). */
  downloadLimit?: number;
  /** Days; -1 = never (WooCommerce's `download_expiry`). */
  downloadExpiry?: number;
  /** WooCommerce fields kept for integrations, unused by the storefront (merged into rest_fields). */
  restFields?: Record<string, unknown>;
  /**
   * The version the writer read (`productVersion`, sent as `If-Match`): when given and the product has changed since,
   * the update is refused with 412 `rest_product_changed` and nothing is written (docs/contract/rest/products.md).
   */
  ifMatch?: string;
}

/**
 * A product's version for optimistic concurrency: its modification time in milliseconds, as a string. Every write of
 * the product sets `modified_at` to its transaction's time, and a writer reads the version before it writes, so a
 * later write always carries a different version.
 */
export function productVersion(modifiedAt: Date | string): string {
  return String(new Date(modifiedAt).getTime());
}

const changedSinceOpened: WriteError = {
  code: "rest_product_changed",
  message: "This product was changed since you opened it. Reload it to see the changes, then make yours again.",
  status: 412,
};

/** Observes the object before and after the write (the REST shape) and records the audit line, in the transaction. */
export interface WriteHooks {
  snapshot(tx: Queryable, id: number): Promise<Record<string, unknown> | null>;
  record(tx: Queryable, action: string, id: number, before: Record<string, unknown> | null, after: Record<string, unknown> | null): Promise<void>;
}

class Refusal extends Error {
  constructor(readonly error: WriteError) {
    super(error.message);
  }
}

/** Runs `fn` in a transaction; a Refusal thrown inside rolls it back and becomes the answer. */
async function inTransaction(db: Db, fn: (tx: Queryable) => Promise<number>): Promise<WriteResult> {
  try {
    const id = await db.transaction(fn);
    // Discount rules name products and categories; the cached setup must not outlive a catalogue change.
    invalidatePricingSetupCache();
    return { ok: true, id };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, error: error.error };
    if ((error as { code?: string }).code === "23505") return { ok: false, error: skuError(null) };
    throw error;
  }
}

const skuError = (owner: number | null): WriteError => ({
  code: "product_invalid_sku",
  message: "Invalid or duplicated SKU.",
  status: 400,
  data: owner === null ? {} : { resource_id: owner },
});

const notFound = (what: "product" | "product_variation"): WriteError => ({ code: `woocommerce_rest_${what}_invalid_id`, message: "Invalid ID.", status: 404 });

// ---------------------------------------------------------------------------------------------------
// Attributes: WooCommerce's global attributes are the rows of product_attributes (migration 0024, the attributes
// API's table); their terms are the `pa_<slug>` taxonomy's. One numbering for both APIs.
// ---------------------------------------------------------------------------------------------------

export interface AttributeCatalog {
  taxonomies: { id: number; taxonomy: string; label: string }[];
  terms: { id: number; taxonomy: string; slug: string; name: string }[];
}

export async function attributeCatalog(db: Queryable): Promise<AttributeCatalog> {
  const [attributes, terms] = await Promise.all([listAttributes(db), repo.attributeTerms(db)]);
  const taxonomies = attributes.map((a) => ({ id: a.id, taxonomy: `pa_${a.slug}`, label: a.name })).sort((x, y) => x.id - y.id);
  return { taxonomies, terms };
}

function resolveTaxonomy(catalog: AttributeCatalog, a: { id?: number; name?: string }, field: string) {
  if (a.id !== undefined && a.id > 0) {
    const t = catalog.taxonomies.find((x) => x.id === a.id);
    if (!t) throw new Refusal(invalid(field, `${field} names an unknown attribute id ${a.id}`));
    return t;
  }
  const name = (a.name ?? "").trim().toLowerCase();
  if (!name) throw new Refusal(invalid(field, `${field} needs an id or a name`));
  return catalog.taxonomies.find((x) => x.taxonomy === name || x.taxonomy === `pa_${name}` || x.label.toLowerCase() === name) ?? null;
}

interface StoredAttribute {
  name: string;
  label: string;
  options: string[];
  variation: boolean;
  visible?: boolean;
  position?: number;
}

function resolveAttributes(catalog: AttributeCatalog, input: AttributeInput[]): { stored: StoredAttribute[]; termIds: number[] } {
  const stored: StoredAttribute[] = [];
  const termIds: number[] = [];
  for (const [i, a] of input.entries()) {
    const t = resolveTaxonomy(catalog, a, "attributes");
    const options = a.options ?? [];
    if (t) {
      const slugs = options.map((o) => {
        const term = catalog.terms.find((x) => x.taxonomy === t.taxonomy && (x.slug === o || x.name.toLowerCase() === o.toLowerCase()));
        if (!term) throw new Refusal(invalid("attributes", `attributes: "${o}" is not a term of ${t.label}`));
        termIds.push(term.id);
        return term.slug;
      });
      stored.push({ name: t.taxonomy, label: t.label, options: slugs, variation: a.variation ?? false, visible: a.visible ?? true, position: a.position ?? i });
    } else {
      const key = slugify(a.name!);
      if (!key) throw new Refusal(invalid("attributes", "attributes: a name is required"));
      stored.push({ name: key, label: a.name!.trim(), options, variation: a.variation ?? false, visible: a.visible ?? true, position: a.position ?? i });
    }
  }
  return { stored, termIds };
}

// ---------------------------------------------------------------------------------------------------
// Products
// ---------------------------------------------------------------------------------------------------

/** The free slug, under a lock held until the write's transaction ends: two products saved at once get their own. */
async function uniqueSlug(tx: Queryable, wanted: string, exceptId: number): Promise<string> {
  await lockKey(tx, "products.slug");
  const base = slugify(wanted) || "product";
  const taken = await repo.takenSlugs(tx, base, exceptId);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

async function checkProducts(
  tx: Queryable,
  ids: number[],
  field: string,
  selfId: number,
  allowed?: string[],
): Promise<Map<number, { slug: string; type: string }>> {
  const found = await repo.productsByIds(tx, ids);
  const byId = new Map(found.map((p) => [p.id, p]));
  for (const id of ids) {
    const p = byId.get(id);
    if (!p || id === selfId) throw new Refusal(invalid(field, `${field}: ${id} is not a product of this shop`));
    if (allowed && !allowed.includes(p.type)) throw new Refusal(invalid(field, `${field}: product ${id} is a ${p.type} product, which cannot be linked here`));
  }
  return byId;
}

async function checkTerms(tx: Queryable, taxonomy: string, ids: number[], field: string): Promise<void> {
  const found = new Set((await repo.termsByIds(tx, taxonomy, ids)).map((t) => t.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw new Refusal(invalid(field, `${field}: unknown id(s) ${missing.join(", ")}`));
}

async function checkImages(tx: Queryable, ids: number[]): Promise<void> {
  const found = await repo.existingMediaIds(tx, ids);
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) throw new Refusal({ code: "woocommerce_product_invalid_image_id", message: `#${missing} is an invalid image ID.`, status: 400 });
}

async function checkSku(tx: Queryable, sku: string | null | undefined, selfId: number): Promise<void> {
  if (!sku) return;
  const owner = await repo.skuOwner(tx, sku, selfId);
  if (owner !== null) throw new Refusal(skuError(owner));
}

/** Recomputes the price range of these products, then of the grouped products and bundles that contain them. */
async function refreshPrices(tx: Queryable, ids: number[]): Promise<void> {
  const done = new Set<number>();
  let wave = ids;
  for (let depth = 0; depth < 3 && wave.length; depth++) {
    for (const id of wave) {
      if (done.has(id)) continue;
      done.add(id);
      const inputs = await repo.priceRangeInputs(tx, id);
      if (!inputs) continue;
      const { product, variations, children } = inputs;
      const [min, max] = priceRange(
        {
          type: product.type,
          regular: product.regular_price,
          sale: product.sale_price,
          details: (product.details as Record<string, unknown>) ?? {},
          variations: variations.map((v) => ({ regular: v.regular_price, sale: v.sale_price })),
          children: children.map((c) => ({
            id: c.id,
            slug: c.slug,
            // A bundle counts each item at its shop price; a grouped product shows its children's own prices.
            price: c.kind === "bundled" ? (c.regular_price === null ? null : shopPrice(c.regular_price, c.sale_price)) : c.price_min,
          })),
        },
        children.filter((c) => c.kind === "grouped_child").map((c) => c.id),
      );
      await repo.setPriceRange(tx, id, min, max);
    }
    wave = (await repo.dependentProductIds(tx, wave)).filter((id) => !done.has(id));
  }
}

function mergedRestFields(current: unknown, patch: Record<string, unknown> | undefined): Record<string, unknown> {
  const base = current && typeof current === "object" ? { ...(current as Record<string, unknown>) } : {};
  if (!patch) return base;
  for (const [k, v] of Object.entries(patch)) {
    if (k === "meta_data") {
      // WooCommerce's meta_data: an entry updates the key it names (or its id), null deletes it, new keys get the next id.
      const meta = Array.isArray(base.meta_data) ? [...(base.meta_data as { id: number; key: string; value: unknown }[])] : [];
      for (const m of v as { id?: number; key: string; value: unknown }[]) {
        const at = meta.findIndex((x) => (m.id !== undefined && x.id === m.id) || x.key === m.key);
        if (m.value === null) {
          if (at >= 0) meta.splice(at, 1);
        } else if (at >= 0) meta[at] = { ...meta[at]!, key: m.key, value: m.value };
        else meta.push({ id: Math.max(0, ...meta.map((x) => x.id)) + 1, key: m.key, value: m.value });
      }
      base.meta_data = meta;
    } else base[k] = v;
  }
  return base;
}

function checkSaleDates(fields: Record<string, unknown>): void {
  const from = fields.date_on_sale_from;
  const to = fields.date_on_sale_to;
  if (typeof from === "string" && typeof to === "string" && from && to && Date.parse(from) > Date.parse(to))
    throw new Refusal(invalid("date_on_sale_to", "date_on_sale_to must not be before date_on_sale_from"));
}

/**
 * Creates (`id` null) or updates a product. The row is locked before anything is read, so the `before` snapshot,
 * the checks and the write see one state, and a checkout taking its stock waits for the commit.
 */
export async function saveProduct(db: Db, id: number | null, input: ProductInput, hooks: WriteHooks): Promise<WriteResult> {
  return inTransaction(db, async (tx) => {
    if (id !== null) await repo.lockProductRows(tx, [id, ...(await repo.dependentProductIds(tx, [id]))]);
    const current = id === null ? null : await repo.lockProduct(tx, id);
    if (id !== null && !current) throw new Refusal(notFound("product"));
    if (current && input.ifMatch !== undefined && input.ifMatch !== productVersion(current.modified_at)) throw new Refusal(changedSinceOpened);
    const before = id === null ? null : await hooks.snapshot(tx, id);
    const selfId = id ?? 0;

    // The kind: fixed once created, except simple ↔ downloadable (both "simple" on the wire, decided by `downloadable`).
    const type = input.type ?? current?.type ?? "simple";
    if (current && type !== current.type && !(["simple", "downloadable"].includes(type) && ["simple", "downloadable"].includes(current.type)))
      throw new Refusal(
        invalid("type", `type cannot change from ${current.type === "downloadable" ? "simple" : current.type} to ${type}; create a new product`),
      );

    const values: repo.ProductValues = {};
    if (id === null || type !== current?.type) values.type = type;
    if (input.name !== undefined) values.name = input.name;
    if (input.slug !== undefined || id === null) values.slug = await uniqueSlug(tx, input.slug || input.name || current?.name || "product", selfId);
    if (input.status !== undefined) values.status = input.status;
    if (input.featured !== undefined) values.featured = input.featured;
    if (input.catalogVisibility !== undefined) values.catalog_visibility = input.catalogVisibility;
    if (input.description !== undefined) values.description = input.description;
    if (input.shortDescription !== undefined) values.short_description = input.shortDescription;
    if (input.menuOrder !== undefined) values.menu_order = input.menuOrder;
    if (input.reviewsAllowed !== undefined) values.comment_status = input.reviewsAllowed ? "open" : "closed";
    if (input.sku !== undefined) {
      await checkSku(tx, input.sku, selfId);
      values.sku = input.sku || null;
    }

    // Prices: a variable or grouped product's come from its variations or children (WooCommerce ignores them too).
    if (type !== "variable" && type !== "grouped") {
      if (input.regularPrice !== undefined) values.regular_price = input.regularPrice;
      if (input.salePrice !== undefined) values.sale_price = input.salePrice;
      const regular = values.regular_price !== undefined ? values.regular_price : (current?.regular_price ?? null);
      const sale = values.sale_price !== undefined ? values.sale_price : (current?.sale_price ?? null);
      if (sale !== null && (regular === null || sale >= regular)) throw new Refusal(invalid("sale_price", "sale_price must be lower than regular_price"));
      // The cart charges a missing price as 0: a published product the shopper can buy must have one (a draft may not).
      const status = values.status ?? current?.status ?? "publish";
      if (regular === null && status === "publish" && type !== "external")
        throw new Refusal(invalid("regular_price", "regular_price is required to publish this product (or create it as a draft)"));
    }

    // Stock: managed on the product itself for simple, bundle, downloadable and external kinds; a variable
    // product's on its variations; a grouped product has none.
    const manage = input.manageStock ?? (input.stockQuantity !== undefined ? true : undefined);
    if (manage === true && (type === "variable" || type === "grouped"))
      throw new Refusal(
        invalid("manage_stock", `manage_stock: a ${type} product's stock is managed on its ${type === "variable" ? "variations" : "children"}`),
      );
    if (manage === false) {
      values.stock_quantity = null;
      values.stock_status = input.stockStatus ?? current?.stock_status ?? "instock";
    } else if (manage === true) {
      const quantity = input.stockQuantity ?? current?.stock_quantity ?? 0;
      values.stock_quantity = quantity;
      values.stock_status = managedStockStatus(quantity);
    } else if (input.stockStatus !== undefined && (current?.stock_quantity ?? null) === null && type !== "variable") {
      values.stock_status = input.stockStatus;
    }

    if (input.imageIds !== undefined) {
      await checkImages(tx, input.imageIds);
      values.image_ids = input.imageIds;
    }

    let attributeTermIds: number[] | undefined;
    if (input.attributes !== undefined) {
      const resolved = resolveAttributes(await attributeCatalog(tx), input.attributes);
      values.attributes = resolved.stored;
      attributeTermIds = resolved.termIds;
    }

    // Kind-specific details.
    const details: Record<string, unknown> = { ...((current?.details as Record<string, unknown>) ?? {}) };
    let detailsChanged = id === null;
    if (type === "external") {
      if (input.externalUrl !== undefined) details.productUrl = input.externalUrl;
      if (input.buttonText !== undefined) details.buttonText = input.buttonText;
      if (!details.productUrl) throw new Refusal(invalid("external_url", "external_url is required for an external product"));
      details.buttonText ??= "Buy product";
      detailsChanged ||= input.externalUrl !== undefined || input.buttonText !== undefined;
    }
    let bundledIds: number[] | undefined;
    if (type === "bundle" && input.bundledItems !== undefined) {
      const products = await checkProducts(
        tx,
        input.bundledItems.map((b) => b.productId),
        "bundled_items",
        selfId,
        ["simple"],
      );
      let next = Math.max(0, ...input.bundledItems.map((b) => b.bundledItemId ?? 0));
      details.bundledItems = input.bundledItems.map((b): StoredBundledItem => ({
        bundledItemId: b.bundledItemId ?? ++next,
        product: products.get(b.productId)!.slug,
        quantity: b.quantity,
        optional: b.optional,
        discountPercent: b.discount,
      }));
      bundledIds = input.bundledItems.map((b) => b.productId);
      detailsChanged = true;
    }
    if (type === "downloadable") {
      if (input.downloads !== undefined) {
        // A file uploaded for downloads must exist (its URL is not public: decision 0041); a new file gets a fresh
        // id, so a removed file's permissions never open another file.
        for (const [i, d] of input.downloads.entries()) {
          const key = privateKeyOf(d.file);
          if (key !== null && !(await findDownloadFile(tx, key)))
            throw new Refusal(invalid("downloads", `downloads[${i}].file: no file was uploaded for downloads at ${d.file}`));
        }
        details.files = input.downloads.map((d) => ({ id: d.id || randomUUID(), name: d.name, file: d.file }));
        detailsChanged = true;
      }
      if (input.downloadLimit !== undefined) {
        details.downloadLimit = input.downloadLimit;
        detailsChanged = true;
      }
      if (input.downloadExpiry !== undefined) {
        details.downloadExpiry = input.downloadExpiry;
        detailsChanged = true;
      }
      if (details.priceMode === undefined) {
        details.priceMode = "single";
        detailsChanged = true;
      }
    }
    if (detailsChanged) values.details = details;

    const restFields = mergedRestFields(current?.rest_fields, input.restFields);
    checkSaleDates(restFields);
    if (input.restFields !== undefined || id === null) values.rest_fields = restFields;

    if (input.categoryIds) await checkTerms(tx, "product_cat", input.categoryIds, "categories");
    if (input.tagIds) await checkTerms(tx, "product_tag", input.tagIds, "tags");
    if (input.upsellIds) await checkProducts(tx, input.upsellIds, "upsell_ids", selfId);
    if (input.crossSellIds) await checkProducts(tx, input.crossSellIds, "cross_sell_ids", selfId);
    if (input.groupedIds) {
      if (type !== "grouped") throw new Refusal(invalid("grouped_products", "grouped_products: only a grouped product has children"));
      await checkProducts(tx, input.groupedIds, "grouped_products", selfId, ["simple", "variable", "external", "downloadable", "bundle"]);
    }

    // Every check passed: write.
    let productId: number;
    if (id === null) {
      productId = await repo.insertProduct(tx, { ...values, type, slug: values.slug!, name: values.name ?? "Product" });
      if (type === "downloadable" && details.downloadId === undefined)
        await repo.updateProduct(tx, productId, { details: { ...details, downloadId: productId } });
    } else {
      productId = id;
      await repo.updateProduct(tx, productId, values);
    }
    if (input.categoryIds) await repo.replaceProductTerms(tx, productId, ["product_cat"], input.categoryIds);
    if (input.tagIds) await repo.replaceProductTerms(tx, productId, ["product_tag"], input.tagIds);
    if (attributeTermIds) {
      const catalog = await attributeCatalog(tx);
      await repo.replaceProductTerms(
        tx,
        productId,
        catalog.taxonomies.map((t) => t.taxonomy),
        attributeTermIds,
      );
    }
    if (input.upsellIds) await repo.replaceLinks(tx, productId, "upsell", input.upsellIds);
    if (input.crossSellIds) await repo.replaceLinks(tx, productId, "cross_sell", input.crossSellIds);
    if (input.groupedIds) await repo.replaceLinks(tx, productId, "grouped_child", input.groupedIds);
    if (bundledIds) await repo.replaceLinks(tx, productId, "bundled", bundledIds);
    await refreshPrices(tx, [productId]);

    await hooks.record(tx, id === null ? "create" : "update", productId, before, await hooks.snapshot(tx, productId));
    return productId;
  });
}

/** Moves a product to the trash, or with `force` deletes it (its variations, terms and links go with it). */
export async function removeProduct(db: Db, id: number, force: boolean, hooks: WriteHooks): Promise<WriteResult & { before?: Record<string, unknown> }> {
  let snapshot: Record<string, unknown> | null = null;
  const result = await inTransaction(db, async (tx) => {
    await repo.lockProductRows(tx, [id, ...(await repo.dependentProductIds(tx, [id]))]);
    const current = await repo.lockProduct(tx, id);
    if (!current) throw new Refusal(notFound("product"));
    snapshot = await hooks.snapshot(tx, id);
    if (!force && current.status === "trash")
      throw new Refusal({ code: "woocommerce_rest_already_trashed", message: `The product with ID ${id} has already been deleted.`, status: 410 });
    const dependents = await repo.dependentProductIds(tx, [id]);
    if (force) await repo.deleteProduct(tx, id);
    else await repo.updateProduct(tx, id, { status: "trash" });
    await refreshPrices(tx, dependents);
    await hooks.record(tx, force ? "delete" : "trash", id, snapshot, force ? null : await hooks.snapshot(tx, id));
    return id;
  });
  return result.ok ? { ...result, before: snapshot ?? undefined } : result;
}

// ---------------------------------------------------------------------------------------------------
// Variations
// ---------------------------------------------------------------------------------------------------

export interface VariationInput {
  sku?: string | null;
  regularPrice?: number | null;
  salePrice?: number | null;
  status?: string;
  manageStock?: boolean;
  stockQuantity?: number;
  stockStatus?: string;
  imageId?: number | null;
  menuOrder?: number;
  description?: string;
  attributes?: { id?: number; name?: string; option: string }[];
  restFields?: Record<string, unknown>;
  /** The variation's version the writer read (`productVersion` of its own modification time, sent as `If-Match`). */
  ifMatch?: string;
}

const variationChanged: WriteError = {
  code: "rest_variation_changed",
  message: "This variation was changed since you opened it. Reload it to see the changes, then make yours again.",
  status: 412,
};

/**
 * The variable product a variation route names; refused when it is not one. Not locked here: a variation write
 * locks the variation first and its parent after (by updating it), the order a checkout takes them in (the
 * variation's stock, then the parent's total_sales), so the two cannot deadlock.
 */
async function variableParent(tx: Queryable, productId: number): Promise<repo.AdminProductRow> {
  const parent = await repo.findProductRow(tx, productId);
  if (!parent) throw new Refusal(notFound("product"));
  if (parent.type !== "variable")
    throw new Refusal({ code: "woocommerce_rest_product_variation_invalid_parent", message: "Only variable products have variations.", status: 400 });
  return parent;
}

function variationAttributes(
  catalog: AttributeCatalog,
  parent: repo.AdminProductRow,
  input: NonNullable<VariationInput["attributes"]>,
): Record<string, string> {
  const parentAttributes = ((parent.attributes as StoredAttribute[]) ?? []).filter((a) => a.variation);
  const out: Record<string, string> = Object.fromEntries(parentAttributes.map((a) => [`attribute_${a.name}`, ""]));
  for (const a of input) {
    const t = resolveTaxonomy(catalog, a, "attributes");
    const key = t ? t.taxonomy : slugify(a.name ?? "");
    const pa = parentAttributes.find((x) => x.name === key || x.label.toLowerCase() === (a.name ?? "").toLowerCase());
    if (!pa) throw new Refusal(invalid("attributes", `attributes: the product has no variation attribute ${a.name ?? a.id}`));
    let value = a.option;
    if (t) {
      const term = catalog.terms.find((x) => x.taxonomy === t.taxonomy && (x.slug === a.option || x.name.toLowerCase() === a.option.toLowerCase()));
      value = term?.slug ?? "";
    }
    if (value !== "" && !pa.options.includes(value)) throw new Refusal(invalid("attributes", `attributes: "${a.option}" is not an option of ${pa.label}`));
    out[`attribute_${pa.name}`] = value;
  }
  return out;
}

export async function saveVariation(db: Db, productId: number, id: number | null, input: VariationInput, hooks: WriteHooks): Promise<WriteResult> {
  return inTransaction(db, async (tx) => {
    const parent = await variableParent(tx, productId);
    const current = id === null ? null : await repo.findAdminVariation(tx, id, true);
    if (id !== null && (!current || current.product_id !== productId)) throw new Refusal(notFound("product_variation"));
    if (current && input.ifMatch !== undefined && input.ifMatch !== productVersion(current.modified_at)) throw new Refusal(variationChanged);
    const before = id === null ? null : await hooks.snapshot(tx, id);
    const selfId = id ?? 0;
    const values: repo.VariationValues = {};
    if (input.sku !== undefined) {
      await checkSku(tx, input.sku, selfId);
      values.sku = input.sku || null;
    }
    // A variation always has a regular price here: the cart would charge a missing one as 0.
    if (input.regularPrice === null || (id === null && input.regularPrice === undefined))
      throw new Refusal(invalid("regular_price", "regular_price is required for a variation"));
    if (input.regularPrice !== undefined) values.regular_price = input.regularPrice;
    if (input.salePrice !== undefined) values.sale_price = input.salePrice;
    const regular = values.regular_price ?? current?.regular_price ?? 0;
    const sale = values.sale_price !== undefined ? values.sale_price : (current?.sale_price ?? null);
    if (sale !== null && sale >= regular) throw new Refusal(invalid("sale_price", "sale_price must be lower than regular_price"));
    if (input.status !== undefined) values.status = input.status;
    if (input.menuOrder !== undefined) values.menu_order = input.menuOrder;
    if (input.description !== undefined) values.description = input.description;
    const manage = input.manageStock ?? (input.stockQuantity !== undefined ? true : undefined);
    if (manage === false) {
      values.stock_quantity = null;
      values.stock_status = input.stockStatus ?? current?.stock_status ?? "instock";
    } else if (manage === true) {
      const quantity = input.stockQuantity ?? current?.stock_quantity ?? 0;
      values.stock_quantity = quantity;
      values.stock_status = managedStockStatus(quantity);
    } else if (input.stockStatus !== undefined && (current?.stock_quantity ?? null) === null) values.stock_status = input.stockStatus;
    if (input.imageId !== undefined) {
      if (input.imageId !== null) await checkImages(tx, [input.imageId]);
      values.image_id = input.imageId;
    }
    if (input.attributes !== undefined) values.attributes = variationAttributes(await attributeCatalog(tx), parent, input.attributes);
    const restFields = mergedRestFields(current?.rest_fields, input.restFields);
    checkSaleDates(restFields);
    if (input.restFields !== undefined) values.rest_fields = restFields;

    let variationId: number;
    if (id === null) {
      variationId = await repo.insertVariation(tx, productId, {
        ...values,
        attributes: values.attributes ?? variationAttributes(await attributeCatalog(tx), parent, []),
        regular_price: values.regular_price ?? 0,
      });
    } else {
      variationId = id;
      await repo.updateVariation(tx, id, values);
    }
    await repo.refreshVariableStockStatus(tx, productId);
    await repo.updateProduct(tx, productId, {});
    await refreshPrices(tx, [productId]);
    await hooks.record(tx, id === null ? "create" : "update", variationId, before, await hooks.snapshot(tx, variationId));
    return variationId;
  });
}

/** Deletes a variation; with `ifMatch`, only if nobody saved it since that version was read. */
export async function removeVariation(db: Db, productId: number, id: number, hooks: WriteHooks, ifMatch?: string): Promise<WriteResult> {
  return inTransaction(db, async (tx) => {
    await variableParent(tx, productId);
    const current = await repo.findAdminVariation(tx, id, true);
    if (!current || current.product_id !== productId) throw new Refusal(notFound("product_variation"));
    if (ifMatch !== undefined && ifMatch !== productVersion(current.modified_at)) throw new Refusal(variationChanged);
    const before = await hooks.snapshot(tx, id);
    await repo.deleteVariation(tx, id);
    await repo.refreshVariableStockStatus(tx, productId);
    await refreshPrices(tx, [productId]);
    await hooks.record(tx, "delete", id, before, null);
    return id;
  });
}
