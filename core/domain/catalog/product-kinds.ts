/**
 * The kinds of product the shop sells (docs/contract/storefront.md §3 'Product kinds', 'Digital-download products')
 * and the pure rules that depend on the kind.
 */
import { assertCents, roundCents, type Cents } from "../money/money.ts";
import { ADD_TO_CART_FIELDS } from "./settings.ts";
import type { Variation } from "./variations.ts";

export type ProductKind = "simple" | "variable" | "grouped" | "bundle" | "external" | "downloadable";

/**
 * WooCommerce's catalog_visibility (migration 0031): visible = the shop, categories and search results; catalog = the
 * shop and categories only; search = search results only; hidden = neither (its page still opens by address).
 */
export const CATALOG_VISIBILITIES = ["visible", "catalog", "search", "hidden"] as const;
export type CatalogVisibility = (typeof CATALOG_VISIBILITIES)[number];

export interface SimpleProduct {
  readonly kind: "simple";
  readonly id: number;
}

export interface VariableProduct {
  readonly kind: "variable";
  readonly id: number;
  /** Empty when variations are loaded on demand. */
  readonly variations: readonly Variation[];
}

export interface GroupedProduct {
  readonly kind: "grouped";
  readonly id: number;
  /** Sent back as quantity[childId]. */
  readonly childIds: readonly number[];
}

export interface BundledItem {
  readonly bundledItemId: number;
  readonly productId: number;
  /** Price of one unit of this item inside the bundle. */
  readonly priceCents: Cents;
  /** Units per bundle unless the shopper changes it. */
  readonly defaultQuantity: number;
  /** Optional items count only when their checkbox is ticked. */
  readonly optional: boolean;
}

export interface BundleProduct {
  readonly kind: "bundle";
  readonly id: number;
  /** The form's base_price. */
  readonly basePriceCents: Cents;
  readonly bundledItems: readonly BundledItem[];
}

export interface ExternalProduct {
  readonly kind: "external";
  readonly id: number;
  readonly url: string;
  readonly buttonText: string;
}

export interface DownloadPriceOption {
  /** EDD's price_id, the {priceIndex} in field names. */
  readonly priceIndex: number;
  readonly name: string;
  readonly amountCents: Cents;
}

export interface DownloadableProduct {
  readonly kind: "downloadable";
  readonly downloadId: number;
  /** single: one price; multi: shoppers pick among priceOptions. */
  readonly priceMode: "single" | "multi";
  readonly priceCents: Cents;
  readonly priceOptions: readonly DownloadPriceOption[];
}

export type CatalogProduct = SimpleProduct | VariableProduct | GroupedProduct | BundleProduct | ExternalProduct | DownloadableProduct;

/** docs/contract/storefront.md §5: external products never use in-place (background) add to cart; they link away. */
export function canAddInPlace(kind: ProductKind): boolean {
  return kind !== "external";
}

/** EDD keys a cart line by download_id, or download_id_priceIndex for variable prices. */
export function downloadKey(downloadId: number, priceIndex?: number | null): string {
  return priceIndex === undefined || priceIndex === null ? String(downloadId) : `${downloadId}_${priceIndex}`;
}

/** edd_download_quantity, or edd_download_quantity_{priceIndex} for a price option. */
export function downloadQuantityField(priceIndex?: number | null): string {
  return priceIndex === undefined || priceIndex === null ? ADD_TO_CART_FIELDS.downloadQuantity : `${ADD_TO_CART_FIELDS.downloadQuantity}_${priceIndex}`;
}

/** The grouped form's field for one child. */
export function groupedQuantityField(childId: number): string {
  return `${ADD_TO_CART_FIELDS.quantity}[${childId}]`;
}

export interface BundleSelection {
  /** Ticked optional items, by bundled_item_id. */
  readonly ticked: ReadonlySet<number> | readonly number[];
  /** Units per bundle chosen by the shopper, by bundled_item_id; default: the item's own. */
  readonly quantities?: Readonly<Record<number, number>>;
}

function assertUnits(n: number, what: string): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${what} must be a whole number ≥ 0, got ${n}`);
  return n;
}

/**
 * Price of `bundleQuantity` bundles in cents: base_price plus each counted item's price times
 * its units. Mandatory items always count; optional ones only when ticked.
 */
export function bundlePrice(bundle: BundleProduct, selection: BundleSelection, bundleQuantity = 1): Cents {
  const ticked = new Set(selection.ticked);
  let perBundle = assertCents(bundle.basePriceCents);
  for (const item of bundle.bundledItems) {
    if (item.optional && !ticked.has(item.bundledItemId)) continue;
    const units = assertUnits(selection.quantities?.[item.bundledItemId] ?? item.defaultQuantity, `quantity of bundled item ${item.bundledItemId}`);
    perBundle += assertCents(item.priceCents) * units;
  }
  return assertCents(perBundle * assertUnits(bundleQuantity, "bundle quantity"));
}

/** A bundle's item as the catalogue stores it (products.details.bundledItems): the product by slug. */
export interface StoredBundledItem {
  readonly bundledItemId: number;
  readonly product: string;
  readonly quantity: number;
  readonly optional: boolean;
  readonly discountPercent: number;
}

/** The stored items of a bundle's details; anything else is no items. */
export function storedBundledItems(details: Readonly<Record<string, unknown>>): StoredBundledItem[] {
  return Array.isArray(details.bundledItems) ? (details.bundledItems as StoredBundledItem[]) : [];
}

/** What the shop charges for a product: its sale price when that is lower, else its regular price (0 when it has none). */
export function shopPrice(regular: Cents | null, sale: Cents | null): Cents {
  return sale !== null && regular !== null && sale < regular ? sale : (regular ?? 0);
}

/** One unit of an item inside a bundle: the product's own shop price less the bundle's discount, rounded once. */
export function bundledItemUnitPrice(shopPrice: Cents, discountPercent: number): Cents {
  return roundCents((assertCents(shopPrice) * (100 - discountPercent)) / 100);
}

/**
 * The one bundle price model, shared by the product page, the listing's price (price_min, what the shop sorts by),
 * the discount endpoints and the cart: base_price plus each item at `bundledItemUnitPrice` of its shop price.
 * An item whose product is unknown counts at 0 (the page and the cart leave it out).
 */
export function bundleModel(
  id: number,
  basePriceCents: Cents,
  items: readonly StoredBundledItem[],
  shopPriceOf: (slug: string) => { id: number; price: Cents } | undefined,
): BundleProduct {
  return {
    kind: "bundle",
    id,
    basePriceCents,
    bundledItems: items.map((b) => {
      const p = shopPriceOf(b.product);
      return {
        bundledItemId: b.bundledItemId,
        productId: p?.id ?? 0,
        priceCents: bundledItemUnitPrice(p?.price ?? 0, b.discountPercent),
        defaultQuantity: b.quantity,
        optional: b.optional,
      };
    }),
  };
}

/**
 * docs/contract/storefront.md §5 'Missing quantities (tracking)': a missing or non-numeric quantity counts as 0 for grouped
 * children and 1 for downloads. For analytics only; the add-to-cart parser is strict.
 */
export function trackingQuantity(raw: string | null | undefined, kind: "grouped-child" | "download"): number {
  const n = raw === null || raw === undefined ? Number.NaN : Number.parseFloat(raw);
  if (!Number.isFinite(n)) return kind === "grouped-child" ? 0 : 1;
  return n;
}

/** One product a bundle line contains: `unitsPerBundle` of it in every bundle; stock null = not managed. */
export interface BundleComponent {
  readonly productId: number;
  readonly name: string;
  readonly unitsPerBundle: number;
  readonly stockQuantity: number | null;
}

/**
 * How many bundles the stock allows: the bundle's own stock and, for each component it contains, that product's
 * stock divided by its units per bundle. null = no limit (nothing managed).
 */
export function bundlesAvailable(ownStock: number | null, components: readonly BundleComponent[]): number | null {
  let limit = ownStock === null ? null : Math.max(0, ownStock);
  for (const c of components) {
    if (c.stockQuantity === null || c.unitsPerBundle <= 0) continue;
    const fits = Math.max(0, Math.floor(c.stockQuantity / c.unitsPerBundle));
    limit = limit === null ? fits : Math.min(limit, fits);
  }
  return limit;
}

/** One stock item (a product or a variation) and how many units something takes of it. */
export interface StockNeed {
  readonly table: "products" | "variations";
  readonly id: number;
  readonly name: string;
  readonly quantity: number;
}

/**
 * The managed stock a set of cart lines takes, one entry per stock item with the units summed across lines
 * (a mask bought alone and the same mask inside a bundle draw on one stock), in a fixed order so that concurrent
 * orders lock rows in the same order and cannot deadlock.
 */
export function stockNeeds(
  lines: readonly {
    productId: number;
    variationId: number;
    name: string;
    quantity: number;
    stockQuantity: number | null;
    components: readonly BundleComponent[];
  }[],
): StockNeed[] {
  const byItem = new Map<string, { table: "products" | "variations"; id: number; name: string; quantity: number }>();
  const add = (table: "products" | "variations", id: number, name: string, quantity: number) => {
    if (quantity <= 0) return;
    const k = `${table}:${String(id).padStart(10, "0")}`;
    const have = byItem.get(k);
    if (have) have.quantity += quantity;
    else byItem.set(k, { table, id, name, quantity });
  };
  for (const l of lines) {
    if (l.stockQuantity !== null) add(l.variationId > 0 ? "variations" : "products", l.variationId > 0 ? l.variationId : l.productId, l.name, l.quantity);
    for (const c of l.components) if (c.stockQuantity !== null) add("products", c.productId, c.name, c.unitsPerBundle * l.quantity);
  }
  return [...byItem.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, v]) => v);
}
