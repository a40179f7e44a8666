/**
 * The discount add-on's admin-ajax calls (docs/contract/storefront.md §7 "Discount pricing"), priced by the pure engine from the
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
import { json, firstString, type HandlerInput, type Reply } from "../http/dispatch.ts";
import type { Endpoints, Feature } from "./feature.ts";
import type { AppServices } from "../services.ts";
import type { PricingProductLookup } from "../../core/commerce/pricing.ts";
import { parseMoney } from "../../core/domain/money/money.ts";
import {
  bulkTableHtml,
  bulkTableModel,
  priceHtmlResponse,
  priceProduct,
  productDiscountDetail,
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
  invalid_bundle_items: "The bundle’s items are not valid.",
});

type ErrorCode = keyof typeof DISCOUNT_MESSAGES;

const fail = (code: ErrorCode, status = 400): Reply => json({ success: false, data: { code, message: DISCOUNT_MESSAGES[code] } }, status);
const ok = (data: unknown): Reply => json({ success: true, data });

// ---------------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------------

const idText = z
  .string()
  .trim()
  .regex(/^[1-9]\d{0,9}$/)
  .transform(Number)
  .pipe(z.number().int().max(2_147_483_647));

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

const BUNDLE_OPTIONAL_FIELD = /^bundle_selected_optional_([1-9]\d{0,8})$/;

/**
 * A bundle form's ticked optional items (`bundle_selected_optional_{bundled_item_id}=yes`, the add-to-cart form's own
 * fields, docs/contract/storefront.md §3 'Product kinds'), so the price asked for is the price the cart will charge.
 * null when a field is malformed.
 */
function parseBundleOptional(params: Record<string, unknown>): number[] | null {
  const ticked: number[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (!key.startsWith("bundle_selected_optional_")) continue;
    const m = BUNDLE_OPTIONAL_FIELD.exec(key);
    if (!m || firstString(value) !== "yes") return null;
    ticked.push(Number(m[1]));
  }
  return ticked;
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
    case "invalid_bundle_items":
      return fail("invalid_bundle_items");
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
async function readRequest({ req, params, services }: HandlerInput, opts: { quantity: boolean; cheapestVariation?: boolean }): Promise<Reply | PricedRequest> {
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
  const bundleOptional = parseBundleOptional(params);
  if (bundleOptional === null) return fail("invalid_bundle_items");
  const lookup = await req.storefront.pricing.product(id, {
    ...(parentId !== undefined ? { parentId } : {}),
    cheapestVariation: opts.cheapestVariation ?? false,
    ...(bundleOptional.length ? { bundleOptional } : {}),
  });
  if (lookup.kind !== "ok") return lookupError(lookup);
  return { product: lookup.product, qty };
}

const isReply = (v: Reply | PricedRequest): v is Reply => "kind" in v;

const pricingContext = (input: HandlerInput) => input.req.storefront.pricing.context();

async function getPriceHtml(input: HandlerInput): Promise<Reply> {
  // The rules load alongside the checks (PostgreSQL runs them in parallel; a refusal just drops them).
  const [request, rules] = await Promise.all([readRequest(input, { quantity: true }), input.req.storefront.pricing.rules()]);
  if (isReply(request)) return request;
  const { services } = input;
  const cartLines = await input.req.storefront.pricing.cartLines();
  const price = priceProduct({ product: request.product, quantity: request.qty, rules, cartLines, ...pricingContext(input) });
  return ok(priceHtmlResponse(price, services.config.discounts.enableUpdatePriceWithQty, services.config.currency.format));
}

async function getBulkTable(input: HandlerInput): Promise<Reply> {
  const [request, rules] = await Promise.all([readRequest(input, { quantity: false, cheapestVariation: true }), input.req.storefront.pricing.rules()]);
  if (isReply(request)) return request;
  const { services } = input;
  const rows = bulkTableModel({ product: request.product, rules, currencyFormat: services.config.currency.format, ...pricingContext(input) });
  return ok({ bulk_table: bulkTableHtml(rows, services.config.currency.format) });
}

async function getProductDiscount(input: HandlerInput): Promise<Reply> {
  const [request, rules] = await Promise.all([readRequest(input, { quantity: true }), input.req.storefront.pricing.rules()]);
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
    cartLines: await input.req.storefront.pricing.cartLines(),
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
