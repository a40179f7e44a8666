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
