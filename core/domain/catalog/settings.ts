/**
 * The catalogue's constants from the storefront spec (docs/contract/storefront.md §9 and friends), in one typed place.
 * Everything else in `core/domain/catalog` takes these as defaults and accepts overrides,
 * so a setting the spec turns off can still be turned on (and is tested both ways).
 */

/**
 * Variation swatch settings (docs/contract/storefront.md §9 'Variation swatches'). Keys are snake_case on purpose:
 * this object is printed to the page for the swatch script with the same names.
 */
export interface SwatchSettings {
  /** Variations that are not in stock are treated as unavailable (docs/contract/storefront.md §5 'Variations'). */
  readonly disable_out_of_stock: boolean;
  /** Show the 'stock left' info under a swatch (docs/contract/storefront.md §4 'Stock-left info'). */
  readonly show_variation_stock: boolean;
  /** Clicking a selected item clears that attribute. */
  readonly clear_on_reselect: boolean;
  /** Choosing a value that leaves no in-stock match clears the other attributes. */
  readonly deselect_unavailable: boolean;
  /** Out-of-stock (but enabled) items are marked 'no-stock' instead of disabled, and stay clickable. */
  readonly clickable_out_of_stock: boolean;
  /** Stock-left info appears when max_qty is at or below this. */
  readonly stock_label_threshold: number;
  readonly variation_label_separator: string;
  readonly archive_variation_label_separator: string;
  readonly tooltip_unavailable: string;
  readonly tooltip_out_of_stock: string;
  /** How many items an attribute shows before the 'more' control; null = no limit. */
  readonly display_limit: number | null;
  /** Same for listings (archives); the spec has it off. */
  readonly archive_display_limit: number | null;
}

export const DEFAULT_SWATCH_SETTINGS: SwatchSettings = Object.freeze({
  disable_out_of_stock: true,
  show_variation_stock: false,
  clear_on_reselect: false,
  deselect_unavailable: false,
  clickable_out_of_stock: false,
  stock_label_threshold: 5,
  variation_label_separator: "-",
  archive_variation_label_separator: ":",
  tooltip_unavailable: "(Unavailable)",
  tooltip_out_of_stock: "(Out of Stock)",
  display_limit: null,
  archive_display_limit: null,
});

/** docs/contract/storefront.md §9 'Listing filters': the separator of each logical operator in `e-filter-…` values. */
export const FILTER_SEPARATORS = Object.freeze({ AND: "+", OR: "~", NOT: "!" } as const);

/** The taxonomy query operator each join means (AND; OR = IN; NOT = NOT IN). */
export const FILTER_OPERATORS = Object.freeze({ AND: "AND", OR: "IN", NOT: "NOT IN" } as const);

/** The only filter type the page address carries (the address has no place for the type). */
export const TAXONOMY_FILTER_TYPE = "taxonomy";

export const FILTER_PARAM_PREFIX = "e-filter-";
export const WIDGET_PAGE_PARAM_PREFIX = "e-page-";

/** Guards against abusive addresses; far above anything a filter widget produces. */
export const MAX_FILTER_TERMS = 100;
export const MAX_FILTER_TERM_LENGTH = 200;

/** WooCommerce's catalogue orderby values (the sort select), default first. */
export const ORDERBY_VALUES = ["menu_order", "popularity", "rating", "date", "price", "price-desc"] as const;
export const DEFAULT_ORDERBY = "menu_order";

export const VIEW_VALUES = ["grid", "list"] as const;
export const DEFAULT_VIEW = "grid";

/** Longest search term kept; longer input is cut (WordPress has no limit, our SQL deserves one). */
export const MAX_SEARCH_LENGTH = 200;

/** Highest listing page accepted from an address. */
export const MAX_LISTING_PAGE = 100_000;

/** Price slider (docs/contract/storefront.md §5 'Listings and popups'). */
export const DEFAULT_PRICE_STEP = 1;
/** PageUp / PageDown move a handle this many steps. */
export const PRICE_PAGE_STEPS = 10;

/** Largest quantity one add-to-cart line may ask for. */
export const MAX_ADD_TO_CART_QUANTITY = 9999;
/** Most grouped children / bundled items / price options one form may carry. */
export const MAX_FORM_CHILDREN = 200;

/** Add-to-cart form field names (WooCommerce, Product Bundles, Easy Digital Downloads). */
export const ADD_TO_CART_FIELDS = Object.freeze({
  productId: "add-to-cart",
  quantity: "quantity",
  variationId: "variation_id",
  attributePrefix: "attribute_",
  bundleQuantityPrefix: "bundle_quantity_",
  bundleOptionalPrefix: "bundle_selected_optional_",
  bundleVariationPrefix: "bundle_variation_id_",
  downloadId: "download_id",
  downloadQuantity: "edd_download_quantity",
  downloadPriceIds: "edd_options[price_id][]",
} as const);

/** docs/contract/storefront.md §3 'Sale badge'. */
export const SALE_BADGE = Object.freeze({
  notificationType: "sale-percentage",
  placeholder: "[value]",
} as const);

/** docs/contract/storefront.md §2 listing texts. */
export const LISTING_TEXTS = Object.freeze({
  noMoreProducts: "No more products to show.",
  noMorePosts: "No more posts to show.",
} as const);
