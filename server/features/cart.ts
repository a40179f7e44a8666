/**
 * The cart's wire contract (docs/contract/wire.md §1): wc-ajax add_to_cart, remove_from_cart,
 * get_refreshed_fragments, apply_coupon, remove_coupon, update_shipping_method, get_cart_totals;
 * admin-ajax astra_add_cart_single_product, jck_wssv_add_to_cart, awdr_change_discount_product_in_cart;
 * and the no-JavaScript paths (?add-to-cart links and form posts on any page, the remove link, the
 * cart form). Fragments are rendered by the same React components as the page.
 */
import express, { type Request, type Response, type NextFunction } from "express";
import type { AppServices } from "../services.ts";
import type { Endpoints, Feature } from "./feature.ts";
import { empty, firstString, html, json, type Reply } from "../http/dispatch.ts";
import { CART_MESSAGES, type PricedCart } from "../../core/commerce/cart.ts";
import { CART_NONCE_ACTION } from "../../core/commerce/session-keys.ts";
import { parseAddToCartForm, parseQuantity, MAX_ADD_TO_CART_QUANTITY, type AddToCartRequest } from "../../core/domain/catalog/index.ts";
import { escapeHtml } from "../../core/domain/text/html.ts";
import { isMultipart, readMultipart } from "../http/multipart.ts";
// Fragment renderers (decision 0008's allowed app/ import): the mini-cart, the header cart link and the cart totals.
import { cartFragments, cartTotalsHtml } from "../../app/components/fragments.tsx";

/** The fragments of `known` (the cart as a change just priced it) or of the cart loaded now. */
async function fragmentsReply(req: Request, known?: PricedCart): Promise<Reply> {
  const { cart: storefrontCart } = req.storefront;
  const cart = known ?? (await storefrontCart.get());
  storefrontCart.syncCookies(cart);
  // An empty cart has no remove links to sign: no nonce, so a visitor without a cart gets no key cookie from the
  // fragments the page cache's pages ask for (docs/decisions/0028-page-cache.md).
  return json({ fragments: cartFragments(cart, cart.lines.length ? storefrontCart.nonce() : ""), cart_hash: cart.hash });
}

const noticeHtml = (type: "success" | "error", message: string) =>
  type === "error"
    ? `<ul class="woocommerce-error" role="alert"><li>${escapeHtml(message)}</li></ul>`
    : `<div class="woocommerce-message" role="alert">${escapeHtml(message)}</div>`;

/** A strict positive id; anything else is null. */
function parseId(raw: unknown): number | null {
  const text = firstString(raw)?.trim() ?? "";
  if (!/^[1-9][0-9]{0,9}$/.test(text)) return null;
  const n = Number(text);
  return n <= 2_147_483_647 ? n : null;
}

/**
 * wc-ajax quantity: missing, empty or 0 → 1, as WooCommerce's `empty( $_POST['quantity'] ) ? 1 : …` reads it
 * (PHP's empty() is true for "0"); otherwise a whole number from 1 to the cap.
 */
function ajaxQuantity(raw: unknown): { ok: true; value: number } | { ok: false; message: string } {
  const text = firstString(raw);
  if (text === undefined || text.trim() === "" || text.trim() === "0") return { ok: true, value: 1 };
  const errors: string[] = [];
  const value = parseQuantity(text, "quantity", { add: (_f, m) => errors.push(m) });
  return value === null ? { ok: false, message: errors[0] ?? `Quantity must be between 1 and ${MAX_ADD_TO_CART_QUANTITY}.` } : { ok: true, value };
}

/** Parsed bodies (extended) back into form entries: quantity[12] → "quantity[12]". */
function formEntries(params: Record<string, unknown>, skip: string[] = []): [string, string][] {
  const out: [string, string][] = [];
  const walk = (prefix: string, value: unknown) => {
    if (typeof value === "string") out.push([prefix, value]);
    else if (Array.isArray(value)) for (const v of value) walk(`${prefix}[]`, v);
    else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) walk(`${prefix}[${k}]`, v);
  };
  for (const [k, v] of Object.entries(params)) if (!skip.includes(k)) walk(k, v);
  // A repeated array field such as edd_options[price_id][] comes back with [] once per value.
  return out.map(([k, v]) => [k.replace(/\[\d+\]$/, (m) => (k.startsWith("edd_options") ? "[]" : m)), v]);
}

/** A download form names the product twice (download_id and the add-to-cart button); the download wins. */
function normaliseForm(entries: [string, string][]): [string, string][] {
  return entries.some(([k]) => k === "download_id") ? entries.filter(([k]) => k !== "add-to-cart") : entries;
}

function parseForm(entries: [string, string][]): { ok: true; value: AddToCartRequest } | { ok: false; message: string } {
  const parsed = parseAddToCartForm(normaliseForm(entries));
  return parsed.ok ? parsed : { ok: false, message: parsed.errors.map((e) => e.message).join(" ") };
}

// ---------------------------------------------------------------------------------------------------
// Endpoints
// ---------------------------------------------------------------------------------------------------

function registerEndpoints({ wcAjax, adminAjax }: Endpoints, services: AppServices): void {
  wcAjax.register("add_to_cart", async ({ req, params }) => {
    if (params.product_id === undefined || firstString(params.product_id) === "") return empty();
    const productId = parseId(params.product_id);
    const quantity = ajaxQuantity(params.quantity);
    if (productId === null) {
      await req.shop.queueNotice({ type: "error", message: CART_MESSAGES.cannotPurchase });
      return json({ error: true, product_url: false });
    }
    // A refused quantity (over the maximum, not a number) still sends the shopper to the product page with the
    // notice, as WooCommerce does for any refused add of a real product (docs/contract/wire.md §1.3).
    if (!quantity.ok) return refusedReply(req, quantity.message, await req.storefront.cart.productPageUrl(productId));
    return addAndReply(req, { kind: "simple", productId, quantity: quantity.value });
  });

  wcAjax.register("remove_from_cart", async ({ req, params }) => {
    const key = firstString(params.cart_item_key) ?? "";
    if (!/^[0-9a-f]{32}$/.test(key)) return json({ success: false });
    const removed = await req.storefront.cart.removeLines(key);
    if (!removed?.ok) return json({ success: false });
    return fragmentsReply(req, removed.cart);
  });

  wcAjax.register("get_refreshed_fragments", async ({ req }) => fragmentsReply(req));

  wcAjax.register("apply_coupon", async ({ req, params }) => {
    await req.shop.session();
    if (!req.shop.verifyNonce("apply-coupon", firstString(params.security))) return nonceFailure();
    const code = (firstString(params.coupon_code) ?? "").slice(0, 100);
    if (!code.trim()) return html(noticeHtml("error", "Please enter a coupon code."));
    const { cart } = req.storefront;
    const result = await cart.applyCoupon(code);
    cart.syncCookies((result.ok && result.cart) || (await cart.get()));
    return html(result.ok ? noticeHtml("success", CART_MESSAGES.couponApplied) : noticeHtml("error", result.message));
  });

  wcAjax.register("remove_coupon", async ({ req, params }) => {
    await req.shop.session();
    if (!req.shop.verifyNonce("remove-coupon", firstString(params.security))) return nonceFailure();
    const code = (firstString(params.coupon) ?? "").slice(0, 100);
    const { cart } = req.storefront;
    const result = code.trim() ? await cart.removeCoupon(code) : null;
    if (!result) return html(noticeHtml("error", "Sorry there was a problem removing this coupon."));
    cart.syncCookies((result.ok && result.cart) || (await cart.get()));
    return html(result.ok ? noticeHtml("success", CART_MESSAGES.couponRemoved) : noticeHtml("error", "Sorry there was a problem removing this coupon."));
  });

  wcAjax.register("update_shipping_method", async ({ req, params }) => {
    await req.shop.session();
    if (!req.shop.verifyNonce("update-shipping-method", firstString(params.security))) return nonceFailure();
    const methods = params.shipping_method;
    const chosen = methods && typeof methods === "object" ? firstString((methods as Record<string, unknown>)["0"]) : undefined;
    const changed = chosen ? await req.storefront.cart.chooseShippingMethod(chosen.slice(0, 100)) : null;
    return totalsReply(req, (changed?.ok && changed.cart) || undefined);
  });

  wcAjax.register("get_cart_totals", async ({ req }) => totalsReply(req));

  adminAjax.register("astra_add_cart_single_product", async ({ req, params }) => {
    const form = parseForm(formEntries(params, ["action"]));
    if (!form.ok) {
      await req.shop.queueNotice({ type: "error", message: form.message });
      return empty();
    }
    const result = await req.storefront.cart.addLines(form.value);
    if (!result.ok) {
      await req.shop.queueNotice({ type: "error", message: result.message });
      return empty();
    }
    return fragmentsReply(req, result.cart);
  });

  adminAjax.register("jck_wssv_add_to_cart", async ({ req, params }) => {
    const variationId = parseId(params.variation_id);
    const productId = parseId(params.product_id);
    const quantity = ajaxQuantity(params.quantity);
    if (variationId === null || productId === null) {
      await req.shop.queueNotice({ type: "error", message: CART_MESSAGES.cannotPurchase });
      return json({ error: true, product_url: false });
    }
    // A refused quantity of a real product: its page, as add_to_cart answers (docs/contract/wire.md §1.3).
    if (!quantity.ok) return refusedReply(req, quantity.message, await req.storefront.cart.productPageUrl(productId));
    const attributes: Record<string, string> = {};
    for (const [k, v] of Object.entries(params)) if (k.startsWith("attribute_") && typeof v === "string" && v.length <= 200) attributes[k] = v;
    // The button may name the variation itself as product_id; planAdd resolves a variation id to its parent.
    const parent = productId === variationId ? null : productId;
    const request: AddToCartRequest =
      parent === null
        ? { kind: "simple", productId: variationId, quantity: quantity.value }
        : { kind: "variation", productId: parent, variationId, attributes, quantity: quantity.value };
    return addAndReply(req, request);
  });

  adminAjax.register("awdr_change_discount_product_in_cart", async ({ req, params }) => {
    await req.shop.session();
    if (!req.shop.verifyNonce(services.config.discounts.nonceAction, firstString(params.awdr_nonce)))
      return json({ success: false, data: "Your session has expired. Please reload the page and try again." }, 403);
    const productId = parseId(params.product_id);
    const parentRaw = firstString(params.parent_id)?.trim() ?? "0";
    const parentId = parentRaw === "0" || parentRaw === "" ? 0 : parseId(parentRaw);
    const rule = (firstString(params.rule_unique_id) ?? "").slice(0, 200);
    const { cart } = req.storefront;
    const result =
      productId === null || parentId === null || !rule ? null : await cart.changeFreeItem({ product_id: productId, rule_unique_id: rule, parent_id: parentId });
    if (!result) return json({ success: false, data: "This free product offer is no longer available." }, 400);
    if (!result.ok) return json({ success: false, data: result.message });
    cart.syncCookies(result.cart ?? (await cart.get()));
    // data 1: the page presses the cart's update button to show the change.
    return json({ success: true, data: 1 });
  });
}

function nonceFailure(): Reply {
  return { kind: "text", status: 403, body: "-1", contentType: "text/html; charset=UTF-8" };
}

async function totalsReply(req: Request, known?: PricedCart): Promise<Reply> {
  const cart = known ?? (await req.storefront.cart.get());
  req.storefront.cart.syncCookies(cart);
  return html(cartTotalsHtml(cart));
}

async function addAndReply(req: Request, request: AddToCartRequest): Promise<Reply> {
  const result = await req.storefront.cart.addLines(request);
  if (!result.ok) return refusedReply(req, result.message, result.productUrl);
  return fragmentsReply(req, result.cart);
}

/** A refused add: the notice waits for the next page, `product_url` (absolute, or false) says which page that is. */
async function refusedReply(req: Request, message: string, productUrl: string | false | undefined): Promise<Reply> {
  await req.shop.queueNotice({ type: "error", message });
  return json({ error: true, product_url: productUrl ? `${requestOrigin(req)}${productUrl}` : false });
}

function requestOrigin(req: Request): string {
  return `${req.protocol}://${req.get("host") ?? "localhost"}`;
}

// ---------------------------------------------------------------------------------------------------
// No-JavaScript paths
// ---------------------------------------------------------------------------------------------------

/** Pages with their own form actions; their POST bodies are never read here. `contact`: the Contact page's form (CONTACT_PAGE_SLUG). */
const OWN_ACTIONS = /^\/(my-account|checkout|change-country|newsletter|wp-admin|wp-json|wp-login\.php|contact)(\/|$)/;

function withoutParams(originalUrl: string, names: string[]): string {
  const url = new URL(originalUrl, "http://x");
  for (const n of names) url.searchParams.delete(n);
  return url.pathname + (url.search === "?" ? "" : url.search);
}

function noJsRoutes(app: express.Express, services: AppServices): void {
  const limits = { bytes: services.config.limits.requestBodyBytes, fields: 2000 };
  const readUrlencoded = express.text({ type: "application/x-www-form-urlencoded", limit: limits.bytes });
  // WooCommerce's own templates post form.cart as multipart/form-data; both encodings read the same (docs/contract/wire.md §1.2).
  const readForm = (req: Request, res: Response): Promise<[string, string][]> =>
    isMultipart(req)
      ? readMultipart(req, res, limits)
      : new Promise((resolve, reject) =>
          readUrlencoded(req, res, (error?: unknown) => {
            if (error) return reject(error);
            const entries = [...new URLSearchParams(typeof req.body === "string" ? req.body : "")] as [string, string][];
            if (entries.length > limits.fields) return reject(Object.assign(new Error("too many parameters"), { status: 413, type: "parameters.too.many" }));
            resolve(entries);
          }),
        );

  app.use(async (req: Request, res: Response, next: NextFunction) => {
    try {
      if (req.query["wc-ajax"] !== undefined || req.path === "/wp-admin/admin-ajax.php") return next();
      // React Router's own data requests (client-side form actions and loaders) are never ours:
      // reading their body here would leave the route's action with nothing to read.
      if (req.path.endsWith(".data") || req.path.startsWith("/__")) return next();
      // ?add-to-cart={id} links (GET), on any page.
      if ((req.method === "GET" || req.method === "HEAD") && req.query["add-to-cart"] !== undefined) {
        const entries = formEntries(req.query as Record<string, unknown>).filter(
          ([k]) => k === "add-to-cart" || k === "quantity" || k === "variation_id" || k.startsWith("attribute_") || k.startsWith("quantity["),
        );
        await noJsAdd(req, entries);
        return redirectAfter(req, res, afterAddUrl(req, services));
      }
      if (req.path === "/cart/" && req.method === "GET" && req.query.remove_item !== undefined) {
        await noJsRemove(req);
        return redirectAfter(req, res, "/cart/");
      }
      if (req.path === "/cart/" && req.method === "GET" && req.query.remove_coupon !== undefined) {
        const { cart } = req.storefront;
        const code = firstString(req.query.remove_coupon) ?? "";
        const r = code ? await cart.removeCoupon(code.slice(0, 100)) : null;
        if (r) {
          await req.shop.queueNotice(r.ok ? { type: "success", message: CART_MESSAGES.couponRemoved } : { type: "error", message: r.message });
          cart.syncCookies(await cart.get());
        }
        return redirectAfter(req, res, "/cart/");
      }
      // Form posts: the single-product forms (any page) and the cart form.
      if (req.method === "POST" && (req.is("application/x-www-form-urlencoded") || isMultipart(req)) && !OWN_ACTIONS.test(req.path)) {
        const entries = await readForm(req, res);
        if (req.path === "/cart/" && !entries.some(([k]) => k === "add-to-cart" || k === "download_id")) {
          await cartFormPost(req, entries);
          return redirectAfter(req, res, "/cart/");
        }
        if (entries.some(([k]) => k === "add-to-cart" || k === "download_id")) {
          await noJsAdd(req, entries);
          return redirectAfter(req, res, afterAddUrl(req, services));
        }
        // Nothing of ours in the body, and these pages have no form actions: back to the page.
        return redirectAfter(req, res, req.originalUrl);
      }
      next();
    } catch (error) {
      next(error);
    }
  });
}

/** The session (queued notices) is saved before the redirect goes out. */
async function redirectAfter(req: Request, res: Response, url: string): Promise<void> {
  await req.shop.flush();
  res.redirect(303, url);
}

function afterAddUrl(req: Request, services: AppServices): string {
  if (services.config.cart.cartRedirectAfterAdd === "yes") return services.config.routes.cart;
  return withoutParams(req.originalUrl, ["add-to-cart", "quantity", "variation_id", "added-to-cart"]);
}

async function noJsAdd(req: Request, entries: [string, string][]): Promise<void> {
  const form = parseForm(entries);
  if (!form.ok) return req.shop.queueNotice({ type: "error", message: form.message });
  const { cart } = req.storefront;
  const result = await cart.addLines(form.value);
  if (!result.ok) return req.shop.queueNotice({ type: "error", message: result.message });
  await req.shop.queueNotice({ type: "success", message: CART_MESSAGES.added([...new Set(result.value.map((a) => a.name))]) });
  cart.syncCookies(result.cart ?? (await cart.get()));
}

async function noJsRemove(req: Request): Promise<void> {
  await req.shop.session();
  const key = firstString(req.query.remove_item) ?? "";
  if (!req.shop.verifyNonce(CART_NONCE_ACTION, firstString(req.query._wpnonce))) {
    return req.shop.queueNotice({ type: "error", message: "The link you followed has expired. Please try again." });
  }
  const { cart } = req.storefront;
  const result = /^[0-9a-f]{32}$/.test(key) ? await cart.removeLines(key) : null;
  if (!result || !result.ok) return req.shop.queueNotice({ type: "error", message: CART_MESSAGES.unknownItem });
  await req.shop.queueNotice({ type: "success", message: CART_MESSAGES.removed(result.value) });
  cart.syncCookies(result.cart ?? (await cart.get()));
}

const CART_QTY_FIELD = /^cart\[([0-9a-f]{32})\]\[qty\]$/;

/** The cart form: update quantities, apply a coupon, or choose shipping (its own small form). */
async function cartFormPost(req: Request, entries: [string, string][]): Promise<void> {
  await req.shop.session();
  const get = (name: string) => entries.findLast(([k]) => k === name)?.[1];
  if (!req.shop.verifyNonce(CART_NONCE_ACTION, get("woocommerce-cart-nonce"))) {
    return req.shop.queueNotice({ type: "error", message: "Your session has expired. Please reload the page and try again." });
  }
  const { cart } = req.storefront;
  await cart.ensureOwner();
  const notices: { type: "success" | "error"; message: string }[] = [];
  if (get("update_shipping") !== undefined || get("shipping_method[0]") !== undefined) {
    const chosen = get("shipping_method[0]");
    if (chosen) {
      const r = await cart.chooseShippingMethod(chosen.slice(0, 100));
      if (r && !r.ok) notices.push({ type: "error", message: r.message });
    }
  }
  if (get("apply_coupon") !== undefined) {
    const code = (get("coupon_code") ?? "").slice(0, 100);
    const r = code.trim() ? await cart.applyCoupon(code) : { ok: false as const, message: "Please enter a coupon code." };
    notices.push(r.ok ? { type: "success", message: CART_MESSAGES.couponApplied } : { type: "error", message: r.message });
  } else if (get("update_cart") !== undefined || entries.some(([k]) => CART_QTY_FIELD.test(k))) {
    const quantities: Record<string, number> = {};
    for (const [k, v] of entries) {
      const m = CART_QTY_FIELD.exec(k);
      if (!m) continue;
      const errors: string[] = [];
      const q = v.trim() === "" ? 0 : parseQuantity(v, k, { add: (_f, msg) => errors.push(msg) }, 0);
      if (q === null) {
        notices.push({ type: "error", message: errors[0]! });
        break;
      }
      quantities[m[1]!] = q;
    }
    if (!notices.some((n) => n.type === "error")) {
      const r = await cart.updateLines(quantities);
      notices.push(r.ok ? { type: "success", message: CART_MESSAGES.updated } : { type: "error", message: r.message });
    }
  }
  for (const n of notices) await req.shop.queueNotice(n);
  cart.syncCookies(await cart.get());
}

export const cartFeature: Feature = {
  name: "cart",
  endpoints: registerEndpoints,
  routes: noJsRoutes,
};
