/**
 * The discount add-on's admin-ajax calls (spec §7 "Discount pricing"), priced by the pure engine from the
 * catalogue's own prices — never from the browser:
 *
 *   action=wdr_ajax&method=get_price_html            product_id, qty      → data.price_html | data.original_price_html
 *   action=wdr_ajax&method=get_variable_product_bulk_table  product_id    → data.bulk_table
 *   action=awdr_get_product_discount                 product_id, qty, custom_price? → data = ProductDiscountDetail
 *
 * Every call carries `awdr_nonce` (action `config.discounts.nonceAction`).
 *
 * Envelope (our decision, as WordPress's wp_send_json_success / wp_send_json_error):
 *   success → 200 `{"success": true, "data": {...}}`
 *   refusal → 4xx `{"success": false, "data": {"code": "...", "message": "..."}}` (403 for the nonce,
 *             404 for an unknown product, 400 for the rest). Nothing is ever changed by these calls.
 */
import { z } from "zod";
import type { Endpoints } from "../app.ts";
import { json, firstString, type HandlerInput, type Reply } from "../http/dispatch.ts";
import type { Feature } from "./feature.ts";
import type { Queryable } from "../../core/db/client.ts";
import type { AppServices } from "../services.ts";
import { cachedPricingSetup } from "../../core/db/repositories/discounts.ts";
import { cartOwnerOf, loadPricedCart } from "../../core/commerce/cart.ts";
import { parseMoney } from "../../core/domain/money/money.ts";
import {
  bulkTableHtml,
  bulkTableModel,
  exactCurrencyFormat,
  priceHtmlResponse,
  priceProduct,
  productDiscountDetail,
  type CartLineInput,
  type ProductForPricing,
} from "../../core/domain/pricing/index.ts";

export const discountsFeature: Feature = { name: "discounts", endpoints: registerDiscountEndpoints };

export const DISCOUNT_MESSAGES = Object.freeze({
  invalid_nonce: "Your session has expired. Please reload the page and try again.",
  invalid_method: "Unknown discount method.",
  invalid_product: "Invalid product.",
  unknown_product: "No such product.",
  wrong_parent: "That variation does not belong to this product.",
  choose_variation: "Please choose product options first.",
  not_priceable: "This product has no single price to discount.",
  invalid_quantity: "The quantity must be a whole number of at least 1.",
  invalid_custom_price: "The custom price must be an amount like 12.50.",
});

type ErrorCode = keyof typeof DISCOUNT_MESSAGES;

const fail = (code: ErrorCode, status = 400): Reply => json({ success: false, data: { code, message: DISCOUNT_MESSAGES[code] } }, status);
const ok = (data: unknown): Reply => json({ success: true, data });

// ---------------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------------

const idText = z.string().trim().regex(/^[1-9]\d{0,9}$/).transform(Number).pipe(z.number().int().max(2_147_483_647));

function parseId(raw: unknown): number | null {
  const r = idText.safeParse(firstString(raw));
  return r.success ? r.data : null;
}

function parseQuantity(raw: unknown, max: number): number | null {
  const text = firstString(raw)?.trim();
  if (!text || !/^\d{1,9}$/.test(text)) return null;
  const qty = Number(text);
  return qty >= 1 && qty <= max ? qty : null;
}

// ---------------------------------------------------------------------------------------------------
// The product as the engine prices it, from the database
// ---------------------------------------------------------------------------------------------------

export type PricingProductLookup =
  | { kind: "ok"; product: ProductForPricing; parentId: number; isVariation: boolean }
  | { kind: "unknown" }
  | { kind: "wrong_parent" }
  | { kind: "choose_variation"; parentId: number }
  | { kind: "not_priceable" };

/**
 * A product or variation id → the engine's `ProductForPricing` (prices, category ids and slugs), from
 * published rows only. A variable product itself has no price: `choose_variation`, unless
 * `cheapestVariation` (the bulk table of a variable product before a variation is chosen).
 */
export async function loadPricingProduct(
  db: Queryable,
  id: number,
  opts: { parentId?: number; cheapestVariation?: boolean } = {},
): Promise<PricingProductLookup> {
  // One round trip: the id as a variation (with its parent) or as a product, with the categories.
  const rows = await db.query<{
    is_variation: boolean;
    id: number;
    parent_id: number;
    type: string;
    name: string;
    regular_price: number | null;
    sale_price: number | null;
    details: Record<string, unknown> | null;
    category_ids: number[];
    category_slugs: string[];
  }>(
    `WITH target AS (
       SELECT true AS is_variation, v.id, v.product_id AS parent_id, p.type, p.name, v.regular_price, v.sale_price, p.details
       FROM variations v JOIN products p ON p.id = v.product_id
       WHERE v.id = $1 AND v.status = 'publish' AND p.status = 'publish'
       UNION ALL
       SELECT false, p.id, p.id, p.type, p.name, p.regular_price, p.sale_price, p.details
       FROM products p WHERE p.id = $1 AND p.status = 'publish'
     )
     SELECT target.*,
       (SELECT coalesce(array_agg(t.id ORDER BY t.id), '{}') FROM product_terms pt JOIN terms t ON t.id = pt.term_id
         WHERE pt.product_id = target.parent_id AND t.taxonomy = 'product_cat') AS category_ids,
       (SELECT coalesce(array_agg(t.slug ORDER BY t.id), '{}') FROM product_terms pt JOIN terms t ON t.id = pt.term_id
         WHERE pt.product_id = target.parent_id AND t.taxonomy = 'product_cat') AS category_slugs
     FROM target`,
    [id],
  );
  const row = rows[0];
  if (!row) return { kind: "unknown" };
  if (opts.parentId !== undefined && opts.parentId !== row.parent_id) return { kind: "wrong_parent" };
  const product = (p: { regular_price: number; sale_price: number | null }): ProductForPricing => ({
    productId: row.parent_id,
    ...(row.is_variation ? { variationId: row.id } : {}),
    name: row.name,
    categoryIds: row.category_ids,
    categorySlugs: row.category_slugs,
    regularUnitPrice: p.regular_price,
    ...(p.sale_price !== null ? { saleUnitPrice: p.sale_price } : {}),
  });
  if (row.is_variation) return { kind: "ok", parentId: row.parent_id, isVariation: true, product: product({ regular_price: row.regular_price!, sale_price: row.sale_price }) };
  if (row.type === "variable") {
    if (!opts.cheapestVariation) return { kind: "choose_variation", parentId: row.id };
    const [cheapest] = await db.query<{ regular_price: number; sale_price: number | null }>(
      `SELECT regular_price, sale_price FROM variations WHERE product_id = $1 AND status = 'publish'
       ORDER BY least(regular_price, coalesce(sale_price, regular_price)), menu_order, id LIMIT 1`,
      [row.id],
    );
    if (!cheapest) return { kind: "not_priceable" };
    return { kind: "ok", parentId: row.id, isVariation: false, product: product(cheapest) };
  }
  // Grouped products have no price of their own, a bundle's price depends on the items ticked and a
  // multi-price download on the options chosen: none has one unit price for the rules to act on.
  const multiPrice = row.type === "downloadable" && row.details?.priceMode === "multi";
  if (row.regular_price === null || row.type === "grouped" || row.type === "bundle" || multiPrice) return { kind: "not_priceable" };
  return { kind: "ok", parentId: row.id, isVariation: false, product: product({ regular_price: row.regular_price, sale_price: row.sale_price }) };
}

function lookupError(lookup: Exclude<PricingProductLookup, { kind: "ok" }>): Reply {
  switch (lookup.kind) {
    case "unknown":
      return fail("unknown_product", 404);
    case "wrong_parent":
      return fail("wrong_parent");
    case "choose_variation":
      return fail("choose_variation");
    case "not_priceable":
      return fail("not_priceable");
  }
}

// ---------------------------------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------------------------------

interface PricedRequest {
  product: ProductForPricing;
  qty: number;
}

/** The checks every call shares: nonce, product id (and optional parent_id), quantity when asked. */
async function readRequest(
  { req, params, services }: HandlerInput,
  opts: { quantity: boolean; cheapestVariation?: boolean },
): Promise<Reply | PricedRequest> {
  // Load the session first so a signed-in shopper's nonce is checked against their own subject.
  await req.shop.session();
  if (!req.shop.verifyNonce(services.config.discounts.nonceAction, firstString(params.awdr_nonce))) return fail("invalid_nonce", 403);
  const id = parseId(params.product_id);
  if (id === null) return fail("invalid_product");
  let parentId: number | undefined;
  if (params.parent_id !== undefined && firstString(params.parent_id) !== "" && firstString(params.parent_id) !== "0") {
    const parsed = parseId(params.parent_id);
    if (parsed === null) return fail("invalid_product");
    parentId = parsed;
  }
  let qty = 1;
  if (opts.quantity) {
    const parsed = parseQuantity(params.qty, services.config.discounts.maxQuantity);
    if (parsed === null) return fail("invalid_quantity");
    qty = parsed;
  }
  const lookup = await loadPricingProduct(services.db, id, { ...(parentId !== undefined ? { parentId } : {}), cheapestVariation: opts.cheapestVariation ?? false });
  if (lookup.kind !== "ok") return lookupError(lookup);
  return { product: lookup.product, qty };
}

const isReply = (v: Reply | PricedRequest): v is Reply => "kind" in v;

function pricingContext(input: HandlerInput) {
  return {
    now: input.services.now(),
    customer: { loggedIn: input.req.shop.customerId() > 0 },
  };
}

/**
 * The shopper's cart as engine lines, so the product page prices `qty` more units the way the cart will
 * (6 masks in the cart + 1 on the page = the 7-mask tier). Free items are left out, as the engine does.
 */
async function shopperCartLines(input: HandlerInput): Promise<CartLineInput[]> {
  const owner = cartOwnerOf(await input.req.shop.session());
  if (!owner) return [];
  const { db } = input.services;
  const cart = await loadPricedCart(db, owner, { now: input.services.now(), loggedIn: input.req.shop.customerId() > 0 });
  const paying = cart.result.lines.filter((l) => !l.freeItem);
  if (paying.length === 0) return [];
  const cats = await db.query<{ product_id: number; ids: number[]; slugs: string[] }>(
    `SELECT pt.product_id, array_agg(t.id ORDER BY t.id) AS ids, array_agg(t.slug ORDER BY t.id) AS slugs
     FROM product_terms pt JOIN terms t ON t.id = pt.term_id
     WHERE pt.product_id = ANY($1::int[]) AND t.taxonomy = 'product_cat' GROUP BY pt.product_id`,
    [[...new Set(paying.map((l) => l.productId))]],
  );
  const byProduct = new Map(cats.map((c) => [c.product_id, c]));
  return paying.map((l) => ({
    key: `cart:${l.key}`,
    productId: l.productId,
    ...(l.variationId ? { variationId: l.variationId } : {}),
    categoryIds: byProduct.get(l.productId)?.ids ?? [],
    categorySlugs: byProduct.get(l.productId)?.slugs ?? [],
    quantity: l.quantity,
    regularUnitPrice: l.regularUnitPrice,
    ...(l.baseUnitPrice < l.regularUnitPrice ? { saleUnitPrice: l.baseUnitPrice } : {}),
  }));
}

async function getPriceHtml(input: HandlerInput): Promise<Reply> {
  // The rules load alongside the checks (PostgreSQL runs them in parallel; a refusal just drops them).
  const [request, rules] = await Promise.all([readRequest(input, { quantity: true }), cachedPricingSetup(input.services.db, input.services.db).then((setup) => setup.rules)]);
  if (isReply(request)) return request;
  const { services } = input;
  const cartLines = await shopperCartLines(input);
  const price = priceProduct({ product: request.product, quantity: request.qty, rules, cartLines, ...pricingContext(input) });
  const format = exactCurrencyFormat([price.regularUnitPrice, price.baseUnitPrice, price.unitPrice], services.config.currency.format);
  return ok(priceHtmlResponse(price, services.config.discounts.enableUpdatePriceWithQty, format));
}

async function getBulkTable(input: HandlerInput): Promise<Reply> {
  const [request, rules] = await Promise.all([readRequest(input, { quantity: false, cheapestVariation: true }), cachedPricingSetup(input.services.db, input.services.db).then((setup) => setup.rules)]);
  if (isReply(request)) return request;
  const { services } = input;
  const rows = bulkTableModel({ product: request.product, rules, currencyFormat: services.config.currency.format, ...pricingContext(input) });
  return ok({ bulk_table: bulkTableHtml(rows, exactCurrencyFormat(rows.map((r) => r.unitPrice), services.config.currency.format)) });
}

async function getProductDiscount(input: HandlerInput): Promise<Reply> {
  const [request, rules] = await Promise.all([readRequest(input, { quantity: true }), cachedPricingSetup(input.services.db, input.services.db).then((setup) => setup.rules)]);
  if (isReply(request)) return request;
  const { services, params } = input;
  let customPrice: number | undefined;
  const rawCustom = firstString(params.custom_price);
  if (params.custom_price !== undefined && rawCustom?.trim() !== "") {
    const cents = rawCustom === undefined ? null : parseMoney(rawCustom);
    // A preview only: whatever the browser sends here is never charged (the cart prices from the catalogue).
    if (cents === null || cents < 0 || cents > 100_000_000) return fail("invalid_custom_price");
    customPrice = cents;
  }
  const detail = productDiscountDetail({
    product: request.product,
    quantity: request.qty,
    rules,
    cartLines: await shopperCartLines(input),
    currencyFormat: services.config.currency.format,
    ...(customPrice !== undefined ? { customPrice } : {}),
    ...pricingContext(input),
  });
  return ok(detail);
}

function registerDiscountEndpoints({ adminAjax }: Endpoints, _services: AppServices): void {
  adminAjax.register("wdr_ajax", async (input) => {
    const method = firstString(input.params.method);
    if (method === "get_price_html") return getPriceHtml(input);
    if (method === "get_variable_product_bulk_table") return getBulkTable(input);
    return fail("invalid_method");
  });
  adminAjax.register("awdr_get_product_discount", getProductDiscount);
}
