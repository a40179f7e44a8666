/** Nonce actions, cookie names and session keys the storefront and both adapters share (no I/O: safe to import anywhere). */

/** The cart form's and the remove links' nonce action. */
export const CART_NONCE_ACTION = "woocommerce-cart";
/** The two cart cookies scripts read (docs/contract/wire.md §1.5). */
export const ITEMS_COOKIE = "woocommerce_items_in_cart";
export const HASH_COOKIE = "woocommerce_cart_hash";

export const CHECKOUT_NONCE_ACTION = "woocommerce-process_checkout";
export const CHECKOUT_TOKEN_KEY = "checkout_token";
/** The session's last checkout order whose payment failed (WooCommerce's order_awaiting_payment). */
export const AWAITING_PAYMENT_KEY = "order_awaiting_payment";
/** Orders this session placed, paid or proved (by their e-mail address) it may see on the order received page. */
export const ORDERS_SEEN_KEY = "orders_seen";
/** The addresses a Store API client gave with cart/update-customer (docs/contract/wire.md §6.3). */
export const STORE_API_CUSTOMER_KEY = "store_api_customer";
/** Where the checkout last said the cart goes (core/commerce/customer-country.ts). */
export const DESTINATION_KEY = "shipping_destination";

/**
 * Session keys no page the page cache keeps ever reads (docs/decisions/0042-cart-shoppers-cached.md): the checkout's
 * token and awaited order, the orders this session may see, the Store API's and the checkout's destination (they
 * price the cart, whose parts come from the fragments). Any other key (notices, a chosen country, a comment of one's
 * own or its form's flash, the registration flag, a key added later) may change what a page shows.
 */
const KEYS_NO_KEPT_PAGE_READS: ReadonlySet<string> = new Set([
  CHECKOUT_TOKEN_KEY,
  AWAITING_PAYMENT_KEY,
  ORDERS_SEEN_KEY,
  STORE_API_CUSTOMER_KEY,
  DESTINATION_KEY,
]);

/**
 * Whether a page kept for everyone is this session's page too, once its cart parts come from the fragments: a
 * guest's session holding nothing else a page shows. A signed-in customer's never is.
 */
export function sessionFitsKeptPage(session: { customerId: number | null; data: Record<string, unknown> }): boolean {
  if (session.customerId) return false;
  for (const key of Object.keys(session.data)) if (!KEYS_NO_KEPT_PAGE_READS.has(key)) return false;
  return true;
}
