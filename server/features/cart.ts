/**
 * The cart's wire contract (wire-contracts §1): wc-ajax add_to_cart, remove_from_cart,
 * get_refreshed_fragments, apply_coupon, remove_coupon, update_shipping_method, get_cart_totals;
 * admin-ajax astra_add_cart_single_product, jck_wssv_add_to_cart, awdr_change_discount_product_in_cart;
 * and the no-JavaScript paths (?add-to-cart links and form posts on any page, the remove link, the
 * cart form). Fragments are rendered by the same React components as the page.
 */
import express, { type Request, type Response, type NextFunction } from "express";
import { createElement } from "react";
import type { Endpoints } from "../app.ts";
import type { AppServices } from "../services.ts";
import type { Feature } from "./feature.ts";
import { empty, firstString, html, json, type Reply } from "../http/dispatch.ts";
import {
  addToCart,
  applyCoupon,
  changeFreeItem,
  chooseShippingMethod,
  removeCartItem,
  removeCoupon,
  updateQuantities,
  CART_MESSAGES,
  type PricedCart,
} from "../../core/commerce/cart.ts";
import { parseAddToCartForm, parseQuantity, MAX_ADD_TO_CART_QUANTITY, type AddToCartRequest } from "../../core/domain/catalog/index.ts";
import { escapeHtml } from "../../core/domain/text/html.ts";
import { CartTotals } from "../../app/components/cart/CartPage.tsx";
import { cartTotalsView } from "../../app/components/cart/cart-view.ts";
import {
  CART_NONCE_ACTION,
  currentOwner,
  markup,
  ownerCreating,
  pricingOptions,
  renderFragments,
  requestCart,
  summaryFor,
  syncCartCookies,
} from "../../app/components/cart/cart-state.server.ts";

/** The fragments of `known` (the cart as a change just priced it) or of the cart loaded now. */
async function fragmentsReply(req: Request, services: AppServices, known?: PricedCart): Promise<Reply> {
  const cart = known ?? (await requestCart(req.shop, services));
  syncCartCookies(req.shop, cart);
  return json({ fragments: renderFragments(summaryFor(req.shop, cart)), cart_hash: cart.hash });
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

/** wc-ajax quantity: empty → 1; otherwise a whole number from 1 to the cap. */
function ajaxQuantity(raw: unknown): { ok: true; value: number } | { ok: false; message: string } {
  const text = firstString(raw);
  if (text === undefined || text.trim() === "") return { ok: true, value: 1 };
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
    if (productId === null || !quantity.ok) {
      await req.shop.queueNotice({ type: "error", message: productId === null ? CART_MESSAGES.cannotPurchase : (quantity as { message: string }).message });
      return json({ error: true, product_url: false });
    }
    return addAndReply(req, services, { kind: "simple", productId, quantity: quantity.value });
  });

  wcAjax.register("remove_from_cart", async ({ req, params }) => {
    const key = firstString(params.cart_item_key) ?? "";
    const owner = await currentOwner(req.shop);
    if (!/^[0-9a-f]{32}$/.test(key) || !owner) return json({ success: false });
    const removed = await removeCartItem(services.db, owner, key, await pricingOptions(req.shop, services));
    if (!removed.ok) return json({ success: false });
    return fragmentsReply(req, services, removed.cart);
  });

  wcAjax.register("get_refreshed_fragments", async ({ req }) => fragmentsReply(req, services));

  wcAjax.register("apply_coupon", async ({ req, params }) => {
    await req.shop.session();
    if (!req.shop.verifyNonce("apply-coupon", firstString(params.security))) return nonceFailure();
    const code = (firstString(params.coupon_code) ?? "").slice(0, 100);
    if (!code.trim()) return html(noticeHtml("error", "Please enter a coupon code."));
    const owner = await ownerCreating(req.shop);
    const result = await applyCoupon(services.db, owner, code, await pricingOptions(req.shop, services));
    syncCartCookies(req.shop, (result.ok && result.cart) || (await requestCart(req.shop, services)));
    return html(result.ok ? noticeHtml("success", CART_MESSAGES.couponApplied) : noticeHtml("error", result.message));
  });

  wcAjax.register("remove_coupon", async ({ req, params }) => {
    await req.shop.session();
    if (!req.shop.verifyNonce("remove-coupon", firstString(params.security))) return nonceFailure();
    const code = (firstString(params.coupon) ?? "").slice(0, 100);
    const owner = await currentOwner(req.shop);
    if (!code.trim() || !owner) return html(noticeHtml("error", "Sorry there was a problem removing this coupon."));
    const result = await removeCoupon(services.db, owner, code, await pricingOptions(req.shop, services));
    syncCartCookies(req.shop, (result.ok && result.cart) || (await requestCart(req.shop, services)));
    return html(result.ok ? noticeHtml("success", CART_MESSAGES.couponRemoved) : noticeHtml("error", "Sorry there was a problem removing this coupon."));
  });

  wcAjax.register("update_shipping_method", async ({ req, params }) => {
    await req.shop.session();
    if (!req.shop.verifyNonce("update-shipping-method", firstString(params.security))) return nonceFailure();
    const methods = params.shipping_method;
    const chosen = methods && typeof methods === "object" ? firstString((methods as Record<string, unknown>)["0"]) : undefined;
    const owner = await currentOwner(req.shop);
    const changed = chosen && owner ? await chooseShippingMethod(services.db, owner, chosen.slice(0, 100), await pricingOptions(req.shop, services)) : null;
    return totalsReply(req, services, (changed?.ok && changed.cart) || undefined);
  });

  wcAjax.register("get_cart_totals", async ({ req }) => totalsReply(req, services));

  adminAjax.register("astra_add_cart_single_product", async ({ req, params }) => {
    const form = parseForm(formEntries(params, ["action"]));
    if (!form.ok) {
      await req.shop.queueNotice({ type: "error", message: form.message });
      return empty();
    }
    const owner = await ownerCreating(req.shop);
    const result = await addToCart(services.db, owner, form.value, await pricingOptions(req.shop, services));
    if (!result.ok) {
      await req.shop.queueNotice({ type: "error", message: result.message });
      return empty();
    }
    return fragmentsReply(req, services, result.cart);
  });

  adminAjax.register("jck_wssv_add_to_cart", async ({ req, params }) => {
    const variationId = parseId(params.variation_id);
    const productId = parseId(params.product_id);
    const quantity = ajaxQuantity(params.quantity);
    if (variationId === null || productId === null || !quantity.ok) {
      await req.shop.queueNotice({ type: "error", message: !quantity.ok ? quantity.message : CART_MESSAGES.cannotPurchase });
      return json({ error: true, product_url: false });
    }
    const attributes: Record<string, string> = {};
    for (const [k, v] of Object.entries(params)) if (k.startsWith("attribute_") && typeof v === "string" && v.length <= 200) attributes[k] = v;
    // The button may name the variation itself as product_id; planAdd resolves a variation id to its parent.
    const parent = productId === variationId ? null : productId;
    const request: AddToCartRequest = parent === null ? { kind: "simple", productId: variationId, quantity: quantity.value } : { kind: "variation", productId: parent, variationId, attributes, quantity: quantity.value };
    return addAndReply(req, services, request);
  });

  adminAjax.register("awdr_change_discount_product_in_cart", async ({ req, params }) => {
    await req.shop.session();
    if (!req.shop.verifyNonce(services.config.discounts.nonceAction, firstString(params.awdr_nonce))) return json({ success: false, data: "Your session has expired. Please reload the page and try again." }, 403);
    const productId = parseId(params.product_id);
    const parentRaw = firstString(params.parent_id)?.trim() ?? "0";
    const parentId = parentRaw === "0" || parentRaw === "" ? 0 : parseId(parentRaw);
    const rule = (firstString(params.rule_unique_id) ?? "").slice(0, 200);
    const owner = await currentOwner(req.shop);
    if (productId === null || parentId === null || !rule || !owner) return json({ success: false, data: "This free product offer is no longer available." }, 400);
    const result = await changeFreeItem(services.db, owner, { product_id: productId, rule_unique_id: rule, parent_id: parentId }, await pricingOptions(req.shop, services));
    if (!result.ok) return json({ success: false, data: result.message });
    syncCartCookies(req.shop, result.cart ?? (await requestCart(req.shop, services)));
    // data 1: the page presses the cart's update button to show the change.
    return json({ success: true, data: 1 });
  });
}

function nonceFailure(): Reply {
  return { kind: "text", status: 403, body: "-1", contentType: "text/html; charset=UTF-8" };
}

async function totalsReply(req: Request, services: AppServices, known?: PricedCart): Promise<Reply> {
  const cart = known ?? (await requestCart(req.shop, services));
  syncCartCookies(req.shop, cart);
  return html(markup(createElement(CartTotals, { totals: cartTotalsView(cart) })));
}

async function addAndReply(req: Request, services: AppServices, request: AddToCartRequest): Promise<Reply> {
  const owner = await ownerCreating(req.shop);
  const result = await addToCart(services.db, owner, request, await pricingOptions(req.shop, services));
  if (!result.ok) {
    await req.shop.queueNotice({ type: "error", message: result.message });
    return json({ error: true, product_url: result.productUrl ? `${requestOrigin(req)}${result.productUrl}` : false });
  }
  return fragmentsReply(req, services, result.cart);
}

function requestOrigin(req: Request): string {
  return `${req.protocol}://${req.get("host") ?? "localhost"}`;
}

// ---------------------------------------------------------------------------------------------------
// No-JavaScript paths
// ---------------------------------------------------------------------------------------------------

/** Pages with their own form actions; their POST bodies are never read here. */
const OWN_ACTIONS = /^\/(my-account|checkout|wp-admin|wp-json)(\/|$)/;

function withoutParams(originalUrl: string, names: string[]): string {
  const url = new URL(originalUrl, "http://x");
  for (const n of names) url.searchParams.delete(n);
  return url.pathname + (url.search === "?" ? "" : url.search);
}

function noJsRoutes(app: express.Express, services: AppServices): void {
  const readForm = express.text({ type: "application/x-www-form-urlencoded", limit: services.config.limits.requestBodyBytes });

  app.use(async (req: Request, res: Response, next: NextFunction) => {
    try {
      if (req.query["wc-ajax"] !== undefined || req.path === "/wp-admin/admin-ajax.php") return next();
      // React Router's own data requests (client-side form actions and loaders) are never ours:
      // reading their body here would leave the route's action with nothing to read.
      if (req.path.endsWith(".data") || req.path.startsWith("/__")) return next();
      // ?add-to-cart={id} links (GET), on any page.
      if ((req.method === "GET" || req.method === "HEAD") && req.query["add-to-cart"] !== undefined) {
        const entries = formEntries(req.query as Record<string, unknown>).filter(([k]) => k === "add-to-cart" || k === "quantity" || k === "variation_id" || k.startsWith("attribute_") || k.startsWith("quantity["));
        await noJsAdd(req, entries, services);
        return redirectAfter(req, res, afterAddUrl(req, services));
      }
      if (req.path === "/cart/" && req.method === "GET" && req.query.remove_item !== undefined) {
        await noJsRemove(req, services);
        return redirectAfter(req, res, "/cart/");
      }
      if (req.path === "/cart/" && req.method === "GET" && req.query.remove_coupon !== undefined) {
        const owner = await currentOwner(req.shop);
        const code = firstString(req.query.remove_coupon) ?? "";
        if (owner && code) {
          const r = await removeCoupon(services.db, owner, code.slice(0, 100), await pricingOptions(req.shop, services));
          await req.shop.queueNotice(r.ok ? { type: "success", message: CART_MESSAGES.couponRemoved } : { type: "error", message: r.message });
          syncCartCookies(req.shop, await requestCart(req.shop, services));
        }
        return redirectAfter(req, res, "/cart/");
      }
      // Form posts: the single-product forms (any page) and the cart form.
      if (req.method === "POST" && req.is("application/x-www-form-urlencoded") && !OWN_ACTIONS.test(req.path)) {
        return readForm(req, res, async (error?: unknown) => {
          if (error) return next(error);
          try {
            const entries = [...new URLSearchParams(typeof req.body === "string" ? req.body : "")] as [string, string][];
            if (req.path === "/cart/" && !entries.some(([k]) => k === "add-to-cart" || k === "download_id")) {
              await cartFormPost(req, entries, services);
              return redirectAfter(req, res, "/cart/");
            }
            if (entries.some(([k]) => k === "add-to-cart" || k === "download_id")) {
              await noJsAdd(req, entries, services);
              return redirectAfter(req, res, afterAddUrl(req, services));
            }
            // Nothing of ours in the body, and these pages have no form actions: back to the page.
            return redirectAfter(req, res, req.originalUrl);
          } catch (e) {
            next(e);
          }
        });
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

async function noJsAdd(req: Request, entries: [string, string][], services: AppServices): Promise<void> {
  const form = parseForm(entries);
  if (!form.ok) return req.shop.queueNotice({ type: "error", message: form.message });
  const owner = await ownerCreating(req.shop);
  const result = await addToCart(services.db, owner, form.value, await pricingOptions(req.shop, services));
  if (!result.ok) return req.shop.queueNotice({ type: "error", message: result.message });
  await req.shop.queueNotice({ type: "success", message: CART_MESSAGES.added([...new Set(result.value.map((a) => a.name))]) });
  syncCartCookies(req.shop, result.cart ?? (await requestCart(req.shop, services)));
}

async function noJsRemove(req: Request, services: AppServices): Promise<void> {
  await req.shop.session();
  const key = firstString(req.query.remove_item) ?? "";
  if (!req.shop.verifyNonce(CART_NONCE_ACTION, firstString(req.query._wpnonce))) {
    return req.shop.queueNotice({ type: "error", message: "The link you followed has expired. Please try again." });
  }
  const owner = await currentOwner(req.shop);
  const result = owner && /^[0-9a-f]{32}$/.test(key) ? await removeCartItem(services.db, owner, key, await pricingOptions(req.shop, services)) : null;
  if (!result || !result.ok) return req.shop.queueNotice({ type: "error", message: CART_MESSAGES.unknownItem });
  await req.shop.queueNotice({ type: "success", message: CART_MESSAGES.removed(result.value) });
  syncCartCookies(req.shop, result.cart ?? (await requestCart(req.shop, services)));
}

const CART_QTY_FIELD = /^cart\[([0-9a-f]{32})\]\[qty\]$/;

/** The cart form: update quantities, apply a coupon, or choose shipping (its own small form). */
async function cartFormPost(req: Request, entries: [string, string][], services: AppServices): Promise<void> {
  await req.shop.session();
  const get = (name: string) => entries.findLast(([k]) => k === name)?.[1];
  if (!req.shop.verifyNonce(CART_NONCE_ACTION, get("woocommerce-cart-nonce"))) {
    return req.shop.queueNotice({ type: "error", message: "Your session has expired. Please reload the page and try again." });
  }
  const owner = await ownerCreating(req.shop);
  const opts = await pricingOptions(req.shop, services);
  const notices: { type: "success" | "error"; message: string }[] = [];
  if (get("update_shipping") !== undefined || get("shipping_method[0]") !== undefined) {
    const chosen = get("shipping_method[0]");
    if (chosen) {
      const r = await chooseShippingMethod(services.db, owner, chosen.slice(0, 100), opts);
      if (!r.ok) notices.push({ type: "error", message: r.message });
    }
  }
  if (get("apply_coupon") !== undefined) {
    const code = (get("coupon_code") ?? "").slice(0, 100);
    const r = code.trim() ? await applyCoupon(services.db, owner, code, opts) : { ok: false as const, message: "Please enter a coupon code." };
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
      const r = await updateQuantities(services.db, owner, quantities, opts);
      notices.push(r.ok ? { type: "success", message: CART_MESSAGES.updated } : { type: "error", message: r.message });
    }
  }
  for (const n of notices) await req.shop.queueNotice(n);
  syncCartCookies(req.shop, await requestCart(req.shop, services));
}

export const cartFeature: Feature = {
  name: "cart",
  endpoints: registerEndpoints,
  routes: noJsRoutes,
};
