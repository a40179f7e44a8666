/**
 * WooCommerce's Store API, `wc/store/v1` (also answered as `wc/store`), over the same use cases as wc-ajax
 * (docs/contract/wire.md §8): products, the cart and its changes, and the checkout. Shapes follow WooCommerce's
 * ProductSchema, CartSchema, CartItemSchema and CheckoutSchema; prices are minor-unit strings (cents).
 *
 * Who the shopper is: a valid `Cart-Token` header names the session (a client without cookies keeps its cart with
 * it); otherwise the session cookie does. Writes need either a valid Cart-Token or the `Nonce` header (action
 * wc_store_api), so a browser's cookies alone never change its cart (§6 'Nonce and Cart-Token').
 *
 * The checkout body carries card data: it is never logged.
 */
import type { Request } from "express";
import { z } from "zod";
import { json, type Reply } from "../http/dispatch.ts";
import { restError, type RestHandler, type RestInput, type RestRouter } from "../http/rest.ts";
import type { Endpoints, Feature } from "./feature.ts";
import type { AppServices } from "../services.ts";
import { CART_MESSAGES, type CartChange, type PricedCart } from "../../core/commerce/cart.ts";
import { parseCheckoutForm, type FieldError } from "../../core/commerce/checkout-form.ts";
import { paymentRuntime } from "../../core/commerce/payment-runtime.server.ts";
import { CHECKOUT_NONCE_ACTION, STORE_API_CUSTOMER_KEY } from "../../core/commerce/session-keys.ts";
import { isEmail, sanitizeText } from "../../core/domain/checkout/address-form.ts";
import {
  termsOfProducts,
  findCategory,
  listCategories,
  listProducts,
  productsByIds,
  variationsOfProducts,
  type ListingOrder,
} from "../../core/db/repositories/catalog.ts";
import { MAX_ADD_TO_CART_QUANTITY } from "../../core/domain/catalog/settings.ts";
import type { AddToCartRequest } from "../../core/domain/catalog/index.ts";
import { resolveVariationId } from "../../core/db/repositories/cart.ts";
import { findOrder } from "../../core/db/repositories/orders.ts";
import type { ListingVariation, ProductSummary } from "../../core/domain/catalog/products.ts";
import type { CartLine } from "../../core/domain/cart/types.ts";
import { yearMonthOf } from "../../core/domain/payments/index.ts";
import { ATTRIBUTION_FIELDS } from "../../core/commerce/checkout-form.ts";
import { ADDRESS_FIELDS, COUNTRIES } from "../../core/domain/checkout/address.ts";
import { encodeSessionCookie, sessionCookieName } from "../../core/security/session-token.ts";
import { issueCartToken, readCartToken } from "../../core/security/cart-token.ts";
import { placeSessionOrder, sellingCheck } from "./checkout.ts";
import { SELLING_MESSAGES, sellsTo, shipsTo } from "../../core/domain/checkout/selling.ts";
import { destinationFrom, rememberDestination } from "../../core/commerce/customer-country.ts";
import { escapeHtml } from "../../core/domain/text/html.ts";
import { currentSiteConfig } from "../../core/commerce/site-settings.ts";
import { shortRate, taxLabel, type CartTax } from "../../core/domain/pricing/tax.ts";

/** The nonce action of the `Nonce` header (WooCommerce's). */
export const STORE_API_NONCE_ACTION = "wc_store_api";
const NAMESPACES = ["wc/store/v1", "wc/store"] as const;
const MAX_PER_PAGE = 100;
const LOW_STOCK_AMOUNT = 2;
const ATTRIBUTION_EXTENSION = "woocommerce/order-attribution";

/** Requests whose session a valid Cart-Token chose (set before the session loads). */
const tokenRequests = new WeakSet<Request>();

// ---------------------------------------------------------------------------------------------------
// Money and small shapes
// ---------------------------------------------------------------------------------------------------

function currencyOf(services: AppServices) {
  const f = services.config.currency.format;
  const left = f.position === "left" ? f.symbol : f.position === "left_space" ? `${f.symbol} ` : "";
  const right = f.position === "right" ? f.symbol : f.position === "right_space" ? ` ${f.symbol}` : "";
  // Our amounts are integer cents, so the minor unit is 2 whatever the display's decimals (decision 0014).
  return {
    currency_code: services.config.currency.code,
    currency_symbol: f.symbol,
    currency_minor_unit: 2,
    currency_decimal_separator: f.decimalSeparator,
    currency_thousand_separator: f.thousandSeparator,
    currency_prefix: left,
    currency_suffix: right,
  };
}

const amount = (cents: number | null | undefined) => String(Math.round(cents ?? 0));
const image = (slug: string, alt = "", id = 0) => ({ id, src: `/media/${slug}.svg`, thumbnail: `/media/${slug}.svg`, srcset: "", sizes: "", name: slug, alt });
const attributeLabel = (key: string) => key.replace(/^attribute_/, "").replace(/^pa_/, "");

// ---------------------------------------------------------------------------------------------------
// Products (ProductSchema)
// ---------------------------------------------------------------------------------------------------

type CategoryRef = { id: number; name: string; slug: string };

function productShape(services: AppServices, p: ProductSummary, variations: ListingVariation[], terms: { categories: CategoryRef[]; tags: CategoryRef[] }) {
  const regular = p.regularPrice ?? p.priceMin;
  const price = p.salePrice ?? regular;
  const ranged = (p.type === "variable" || p.type === "grouped") && p.priceMin !== null && p.priceMax !== null && p.priceMin !== p.priceMax;
  const purchasable = p.type !== "external" && price !== null;
  const inStock = p.stockStatus !== "outofstock";
  const needsOptions = p.type === "variable" || p.type === "grouped" || p.type === "bundle";
  const permalink = `${services.siteUrl}/product/${p.slug}/`;
  const attributes = new Map<string, Set<string>>();
  for (const v of variations) for (const [k, value] of Object.entries(v.attributes)) (attributes.get(k) ?? attributes.set(k, new Set()).get(k)!).add(value);
  return {
    id: p.id,
    name: p.name,
    slug: p.slug,
    parent: 0,
    type: p.type,
    variation: "",
    permalink,
    sku: p.sku ?? "",
    short_description: p.shortDescription,
    description: "",
    on_sale: p.onSale,
    prices: {
      price: amount(price),
      regular_price: amount(regular),
      sale_price: amount(price),
      price_range: ranged ? { min_amount: amount(p.priceMin), max_amount: amount(p.priceMax) } : null,
      ...currencyOf(services),
    },
    average_rating: p.ratingAverage.toFixed(2),
    review_count: p.ratingCount,
    images: p.imageSlugs.map((s, i) => image(s, p.imageAlts[i] ?? "")),
    categories: terms.categories.map((c) => ({ ...c, link: `${services.siteUrl}/product-category/${c.slug}/` })),
    // No tag archive page here: tags carry no link.
    tags: terms.tags,
    attributes: [...attributes].map(([k, values]) => ({
      id: 0,
      name: attributeLabel(k),
      taxonomy: k.replace(/^attribute_/, "").startsWith("pa_") ? k.replace(/^attribute_/, "") : null,
      has_variations: true,
      terms: [...values].map((v) => ({ id: 0, name: v, slug: v })),
    })),
    variations: variations.map((v) => ({
      id: v.id,
      attributes: Object.entries(v.attributes).map(([k, value]) => ({ name: attributeLabel(k), value })),
    })),
    has_options: needsOptions,
    is_purchasable: purchasable,
    is_in_stock: inStock,
    is_on_backorder: p.stockStatus === "onbackorder",
    low_stock_remaining: p.stockQuantity !== null && p.stockQuantity > 0 && p.stockQuantity <= LOW_STOCK_AMOUNT ? p.stockQuantity : null,
    sold_individually: false,
    add_to_cart: {
      text: !purchasable || !inStock ? "Read more" : needsOptions ? "Select options" : "Add to cart",
      description: needsOptions ? `Select options for “${p.name}”` : `Add to cart: “${p.name}”`,
      url: needsOptions || !purchasable ? permalink : `?add-to-cart=${p.id}`,
      minimum: 1,
      maximum: p.stockQuantity !== null ? Math.max(0, Math.min(p.stockQuantity, MAX_ADD_TO_CART_QUANTITY)) : MAX_ADD_TO_CART_QUANTITY,
      multiple_of: 1,
    },
    extensions: {},
  };
}

const ORDERBY = ["menu_order", "date", "price", "popularity", "rating"] as const;
const productsQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(MAX_PER_PAGE).default(10),
  search: z.string().max(200).optional(),
  category: z.string().max(200).optional(),
  orderby: z.enum(ORDERBY).default("menu_order"),
  order: z.enum(["asc", "desc"]).optional(),
});

/** WordPress's answer for a bad query parameter: rest_invalid_param with each parameter's complaint. */
function invalidParams(error: z.ZodError): Reply {
  const params: Record<string, string> = {};
  for (const issue of error.issues) params[String(issue.path[0] ?? "body")] ??= issue.message;
  return restError("rest_invalid_param", `Invalid parameter(s): ${Object.keys(params).join(", ")}`, 400, { params });
}

async function listProductsRoute({ query, services }: RestInput): Promise<Reply> {
  const parsed = productsQuery.safeParse(query);
  if (!parsed.success) return invalidParams(parsed.error);
  const q = parsed.data;
  let categorySlug: string | undefined;
  if (q.category) {
    const category = /^\d+$/.test(q.category)
      ? ((await listCategories(services.db)).find((c) => c.id === Number(q.category)) ?? null)
      : await findCategory(services.db, q.category);
    if (!category) return restError("rest_invalid_param", "Invalid parameter(s): category", 400, { params: { category: "Unknown product category." } });
    categorySlug = category.slug;
  }
  // Our listing orders have fixed directions; `order` chooses between the two price orders (wire.md §8).
  const orderby: ListingOrder = q.orderby === "price" ? (q.order === "desc" ? "price-desc" : "price") : q.orderby;
  const { items, total } = await listProducts(services.db, {
    categorySlug,
    search: q.search?.trim() || undefined,
    orderby,
    page: q.page,
    perPage: q.per_page,
  });
  const variations = await variationsOfProducts(
    services.db,
    items.filter((p) => p.type === "variable").map((p) => p.id),
  );
  const totalPages = Math.ceil(total / q.per_page);
  if (q.page > 1 && q.page > totalPages)
    return restError("rest_post_invalid_page_number", "The page number requested is larger than the number of pages available.", 400);
  const headers: Record<string, string> = { "X-WP-Total": String(total), "X-WP-TotalPages": String(totalPages) };
  const link = (page: number) => {
    const url = new URL(`${services.siteUrl}/wp-json/wc/store/v1/products`);
    for (const [k, v] of Object.entries(q)) if (v !== undefined && k !== "page") url.searchParams.set(k, String(v));
    url.searchParams.set("page", String(page));
    return url.toString();
  };
  const links: string[] = [];
  if (q.page > 1 && q.page <= totalPages + 1) links.push(`<${link(q.page - 1)}>; rel="prev"`);
  if (q.page < totalPages) links.push(`<${link(q.page + 1)}>; rel="next"`);
  if (links.length) headers.Link = links.join(", ");
  const ids = items.map((p) => p.id);
  const [categories, tags] = await Promise.all([termsOfProducts(services.db, "product_cat", ids), termsOfProducts(services.db, "product_tag", ids)]);
  return json(
    items.map((p) => productShape(services, p, variations.get(p.id) ?? [], { categories: categories.get(p.id) ?? [], tags: tags.get(p.id) ?? [] })),
    200,
    headers,
  );
}

async function productRoute({ pathParams, services }: RestInput): Promise<Reply> {
  const id = /^[1-9]\d{0,9}$/.test(pathParams.id ?? "") ? Number(pathParams.id) : null;
  const product = id !== null && id <= 2_147_483_647 ? (await productsByIds(services.db, [id]))[0] : undefined;
  if (!product) return restError("woocommerce_rest_product_invalid_id", "Invalid product ID.", 404);
  const variations = product.type === "variable" ? ((await variationsOfProducts(services.db, [product.id])).get(product.id) ?? []) : [];
  const categories = (await termsOfProducts(services.db, "product_cat", [product.id])).get(product.id) ?? [];
  const tags = (await termsOfProducts(services.db, "product_tag", [product.id])).get(product.id) ?? [];
  return json(productShape(services, product, variations, { categories, tags }));
}

// ---------------------------------------------------------------------------------------------------
// Cart (CartSchema, CartItemSchema)
// ---------------------------------------------------------------------------------------------------

function cartItemShape(services: AppServices, line: CartLine, tax: CartTax | null) {
  const money = currencyOf(services);
  const maximum = line.stockQuantity !== null ? Math.min(line.stockQuantity, MAX_ADD_TO_CART_QUANTITY) : MAX_ADD_TO_CART_QUANTITY;
  return {
    key: line.key,
    id: line.variationId || line.productId,
    type: line.variationId ? "variation" : line.type,
    quantity: line.quantity,
    quantity_limits: { minimum: 1, maximum, multiple_of: 1, editable: !line.itemData.freeItem },
    name: line.name,
    short_description: "",
    description: "",
    sku: line.sku,
    low_stock_remaining: line.stockQuantity !== null && line.stockQuantity <= LOW_STOCK_AMOUNT ? line.stockQuantity : null,
    backorders_allowed: false,
    show_backorder_badge: false,
    sold_individually: false,
    permalink: `${services.siteUrl}/product/${line.slug}/`,
    images: line.imageSlug ? [image(line.imageSlug)] : [],
    variation: Object.entries(line.variation).map(([k, value]) => ({ attribute: attributeLabel(k), value })),
    item_data: line.details && !line.variationId ? [{ name: "Details", value: line.details, display: line.details }] : [],
    prices: {
      price: amount(line.unitPrice),
      regular_price: amount(line.regularUnitPrice),
      sale_price: amount(line.unitPrice),
      price_range: null,
      ...money,
      raw_prices: { precision: 2, price: amount(line.unitPrice), regular_price: amount(line.regularUnitPrice), sale_price: amount(line.unitPrice) },
    },
    totals: {
      line_subtotal: amount(line.subtotal),
      line_subtotal_tax: amount(tax?.lines[line.key]?.subtotalTax),
      line_total: amount(line.total),
      line_total_tax: amount(tax?.lines[line.key]?.totalTax),
      ...money,
    },
    catalog_visibility: "visible",
    extensions: {},
  };
}

const EMPTY_ADDRESS = { first_name: "", last_name: "", company: "", address_1: "", address_2: "", city: "", state: "", postcode: "", country: "", phone: "" };

type StoredAddresses = { billing_address: Record<string, string>; shipping_address: Record<string, string> };

function cartShape(services: AppServices, cart: PricedCart, customer: StoredAddresses | null = null) {
  const money = currencyOf(services);
  const { totals, shipping, coupons } = cart.result;
  const shippable = cart.lines.filter((l) => l.needsShipping);
  return {
    items: cart.lines.map((l) => cartItemShape(services, l, cart.tax)),
    coupons: coupons.applied.map((c) => ({
      code: c.code,
      discount_type: c.kind,
      totals: { total_discount: amount(c.discount), total_discount_tax: "0", ...money },
    })),
    fees: [],
    totals: {
      total_items: amount(totals.subtotal),
      total_items_tax: amount(cart.tax ? cart.tax.total - cart.tax.shippingTax : 0),
      total_fees: "0",
      total_fees_tax: "0",
      // Every discount below the sale prices (rules and coupons): items − discount + shipping = price.
      total_discount: amount(totals.subtotal - totals.itemsTotal),
      total_discount_tax: "0",
      total_shipping: shipping.needsShipping ? amount(totals.shipping) : null,
      total_shipping_tax: shipping.needsShipping ? amount(cart.tax?.shippingTax) : null,
      total_price: amount(totals.grandTotal),
      // Settings › Tax (core/domain/pricing/tax.ts): one row per rate charged, WooCommerce's {name, price, rate}.
      total_tax: amount(cart.tax?.total),
      tax_lines: (cart.tax?.taxLines ?? []).map((t) => ({ name: taxLabel(t), price: amount(t.itemsTax + t.shippingTax), rate: `${shortRate(t.rate)}%` })),
      ...money,
    },
    shipping_address: { ...EMPTY_ADDRESS, ...customer?.shipping_address },
    billing_address: { ...EMPTY_ADDRESS, email: "", ...customer?.billing_address },
    needs_payment: totals.grandTotal > 0,
    needs_shipping: shipping.needsShipping,
    payment_requirements: ["products"],
    has_calculated_shipping: true,
    shipping_rates: shipping.needsShipping
      ? [
          {
            package_id: 0,
            name: "Shipment 1",
            destination: { address_1: "", address_2: "", city: "", state: "", postcode: "", country: "" },
            items: shippable.map((l) => ({ key: l.key, name: l.name, quantity: l.quantity })),
            shipping_rates: shipping.rates.map((r) => ({
              rate_id: r.id,
              name: r.label,
              description: "",
              delivery_time: "",
              price: amount(r.cost),
              taxes: "0",
              instance_id: 0,
              method_id: r.kind,
              meta_data: [],
              selected: r.id === shipping.chosenRateId,
              ...money,
            })),
          },
        ]
      : [],
    items_count: cart.count,
    items_weight: 0,
    cross_sells: [],
    errors: [],
    payment_methods: paymentMethods(services),
    extensions: {},
  };
}

/** The two sandbox gateways' ids, as the checkout's payment_method names them. */
function paymentMethods(services: AppServices): string[] {
  const { gateways } = paymentRuntime(services);
  return [gateways.card.id, gateways.echeck.id];
}

/** A cart use case's refusal in WooCommerce's code for it. */
function cartRefusal(message: string): Reply {
  if (message === CART_MESSAGES.unknownItem) return restError("woocommerce_rest_cart_invalid_key", "Cart item does not exist.", 409);
  if (/out of stock/.test(message)) return restError("woocommerce_rest_product_out_of_stock", message, 400);
  if (/not enough stock|in stock and you already have|only enough/.test(message))
    return restError("woocommerce_rest_product_partially_out_of_stock", message, 400);
  if (message === CART_MESSAGES.chooseOptions || message === CART_MESSAGES.invalidVariation || /required field/.test(message))
    return restError("woocommerce_rest_invalid_variation_data", message, 400);
  return restError("woocommerce_rest_cart_invalid_product", message, 400);
}

/** The addresses the session keeps from update-customer (null when none). */
async function storedAddresses(req: Request): Promise<StoredAddresses | null> {
  const stored = (await req.shop.session())?.data[STORE_API_CUSTOMER_KEY];
  return stored && typeof stored === "object" ? (stored as StoredAddresses) : null;
}

async function cartReply(req: Request, services: AppServices, known?: PricedCart, status = 200): Promise<Reply> {
  const { cart } = req.storefront;
  const priced = known ?? (await cart.get());
  cart.syncCookies(priced);
  return json(cartShape(services, priced, await storedAddresses(req)), status);
}

const ADDRESS_KEYS = new Set<string>(ADDRESS_FIELDS.map((f) => f.key));
const partialAddress = z
  .record(z.string(), z.union([z.string().max(254), z.null()]))
  .refine((a) => Object.keys(a).every((k) => ADDRESS_KEYS.has(k)), { message: "Unknown address field." })
  .refine((a) => !a.email || isEmail(a.email.trim()), { message: "The provided email address is not valid" })
  .refine((a) => !a.country || a.country in COUNTRIES, { message: "Sorry, we do not ship to this country." })
  .optional();
const customerBody = z.object({ billing_address: partialAddress, shipping_address: partialAddress });

/**
 * update-customer: the addresses are kept in the session (sanitized, checked for form only) and shown in the cart;
 * the checkout uses them when its own body leaves an address out, and checks them fully then.
 */
async function updateCustomer(input: RestInput): Promise<Reply> {
  const parsed = customerBody.safeParse(bodyOf(input));
  if (!parsed.success) return invalidParams(parsed.error);
  const clean = (a: Record<string, string | null> | undefined) =>
    Object.fromEntries(Object.entries(a ?? {}).map(([k, v]) => [k, sanitizeText(v ?? "").slice(0, 200)]));
  const before = (await storedAddresses(input.req)) ?? { billing_address: {}, shipping_address: {} };
  const next: StoredAddresses = {
    billing_address: { ...before.billing_address, ...clean(parsed.data.billing_address) },
    shipping_address: { ...before.shipping_address, ...clean(parsed.data.shipping_address) },
  };
  // Where the shop sells and ships (Settings › General), as WooCommerce's address schemas refuse it.
  const store = (await currentSiteConfig(input.services)).store;
  const params: Record<string, string> = {};
  const billingCountry = next.billing_address.country ?? "";
  const shippingCountry = next.shipping_address.country ?? "";
  if (parsed.data.billing_address?.country && !sellsTo(store, billingCountry)) params.billing_address = SELLING_MESSAGES.notSold(billingCountry);
  if (parsed.data.shipping_address?.country && !shipsTo(store, shippingCountry)) params.shipping_address = SELLING_MESSAGES.notShipped(shippingCountry);
  if (Object.keys(params).length) return restError("rest_invalid_param", `Invalid parameter(s): ${Object.keys(params).join(", ")}`, 400, { params });
  await input.req.shop.updateSessionData((d) => {
    d[STORE_API_CUSTOMER_KEY] = next;
  });
  // The cart's shipping zone is the shipping address's (the billing one's when no shipping country is given).
  const to = destinationFrom(shippingCountry ? next.shipping_address : next.billing_address);
  if (to) await rememberDestination(input.req.shop, to);
  return cartReply(input.req, input.services);
}

const keyParam = z.string().regex(/^[0-9a-f]{32}$/);
const quantity = z.coerce.number().int().min(1).max(MAX_ADD_TO_CART_QUANTITY);
const addItemBody = z.object({
  id: z.coerce.number().int().min(1).max(2_147_483_647),
  quantity: quantity.default(1),
  variation: z
    .array(z.object({ attribute: z.string().min(1).max(200), value: z.string().max(200) }))
    .max(50)
    .default([]),
});
const updateItemBody = z.object({ key: keyParam, quantity: z.coerce.number().int().min(0).max(MAX_ADD_TO_CART_QUANTITY) });
const couponBody = z.object({ code: z.string().trim().min(1).max(100) });
const rateBody = z.object({ package_id: z.union([z.number(), z.string()]).optional(), rate_id: z.string().regex(/^[\w:-]{1,64}$/) });

const bodyOf = (input: RestInput): Record<string, unknown> => {
  const body = input.body && typeof input.body === "object" && !Array.isArray(input.body) ? (input.body as Record<string, unknown>) : {};
  // WordPress merges the query and the body; the body wins.
  return { ...input.query, ...body };
};

async function addItem(input: RestInput, status = 201): Promise<Reply> {
  const parsed = addItemBody.safeParse(bodyOf(input));
  if (!parsed.success) return invalidParams(parsed.error);
  const { id, quantity: qty, variation } = parsed.data;
  const attributes: Record<string, string> = {};
  for (const v of variation) {
    const key = v.attribute.toLowerCase().replace(/\s+/g, "-");
    attributes[key.startsWith("attribute_") ? key : `attribute_${key}`] = v.value;
  }
  // WooCommerce's blocks name a variation by its own id and send its attributes too (the "any" ones matter);
  // without attributes, the use case resolves a variation id to its parent itself.
  const parent = variation.length ? await resolveVariationId(input.services.db, id) : null;
  const request: AddToCartRequest = !variation.length
    ? { kind: "simple", productId: id, quantity: qty }
    : { kind: "variation", productId: parent?.productId ?? id, variationId: parent ? id : null, attributes, quantity: qty };
  const result = await input.req.storefront.cart.addLines(request);
  if (!result.ok && result.message === CART_MESSAGES.external) {
    // An external (affiliate) product is not purchasable here: WooCommerce's CartItemValidator answers this.
    const [product] = await productsByIds(input.services.db, [id]);
    return restError("woocommerce_rest_product_not_purchasable", `Sorry, “${product?.name ?? "this product"}” cannot be purchased.`, 400);
  }
  if (!result.ok) return cartRefusal(result.message);
  return cartReply(input.req, input.services, result.cart, status);
}

async function updateItem(input: RestInput, key: string | undefined, qtyRaw: unknown): Promise<Reply> {
  const parsed = updateItemBody.safeParse({ key, quantity: qtyRaw });
  if (!parsed.success) return invalidParams(parsed.error);
  const { cart } = input.req.storefront;
  if (!(await cart.owner())) return restError("woocommerce_rest_cart_invalid_key", "Cart item does not exist.", 409);
  const result = await cart.updateLines({ [parsed.data.key]: parsed.data.quantity });
  if (!result.ok) return cartRefusal(result.message);
  return cartReply(input.req, input.services, result.cart);
}

async function removeItem(input: RestInput, key: unknown): Promise<Reply> {
  const parsed = keyParam.safeParse(key);
  if (!parsed.success) return restError("woocommerce_rest_cart_invalid_key", "Cart item does not exist.", 409);
  const result = await input.req.storefront.cart.removeLines(parsed.data);
  if (!result?.ok) return restError("woocommerce_rest_cart_invalid_key", "Cart item does not exist.", 409);
  return cartReply(input.req, input.services, result.cart);
}

async function couponChange(input: RestInput, change: "apply" | "remove"): Promise<Reply> {
  const parsed = couponBody.safeParse(bodyOf(input));
  if (!parsed.success) return invalidParams(parsed.error);
  const { cart } = input.req.storefront;
  const result: CartChange<string> | null = change === "apply" ? await cart.applyCoupon(parsed.data.code) : await cart.removeCoupon(parsed.data.code);
  if (!result?.ok) {
    return change === "apply"
      ? restError("woocommerce_rest_cart_coupon_error", result?.message ?? CART_MESSAGES.couponNotApplied, 400)
      : restError("woocommerce_rest_cart_coupon_invalid_code", "Coupon cannot be removed because it is not already applied to the cart.", 409);
  }
  return cartReply(input.req, input.services, result.cart);
}

async function selectRate(input: RestInput): Promise<Reply> {
  const parsed = rateBody.safeParse(bodyOf(input));
  if (!parsed.success) return invalidParams(parsed.error);
  const result = await input.req.storefront.cart.chooseShippingMethod(parsed.data.rate_id);
  if (!result?.ok) return restError("woocommerce_rest_cart_invalid_rate", "The provided rate_id is not valid.", 400);
  return cartReply(input.req, input.services, result.cart);
}

// ---------------------------------------------------------------------------------------------------
// Checkout (CheckoutSchema)
// ---------------------------------------------------------------------------------------------------

const text = z.string().max(1000);
const addressSchema = z.record(z.string(), z.union([text, z.number(), z.null()])).optional();
const checkoutBody = z.object({
  billing_address: addressSchema,
  shipping_address: addressSchema,
  customer_note: z.string().max(5000).optional(),
  payment_method: z.string().max(100).default(""),
  payment_data: z
    .array(z.object({ key: z.string().min(1).max(200), value: z.union([text, z.boolean(), z.number(), z.null()]) }))
    .max(50)
    .default([]),
  create_account: z.boolean().optional(),
  customer_password: z.string().max(1000).optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
});

type CheckoutBody = z.infer<typeof checkoutBody>;

/** The Store API body as the checkout form's fields, so one parser (checkout-form.ts) checks both checkouts. */
function checkoutForm(body: CheckoutBody): Record<string, string> {
  const form: Record<string, string> = { payment_method: body.payment_method };
  const str = (v: unknown) => (v === null || v === undefined ? "" : String(v));
  for (const f of ADDRESS_FIELDS) form[`billing_${f.key}`] = str(body.billing_address?.[f.key]);
  if (body.shipping_address) {
    const differs = ADDRESS_FIELDS.some((f) => f.key !== "email" && str(body.shipping_address?.[f.key]) !== str(body.billing_address?.[f.key]));
    if (differs) {
      form.ship_to_different_address = "1";
      for (const f of ADDRESS_FIELDS) form[`shipping_${f.key}`] = str(body.shipping_address[f.key]);
    }
  }
  if (body.customer_note) form.order_comments = body.customer_note;
  if (body.create_account) {
    form.createaccount = "1";
    form.account_password = body.customer_password ?? "";
  }
  // payment_data is the gateway's own fields by name, as WooCommerce hands them to a gateway's process_payment.
  // Only the gateways' own field names (wc-<gateway>-…) are taken: payment_data cannot stand in for other fields.
  for (const { key, value } of body.payment_data) {
    if (!/^wc-[a-z0-9-]{1,100}$/.test(key)) continue;
    form[key] = typeof value === "boolean" ? (value ? "1" : "") : str(value);
  }
  // The order-attribution extension carries the hidden wc_order_attribution_* inputs' values (wire.md §4.5).
  const attribution = body.extensions?.[ATTRIBUTION_EXTENSION];
  if (attribution && typeof attribution === "object" && !Array.isArray(attribution)) {
    for (const name of ATTRIBUTION_FIELDS) {
      const v = (attribution as Record<string, unknown>)[name];
      if (typeof v === "string" || typeof v === "number") form[`wc_order_attribution_${name}`] = String(v);
    }
  }
  return form;
}

const plain = (html: string) =>
  html
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&amp;/g, "&")
    .trim();

/** The form parser's field errors as WooCommerce's Store API refusals: address fields first, then payment. */
function checkoutRefusal(errors: FieldError[]): Reply {
  const params: Record<string, string> = {};
  for (const e of errors) {
    const group = e.id.startsWith("billing_")
      ? "billing_address"
      : e.id.startsWith("shipping_")
        ? "shipping_address"
        : e.id === "order_comments"
          ? "customer_note"
          : null;
    if (group) params[group] = params[group] ? `${params[group]} ${plain(e.html)}` : plain(e.html);
  }
  if (Object.keys(params).length)
    return restError("rest_invalid_param", `Invalid parameter(s): ${Object.keys(params).join(", ")}`, 400, {
      params,
      details: errors.map((e) => ({ field: e.id, message: plain(e.html) })),
    });
  if (errors.some((e) => e.id === "payment_method")) return restError("woocommerce_rest_checkout_payment_method_disabled", "Invalid payment method.", 400);
  if (errors.some((e) => e.id === "account_password" || e.id === "createaccount"))
    return restError("woocommerce_rest_checkout_invalid_account", errors.map((e) => plain(e.html)).join(" "), 400);
  return restError("woocommerce_rest_checkout_process_payment_error", errors.map((e) => plain(e.html)).join(" "), 400, {
    details: errors.map((e) => ({ field: e.id, message: plain(e.html) })),
  });
}

async function checkout(input: RestInput): Promise<Reply> {
  const parsed = checkoutBody.safeParse(input.body && typeof input.body === "object" ? input.body : {});
  if (!parsed.success) return invalidParams(parsed.error);
  // Past validation, one checkout among the few in progress at once (defaultCheckoutGate; busy: 503 shop_busy).
  return input.req.storefront.checkout.payments.checkoutGate.run(() => placeCheckout(input, parsed.data));
}

async function placeCheckout(input: RestInput, body: z.infer<typeof checkoutBody>): Promise<Reply> {
  const { req, services } = input;
  const { cart, checkout: co } = req.storefront;
  const session = await req.shop.session();
  const priced = session ? await cart.get() : null;
  if (!session || !priced || priced.lines.length === 0) return restError("woocommerce_rest_cart_empty", "Cannot create order from empty cart.", 400);
  const loggedIn = !!session.customerId;
  const tokens = await co.savedTokens();
  // The shipping rate is the cart's own (select-shipping-rate); the order prices the cart as it stands.
  // Addresses left out of the body are the ones update-customer kept.
  const stored = await storedAddresses(req);
  const form = checkoutForm({
    ...body,
    billing_address: body.billing_address ?? stored?.billing_address,
    shipping_address: body.shipping_address ?? (stored && Object.keys(stored.shipping_address).length ? stored.shipping_address : undefined),
  });
  const result = parseCheckoutForm(form, await co.gateways(), yearMonthOf(services.now(), "utc"), {
    loggedIn,
    ownedTokenIds: new Set(tokens.map((t) => t.id)),
    guestCheckout: (await currentSiteConfig(services)).account.guestCheckout,
  });
  if (!result.ok) return checkoutRefusal(result.errors);
  // A country the shop does not sell or ship to: WooCommerce's Store API words, at the address it is about.
  const refused = await sellingCheck(req, services, result.value);
  if (refused.length) return checkoutRefusal(refused.map((r) => ({ id: r.id, html: escapeHtml(r.text) })));
  // The idempotency key is the session's checkout token (a placed order replaces it): a repeated request for the
  // same cart is the same claim. A browser (cookies and Nonce) gets the classic checkout's own key, so the page's
  // checkout and this one, sent together, are one claim too.
  const token = await co.token();
  const placed = tokenRequests.has(req)
    ? await placeSessionOrder(req, services, { input: result.value, claimKey: `store-api:${token}`, token })
    : await placeSessionOrder(req, services, { input: result.value, claimKey: null, nonce: req.shop.nonce(CHECKOUT_NONCE_ACTION), token });
  if (!placed.ok && placed.errors.some((e) => e.id === "billing_email"))
    return restError("registration-error-email-exists", placed.errors.map((e) => plain(e.html)).join(" "), 400);
  if (!placed.ok) {
    if (placed.orderId !== undefined)
      return restError("woocommerce_rest_checkout_process_payment_error", placed.errors.map((e) => plain(e.html)).join(" "), 400);
    return restError("woocommerce_rest_checkout_error", placed.errors.map((e) => plain(e.html)).join(" "), 409);
  }
  // The answer is the stored order (a replayed request gets the order as it was placed, not its own body).
  const order = (await findOrder(services.db, placed.orderId))!;
  const received = `${services.siteUrl}/checkout/order-received/${placed.orderId}/?key=${encodeURIComponent(placed.orderKey)}`;
  return json({
    order_id: order.id,
    status: order.status,
    order_key: order.orderKey,
    order_number: String(order.id),
    customer_note: order.customerNote,
    customer_id: order.customerId ?? 0,
    billing_address: { ...order.addresses.billing },
    shipping_address: { ...(order.addresses.shipping ?? order.addresses.billing) },
    payment_method: order.paymentMethod,
    payment_result: { payment_status: "success", payment_details: [], redirect_url: received },
    extensions: {},
  });
}

// ---------------------------------------------------------------------------------------------------
// Nonce, Cart-Token, headers
// ---------------------------------------------------------------------------------------------------

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Before the session loads: a valid Cart-Token names the session, ahead of any cookie. */
async function preferCartToken(req: Request, services: AppServices): Promise<void> {
  const raw = req.get("Cart-Token");
  if (!raw) return;
  const nowSec = Math.floor(services.now().getTime() / 1000);
  const token = await readCartToken(services.secret, raw.trim(), nowSec);
  if (!token) return;
  tokenRequests.add(req);
  req.shop.cookies[sessionCookieName(services.siteUrl)] = encodeSessionCookie(services.secret, token.sessionId, token.expiresAtSec);
}

/** Wraps a handler with the Store API's guard (writes) and the headers every answer carries. */
function storeRoute(handler: RestHandler, opts: { session?: boolean; catalog?: boolean } = {}): RestHandler {
  return async (input) => {
    const { req, services } = input;
    // Catalogue reads are the same for everyone: no session, nonce or token headers (no cookie set), so they cache.
    if (opts.catalog) return handler(input);
    // A Cart-Token carries a guest's cart only: a signed-in customer's session (saved cards, account) is reached
    // with the cookie and the Nonce, never with a token alone (decision 0014).
    if (tokenRequests.has(req) && req.shop.customerId() > 0)
      return restError("woocommerce_rest_invalid_cart_token", "This cart belongs to a signed-in customer. Please sign in.", 403);
    const write = WRITE_METHODS.has(input.method);
    if (write && !tokenRequests.has(req)) {
      const nonce = req.get("Nonce") ?? req.get("X-WC-Store-API-Nonce");
      if (nonce === undefined || nonce === "")
        return restError("woocommerce_rest_missing_nonce", "Missing the Nonce header. This endpoint requires a valid nonce.", 401);
      if (!req.shop.verifyNonce(STORE_API_NONCE_ACTION, nonce)) return restError("woocommerce_rest_invalid_nonce", "Nonce is invalid.", 403);
    }
    // A cart read starts the session, so a client without cookies gets its Cart-Token from its first request.
    if (opts.session) await req.shop.ensureSession();
    const reply = await handler(input);
    const headers: Record<string, string> = {
      ...(reply.kind !== "empty" ? reply.headers : {}),
      Nonce: req.shop.nonce(STORE_API_NONCE_ACTION),
      "Nonce-Timestamp": String(Math.floor(services.now().getTime() / 1000)),
      "User-ID": String(req.shop.customerId()),
      "Cache-Control": "no-store",
    };
    const session = await req.shop.session();
    if (session && !session.customerId)
      headers["Cart-Token"] = await issueCartToken(services.secret, session.id, Math.floor(session.expiresAt.getTime() / 1000));
    return reply.kind === "empty" ? reply : { ...reply, headers };
  };
}

function registerStoreApi(rest: RestRouter): void {
  const route = (method: string, path: string, handler: RestHandler, opts?: { session?: boolean; catalog?: boolean }) => {
    for (const ns of NAMESPACES) rest.register(method, `${ns}/${path}`, storeRoute(handler, opts));
  };
  route("GET", "products", listProductsRoute, { catalog: true });
  route("GET", "products/:id", productRoute, { catalog: true });
  route("GET", "cart", ({ req, services }) => cartReply(req, services), { session: true });
  route("POST", "cart/add-item", (input) => addItem(input));
  route("POST", "cart/update-item", (input) => {
    const b = bodyOf(input);
    return updateItem(input, typeof b.key === "string" ? b.key : undefined, b.quantity);
  });
  route("POST", "cart/remove-item", (input) => removeItem(input, bodyOf(input).key));
  route("POST", "cart/apply-coupon", (input) => couponChange(input, "apply"));
  route("POST", "cart/remove-coupon", (input) => couponChange(input, "remove"));
  route("POST", "cart/select-shipping-rate", selectRate);
  route("POST", "cart/update-customer", updateCustomer);
  route("GET", "cart/items", async ({ req, services }) => {
    const cart = await req.storefront.cart.get();
    return json(cart.lines.map((l) => cartItemShape(services, l, cart.tax)));
  });
  route("POST", "cart/items", async (input) => {
    const reply = await addItem(input);
    if (reply.kind !== "json" || reply.status !== 201) return reply;
    const cart = reply.body as ReturnType<typeof cartShape>;
    const id = bodyOf(input).id;
    return json(cart.items.find((i) => String(i.id) === String(id)) ?? cart.items.at(-1), 201);
  });
  route("DELETE", "cart/items", async ({ req }) => {
    await req.storefront.cart.empty();
    req.storefront.cart.syncCookies(await req.storefront.cart.get());
    return json([]);
  });
  route("GET", "cart/items/:key", async ({ req, services, pathParams }) => {
    const cart = await req.storefront.cart.get();
    const line = cart.lines.find((l) => l.key === pathParams.key);
    return line ? json(cartItemShape(services, line, cart.tax)) : restError("woocommerce_rest_cart_invalid_key", "Cart item does not exist.", 409);
  });
  route("PUT", "cart/items/:key", async (input) => {
    const reply = await updateItem(input, input.pathParams.key, bodyOf(input).quantity);
    if (reply.kind !== "json" || reply.status !== 200) return reply;
    const item = (reply.body as ReturnType<typeof cartShape>).items.find((i) => i.key === input.pathParams.key);
    return item ? json(item) : restError("woocommerce_rest_cart_invalid_key", "Cart item does not exist.", 409);
  });
  route("DELETE", "cart/items/:key", async (input) => {
    const reply = await removeItem(input, input.pathParams.key);
    return reply.kind === "json" && reply.status === 200 ? { kind: "empty", status: 204 } : reply;
  });
  route("POST", "checkout", checkout);
}

export const storeApiFeature: Feature = {
  name: "store-api",
  endpoints({ rest }: Endpoints) {
    rest.namespaces.push(...NAMESPACES);
    rest.prepare("wc/store", preferCartToken);
    registerStoreApi(rest);
  },
};
