/**
 * The fragment renderers: the only app/ module server/ may import (decision 0008, "Allowed exceptions"; the
 * importing modules are FRAGMENT_RENDERERS in eslint.config.js). The wc-ajax, admin-ajax and REST answers that carry
 * HTML replace regions of the page, so they are rendered here by the page's own React components and never drift
 * from the page:
 *
 *   cartFragments      wc-ajax add_to_cart, remove_from_cart, get_refreshed_fragments and the admin-ajax add-to-cart
 *                      calls: the mini-cart and the header cart link (HeaderCart.tsx)
 *   cartTotalsHtml     wc-ajax update_shipping_method, get_cart_totals: the cart totals (CartPage.tsx)
 *   reviewOrderHtml    wc-ajax update_order_review: the order review table (ReviewOrder.tsx)
 *   paymentHtml        wc-ajax update_order_review: the payment form (PaymentFragment.tsx)
 *   loopHtml           REST elementor-pro/v1/refresh-loop: a listing's loop (Loop.tsx)
 *   variationAnswers   wc-ajax get_variation: variations as the variation form reads them (variation-json.ts)
 *
 * They take use-case values (a priced cart, a listing page, catalogue records) and return markup or wire JSON;
 * they never read a request or a database.
 */
import { createElement, type ComponentProps } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { VariationRecord } from "../../core/domain/catalog/products.ts";
import { HeaderCartLink, MiniCartContent } from "./cart/HeaderCart.tsx";
import { CartTotals } from "./cart/CartPage.tsx";
import { cartSummaryView, cartTotalsView } from "./cart/cart-view.ts";
import { ReviewOrder } from "./checkout/ReviewOrder.tsx";
import { PaymentFragment } from "./checkout/PaymentFragment.tsx";
import { LoopMarkup } from "./listing/Loop.tsx";
import { variationJson, type VariationJson } from "./product/variation-json.ts";

/** The priced cart (core/commerce's PricedCart) as the cart views take it. */
type PricedCart = Parameters<typeof cartSummaryView>[0];

/** A fragment is exactly the element it replaces: React's hoisted resource hints are dropped. */
function markup(element: Parameters<typeof renderToStaticMarkup>[0]): string {
  return renderToStaticMarkup(element).replace(/^(?:<link [^>]*>)+/, "");
}

/** Selector → replacement HTML: the mini-cart and the header cart link. `cartNonce` signs the remove links. */
export function cartFragments(cart: PricedCart, cartNonce: string): Record<string, string> {
  const view = cartSummaryView(cart, cartNonce);
  return {
    "div.widget_shopping_cart_content": markup(createElement(MiniCartContent, { cart: view })),
    "a.cart-contents": markup(createElement(HeaderCartLink, { cart: view })),
  };
}

export function cartTotalsHtml(cart: PricedCart): string {
  return markup(createElement(CartTotals, { totals: cartTotalsView(cart) }));
}

export function reviewOrderHtml(cart: PricedCart): string {
  return renderToStaticMarkup(createElement(ReviewOrder, { summary: cartSummaryView(cart, ""), totals: cartTotalsView(cart) }));
}

export function paymentHtml(props: ComponentProps<typeof PaymentFragment>): string {
  return renderToStaticMarkup(createElement(PaymentFragment, props));
}

/** A listing page's loop, as the refresh-loop endpoint answers it. */
export function loopHtml(props: ComponentProps<typeof LoopMarkup>): string {
  return renderToStaticMarkup(createElement(LoopMarkup, props));
}

/** The variations of a product as WooCommerce's variation form reads them (the get_variation answer). */
export function variationAnswers(variations: readonly VariationRecord[]): VariationJson[] {
  return variations.map(variationJson);
}
