/**
 * The page globals the cart, checkout and theme scripts read (docs/contract/wire.md §1.1),
 * built from the one site configuration. WordPress prints scalars as strings
 * ("1" / ""), and checkout.js compares some of them as strings, so we do too.
 * Only what the browser needs is here: no secrets, no server settings.
 */
import { REST_NONCE_ACTION } from "../../core/security/nonce.ts";
import type { SiteConfig } from "../../core/config/site-config.ts";
import type { ShopSession } from "../../core/commerce/session.ts";
import { createHash } from "node:crypto";
import { awdrParams } from "../components/discounts/awdr-params.ts";
import { WC_ATTRIBUTION_PREFIX, WC_FIELD_MAP } from "../../core/domain/attribution/sourcebuster.ts";
import type { AttributionParams, ConsentParams } from "../components/checkout/attribution-run.ts";
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
    // The sticky header's settings (docs/contract/sticky-quick-view.md §1).
    shop_sticky_header: { ...config.stickyHeader, break_point: config.layout.breakPoint },
    awdr_params: awdrParams(config, shop.nonce(config.discounts.nonceAction)),
    // WooCommerce's order attribution global (docs/contract/wire.md §4.4) with sourcebuster's further options; the
    // browser checks them (docs/contract/storefront.md §5 'Attribution options').
    wc_order_attribution: { params: attributionParams(config), fields: WC_FIELD_MAP },
    shop_consent: { required: config.consent.required, disabledCookies: [...config.consent.disabledCookies] } satisfies ConsentParams,
    wpApiSettings: {
      root: `${origin}${config.routes.restRoot}`,
      nonce: shop.nonce(REST_NONCE_ACTION),
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

function attributionParams(config: SiteConfig): AttributionParams {
  const a = config.attribution;
  return {
    lifetime: String(a.lifetimeMonths),
    session: String(a.sessionMinutes),
    base64: a.base64,
    timezone_offset: String(a.timezoneOffsetHours),
    prefix: WC_ATTRIBUTION_PREFIX,
    allowTracking: a.allowTracking,
    campaign_param: a.campaignParam,
    term_param: a.termParam,
    content_param: a.contentParam,
    referrals: a.referrals,
    organics: a.organics,
    promocode: a.promocode.enabled ? { min: a.promocode.min, max: a.promocode.max } : false,
  };
}

/**
 * What WooCommerce prints on a product page for its single-product.js (`wc_single_product_params`, every product
 * page) and add-to-cart-variation.js (`wc_add_to_cart_variation_params`, variable products), so either script
 * works when a theme or plugin enqueues it (docs/contract/wire.md §1.11). Our own gallery and form read neither.
 */
export function productPageGlobals(config: SiteConfig, variable: boolean): Record<string, unknown> {
  const globals: Record<string, unknown> = {
    wc_single_product_params: {
      i18n_required_rating_text: "Please select a rating",
      i18n_rating_options: ["1 of 5 stars", "2 of 5 stars", "3 of 5 stars", "4 of 5 stars", "5 of 5 stars"],
      i18n_product_gallery_trigger_text: "View full-screen image gallery",
      // Our reviews always ask for a rating (core/domain/comments).
      review_rating_required: "yes",
      flexslider: {
        rtl: config.layout.isRtl,
        animation: "slide",
        smoothHeight: true,
        directionNav: false,
        controlNav: "thumbnails",
        slideshow: false,
        animationSpeed: 500,
        animationLoop: false,
        allowOneSlide: false,
      },
      // Our own gallery does the slider, zoom and lightbox: WooCommerce's script must not do them a second time.
      zoom_enabled: "",
      zoom_options: [],
      photoswipe_enabled: "",
      photoswipe_options: { shareEl: false, closeOnScroll: false, history: false, hideAnimationDuration: 0, showAnimationDuration: 0 },
      flexslider_enabled: "",
    },
  };
  if (variable) {
    globals.wc_add_to_cart_variation_params = {
      wc_ajax_url: config.routes.wcAjax,
      i18n_no_matching_variations_text: "Sorry, no products matched your selection. Please choose a different combination.",
      i18n_make_a_selection_text: "Please select some product options before adding this product to your cart.",
      i18n_unavailable_text: "Sorry, this product is unavailable. Please choose a different combination.",
      i18n_reset_alert_text: "Your selection has been reset. Please select some product options before adding this product to your cart.",
    };
  }
  return globals;
}
