/**
 * The cart use cases: load and price a cart, add (every product kind), change quantities, remove,
 * coupons, shipping, free items, merge at sign-in, empty after an order. Every line and total is priced
 * by the pricing engine (`evaluateCart`), so the mini-cart, the cart page and the order charge the same.
 *
 * Concurrency: every change runs in one transaction holding the cart row lock (`SELECT … FOR UPDATE`),
 * so the stock check and the atomic quantity upsert see a stable cart; parallel adds sum exactly.
 *
 * Checkout's API: `cartOwnerOf`, `loadPricedCart`, `PricedCart` (lines, totals, coupons, shipping),
 * `emptyCart`.
 */
import { createHash } from "node:crypto";
import type { Db, Queryable } from "../db/client.ts";
import * as repo from "../db/repositories/cart.ts";
import type { CartItemRecord, SellableRecord } from "../db/repositories/cart.ts";
import type { CartItemData, CartLine, CartOwner, PricedCart } from "../domain/cart/types.ts";
import { cachedPricingSetup, findCouponByCode, couponUsage } from "../db/repositories/discounts.ts";
import {
  evaluateCart,
  validateCoupon,
  validateFreeItemChange,
  normalizeCouponCode,
  type CartLineInput,
  type CartResult,
  type Coupon,
  type DiscountRule,
  type FreeItemGrant,
  type ShippingMethod,
  type UsageCount,
} from "../domain/pricing/index.ts";
import {
  bundleModel,
  bundlePrice,
  bundlesAvailable,
  fitsProductKind,
  storedBundledItems,
  variationMatches,
  type AddToCartRequest,
  type BundleComponent,
  type StoredBundledItem,
} from "../domain/catalog/index.ts";
import { DEFAULT_CURRENCY_FORMAT, type CurrencyFormat } from "../domain/money/money.ts";
import { allZoneMethods, methodsForDestination, type ShippingDestination, type ShippingZoneSetup } from "../domain/pricing/zones.ts";
import { cartTax, type TaxAddress, type TaxRate } from "../domain/pricing/tax.ts";

export type { CartItemData, CartOwner, PricedCart } from "../domain/cart/types.ts";

// ---------------------------------------------------------------------------------------------------
// Keys and hashes
// ---------------------------------------------------------------------------------------------------

/** WooCommerce's generate_cart_id: md5 of product id, variation id, attributes and item data. */
export function cartItemKey(productId: number, variationId: number, variation: Record<string, string>, itemData: CartItemData): string {
  const parts: string[] = [String(productId)];
  if (variationId) parts.push(String(variationId));
  const attrs = Object.keys(variation).sort();
  if (attrs.length) parts.push(attrs.map((k) => `${k.trim()}${String(variation[k]).trim()}`).join(""));
  const data = Object.entries(itemData)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
  if (data.length) parts.push(data.map(([k, v]) => `${k}${typeof v === "object" ? JSON.stringify(v) : String(v)}`).join(""));
  return createHash("md5").update(parts.join("_")).digest("hex");
}

/** Whose cart a session holds: the customer's when signed in, else the guest session's own. */
export function cartOwnerOf(session: { id: string; customerId: number | null } | null): CartOwner | null {
  if (!session) return null;
  return session.customerId ? { customerId: session.customerId } : { sessionId: session.id };
}

// ---------------------------------------------------------------------------------------------------
// The priced cart
// ---------------------------------------------------------------------------------------------------

export interface PricingOptions {
  now: Date;
  loggedIn: boolean;
  currencyFormat?: CurrencyFormat;
  /**
   * Where the cart is shipped: its rates are the methods of the first shipping zone this address is in, else the rest
   * of the world's (core/domain/pricing/zones.ts). None known: the rest of the world's.
   */
  destination?: ShippingDestination | null;
  /** false: the shop does not ship to the destination's country (Settings › General): no rates. */
  shippable?: boolean;
  /**
   * Settings › Tax on: the address whose rates apply (core/commerce/tax.ts picks it) and whether shipping is taxed; the
   * cart's `tax` and its grand total then include the tax (core/domain/pricing/tax.ts). Absent: no tax, as before.
   */
  tax?: { address: TaxAddress | null; shippingTaxable: boolean };
}

interface PricingData {
  rules: DiscountRule[];
  shipping: ShippingMethod[];
  zones: ShippingZoneSetup;
  taxRates: TaxRate[];
}

/**
 * The parsed rules and shipping methods, from the in-memory cache (see cachedPricingSetup).
 * `root` is the shop's database handle (the cache key); `q` reads on a miss: inside a transaction it
 * must be the transaction, because PGlite serves nothing else until the transaction ends.
 */
function pricingData(q: Queryable, root: Queryable = q): Promise<PricingData> {
  return cachedPricingSetup(root, q);
}

const EMPTY_RESULT = (now: Date): CartResult => evaluateCart({ lines: [], rules: [], now });

/** Loads and prices the owner's cart (no owner or no cart: an empty cart). */
export async function loadPricedCart(db: Queryable, owner: CartOwner | null, opts: PricingOptions): Promise<PricedCart> {
  if (!owner) return emptyPricedCart(opts.now);
  // One query for the cart, its lines and their products; the rules come from memory.
  const [snapshot, data] = await Promise.all([repo.cartSnapshot(db, owner), pricingData(db)]);
  if (!snapshot) return emptyPricedCart(opts.now);
  return priceCart(db, snapshot.cart, snapshot.items, owner, opts, data, snapshot);
}

function emptyPricedCart(now: Date): PricedCart {
  return { cartId: null, createdAt: null, lines: [], count: 0, couponCodes: [], chosenShippingMethodId: null, result: EMPTY_RESULT(now), tax: null, hash: "" };
}

interface LineBuild {
  item: CartItemRecord;
  sellable: SellableRecord;
  input: CartLineInput;
  details: string;
  components: BundleComponent[];
}

/** Turns stored lines into engine inputs. Lines whose product is gone or unpublished are left out. */
async function buildLines(db: Queryable, items: CartItemRecord[], preloaded?: Pick<repo.CartSnapshot, "sellables" | "termNames">): Promise<LineBuild[]> {
  const products =
    preloaded?.sellables ??
    (await repo.sellables(
      db,
      items.map((i) => ({ productId: i.productId, variationId: i.variationId })),
    ));
  const bundleSlugs = new Set<string>();
  const termPairs: { taxonomy: string; slug: string }[] = [];
  for (const item of items) {
    const s = products.get(`${item.productId}:${item.variationId}`);
    if (s?.type === "bundle") for (const b of bundleItemsOf(s)) bundleSlugs.add(b.product);
    for (const [name, slug] of Object.entries(item.variation)) if (slug) termPairs.push({ taxonomy: name.replace(/^attribute_/, ""), slug });
  }
  const [bundled, terms] = await Promise.all([
    bundleSlugs.size
      ? repo.productPricesBySlug(db, [...bundleSlugs])
      : Promise.resolve(new Map<string, { id: number; name: string; price: number; stockQuantity: number | null }>()),
    preloaded ? Promise.resolve(preloaded.termNames) : repo.termNames(db, termPairs),
  ]);
  const out: LineBuild[] = [];
  for (const item of items) {
    const s = products.get(`${item.productId}:${item.variationId}`);
    if (!s || !s.published) continue;
    let regular = s.regularPrice ?? 0;
    let sale: number | undefined = s.salePrice ?? undefined;
    let details = "";
    let components: BundleComponent[] = [];
    if (s.type === "bundle") {
      const model = bundleModel(s.productId, s.regularPrice ?? 0, bundleItemsOf(s), (slug) => bundled.get(slug));
      regular = bundlePrice(model, { ticked: item.itemData.bundleOptional ?? [] });
      sale = undefined;
      components = bundleComponents(s, item.itemData.bundleOptional ?? [], bundled);
      const extras = bundleItemsOf(s).filter((b) => b.optional && item.itemData.bundleOptional?.includes(b.bundledItemId));
      details = extras.length ? `With ${extras.map((b) => bundled.get(b.product)?.name ?? b.product).join(", ")}` : "";
    } else if (s.type === "downloadable" && item.itemData.priceIndex !== undefined) {
      const option = downloadPrices(s).find((p) => p.index === item.itemData.priceIndex);
      if (!option) continue;
      regular = option.amount;
      sale = undefined;
      details = option.name;
    } else if (item.variationId) {
      details = Object.entries(item.variation)
        .filter(([, v]) => v)
        .map(([name, slug]) => {
          const tax = name.replace(/^attribute_/, "");
          return `${labelOf(tax)}: ${terms.get(`${tax}:${slug}`) ?? slug}`;
        })
        .join(", ");
    }
    out.push({
      item,
      sellable: s,
      details,
      components,
      input: {
        key: item.key,
        productId: item.productId,
        ...(item.variationId ? { variationId: item.variationId } : {}),
        name: s.name,
        categoryIds: s.categoryIds,
        categorySlugs: s.categorySlugs,
        quantity: item.quantity,
        regularUnitPrice: regular,
        ...(sale !== undefined ? { saleUnitPrice: sale } : {}),
        needsShipping: s.type !== "downloadable" && !s.virtual,
        ...(item.itemData.freeItem ? { freeItem: { ruleUniqueId: item.itemData.freeItem } } : {}),
      },
    });
  }
  return out;
}

const labelOf = (taxonomy: string) => {
  const bare = taxonomy.replace(/^pa_/, "").replace(/[-_]/g, " ");
  return bare.charAt(0).toUpperCase() + bare.slice(1);
};

function bundleItemsOf(s: SellableRecord): StoredBundledItem[] {
  return storedBundledItems(s.details);
}
/** The products in one unit of a bundle line: every mandatory item and the ticked optional ones. */
function bundleComponents(
  s: SellableRecord,
  ticked: readonly number[],
  bundled: Map<string, { id: number; name: string; stockQuantity: number | null }>,
): BundleComponent[] {
  const out: BundleComponent[] = [];
  for (const b of bundleItemsOf(s)) {
    if (b.optional && !ticked.includes(b.bundledItemId)) continue;
    const p = bundled.get(b.product);
    if (p) out.push({ productId: p.id, name: p.name, unitsPerBundle: b.quantity, stockQuantity: p.stockQuantity });
  }
  return out;
}

function downloadPrices(s: SellableRecord): { index: number; name: string; amount: number }[] {
  return Array.isArray(s.details.prices) ? (s.details.prices as { index: number; name: string; amount: number }[]) : [];
}

async function priceCart(
  db: Queryable,
  cart: repo.CartRecord,
  items: CartItemRecord[],
  owner: CartOwner | null,
  opts: PricingOptions,
  pd: PricingData,
  preloaded?: Pick<repo.CartSnapshot, "sellables" | "termNames">,
): Promise<PricedCart> {
  const [built, coupons] = await Promise.all([buildLines(db, items, preloaded), loadCoupons(db, cart.coupons, owner)]);
  const evaluated = evaluateCart({
    lines: built.map((b) => b.input),
    rules: pd.rules,
    coupons: coupons.defs,
    appliedCoupons: cart.coupons,
    couponUsage: coupons.usage,
    customer: { loggedIn: opts.loggedIn },
    shippingMethods: methodsForDestination(pd.zones, opts.destination ?? null, opts.shippable ?? true),
    ...(cart.shippingMethod ? { chosenShippingMethodId: cart.shippingMethod } : {}),
    now: opts.now,
    currencyFormat: opts.currencyFormat ?? DEFAULT_CURRENCY_FORMAT,
  });
  // Tax (Settings › Tax on): per line on what the line costs after discounts, and on the shipping; the grand total the
  // gateway is charged includes it. Off: the engine's totals as they are.
  const tax = opts.tax
    ? cartTax(pd.taxRates, opts.tax.address, {
        lines: evaluated.lines.map((l) => ({ key: l.key, subtotal: l.subtotal, total: l.total })),
        shipping: evaluated.totals.shipping,
        shippingTaxable: opts.tax.shippingTaxable,
      })
    : null;
  const result = tax ? { ...evaluated, totals: { ...evaluated.totals, grandTotal: evaluated.totals.grandTotal + tax.total } } : evaluated;
  const priced = new Map(result.lines.map((l) => [l.key, l]));
  const grants = new Map(result.freeItems.grants.map((g) => [g.ruleUniqueId, g]));
  const choiceLabels = await freeChoiceLabels(db, result.freeItems.grants);
  const lines: CartLine[] = built.map(({ item, sellable, details, components }) => {
    const p = priced.get(item.key)!;
    const grant = item.itemData.freeItem ? grants.get(item.itemData.freeItem) : undefined;
    return {
      key: item.key,
      productId: item.productId,
      variationId: item.variationId,
      variation: item.variation,
      itemData: item.itemData,
      name: sellable.name,
      slug: sellable.slug,
      sku: sellable.sku,
      type: sellable.type,
      imageSlug: sellable.imageSlug,
      details,
      quantity: item.quantity,
      stockQuantity: sellable.stockQuantity,
      components,
      needsShipping: sellable.type !== "downloadable" && !sellable.virtual,
      regularUnitPrice: p.regularUnitPrice,
      unitPrice: p.unitPrice,
      subtotal: p.subtotal,
      discountedSubtotal: p.discountedSubtotal,
      total: p.total,
      freeItem: grant
        ? {
            ruleUniqueId: grant.ruleUniqueId,
            parentProductId: grant.parentProductId,
            choices: grant.choosableProductIds.map((id) => ({ id, label: choiceLabels.get(id) ?? `#${id}` })),
          }
        : null,
    };
  });
  const appliedCodes = result.coupons.applied.map((c) => c.code);
  const base: Omit<PricedCart, "hash"> = {
    cartId: cart.id,
    createdAt: cart.createdAt,
    lines,
    count: lines.reduce((n, l) => n + l.quantity, 0),
    couponCodes: appliedCodes,
    chosenShippingMethodId: result.shipping.chosenRateId,
    result,
    tax,
  };
  return { ...base, hash: cartHash(base) };
}

/** Labels for the free-item choices ("Velvet Bow Tie – Red"). */
async function freeChoiceLabels(db: Queryable, grants: FreeItemGrant[]): Promise<Map<number, string>> {
  return repo.productChoiceLabels(db, [...new Set(grants.flatMap((g) => g.choosableProductIds))]);
}

/** md5 over everything the fragments show; '' when empty (docs/contract/wire.md §1.6). */
export function cartHash(cart: Omit<PricedCart, "hash">): string {
  if (cart.lines.length === 0) return "";
  const shown = {
    l: cart.lines.map((l) => [
      l.key,
      l.productId,
      l.variationId,
      l.quantity,
      l.name,
      l.details,
      l.imageSlug,
      l.sku,
      l.unitPrice,
      l.discountedSubtotal,
      l.total,
      l.freeItem?.ruleUniqueId ?? "",
    ]),
    t: cart.result.totals,
    c: cart.couponCodes,
    s: [cart.chosenShippingMethodId, cart.result.shipping.rates.map((r) => [r.id, r.cost])],
    n: cart.result.nudges.map((n) => n.message),
    w: cart.result.warnings.map((w) => w.message),
  };
  return createHash("md5").update(JSON.stringify(shown)).digest("hex");
}

async function loadCoupons(db: Queryable, codes: string[], owner: CartOwner | null): Promise<{ defs: Coupon[]; usage: Record<string, UsageCount> }> {
  const defs: Coupon[] = [];
  const usage: Record<string, UsageCount> = {};
  const key = owner && "customerId" in owner ? `c:${owner.customerId}` : null;
  for (const code of codes) {
    const c = await findCouponByCode(db, code);
    if (!c) continue;
    defs.push(c);
    usage[normalizeCouponCode(code)] = await couponUsage(db, code, key);
  }
  return { defs, usage };
}

// ---------------------------------------------------------------------------------------------------
// Changing the cart
// ---------------------------------------------------------------------------------------------------

/** A change's outcome; on success `cart` is the cart as priced at the end of the change (no second pricing needed). */
export type CartChange<T = undefined> = { ok: true; value: T; cart?: PricedCart } | { ok: false; message: string; productUrl?: string | false };

const fail = (message: string, productUrl?: string | false): { ok: false; message: string; productUrl?: string | false } => ({
  ok: false,
  message,
  ...(productUrl !== undefined ? { productUrl } : {}),
});
const productUrl = (slug: string) => `/product/${slug}/`;

/** Thrown inside a transaction to roll it back with a shopper-facing message. */
class Refusal extends Error {
  constructor(
    message: string,
    readonly productUrl?: string | false,
  ) {
    super(message);
  }
}

async function inCart<T>(
  db: Db,
  owner: CartOwner,
  opts: PricingOptions,
  fn: (tx: Queryable, cart: repo.CartRecord, pd: PricingData) => Promise<T>,
): Promise<CartChange<T>> {
  try {
    const { value, cart } = await db.transaction(async (tx) => {
      const pd = await pricingData(tx, db);
      const value = await fn(tx, await repo.lockOrCreateCart(tx, owner), pd);
      return { value, cart: await settleCart(tx, owner, opts, pd) };
    });
    return { ok: true, value, cart };
  } catch (error) {
    if (error instanceof Refusal) return fail(error.message, error.productUrl);
    throw error;
  }
}

export const CART_MESSAGES = {
  cannotPurchase: "Sorry, this product cannot be purchased.",
  outOfStock: (name: string) => `You cannot add “${name}” to the cart because the product is out of stock.`,
  notEnoughStock: (name: string, stock: number) =>
    `You cannot add that amount of “${name}” to the cart because there is not enough stock (${stock} remaining).`,
  alreadyInCart: (stock: number, inCart: number) =>
    `You cannot add that amount to the cart — we have ${stock} in stock and you already have ${inCart} in your cart.`,
  chooseOptions: "Please choose product options…",
  invalidVariation: "Sorry, this product is unavailable. Please choose a different combination.",
  requiredAttributes: (names: string[]) => `${names.join(", ")} ${names.length === 1 ? "is a required field" : "are required fields"}.`,
  added: (names: string[]) => `${names.map((n) => `“${n}”`).join(" and ")} ${names.length === 1 ? "has" : "have"} been added to your cart.`,
  external: "This product is sold by our partner and cannot be added to the cart here.",
  bundleItems: "The bundle’s item quantities are not valid.",
  bundleItemOutOfStock: (bundle: string, item: string) => `You cannot add “${bundle}” to the cart because “${item}” inside it is out of stock.`,
  bundleItemShort: (bundle: string, item: string, fits: number) =>
    `You cannot add that amount of “${bundle}” to the cart because there is only enough “${item}” for ${fits}.`,
  unknownItem: "That item is no longer in your cart.",
  removed: (name: string) => `“${name}” removed.`,
  updated: "Cart updated.",
  couponApplied: "Coupon code applied successfully.",
  couponRemoved: "Coupon has been removed.",
  couponNotApplied: "Coupon has not been applied.",
  shippingUnknown: "That shipping method is not available.",
} as const;

export interface AddedLine {
  key: string;
  name: string;
  quantity: number;
}

/** Adds a parsed add-to-cart request (all kinds). All or nothing: a grouped add with one bad child adds nothing. */
export async function addToCart(db: Db, owner: CartOwner, request: AddToCartRequest, opts: PricingOptions): Promise<CartChange<AddedLine[]>> {
  // Resolve outside the lock (reads only), then re-check stock under it.
  const planned = await planAdd(db, request);
  if (!planned.ok) return planned;
  return inCart(db, owner, opts, async (tx, cart) => {
    const added: AddedLine[] = [];
    const existing = await repo.cartItems(tx, cart.id);
    const fresh = await repo.sellables(
      tx,
      planned.value.map((p) => ({ productId: p.item.productId, variationId: p.item.variationId })),
    );
    for (const { item, name } of planned.value) {
      const s = fresh.get(`${item.productId}:${item.variationId}`);
      if (!s || !s.published) throw new Refusal(CART_MESSAGES.cannotPurchase);
      checkStock(s, item.quantity, existing, item);
      const quantity = await repo.addItem(tx, cart.id, item);
      existing.push({ ...item, quantity: item.quantity });
      added.push({ key: item.key, name, quantity });
    }
    return added;
  });
}

/** The same stock item (product or variation) counts across all its lines, as in WooCommerce. */
function checkStock(s: SellableRecord, adding: number, existing: CartItemRecord[], item: CartItemRecord): void {
  if (s.stockStatus === "outofstock") throw new Refusal(CART_MESSAGES.outOfStock(s.name), productUrl(s.slug));
  if (s.stockQuantity === null) return;
  const inCartQty = existing.filter((e) => e.productId === item.productId && e.variationId === item.variationId).reduce((n, e) => n + e.quantity, 0);
  if (adding > s.stockQuantity) throw new Refusal(CART_MESSAGES.notEnoughStock(s.name, s.stockQuantity), productUrl(s.slug));
  if (inCartQty + adding > s.stockQuantity) throw new Refusal(CART_MESSAGES.alreadyInCart(s.stockQuantity, inCartQty), productUrl(s.slug));
}

/**
 * The product page a refused add sends the shopper to (WooCommerce answers `product_url` for any refusal of a
 * real product): a variation id resolves to its parent; an unknown or unpublished product has none (false).
 */
export async function productPageUrl(db: Queryable, id: number): Promise<string | false> {
  const productId = (await repo.resolveVariationId(db, id))?.productId ?? id;
  const s = (await repo.sellables(db, [{ productId, variationId: 0 }])).get(`${productId}:0`);
  return s && s.published ? productUrl(s.slug) : false;
}

/** Checks a request against the catalogue and turns it into cart lines. */
async function planAdd(db: Queryable, request: AddToCartRequest): Promise<CartChange<{ item: CartItemRecord; name: string }[]>> {
  const line = (productId: number, variationId: number, variation: Record<string, string>, itemData: CartItemData, quantity: number): CartItemRecord => ({
    key: cartItemKey(productId, variationId, variation, itemData),
    productId,
    variationId,
    variation,
    itemData,
    quantity,
  });
  if (request.kind === "download") {
    const productId = await repo.productIdByDownloadId(db, request.downloadId);
    if (productId === null) return fail(CART_MESSAGES.cannotPurchase, false);
    const s = (await repo.sellables(db, [{ productId, variationId: 0 }])).get(`${productId}:0`);
    if (!s || !s.published) return fail(CART_MESSAGES.cannotPurchase, false);
    const options = downloadPrices(s);
    const out: { item: CartItemRecord; name: string }[] = [];
    for (const l of request.lines) {
      if (l.priceIndex !== null && !options.some((o) => o.index === l.priceIndex)) return fail(CART_MESSAGES.cannotPurchase, productUrl(s.slug));
      out.push({ item: line(productId, 0, {}, l.priceIndex === null ? {} : { priceIndex: l.priceIndex }, l.quantity), name: s.name });
    }
    return { ok: true, value: out };
  }

  let req: AddToCartRequest = request;
  // A product id that is really a variation: its parent and attributes (WooCommerce does the same).
  if (req.kind === "simple") {
    const parent = await repo.resolveVariationId(db, req.productId);
    if (parent) req = { kind: "variation", productId: parent.productId, variationId: req.productId, attributes: {}, quantity: req.quantity };
  }
  const s = (await repo.sellables(db, [{ productId: req.productId, variationId: 0 }])).get(`${req.productId}:0`);
  if (!s || !s.published) return fail(CART_MESSAGES.cannotPurchase, false);
  const url = productUrl(s.slug);
  if (s.type === "external") return fail(CART_MESSAGES.external, url);
  if (s.type === "variable" && req.kind === "simple") return fail(CART_MESSAGES.chooseOptions, url);
  // A downloadable product is a simple one to WooCommerce: added by its id too (a multi-price one needs its option chosen).
  if (s.type === "downloadable" && req.kind === "simple") {
    if (s.details.priceMode === "multi") return fail(CART_MESSAGES.chooseOptions, url);
    return { ok: true, value: [{ item: line(s.productId, 0, {}, {}, req.quantity), name: s.name }] };
  }
  if (!fitsProductKind(req, s.type)) return fail(CART_MESSAGES.cannotPurchase, url);

  switch (req.kind) {
    case "simple":
      if (s.type === "bundle") return planBundle(db, s, req.quantity, [], line);
      return { ok: true, value: [{ item: line(s.productId, 0, {}, {}, req.quantity), name: s.name }] };
    case "variation": {
      const variations = (await repo.variationsOf(db, s.productId)).filter((v) => v.published);
      let chosen = req.variationId !== null ? variations.find((v) => v.id === req.variationId) : undefined;
      if (req.variationId !== null && !chosen) return fail(CART_MESSAGES.invalidVariation, url);
      if (!chosen) {
        const names = [...new Set(variations.flatMap((v) => Object.keys(v.attributes)))];
        const unset = names.filter((k) => !(req.attributes[k] ?? ""));
        if (unset.length) return fail(CART_MESSAGES.requiredAttributes(unset.map((k) => labelOf(k.replace(/^attribute_(pa_)?/, "")))), url);
        chosen = variations.find(
          (v) =>
            variationMatches(v.attributes, req.attributes) && Object.entries(v.attributes).every(([k, val]) => val !== "" || (req.attributes[k] ?? "") !== ""),
        );
        if (!chosen) {
          const missing = Object.keys(variations[0]?.attributes ?? {}).filter((k) => !(req.attributes[k] ?? ""));
          return fail(
            missing.length ? CART_MESSAGES.requiredAttributes(missing.map((k) => labelOf(k.replace(/^attribute_(pa_)?/, "")))) : CART_MESSAGES.invalidVariation,
            url,
          );
        }
      }
      // The variation's fixed attributes win; 'any' ones must come from the form and be one of the product's options.
      const variation: Record<string, string> = {};
      const missing: string[] = [];
      for (const [name, value] of Object.entries(chosen.attributes)) {
        if (value !== "") {
          if (req.attributes[name] && req.attributes[name] !== value) return fail(CART_MESSAGES.invalidVariation, url);
          variation[name] = value;
        } else {
          const given = req.attributes[name] ?? "";
          if (!given) missing.push(labelOf(name.replace(/^attribute_(pa_)?/, "")));
          else if (!attributeOptions(s, name).includes(given)) return fail(CART_MESSAGES.invalidVariation, url);
          variation[name] = given;
        }
      }
      if (missing.length) return fail(CART_MESSAGES.requiredAttributes(missing), url);
      return { ok: true, value: [{ item: line(s.productId, chosen.id, variation, {}, req.quantity), name: s.name }] };
    }
    case "grouped": {
      const children = await repo.groupedChildIds(db, s.productId);
      const childProducts = await repo.sellables(
        db,
        req.children.map((c) => ({ productId: c.productId, variationId: 0 })),
      );
      const out: { item: CartItemRecord; name: string }[] = [];
      for (const c of req.children) {
        const child = childProducts.get(`${c.productId}:0`);
        if (!children.includes(c.productId) || !child || !child.published || child.type !== "simple") return fail(CART_MESSAGES.cannotPurchase, url);
        out.push({ item: line(child.productId, 0, {}, {}, c.quantity), name: child.name });
      }
      return { ok: true, value: out };
    }
    case "bundle": {
      const defs = bundleItemsOf(s);
      const ticked: number[] = [];
      for (const choice of req.items) {
        const def = defs.find((d) => d.bundledItemId === choice.bundledItemId);
        if (!def) return fail(CART_MESSAGES.bundleItems, url);
        // Units per bundle are fixed by the shop; a posted quantity must be the item's own.
        if (choice.quantity !== null && choice.quantity !== def.quantity) return fail(CART_MESSAGES.bundleItems, url);
        if (choice.selected) {
          if (!def.optional) return fail(CART_MESSAGES.bundleItems, url);
          ticked.push(def.bundledItemId);
        }
      }
      return planBundle(db, s, req.quantity, ticked, line);
    }
  }
}

async function planBundle(
  db: Queryable,
  s: SellableRecord,
  quantity: number,
  ticked: number[],
  line: (productId: number, variationId: number, variation: Record<string, string>, itemData: CartItemData, quantity: number) => CartItemRecord,
): Promise<CartChange<{ item: CartItemRecord; name: string }[]>> {
  // Every product inside must be in stock for `quantity` bundles; the order takes their stock too.
  const slugs = bundleItemsOf(s).map((b) => b.product);
  const components = bundleComponents(s, ticked, slugs.length ? await repo.productPricesBySlug(db, slugs) : new Map());
  for (const c of components) {
    if (c.stockQuantity === null || c.stockQuantity >= c.unitsPerBundle * quantity) continue;
    return fail(
      c.stockQuantity < c.unitsPerBundle
        ? CART_MESSAGES.bundleItemOutOfStock(s.name, c.name)
        : CART_MESSAGES.bundleItemShort(s.name, c.name, bundlesAvailable(null, [c]) ?? 0),
      productUrl(s.slug),
    );
  }
  const data: CartItemData = ticked.length ? { bundleOptional: [...ticked].sort((a, b) => a - b) } : {};
  return { ok: true, value: [{ item: line(s.productId, 0, {}, data, quantity), name: s.name }] };
}

function attributeOptions(s: SellableRecord, fieldName: string): string[] {
  const name = fieldName.replace(/^attribute_/, "");
  return s.attributes.find((a) => a.name === name)?.options ?? [];
}

/** Removes a line; unknown keys are refused. Returns the removed product's name. */
export async function removeCartItem(db: Db, owner: CartOwner, key: string, opts: PricingOptions): Promise<CartChange<string>> {
  return inCart(db, owner, opts, async (tx, cart) => {
    const items = await repo.cartItems(tx, cart.id);
    const item = items.find((i) => i.key === key);
    if (!item) throw new Refusal(CART_MESSAGES.unknownItem);
    await repo.deleteItem(tx, cart.id, key);
    const s = (await repo.sellables(tx, [{ productId: item.productId, variationId: item.variationId }])).get(`${item.productId}:${item.variationId}`);
    return s?.name ?? "Item";
  });
}

/** The cart page's update: new quantities by key (0 removes). Unknown keys and bad stock refuse the whole update. */
export async function updateQuantities(db: Db, owner: CartOwner, quantities: Record<string, number>, opts: PricingOptions): Promise<CartChange<boolean>> {
  return inCart(db, owner, opts, async (tx, cart) => {
    const items = await repo.cartItems(tx, cart.id);
    let changed = false;
    const products = await repo.sellables(
      tx,
      items.map((i) => ({ productId: i.productId, variationId: i.variationId })),
    );
    const after = items.map((i) => ({ ...i, quantity: quantities[i.key] ?? i.quantity }));
    for (const key of Object.keys(quantities)) if (!items.some((i) => i.key === key)) throw new Refusal(CART_MESSAGES.unknownItem);
    for (const item of after) {
      if (item.itemData.freeItem) continue; // free items follow their rule
      const before = items.find((i) => i.key === item.key)!;
      if (item.quantity === before.quantity) continue;
      const s = products.get(`${item.productId}:${item.variationId}`);
      if (item.quantity > 0 && s && s.stockQuantity !== null) {
        const total = after.filter((a) => a.productId === item.productId && a.variationId === item.variationId).reduce((n, a) => n + a.quantity, 0);
        if (total > s.stockQuantity) throw new Refusal(CART_MESSAGES.notEnoughStock(s.name, s.stockQuantity));
      }
      await repo.setItemQuantity(tx, cart.id, item.key, item.quantity);
      changed = true;
    }
    return changed;
  });
}

/** Applies a coupon with the engine's checks; the refusal message is WooCommerce's. */
export async function applyCoupon(db: Db, owner: CartOwner, code: string, opts: PricingOptions): Promise<CartChange<string>> {
  return inCart(db, owner, opts, async (tx, cart, pd) => {
    const items = await repo.cartItems(tx, cart.id);
    const priced = await priceCart(tx, cart, items, owner, opts, pd);
    const coupon = code.trim() ? await findCouponByCode(tx, code) : null;
    const known = await loadCoupons(tx, cart.coupons, owner);
    const usage = coupon ? await couponUsage(tx, coupon.code, "customerId" in owner ? `c:${owner.customerId}` : null) : undefined;
    const lineInputs = (await buildLines(tx, items)).map((b) => b.input);
    const check = validateCoupon(code, {
      coupons: coupon ? [...known.defs, coupon] : known.defs,
      appliedCodes: priced.couponCodes,
      lines: lineInputs,
      // What the items cost after the rules, before coupons.
      spend: priced.result.lines
        .filter((l) => !l.freeItem)
        .reduce((n, l) => n + l.total + l.discounts.filter((d) => d.source === "coupon").reduce((m, d) => m + d.amount, 0), 0),
      ...(usage ? { usage } : {}),
      now: opts.now,
      currencyFormat: opts.currencyFormat ?? DEFAULT_CURRENCY_FORMAT,
    });
    if (!check.ok) throw new Refusal(check.message);
    const kept = priced.couponCodes.filter((c) => !check.replacesCodes.includes(c));
    await repo.setCoupons(tx, cart.id, [...kept, normalizeCouponCode(check.coupon.code)]);
    return normalizeCouponCode(check.coupon.code);
  });
}

export async function removeCoupon(db: Db, owner: CartOwner, code: string, opts: PricingOptions): Promise<CartChange<string>> {
  const wanted = normalizeCouponCode(code);
  if (!wanted) return fail(CART_MESSAGES.couponNotApplied);
  return inCart(db, owner, opts, async (tx, cart) => {
    if (!cart.coupons.includes(wanted)) throw new Refusal(CART_MESSAGES.couponNotApplied);
    await repo.setCoupons(
      tx,
      cart.id,
      cart.coupons.filter((c) => c !== wanted),
    );
    return wanted;
  });
}

export async function chooseShippingMethod(db: Db, owner: CartOwner, methodId: string, opts: PricingOptions): Promise<CartChange<string>> {
  const methods = allZoneMethods((await pricingData(db)).zones);
  // A rate offered by a promotion has an id the table does not hold.
  if (!methods.some((m) => m.id === methodId) && methodId !== "free_shipping:promotion") return fail(CART_MESSAGES.shippingUnknown);
  return inCart(db, owner, opts, async (tx, cart) => {
    await repo.setShippingMethod(tx, cart.id, methodId);
    return methodId;
  });
}

/** The cart's "change product" for a free item; validated by the engine against the current grants. */
export async function changeFreeItem(
  db: Db,
  owner: CartOwner,
  req: { product_id: number; rule_unique_id: string; parent_id: number },
  opts: PricingOptions,
): Promise<CartChange<boolean>> {
  return inCart(db, owner, opts, async (tx, cart, pd) => {
    const items = await repo.cartItems(tx, cart.id);
    const priced = await priceCart(tx, cart, items, owner, opts, pd);
    const change = validateFreeItemChange(priced.result.freeItems.grants, req);
    if (!change.ok) throw new Refusal(change.message);
    const current = items.filter((i) => i.itemData.freeItem === change.ruleUniqueId);
    const target = await freeLine(tx, change.parentProductId, change.productId, change.ruleUniqueId, change.quantity);
    if (!target) throw new Refusal(CART_MESSAGES.cannotPurchase);
    if (current.length === 1 && current[0]!.key === target.key) return false;
    for (const c of current) await repo.deleteItem(tx, cart.id, c.key);
    await repo.addItem(tx, cart.id, target);
    return true;
  });
}

async function freeLine(tx: Queryable, parentProductId: number, productId: number, ruleUniqueId: string, quantity: number): Promise<CartItemRecord | null> {
  const variation = await repo.resolveVariationId(tx, productId);
  const pid = variation ? variation.productId : productId;
  const vid = variation ? productId : 0;
  if (variation && variation.productId !== parentProductId) return null;
  const attrs = variation ? Object.fromEntries(Object.entries(variation.attributes).filter(([, v]) => v !== "")) : {};
  const data: CartItemData = { freeItem: ruleUniqueId };
  return { key: cartItemKey(pid, vid, attrs, data), productId: pid, variationId: vid, variation: attrs, itemData: data, quantity };
}

/**
 * Ends every change: adds and removes the free items the rules grant (the engine decides; this
 * applies), and returns the cart as finally priced, which the response shows without pricing again.
 */
async function settleCart(tx: Queryable, owner: CartOwner, opts: PricingOptions, pd: PricingData): Promise<PricedCart> {
  const grantsFreeItems = pd.rules.some((r) => r.action.kind === "buy_x_get_y");
  for (let round = 0; ; round++) {
    const snapshot = await repo.cartSnapshot(tx, owner);
    if (!snapshot) return emptyPricedCart(opts.now);
    const priced = await priceCart(tx, snapshot.cart, snapshot.items, owner, opts, pd, snapshot);
    const { toAdd, toRemove } = priced.result.freeItems;
    if (!grantsFreeItems || round === 3 || (!toAdd.length && !toRemove.length)) return priced;
    for (const r of toRemove) {
      const item = snapshot.items.find((i) => i.key === r.lineKey);
      if (!item) continue;
      await repo.setItemQuantity(tx, snapshot.cart.id, item.key, item.quantity - r.quantity);
    }
    for (const a of toAdd) {
      const target = await freeLine(tx, a.parentProductId, a.productId, a.ruleUniqueId, a.quantity);
      if (target) await repo.addItem(tx, snapshot.cart.id, target);
    }
  }
}

/**
 * Prices lines that are in no stored cart, under the rules given (the promotion simulator, core/commerce/promotion-simulator.ts):
 * the same line building, coupon loading and engine as a shopper's cart, and the free items the rules grant added and
 * removed as `settleCart` does, in memory. Reads only; nothing is written.
 */
export async function priceUnsavedCart(
  db: Queryable,
  input: { items: readonly Omit<CartItemRecord, "key" | "itemData">[]; coupons: readonly string[]; owner: CartOwner | null },
  opts: PricingOptions,
  rules: DiscountRule[],
): Promise<PricedCart> {
  const stored = await pricingData(db);
  const pd: PricingData = { rules, shipping: stored.shipping, zones: stored.zones, taxRates: stored.taxRates };
  let items: CartItemRecord[] = [];
  const put = (item: CartItemRecord) => {
    const same = items.find((i) => i.key === item.key);
    items = same ? items.map((i) => (i === same ? { ...i, quantity: i.quantity + item.quantity } : i)) : [...items, item];
  };
  for (const i of input.items) put({ ...i, key: cartItemKey(i.productId, i.variationId, i.variation, {}), itemData: {} });
  const cart: repo.CartRecord = { id: 0, coupons: [...input.coupons], shippingMethod: null, createdAt: opts.now };
  for (let round = 0; ; round++) {
    const priced = await priceCart(db, cart, items, input.owner, opts, pd);
    const { toAdd, toRemove } = priced.result.freeItems;
    if (round === 3 || (!toAdd.length && !toRemove.length)) return priced;
    for (const r of toRemove) items = items.map((i) => (i.key === r.lineKey ? { ...i, quantity: i.quantity - r.quantity } : i)).filter((i) => i.quantity > 0);
    for (const a of toAdd) {
      const target = await freeLine(db, a.parentProductId, a.productId, a.ruleUniqueId, a.quantity);
      if (target) put(target);
    }
  }
}

/** Empties the cart (after an order is placed): lines and coupons; the chosen shipping stays. */
export async function emptyCart(db: Queryable, owner: CartOwner): Promise<void> {
  const cart = await repo.findCart(db, owner);
  if (cart) await repo.deleteAllItems(db, cart.id);
}

/**
 * At sign-in: the guest session's cart joins the customer's. Quantities of the same line add up
 * (capped at the stock), coupons are united, and the guest cart is deleted.
 */
export async function mergeGuestCart(db: Db, sessionId: string, customerId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const guest = await repo.findCart(tx, { sessionId }, true);
    if (!guest) return;
    const items = await repo.cartItems(tx, guest.id);
    const target = await repo.lockOrCreateCart(tx, { customerId });
    if (items.length) {
      const existing = await repo.cartItems(tx, target.id);
      const products = await repo.sellables(
        tx,
        items.map((i) => ({ productId: i.productId, variationId: i.variationId })),
      );
      for (const item of items) {
        if (item.itemData.freeItem) continue; // re-granted by the rules on the next change
        const s = products.get(`${item.productId}:${item.variationId}`);
        if (!s || !s.published || s.stockStatus === "outofstock") continue;
        const have = existing.filter((e) => e.productId === item.productId && e.variationId === item.variationId).reduce((n, e) => n + e.quantity, 0);
        const room = s.stockQuantity === null ? item.quantity : Math.min(item.quantity, s.stockQuantity - have);
        if (room > 0) await repo.addItem(tx, target.id, { ...item, quantity: room });
      }
    }
    const coupons = [...target.coupons, ...guest.coupons.filter((c) => !target.coupons.includes(c))];
    if (coupons.length !== target.coupons.length) await repo.setCoupons(tx, target.id, coupons);
    await repo.deleteCart(tx, guest.id);
  });
}
