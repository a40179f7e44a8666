/**
 * The page globals the cart, checkout and theme scripts read (docs/contract/wire.md §1.1),
 * built from the one site configuration. WordPress prints scalars as strings
 * ("1" / ""), and checkout.js compares some of them as strings, so we do too.
 * Only what the browser needs is here: no secrets, no server settings.
 */
import type { SiteConfig } from "../../core/config/site-config.ts";
import type { ShopSession } from "../../core/commerce/session.ts";
import { createHash } from "node:crypto";
import { awdrParams } from "../components/discounts/awdr-params.ts";
import { browserTrackingConfig } from "../../core/domain/tracking/browser-tracking.ts";
import { TRACKING_REST_ROUTE } from "../../core/domain/tracking/events.ts";

export type PageKind = "cart" | "checkout" | "other";

export function browserGlobals(config: SiteConfig, shop: ShopSession, origin: string, siteUrl: string, page: PageKind) {
  const flag = (b: boolean) => (b ? "1" : "");
  const storageSuffix = createHash("md5").update(`1_${siteUrl}maskerade`).digest("hex");
  const globals: Record<string, unknown> = {
    wc_add_to_cart_params: {
      ajax_url: config.routes.ajax,
      wc_ajax_url: config.routes.wcAjax,
      i18n_view_cart: config.cart.viewCartText,
      cart_url: `${origin}${config.routes.cart}`,
      is_cart: flag(page === "cart"),
      cart_redirect_after_add: config.cart.cartRedirectAfterAdd,
    },
    wc_cart_fragments_params: {
      ajax_url: config.routes.ajax,
      wc_ajax_url: config.routes.wcAjax,
      cart_hash_key: `wc_cart_hash_${storageSuffix}`,
      fragment_name: `wc_fragments_${storageSuffix}`,
      request_timeout: String(config.cart.fragmentsRequestTimeoutMs),
    },
    astra: {
      ajax_url: config.routes.ajax,
      is_logged_in: flag(shop.customerId() > 0),
      is_registration_required: flag(config.account.isRegistrationRequired),
      is_complete_package: flag(config.account.isCompletePackage),
      cart_url: `${origin}${config.routes.cart}`,
      checkout_url: `${origin}${config.routes.checkout}`,
      is_cart: flag(page === "cart"),
      view_cart: config.cart.viewCartText,
      cart_redirect_after_add: config.cart.cartRedirectAfterAdd,
      enable_ajax_add_to_cart: config.cart.enableAjaxAddToCart,
      add_to_cart_options_single: config.cart.addToCartOptionsSingle,
      single_product_ajax_add_to_cart: flag(config.cart.singleProductAjaxAddToCart),
      shop_pagination: config.shop.pagination,
      // Astra's `$wp_query` paging: the next page the infinite loader asks for and the listing's page count. A page
      // that is not a listing has no pages to load; the root layout fills in a listing's own (withListingPaging).
      shop_infinite_count: "2",
      shop_infinite_total: "0",
      shop_infinite_scroll_event: config.shop.infiniteScrollEvent,
      shop_no_more_post_message: config.shop.noMorePostMessage,
      shop_quick_view_enable: flag(config.shop.quickViewEnable),
      break_point: String(config.layout.breakPoint),
      isRtl: flag(config.layout.isRtl),
      user_validation_msgs: { success_msg: config.account.userValidationSuccessMsg, error_msg: config.account.userValidationErrorMsg },
      order_review_toggle_texts: config.checkout.orderReviewToggleTexts,
      check_user_exist_nonce: shop.nonce("check-user-exist"),
      woocommerce_login_nonce: shop.nonce("woocommerce-login"),
    },
    awdr_params: awdrParams(config, shop.nonce(config.discounts.nonceAction)),
    wpApiSettings: {
      root: `${origin}${config.routes.restRoot}`,
      nonce: shop.nonce("wp_rest"),
      nonceEndpoint: `${origin}${config.routes.ajax}?action=rest-nonce`,
    },
    // The browser tracker's settings (docs/contract/storefront.md §9 'Tracking (analytics)'): nothing secret.
    shop_tracking: browserTrackingConfig(config.tracking, {
      restUrl: `${config.routes.restRoot}${TRACKING_REST_ROUTE}`,
      ajaxUrl: config.routes.ajax,
      currency: config.currency.code,
      userId: shop.customerId(),
    }),
  };
  if (page === "cart") {
    globals.wc_cart_params = {
      ajax_url: config.routes.ajax,
      wc_ajax_url: config.routes.wcAjax,
      update_shipping_method_nonce: shop.nonce("update-shipping-method"),
      apply_coupon_nonce: shop.nonce("apply-coupon"),
      remove_coupon_nonce: shop.nonce("remove-coupon"),
    };
  }
  if (page === "checkout") {
    globals.wc_checkout_params = {
      ajax_url: config.routes.ajax,
      wc_ajax_url: config.routes.wcAjax,
      update_order_review_nonce: shop.nonce("update-order-review"),
      apply_coupon_nonce: shop.nonce("apply-coupon"),
      remove_coupon_nonce: shop.nonce("remove-coupon"),
      option_guest_checkout: config.account.guestCheckout ? "yes" : "no",
      checkout_url: "/?wc-ajax=checkout",
      is_checkout: "1",
      debug_mode: "",
      i18n_checkout_error: config.checkout.checkoutError,
    };
  }
  return globals;
}
