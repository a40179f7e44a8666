/**
 * The one typed configuration of the shop: the spec's "Site configuration read by
 * the storefront" (docs/contract/storefront.md §3) and its business constants (§9), with the spec's values as
 * defaults. `browserConfig()` picks the parts that are printed into pages; nothing
 * else (secrets, server settings) ever reaches the browser.
 */
import { DEFAULT_CURRENCY_FORMAT, type CurrencyFormat } from "../domain/money/money.ts";
import { DEFAULT_SWATCH_SETTINGS, type SwatchSettings } from "../domain/catalog/settings.ts";
import { DEFAULT_ENABLED_CARD_TYPES } from "../domain/payments/default-card-types.ts";
import { COUNT_ENDPOINTS } from "../domain/share/count-endpoints.ts";
import { TRACKING_EVENTS } from "../domain/tracking/events.ts";

/** docs/contract/storefront.md §9 'Variation swatches', the domain's defaults; the display limits are shop.swatchDisplayLimit (and off on archives). */
const { display_limit: _limit, archive_display_limit: _archiveLimit, ...SWATCH_DEFAULTS } = DEFAULT_SWATCH_SETTINGS;

export const SITE_CONFIG = {
  siteName: "Maskerade",
  tagline: "Face masks, ties and matching sets",
  currency: { code: "USD", format: DEFAULT_CURRENCY_FORMAT as CurrencyFormat },
  routes: {
    shop: "/shop/",
    cart: "/cart/",
    checkout: "/checkout/",
    myAccount: "/my-account/",
    blog: "/blog/",
    live: "/live/",
    ajax: "/wp-admin/admin-ajax.php",
    wcAjax: "/?wc-ajax=%%endpoint%%",
    restRoot: "/wp-json/",
  },
  cart: {
    cartRedirectAfterAdd: "no" as "yes" | "no",
    enableAjaxAddToCart: "yes" as "yes" | "no",
    viewCartText: "View cart",
    /** slide_in_cart | redirect_cart_page | redirect_checkout_page | default */
    addToCartOptionsSingle: "default" as "slide_in_cart" | "redirect_cart_page" | "redirect_checkout_page" | "default",
    singleProductAjaxAddToCart: true,
    fragmentsExpireMs: 86_400_000,
    fragmentsRequestTimeoutMs: 5000,
    emptyMessage: "No products in the cart.",
  },
  shop: {
    pagination: "infinite" as "infinite" | "number",
    infiniteScrollEvent: "click" as "click" | "scroll",
    perPage: 12,
    noMorePostMessage: "No more products to show.",
    noMoreBlogMessage: "No more posts to show.",
    blogShowCommentsLabel: "Show Comments",
    quickViewEnable: false,
    catalogMode: { enabled: false, behaviour: "navigate", trigger: "click" },
    maskPromotion: ["6 masks for $15", "12 masks for $24", "free shipping on all mask purchases"],
    /** Above this many variations the page prints none and the form asks get_variation (WooCommerce's default is 30; the demo's largest product, 32, is printed in full). */
    ajaxVariationThreshold: 40,
    /** Swatch items shown per attribute before the 'more' control on the product page (the archive limit is off). */
    swatchDisplayLimit: 6,
    /** Sale badge on a variable product ('sale-percentage'). */
    saleBadgeTemplate: "-[value]%",
  },
  /** Variation swatch settings (snake_case as printed for the swatch script); SHOP_SETTINGS may turn the 'off' ones on. */
  swatches: SWATCH_DEFAULTS as Omit<SwatchSettings, "display_limit" | "archive_display_limit">,
  account: {
    isRegistrationRequired: false as boolean,
    isCompletePackage: true as boolean,
    guestCheckout: true as boolean,
    userValidationSuccessMsg: "This user is already registered. Please enter the password to continue." as string,
    userValidationErrorMsg: "Entered user detail is not a valid." as string,
  },
  /** The card and e-check gateways' settings (docs/contract/storefront.md §3 'Payment gateway settings'); unknown card type names stop the start. */
  payments: {
    cscRequired: true as boolean,
    cscRequiredForTokens: false as boolean,
    enabledCardTypes: [...DEFAULT_ENABLED_CARD_TYPES] as string[],
  },
  checkout: {
    orderReviewToggleTexts: { toggle_show_text: "Show Order Summary" as string, toggle_hide_text: "Hide Order Summary" as string },
    placeOrderText: "Place order" as string,
    /** 'multi-step' (details, then payment), 'modern' (the two-step modern layout) or 'one-page'. */
    layout: "multi-step" as "one-page" | "multi-step" | "modern",
    checkoutError: "Error processing checkout. Please try again." as string,
  },
  layout: {
    breakPoint: 921,
    galleryBreakPoint: 922,
    tablet: 768,
    mobile: 544,
    contentWidth: 1240,
    paddedLayoutWidth: 1280,
    boxLayoutWidth: 1200,
    isRtl: false as boolean,
    scrollToTopAfterPx: 300,
  },
  /** The header (docs/contract/header-menus.md): mega-menu dropdown width, the account link's menu, the logo. */
  header: {
    /** content | menu-container | full | full-stretched | custom; sized only above `layout.breakPoint`. */
    megaMenuWidth: "content" as "content" | "menu-container" | "full" | "full-stretched" | "custom",
    megaMenuCustomWidthPx: 1200,
    megaMenuOffsetPx: 130,
    /** The ☰ menu below the break point: a flyout from the start edge, or a fullscreen overlay. */
    mobileMenuStyle: "flyout" as "flyout" | "fullscreen",
    /** true: the account link opens a menu (orders, addresses, payment methods, log out) for a signed-in customer. */
    accountMenu: false as boolean,
    /** The owner's logo (a demo one ships in public/); width and height are its intrinsic size, drawn at the widths below. */
    logo: { src: "/maskerade-logo.svg" as string, width: 341, height: 64, alt: "Maskerade" as string },
    /** Responsive logo widths (docs/contract/storefront.md §9 'Layout'): desktop, tablet (≤ 921 px), mobile (≤ 544 px). */
    logoWidths: { desktop: 341, tablet: 227, mobile: 132 },
  },
  timings: {
    scrollToNoticesOffsetPx: 100,
    scrollToNoticesMs: 1000,
    focusFirstAlertMs: 500,
    resultCountReannounceMs: 2000,
    cartSuccessAnnounceMs: 1000,
    fieldDescriptionSlideMs: 250,
    updatingOverlayOpacity: 0.6,
    emailCheckDebounceMs: 300,
    orderReviewCollapseMs: 300,
    savedTokenSlideMs: 200,
    galleryResizeDebounceMs: 250,
    crossSellResizeDebounceMs: 500,
    crossSellPaddingPx: 15,
    infiniteFadeUpDelayMs: 200,
    searchOverlayFadeMs: 200,
    freeVariantPanelSlideMs: 1000,
    variationFormSetupDelayMs: 1000,
    /** docs/contract/storefront.md §9: a lazily loaded script chunk that has not arrived by then has failed. */
    scriptChunkTimeoutMs: 120_000,
  },
  /** The store notice and the coming-soon banner are edited over REST too (core/config/editable-settings.ts). */
  storeNotice: {
    enabled: true as boolean,
    noticeId: "a1b2c3" as string,
    text: "Free shipping on all mask purchases — 6 masks for $15, 12 masks for $24." as string,
  },
  comingSoonBanner: { enabled: true as boolean, text: "New: matching bow ties are coming soon." as string },
  /**
   * Settings › Tax (core/config/editable-settings.ts, docs/decisions/0040-tax-rates.md): off, nothing the shop shows
   * or charges has tax. On: the rates (Settings › Tax's table, core/domain/pricing/tax.ts) of the address `basedOn`
   * names are added to every cart and order; prices are entered exclusive of tax.
   */
  tax: {
    enabled: false as boolean,
    /** Whose address picks the rates: the shipping address (the billing one when none), the billing one, or the store's own. */
    basedOn: "shipping" as "shipping" | "billing" | "base",
    /** Whether shipping is taxed (by the rates marked "Shipping"). */
    shippingTaxable: true as boolean,
  },
  /**
   * Settings › General (core/config/editable-settings.ts): the store's address (its country is where a shopper with
   * no address yet is priced from) and where it sells and ships (core/domain/checkout/selling.ts). The currency is
   * `currency` above, fixed for the shop's life.
   */
  store: {
    address: "" as string,
    address2: "" as string,
    city: "" as string,
    postcode: "" as string,
    country: "US" as string,
    state: "" as string,
    sellTo: "all" as "all" | "specific" | "all_except",
    sellToCountries: [] as string[],
    shipTo: "same_as_selling" as "all" | "specific" | "all_except" | "same_as_selling",
    shipToCountries: [] as string[],
  },
  discounts: {
    enableUpdatePriceWithQty: "show_when_matched" as "show_when_matched" | "show_dynamically",
    refreshOrderReview: "0" as "0" | "1",
    customTargetSimpleProduct: "div.product p.price",
    customTargetVariableProduct: "div.product .woocommerce-variation-price",
    /** Empty = read the product id from the form's add-to-cart / variation_id fields. */
    customSimpleProductIdSelector: "",
    customVariableProductIdSelector: "",
    /** A DOM event name that re-initialises the add-on (e.g. after a quick view opens); empty = none. */
    jsInitTrigger: "",
    bulkTableLoadDelayMs: 100,
    priceUpdateDelayMs: 0,
    /**
     * Ours: the price request waits this long after the last quantity or option change (typing "12" asks once, for
     * 12), on top of priceUpdateDelayMs.
     */
    priceRequestDebounceMs: 200,
    opacityToBulkTable: 0.5,
    dynamicBulkTableStatus: "0" as "0" | "1",
    dynamicBulkTableOff: "on" as "on" | "off",
    /** The nonce action behind awdr_nonce (shared by every discount add-on call, the cart's included). */
    nonceAction: "awdr_ajax_nonce",
    /** Largest quantity the price calls accept (keeps cent amounts far from unsafe integers). */
    maxQuantity: 100_000,
  },
  /** Reviews and blog comments (docs/contract/storefront.md §4 'Reviews and comments'). */
  comments: {
    /** Guests (not signed in) may review and comment; off, like WordPress's 'Users must be registered and logged in to comment'. */
    allowGuests: false as boolean,
    /** Only customers who bought the product may review it (WooCommerce's 'verified owners' option). */
    reviewsVerifiedOnly: false as boolean,
    /** WordPress's comment flood interval: one submission per client per this many seconds. */
    floodSeconds: 15 as number,
    /** Submissions per client per hour, and per client address per hour (many shoppers may share an address). */
    perClientPerHour: 10 as number,
    perAddressPerHour: 60 as number,
  },
  /** Share buttons on product pages and blog posts (docs/contract/storefront.md §9 'Share networks'). */
  share: {
    enabled: true as boolean,
    /** Which of the twenty networks show, in this order (core/domain/share/networks.ts). */
    networks: ["facebook", "x", "pinterest", "whatsapp", "telegram", "reddit", "email", "print"] as string[],
    /** Networks whose public share count is shown (only those that publish one); the server asks, never the page. */
    counters: ["pinterest"] as string[],
    /** Where the counts are read (a proxy or a test receiver may stand in); `{url}` is the encoded page address. */
    countEndpoints: { ...COUNT_ENDPOINTS } as Record<string, string>,
    /** How long a count is kept before it is asked again, and how long the server waits for a network. */
    countCacheSeconds: 3600,
    countTimeoutMs: 2000,
  },
  /**
   * Order attribution: sourcebuster's options as WooCommerce passes them (docs/contract/storefront.md §9 'Attribution
   * (site configuration)'), checked in the browser as §5 'Attribution options' says (core/domain/attribution/options.ts).
   * allowTracking false: no sbjs_* cookie is written (those present are deleted) and the order's fields stay empty.
   */
  attribution: {
    lifetimeMonths: 0.00001 as number,
    sessionMinutes: 30 as number,
    base64: false as boolean,
    allowTracking: true as boolean,
    timezoneOffsetHours: 0 as number,
    /** Custom query parameters that also mark a campaign visit and fill its campaign / term / content (§4); empty = none. */
    campaignParam: "" as string,
    termParam: "" as string,
    contentParam: "" as string,
    /** Custom referral sources: `host` (and its subdomains) shown as `display`, with `medium` (default 'referral'). */
    referrals: [] as { host: string; medium?: string; display?: string }[],
    /** Custom search engines: referrers on `host` carrying the query parameter `param` are organic traffic. */
    organics: [] as { host: string; param: string; display?: string }[],
    /** sbjs_promo: a random code kept with the attribution cookies (sourcebuster's `promocode`; WooCommerce passes none). */
    promocode: { enabled: false as boolean, min: 100_000 as number, max: 999_999 as number },
  },
  /** Consent for tracking (docs/contract/storefront.md §4 'Consent', decision 0017). */
  consent: {
    /** Opt-in (true): analytics and marketing, the shop's own attribution included, wait for the visitor's choice. False: opt-out. */
    required: true as boolean,
    /** Tracking cookies the owner turns off (§9 'Tracking (analytics)'): group names of core/domain/tracking/consent.ts, or "all". */
    disabledCookies: [] as string[],
  },
  /**
   * Settings › E-mails (decision 0032): the sender (empty: MAIL_FROM's name or address) and the e-mails that may be
   * turned off (core/domain/mail/email-kinds.ts). Read by the outbox sender before every send.
   */
  emails: {
    fromName: "" as string,
    fromAddress: "" as string,
    orderReceived: true as boolean,
    orderFailed: true as boolean,
    orderRefunded: true as boolean,
    orderNote: true as boolean,
    contactMessage: true as boolean,
  },
  /**
   * The sticky header (docs/contract/sticky-quick-view.md, spec §9 'Layout'): a mode per device (desktop above
   * layout.breakPoint, mobile at or below it). 'none' is the spec's configuration; each other mode may be set
   * through SHOP_SETTINGS. The header engages once the page has scrolled past its own height.
   */
  stickyHeader: {
    desktop: "none" as "none" | "slide" | "fade" | "hide-on-scroll" | "shrink",
    mobile: "none" as "none" | "slide" | "fade" | "hide-on-scroll" | "shrink",
    /** hide-on-scroll: a scroll smaller than this many px neither hides nor shows the header. */
    scrollDelta: 5 as number,
    /** Threshold and mode are measured again this long after the last resize (§9 'Timings'). */
    reevaluateMs: 300 as number,
  },
  /** Marketing popups (docs/contract/storefront.md §3 'Popup settings', §9 'Popups'); the popups themselves are rows (migration 0016). */
  popups: {
    /** The shop's timezone (IANA name): popup schedules' start and end are wall-clock times here. */
    timezone: "UTC" as string,
    /** §9 'Timings': focus moves into an opened popup after this delay. */
    focusDelayMs: 250 as number,
    /** §9 'Timings': "100 ms otherwise" — an off-canvas panel opened by a link action. */
    offCanvasFocusDelayMs: 100 as number,
  },
  /**
   * Shopper-action tracking in the browser (docs/contract/storefront.md §9 'Tracking (analytics)'): destinations by
   * id (empty = off; nothing third-party loads unless configured AND consented), engagement thresholds, and the
   * events sent. The demo: only the page's own dataLayer, so events show in `window.dataLayer` after consent.
   */
  tracking: {
    dataLayer: true as boolean,
    dataLayerName: "dataLayer" as string,
    gtmContainerId: "" as string,
    ga4MeasurementId: "" as string,
    /** Ad pixel ids by network. */
    pixels: { facebook: [] as string[] },
    /** Each event's server-side copy to pys/v1/event (docs/contract/wire.md §6.1). */
    serverEvents: true as boolean,
    scrollPercent: 50 as number,
    timeOnPageSeconds: 30 as number,
    events: [...TRACKING_EVENTS] as string[],
  },
  /**
   * The header's search icon (docs/contract/search-overlay.md): 'header-cover' (a bar over the header) or
   * 'full-screen'; the field takes focus `focusDelayMs` after opening (§9 'Timings'; the fade is timings.searchOverlayFadeMs).
   * Results as you type ask the suggest endpoint `debounceMs` after the last keystroke, from `minChars` characters.
   */
  searchOverlay: {
    boxType: "header-cover" as "header-cover" | "full-screen",
    focusDelayMs: 200 as number,
    debounceMs: 200 as number,
    minChars: 2 as number,
    suggestLimit: 8 as number,
  },
  sports: { sport: "football", defaultLang: "en" },
  limits: { requestBodyBytes: 1_000_000, websocketFrameBytes: 65_536 },
} as const;

export type SiteConfig = typeof SITE_CONFIG;
