/**
 * `awdr_params`, the discount add-on configuration printed into every page (docs/contract/storefront.md §3 "Discount add-on
 * configuration"): product pages use it for the live price and bulk table, the cart for the free-item
 * "change product" call, the checkout for the order review refresh. Values are strings where the add-on
 * compares strings ('0' / '1', 'on').
 */
import type { SiteConfig } from "../../../core/config/site-config.ts";

export interface AwdrParams {
  ajaxurl: string;
  /** Sent as `awdr_nonce` with every discount add-on call. */
  nonce: string;
  enable_update_price_with_qty: "show_when_matched" | "show_dynamically";
  refresh_order_review: "0" | "1";
  custom_target_simple_product: string;
  custom_target_variable_product: string;
  js_init_trigger: string;
  awdr_opacity_to_bulk_table: string;
  awdr_dynamic_bulk_table_status: "0" | "1";
  awdr_dynamic_bulk_table_off: "on" | "off";
  custom_simple_product_id_selector: string;
  custom_variable_product_id_selector: string;
  /** Ours (the add-on hard-codes them): the spec's delays, so the script has no scattered literals. */
  price_update_delay_ms: number;
  /** Ours: the quiet time after the last change before the price is asked for, so one change sends one request. */
  price_request_debounce_ms: number;
  bulk_table_load_delay_ms: number;
}

export function awdrParams(config: SiteConfig, nonce: string): AwdrParams {
  const d = config.discounts;
  return {
    ajaxurl: config.routes.ajax,
    nonce,
    enable_update_price_with_qty: d.enableUpdatePriceWithQty,
    refresh_order_review: d.refreshOrderReview,
    custom_target_simple_product: d.customTargetSimpleProduct,
    custom_target_variable_product: d.customTargetVariableProduct,
    js_init_trigger: d.jsInitTrigger,
    awdr_opacity_to_bulk_table: String(d.opacityToBulkTable),
    awdr_dynamic_bulk_table_status: d.dynamicBulkTableStatus,
    awdr_dynamic_bulk_table_off: d.dynamicBulkTableOff,
    custom_simple_product_id_selector: d.customSimpleProductIdSelector,
    custom_variable_product_id_selector: d.customVariableProductIdSelector,
    price_update_delay_ms: d.priceUpdateDelayMs,
    price_request_debounce_ms: d.priceRequestDebounceMs,
    bulk_table_load_delay_ms: d.bulkTableLoadDelayMs,
  };
}

/** What a product page's loader hands to `<DiscountPricing>` (see discount-page-data.server.ts). */
export interface DiscountPageData {
  productId: number;
  /** The bulk-discount table's HTML, "" when no bulk rule selects the product. */
  bulkTableHtml: string;
  /** Promotion lines to show (the mask promotion on mask products), or empty. */
  promotion: string[];
}
