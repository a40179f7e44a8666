/**
 * Parses the single-product add-to-cart form body (docs/contract/storefront.md §3 'Add-to-cart form', §5 'Quantities and
 * add to cart') into a typed request. Validation only: stock, prices and whether the product
 * really is of the kind the fields suggest are the commerce layer's business
 * (see fitsProductKind).
 *
 * Field names: add-to-cart, quantity, variation_id, attribute_{name}; grouped quantity[{id}];
 * Product Bundles bundle_quantity_{id}, bundle_selected_optional_{id}, bundle_variation_id_{id},
 * bundle_attribute_{name}_{id}; Easy Digital Downloads download_id, edd_download_quantity,
 * edd_download_quantity_{priceIndex}, edd_options[price_id][].
 *
 * A repeated scalar field takes its last value, as PHP reads a form.
 */
import { ADD_TO_CART_FIELDS, MAX_ADD_TO_CART_QUANTITY, MAX_FORM_CHILDREN } from "./settings.ts";
import type { ProductKind } from "./product-kinds.ts";

export interface FieldError {
  readonly field: string;
  readonly message: string;
}

export interface SimpleAddToCart {
  readonly kind: "simple";
  readonly productId: number;
  readonly quantity: number;
}

export interface VariationAddToCart {
  readonly kind: "variation";
  readonly productId: number;
  /** Null when the form sent none ('' or 0): resolve from the attributes, or ask to choose. */
  readonly variationId: number | null;
  /** Field name (attribute_pa_color) → value, as Variation.attributes keys them. */
  readonly attributes: Readonly<Record<string, string>>;
  readonly quantity: number;
}

export interface GroupedAddToCart {
  readonly kind: "grouped";
  readonly productId: number;
  /** Children with a quantity above 0, in form order. */
  readonly children: readonly { readonly productId: number; readonly quantity: number }[];
}

export interface BundledItemChoice {
  readonly bundledItemId: number;
  readonly quantity: number | null;
  /** The optional item's checkbox was ticked. */
  readonly selected: boolean;
  readonly variationId: number | null;
  readonly attributes: Readonly<Record<string, string>>;
}

export interface BundleAddToCart {
  readonly kind: "bundle";
  readonly productId: number;
  readonly quantity: number;
  readonly items: readonly BundledItemChoice[];
}

export interface DownloadAddToCart {
  readonly kind: "download";
  readonly downloadId: number;
  /** One line per chosen price option; a single line with priceIndex null in single-price mode. */
  readonly lines: readonly { readonly priceIndex: number | null; readonly quantity: number }[];
}

export type AddToCartRequest = SimpleAddToCart | VariationAddToCart | GroupedAddToCart | BundleAddToCart | DownloadAddToCart;

export type ParseResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly errors: readonly FieldError[] };

/** WooCommerce's own texts for the two choice errors. */
export const ADD_TO_CART_MESSAGES = Object.freeze({
  chooseGroupedQuantity: "Please choose the quantity of items you wish to add to your cart…",
  tooManyFields: "The form has too many fields.",
  mixedKinds: "The form mixes fields of different product kinds.",
});

const MAX_FIELDS = MAX_FORM_CHILDREN * 4 + 50;
const MAX_ATTRIBUTE_VALUE_LENGTH = 200;
const ATTRIBUTE_NAME = /^[\p{L}\p{N}_%-]{1,200}$/u;
const GROUPED_FIELD = /^quantity\[([^\]]*)\]$/;
const EDD_PRICE_FIELD = /^edd_options\[price_id\]\[[0-9]*\]$/;
const EDD_QUANTITY_FIELD = /^edd_download_quantity_([0-9]+)$/;
const BUNDLE_FIELD = /^bundle_(quantity|selected_optional|variation_id)_([0-9]+)$/;
const BUNDLE_ATTRIBUTE_FIELD = /^bundle_attribute_(.+)_([0-9]+)$/;

class Collector {
  readonly errors: FieldError[] = [];
  add(field: string, message: string): void {
    this.errors.push({ field, message });
  }
}

/** A database id: a positive safe integer written plainly. */
function parseId(raw: string): number | null {
  const text = raw.trim();
  if (!/^[1-9][0-9]{0,15}$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * A quantity: a whole number from `min` to MAX_ADD_TO_CART_QUANTITY. Returns null and records
 * a clear message otherwise.
 */
export function parseQuantity(raw: string, field: string, errors: { add(field: string, message: string): void }, min = 1): number | null {
  const text = raw.trim();
  if (/^-[0-9]+(\.[0-9]+)?$/.test(text)) {
    errors.add(field, `Quantity must be at least ${min}.`);
    return null;
  }
  if (!/^[0-9]+$/.test(text)) {
    errors.add(field, /^[0-9]*\.[0-9]+$/.test(text) ? "Quantity must be a whole number." : "Quantity must be a number.");
    return null;
  }
  const n = text.length > 9 ? Number.POSITIVE_INFINITY : Number(text);
  if (n < min) {
    errors.add(field, `Quantity must be at least ${min}.`);
    return null;
  }
  if (n > MAX_ADD_TO_CART_QUANTITY) {
    errors.add(field, `Quantity must be at most ${MAX_ADD_TO_CART_QUANTITY}.`);
    return null;
  }
  return n;
}

/** Quantity with WooCommerce's default: missing or empty means 1. */
function quantityOrDefault(raw: string | undefined, field: string, errors: Collector): number | null {
  if (raw === undefined || raw.trim() === "") return 1;
  return parseQuantity(raw, field, errors);
}

/** variation_id-like fields: '' or '0' mean "none yet". */
function optionalId(raw: string | undefined, field: string, errors: Collector, what: string): number | null {
  if (raw === undefined || raw.trim() === "" || raw.trim() === "0") return null;
  const id = parseId(raw);
  if (id === null) errors.add(field, `${what} must be a positive whole number.`);
  return id;
}

function attributeValue(raw: string, field: string, errors: Collector): string | null {
  if (raw.length > MAX_ATTRIBUTE_VALUE_LENGTH) {
    errors.add(field, `The value is too long (at most ${MAX_ATTRIBUTE_VALUE_LENGTH} characters).`);
    return null;
  }
  return raw;
}

/** Accepts URLSearchParams, FormData-like entries or [name, value] pairs. */
export type FormEntries = Iterable<readonly [string, string]>;

/** Parses an add-to-cart form body. Never throws. */
export function parseAddToCartForm(entries: FormEntries): ParseResult<AddToCartRequest> {
  const errors = new Collector();
  const fields = new Map<string, string>(); // last value wins
  const priceIds: string[] = [];
  let count = 0;
  for (const [name, value] of entries) {
    if (++count > MAX_FIELDS) return { ok: false, errors: [{ field: "", message: ADD_TO_CART_MESSAGES.tooManyFields }] };
    if (typeof value !== "string") continue; // a file upload has no place here
    if (EDD_PRICE_FIELD.test(name)) priceIds.push(value);
    else fields.set(name, value);
  }
  const names = [...fields.keys()];
  const isDownload = fields.has(ADD_TO_CART_FIELDS.downloadId) || priceIds.length > 0 || names.some((n) => n.startsWith("edd_download_quantity"));
  const isGrouped = names.some((n) => GROUPED_FIELD.test(n));
  const isBundle = names.some((n) => n.startsWith("bundle_"));
  const isVariation = fields.has(ADD_TO_CART_FIELDS.variationId) || names.some((n) => n.startsWith(ADD_TO_CART_FIELDS.attributePrefix));
  // A download form has no add-to-cart field; both at once cannot be told apart.
  const isWooCommerce = isGrouped || isBundle || isVariation || fields.has(ADD_TO_CART_FIELDS.productId);
  if ([isGrouped, isBundle, isVariation].filter(Boolean).length > 1 || (isDownload && isWooCommerce)) {
    return { ok: false, errors: [{ field: "", message: ADD_TO_CART_MESSAGES.mixedKinds }] };
  }

  if (isDownload) return finish(errors, parseDownload(fields, priceIds, errors));

  const productIdRaw = fields.get(ADD_TO_CART_FIELDS.productId);
  const productId = productIdRaw === undefined ? null : parseId(productIdRaw);
  if (productIdRaw === undefined) errors.add(ADD_TO_CART_FIELDS.productId, "The product is missing.");
  else if (productId === null) errors.add(ADD_TO_CART_FIELDS.productId, "The product id must be a positive whole number.");

  if (isGrouped) return finish(errors, parseGrouped(productId, fields, errors));
  // WooCommerce's form handler: `empty($_REQUEST['quantity']) ? 1 : …`, so a 0 quantity adds one (as wc-ajax does).
  const rawQuantity = fields.get(ADD_TO_CART_FIELDS.quantity);
  const quantity = quantityOrDefault(rawQuantity?.trim() === "0" ? undefined : rawQuantity, ADD_TO_CART_FIELDS.quantity, errors);
  if (isBundle) return finish(errors, parseBundle(productId, quantity, fields, errors));
  if (isVariation) {
    const variationId = optionalId(fields.get(ADD_TO_CART_FIELDS.variationId), ADD_TO_CART_FIELDS.variationId, errors, "The variation id");
    const attributes: Record<string, string> = {};
    for (const [name, value] of fields) {
      if (!name.startsWith(ADD_TO_CART_FIELDS.attributePrefix)) continue;
      if (!ATTRIBUTE_NAME.test(name.slice(ADD_TO_CART_FIELDS.attributePrefix.length))) {
        errors.add(name, "The attribute name is not valid.");
        continue;
      }
      const v = attributeValue(value, name, errors);
      if (v !== null) attributes[name] = v;
    }
    if (productId === null || quantity === null) return finish(errors, null);
    return finish(errors, { kind: "variation", productId, variationId, attributes, quantity });
  }
  if (productId === null || quantity === null) return finish(errors, null);
  return finish(errors, { kind: "simple", productId, quantity });
}

function finish(errors: Collector, value: AddToCartRequest | null): ParseResult<AddToCartRequest> {
  if (errors.errors.length > 0 || value === null) {
    return { ok: false, errors: errors.errors.length > 0 ? errors.errors : [{ field: "", message: "The form is not valid." }] };
  }
  return { ok: true, value };
}

function parseGrouped(productId: number | null, fields: Map<string, string>, errors: Collector): GroupedAddToCart | null {
  if (fields.has(ADD_TO_CART_FIELDS.quantity)) {
    errors.add(ADD_TO_CART_FIELDS.quantity, "A grouped product takes a quantity per item, not one quantity.");
  }
  const children: { productId: number; quantity: number }[] = [];
  let seen = 0;
  for (const [name, value] of fields) {
    const match = GROUPED_FIELD.exec(name);
    if (!match) continue;
    if (++seen > MAX_FORM_CHILDREN) {
      errors.add(name, ADD_TO_CART_MESSAGES.tooManyFields);
      break;
    }
    const childId = parseId(match[1] ?? "");
    if (childId === null) {
      errors.add(name, "The item id must be a positive whole number.");
      continue;
    }
    // An empty box or 0 means "not this one".
    if (value.trim() === "") continue;
    const quantity = parseQuantity(value, name, errors, 0);
    if (quantity !== null && quantity > 0) children.push({ productId: childId, quantity });
  }
  if (errors.errors.length === 0 && children.length === 0) {
    errors.add(ADD_TO_CART_FIELDS.quantity, ADD_TO_CART_MESSAGES.chooseGroupedQuantity);
  }
  if (productId === null) return null;
  return { kind: "grouped", productId, children };
}

function parseBundle(productId: number | null, quantity: number | null, fields: Map<string, string>, errors: Collector): BundleAddToCart | null {
  const items = new Map<number, { quantity: number | null; selected: boolean; variationId: number | null; attributes: Record<string, string> }>();
  const itemFor = (id: number, field: string) => {
    let item = items.get(id);
    if (!item) {
      if (items.size >= MAX_FORM_CHILDREN) {
        errors.add(field, ADD_TO_CART_MESSAGES.tooManyFields);
        return null;
      }
      item = { quantity: null, selected: false, variationId: null, attributes: {} };
      items.set(id, item);
    }
    return item;
  };
  for (const [name, value] of fields) {
    if (!name.startsWith("bundle_")) continue;
    const plain = BUNDLE_FIELD.exec(name);
    const attr = plain ? null : BUNDLE_ATTRIBUTE_FIELD.exec(name);
    const idText = plain?.[2] ?? attr?.[2];
    const id = idText === undefined ? null : parseId(idText);
    if (id === null) {
      errors.add(name, "Unknown bundle field.");
      continue;
    }
    const item = itemFor(id, name);
    if (!item) break;
    if (plain?.[1] === "quantity") {
      // 0 is allowed: a bundled item may have a minimum of 0.
      item.quantity = value.trim() === "" ? null : parseQuantity(value, name, errors, 0);
    } else if (plain?.[1] === "selected_optional") {
      item.selected = value !== "";
    } else if (plain?.[1] === "variation_id") {
      item.variationId = optionalId(value, name, errors, "The variation id");
    } else if (attr) {
      const attrName = attr[1] ?? "";
      if (!ATTRIBUTE_NAME.test(attrName)) {
        errors.add(name, "The attribute name is not valid.");
        continue;
      }
      const v = attributeValue(value, name, errors);
      if (v !== null) item.attributes[`${ADD_TO_CART_FIELDS.attributePrefix}${attrName}`] = v;
    }
  }
  if (productId === null || quantity === null) return null;
  return {
    kind: "bundle",
    productId,
    quantity,
    items: [...items.entries()].map(([bundledItemId, item]) => ({ bundledItemId, ...item })),
  };
}

function parseDownload(fields: Map<string, string>, priceIdsRaw: readonly string[], errors: Collector): DownloadAddToCart | null {
  const idRaw = fields.get(ADD_TO_CART_FIELDS.downloadId);
  const downloadId = idRaw === undefined ? null : parseId(idRaw);
  if (idRaw === undefined) errors.add(ADD_TO_CART_FIELDS.downloadId, "The download is missing.");
  else if (downloadId === null) errors.add(ADD_TO_CART_FIELDS.downloadId, "The download id must be a positive whole number.");
  if (priceIdsRaw.length > MAX_FORM_CHILDREN) {
    errors.add(ADD_TO_CART_FIELDS.downloadPriceIds, ADD_TO_CART_MESSAGES.tooManyFields);
    return null;
  }
  const priceIndexes: number[] = [];
  for (const raw of priceIdsRaw) {
    // EDD price ids are array keys: 0 is possible.
    if (!/^[0-9]{1,9}$/.test(raw.trim())) {
      errors.add(ADD_TO_CART_FIELDS.downloadPriceIds, "The price option must be a whole number.");
      continue;
    }
    const index = Number(raw.trim());
    if (!priceIndexes.includes(index)) priceIndexes.push(index);
  }
  const lines: { priceIndex: number | null; quantity: number }[] = [];
  if (priceIndexes.length === 0) {
    for (const name of fields.keys()) {
      if (EDD_QUANTITY_FIELD.test(name)) errors.add(name, "A quantity was sent for a price option that was not chosen.");
    }
    const q = quantityOrDefault(fields.get(ADD_TO_CART_FIELDS.downloadQuantity), ADD_TO_CART_FIELDS.downloadQuantity, errors);
    if (q !== null) lines.push({ priceIndex: null, quantity: q });
  } else {
    for (const priceIndex of priceIndexes) {
      const field = `${ADD_TO_CART_FIELDS.downloadQuantity}_${priceIndex}`;
      const q = quantityOrDefault(fields.get(field), field, errors);
      if (q !== null) lines.push({ priceIndex, quantity: q });
    }
  }
  if (downloadId === null) return null;
  return { kind: "download", downloadId, lines };
}

/**
 * Whether a parsed request fits the product it names. A bundle with no configurable items
 * posts only add-to-cart and quantity, so a 'simple' request also fits a bundle.
 * External products fit nothing: they are never added in place.
 */
export function fitsProductKind(request: AddToCartRequest, kind: ProductKind): boolean {
  switch (request.kind) {
    case "simple":
      return kind === "simple" || kind === "bundle";
    case "variation":
      return kind === "variable";
    case "grouped":
      return kind === "grouped";
    case "bundle":
      return kind === "bundle";
    case "download":
      return kind === "downloadable";
  }
}
