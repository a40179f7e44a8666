/**
 * The fragment renderers: the only app/ module server/ may import (decision 0008, "Allowed exceptions").
 * The wc-ajax, admin-ajax and REST answers that carry HTML replace regions of the page, so they are rendered by
 * the page's own React components, here, and never drift from the page:
 *
 *   cartFragments        wc-ajax add_to_cart, remove_from_cart, get_refreshed_fragments, admin-ajax add-to-cart
 *                        calls: the mini-cart and the header cart link (HeaderCart.tsx)
 *   cartTotalsHtml       wc-ajax update_shipping_method, get_cart_totals: the cart totals (CartPage.tsx)
 *   reviewOrderHtml      wc-ajax update_order_review: the order review table (ReviewOrder.tsx)
 *   paymentHtml          wc-ajax update_order_review: the payment form (PaymentFragment.tsx)
 *   listingRefreshHtml   REST elementor-pro/v1/refresh-loop: a product listing's loop (Loop.tsx)
 *   variationAnswers     wc-ajax get_variation: variations as the variation form reads them (variation-json.ts)
 *
 * They take use-case values (a priced cart, catalogue records) and return markup or wire JSON; they never read a
 * request.
 */
import { createElement, type ComponentProps } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { PricedCart } from "../core/commerce/cart.ts";
import type { ShopServices } from "../core/commerce/services.ts";
import type { VariationRecord } from "../core/domain/catalog/products.ts";
import { parseListingQuery, type ConsolidatedFilters } from "../core/domain/catalog/index.ts";
import { HeaderCartLink, MiniCartContent } from "./components/cart/HeaderCart.tsx";
import { CartTotals } from "./components/cart/CartPage.tsx";
import { cartSummaryView, cartTotalsView } from "./components/cart/cart-view.ts";
import { ReviewOrder } from "./components/checkout/ReviewOrder.tsx";
import { PaymentFragment } from "./components/checkout/PaymentFragment.tsx";
import { LoopMarkup } from "./components/listing/Loop.tsx";
import { loadListing } from "./components/listing/load-listing.server.ts";
import { variationJson, type VariationJson } from "./components/product/variation-json.ts";
import { VIEW_COOKIE, listingOfAddress } from "./lib/listing-params.ts";

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

/** The cookie that remembers the grid or list view of listings. */
export const LISTING_VIEW_COOKIE = VIEW_COOKIE;

/**
 * A product listing's loop for the listing at `address` (a page address of this shop) with `filters`:
 * `bad-address` when it is not a listing, `no-category` for an unknown category, `past-end` otherwise.
 */
export async function listingRefreshHtml(
  services: ShopServices,
  request: { address: string; filters: ConsolidatedFilters; view: "grid" | "list" },
): Promise<{ kind: "ok"; html: string } | { kind: "bad-address" } | { kind: "no-category" } | { kind: "past-end" }> {
  const listing = listingOfAddress(request.address);
  if (!listing) return { kind: "bad-address" };
  const q = parseListingQuery("/", listing.url.searchParams);
  const keep = new URLSearchParams(listing.url.searchParams);
  keep.delete("view");
  const query = keep.toString() ? `?${keep}` : "";
  const config = services.config;
  const result = await loadListing(services.db, config.shop.perPage, {
    categorySlug: listing.categorySlug,
    search: q.search,
    orderby: q.orderby,
    page: 1,
    price: q.price,
    filters: request.filters,
    basePath: listing.basePath,
    query,
    view: request.view,
  });
  if (result.kind !== "ok") return result;
  const html = renderToStaticMarkup(
    createElement(LoopMarkup, {
      data: result.data,
      settings: { pagination: config.shop.pagination, mode: config.shop.infiniteScrollEvent, noMoreText: config.shop.noMorePostMessage, fadeUpDelayMs: config.timings.infiniteFadeUpDelayMs },
    }),
  );
  return { kind: "ok", html };
}

/** The variations of a product as WooCommerce's variation form reads them (the get_variation answer). */
export function variationAnswers(variations: readonly VariationRecord[]): VariationJson[] {
  return variations.map(variationJson);
}
