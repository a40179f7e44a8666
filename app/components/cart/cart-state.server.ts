/**
 * The cart state of one request, shared by the root loader, the cart page and the cart endpoints:
 * who owns the cart, the priced cart, its view, its fragments and the two cart cookies.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { AppServices } from "../../../server/services.ts";
import type { RequestContext } from "../../../server/http/request-context.ts";
import { cartOwnerOf, loadPricedCart, type CartOwner, type PricedCart, type PricingOptions } from "../../../core/commerce/cart.ts";
import { HeaderCartLink, MiniCartContent } from "./HeaderCart.tsx";
import { cartSummaryView, type CartSummaryView } from "./cart-view.ts";

export const CART_NONCE_ACTION = "woocommerce-cart";
export const ITEMS_COOKIE = "woocommerce_items_in_cart";
export const HASH_COOKIE = "woocommerce_cart_hash";

export async function pricingOptions(shop: RequestContext, services: AppServices): Promise<PricingOptions> {
  const session = await shop.session();
  return { now: services.now(), loggedIn: Boolean(session?.customerId), currencyFormat: services.config.currency.format };
}

export async function currentOwner(shop: RequestContext): Promise<CartOwner | null> {
  return cartOwnerOf(await shop.session());
}

export async function ownerCreating(shop: RequestContext): Promise<CartOwner> {
  return cartOwnerOf(await shop.ensureSession())!;
}

/** The priced cart of this request's shopper. */
export async function requestCart(shop: RequestContext, services: AppServices): Promise<PricedCart> {
  return loadPricedCart(services.db, await currentOwner(shop), await pricingOptions(shop, services));
}

/**
 * The two cart cookies, readable by scripts, set on the response that changed the cart (and on any
 * response that finds them stale); both removed when the cart is empty (wire-contracts §1.5).
 */
export function syncCartCookies(shop: RequestContext, cart: PricedCart): void {
  const items = shop.cookies[ITEMS_COOKIE];
  const hash = shop.cookies[HASH_COOKIE];
  if (cart.hash === "") {
    if (items !== undefined) shop.setCookie(ITEMS_COOKIE, "", { httpOnly: false, maxAgeSeconds: 0 });
    if (hash !== undefined) shop.setCookie(HASH_COOKIE, "", { httpOnly: false, maxAgeSeconds: 0 });
    return;
  }
  if (items !== "1") shop.setCookie(ITEMS_COOKIE, "1", { httpOnly: false });
  if (hash !== cart.hash) shop.setCookie(HASH_COOKIE, cart.hash, { httpOnly: false });
}

export function summaryFor(shop: RequestContext, cart: PricedCart): CartSummaryView {
  return cartSummaryView(cart, shop.nonce(CART_NONCE_ACTION));
}

/** Selector → replacement HTML, from the page's own components. */
export function renderFragments(view: CartSummaryView): Record<string, string> {
  return {
    "div.widget_shopping_cart_content": markup(createElement(MiniCartContent, { cart: view })),
    "a.cart-contents": markup(createElement(HeaderCartLink, { cart: view })),
  };
}

/** A fragment is exactly the element it replaces: React's hoisted resource hints are dropped. */
export function markup(element: Parameters<typeof renderToStaticMarkup>[0]): string {
  return renderToStaticMarkup(element).replace(/^(?:<link [^>]*>)+/, "");
}

