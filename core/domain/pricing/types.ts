/**
 * The data model of the pricing engine. Everything here is plain, serialisable data: rules and coupons
 * are stored as JSON by the admin, lines come from the cart, and results go to the UI and the server's
 * wire responses. Money is always integer cents (`Cents`); quantities are non-negative integers.
 */
import type { Cents, CurrencyFormat } from "../money/money.ts";

// ---------------------------------------------------------------------------------------------------
// Cart lines (input)
// ---------------------------------------------------------------------------------------------------

export interface CartLineInput {
  /** The cart item key; unique within the cart. */
  key: string;
  /** The product id (for a variation: its parent product id). */
  productId: number;
  /** The variation's own product id, when the line is a variation. Absent or 0 = a simple product. */
  variationId?: number;
  /** Shown in coupon refusals ("not applicable to the products: …"). */
  name?: string;
  categoryIds?: readonly number[];
  categorySlugs?: readonly string[];
  quantity: number;
  regularUnitPrice: Cents;
  /** The product's own sale price; used instead of the regular price when it is lower. */
  saleUnitPrice?: Cents;
  /** False for virtual/downloadable products. Defaults to true. */
  needsShipping?: boolean;
  /** Set on a line that was added to the cart as the free item of a buy-X-get-Y rule. */
  freeItem?: { ruleUniqueId: string };
}

// ---------------------------------------------------------------------------------------------------
// Rules (data)
// ---------------------------------------------------------------------------------------------------

/** Which lines a rule acts on. A line is in scope when every filter matches; no filters = every line. */
export type LineFilter =
  /** Matches the line's product id or its variation id. */
  | { type: "products"; productIds: readonly number[]; exclude?: boolean }
  | { type: "variations"; variationIds: readonly number[]; exclude?: boolean }
  /** Matches when the line has any of the slugs or any of the ids. */
  | { type: "categories"; categorySlugs?: readonly string[]; categoryIds?: readonly number[]; exclude?: boolean }
  | { type: "on_sale"; onSale: boolean };

/** Whether a rule applies at all. Every condition must hold. Bounds are inclusive. */
export type RuleCondition =
  /** Sum of the cart's line subtotals (before any rule or coupon), free items excluded. */
  | { type: "cart_subtotal"; min?: Cents; max?: Cents }
  /** Total quantity of the cart, free items excluded. */
  | { type: "cart_quantity"; min?: number; max?: number }
  /** Total quantity of the lines this rule's filters select. */
  | { type: "matched_quantity"; min?: number; max?: number }
  | { type: "customer_logged_in"; loggedIn: boolean }
  /** The rule stops applying once it has been used `max` times in placed orders (count given in the input). */
  | { type: "usage_limit"; max: number }
  | { type: "usage_limit_per_customer"; max: number };

/** What quantity a bulk rule counts to pick its tier. */
export type BulkCountBy =
  /** Each product separately (the variations of a variable product are counted together). */
  | "product"
  /** Each variation (or simple product) separately. */
  | "variation"
  /** All lines selected by the filters together — with a category filter: the whole category. */
  | "matched"
  /** The whole cart's quantity (free items excluded); the discount still only goes to matched lines. */
  | "cart";

export type BulkTierType =
  /** Every unit of the group costs `value` cents (never raises a lower price). */
  | "fixed_unit_price"
  /** The whole counted group costs `value` cents (meant for exact-quantity sets, e.g. min = max = 3). */
  | "fixed_total"
  /** `value` percent off. */
  | "percent"
  /** `value` cents off each unit. */
  | "fixed_per_unit";

export interface BulkTier {
  /** Inclusive. */
  min: number;
  /** Inclusive; absent = no upper bound. */
  max?: number;
  type: BulkTierType;
  value: number;
  /** Shown in the bulk table and in nudges, e.g. "12 masks for $24". Generated when absent. */
  label?: string;
}

export interface BuyXGetYAction {
  kind: "buy_x_get_y";
  /** Quantity of matched (non-free) items that earns the free item. */
  buyQuantity: number;
  /** The product given (the parent product for a variable product). */
  getProductId: number;
  /** Product ids the shopper may choose among (variation ids); empty = only `getProductId` itself. */
  choosableProductIds: readonly number[];
  /** Which one is added by default; defaults to the first choosable id. */
  defaultProductId?: number;
  getQuantity: number;
  /** When true, every `buyQuantity` earns another `getQuantity`; otherwise at most once. */
  recursive: boolean;
  /** Percent off the free item; 100 = free. */
  discountPercent: number;
}

export type RuleAction =
  | { kind: "bulk"; countBy: BulkCountBy; tiers: readonly BulkTier[] }
  | { kind: "product_percent"; percent: number }
  /** Cents off each unit. */
  | { kind: "product_fixed"; amountPerUnit: Cents }
  /** Percent off the matched lines' total, shown as a cart discount. */
  | { kind: "cart_percent"; percent: number; maxDiscount?: Cents }
  /** Cents off the matched lines' total, shown as a cart discount. */
  | { kind: "cart_fixed"; amount: Cents }
  | { kind: "free_shipping" }
  | BuyXGetYAction;

export type RuleActionKind = RuleAction["kind"];

/**
 * `exclusive`: when the rule applies, no lower-priority rule applies (to anything in the cart).
 * `combinable`: lower-priority rules are still considered.
 */
export type StackingPolicy = "exclusive" | "combinable";

export interface DiscountRule {
  /** Stable identifier (a slug); appears in results, in `rule_unique_id` and in usage counts. */
  code: string;
  title: string;
  /** Lower number = considered first (1 is the highest priority). Ties are broken by `code`. */
  priority: number;
  enabled: boolean;
  /** ISO 8601 instants; active when from <= now < to. An unparsable bound makes the rule inactive. */
  schedule?: { from?: string; to?: string };
  filters: readonly LineFilter[];
  conditions: readonly RuleCondition[];
  action: RuleAction;
  stacking: StackingPolicy;
}

// ---------------------------------------------------------------------------------------------------
// Coupons (data)
// ---------------------------------------------------------------------------------------------------

export type CouponKind = "percent" | "fixed_cart" | "fixed_product";

export interface Coupon {
  /** Matched case-insensitively, like WooCommerce (which lower-cases codes). */
  code: string;
  kind: CouponKind;
  /** Percent (0–100) for `percent`; cents for the fixed kinds (per unit for `fixed_product`). */
  amount: number;
  /** ISO 8601 instant; the coupon is expired when now >= expiresAt. */
  expiresAt?: string;
  usageLimit?: number;
  usageLimitPerCustomer?: number;
  minimumSpend?: Cents;
  maximumSpend?: Cents;
  individualUse?: boolean;
  productIds?: readonly number[];
  excludedProductIds?: readonly number[];
  categorySlugs?: readonly string[];
  excludedCategorySlugs?: readonly string[];
  categoryIds?: readonly number[];
  excludedCategoryIds?: readonly number[];
  excludeSaleItems?: boolean;
  freeShipping?: boolean;
}

export interface UsageCount {
  /** Times used in placed orders overall. */
  total: number;
  /** Times used by the current customer. */
  byCustomer: number;
}

// ---------------------------------------------------------------------------------------------------
// Shipping (data)
// ---------------------------------------------------------------------------------------------------

export type ShippingMethodKind = "flat_rate" | "free_shipping" | "local_pickup";

export interface ShippingMethod {
  /** WooCommerce rate id: `method:instance`, e.g. `flat_rate:1`. */
  id: string;
  kind: ShippingMethodKind;
  title: string;
  /** Per order, cents. Ignored for free shipping. */
  cost?: Cents;
  /** Per shipped unit, cents (flat rate only). */
  costPerItem?: Cents;
  /**
   * Free shipping only, like WooCommerce's "requires": `none` — always available; `grant` — a rule or
   * coupon grants free shipping; `min_amount` — the items total reaches `minAmount`; `either`; `both`.
   */
  requires?: "none" | "grant" | "min_amount" | "either" | "both";
  minAmount?: Cents;
  /** Compare `minAmount` with the total before coupon discounts (rule discounts always count). */
  ignoreCouponDiscounts?: boolean;
}

// ---------------------------------------------------------------------------------------------------
// Evaluation input and result
// ---------------------------------------------------------------------------------------------------

export interface CustomerContext {
  loggedIn: boolean;
}

export interface CartInput {
  lines: readonly CartLineInput[];
  rules: readonly DiscountRule[];
  /** Coupon definitions the server found (at least those of `appliedCoupons`). */
  coupons?: readonly Coupon[];
  /** Codes in the order the shopper applied them. */
  appliedCoupons?: readonly string[];
  couponUsage?: Readonly<Record<string, UsageCount>>;
  ruleUsage?: Readonly<Record<string, UsageCount>>;
  customer?: CustomerContext;
  shippingMethods?: readonly ShippingMethod[];
  chosenShippingMethodId?: string;
  now: Date;
  /** Used only to word messages (nudges, warnings, coupon refusals). */
  currencyFormat?: CurrencyFormat;
}

export type DiscountSource = "rule" | "coupon";

export interface LineDiscount {
  source: DiscountSource;
  /** Rule code or coupon code. */
  code: string;
  title: string;
  /** `product`: changes the shown unit price; `cart`: a cart-level discount allocated onto the line. */
  level: "product" | "cart";
  amount: Cents;
}

export interface PricedLine {
  key: string;
  productId: number;
  variationId?: number;
  quantity: number;
  regularUnitPrice: Cents;
  /** The sale price if lower than the regular price, else the regular price. */
  baseUnitPrice: Cents;
  /** regularUnitPrice × quantity: the struck-through amount. */
  regularSubtotal: Cents;
  /** baseUnitPrice × quantity: the line before any discount. */
  subtotal: Cents;
  productDiscount: Cents;
  /** subtotal − productDiscount: what the price column shows for the whole line. */
  discountedSubtotal: Cents;
  /** discountedSubtotal / quantity, rounded; for display only (the line amounts are exact). */
  unitPrice: Cents;
  cartDiscount: Cents;
  discounts: LineDiscount[];
  /** subtotal − every discount; never negative. */
  total: Cents;
  /** Whether any product-level rule changed this line. */
  matchedRule: boolean;
  freeItem?: { ruleUniqueId: string };
}

export interface AppliedRule {
  code: string;
  title: string;
  kind: RuleActionKind;
  /** Total discount in cents this rule gave (0 for free shipping and free items, see `freeItems`). */
  discount: Cents;
  lineKeys: string[];
  /** For bulk rules: the tier chosen per group key. */
  tiers?: { groupKey: string; quantity: number; tierIndex: number }[];
}

export interface CartLevelDiscount {
  source: DiscountSource;
  code: string;
  title: string;
  amount: Cents;
  allocations: { lineKey: string; amount: Cents }[];
}

export interface AppliedCoupon {
  code: string;
  kind: CouponKind;
  discount: Cents;
  freeShipping: boolean;
}

export interface CouponRefusal {
  code: string;
  reason: CouponRefusalReason;
  message: string;
}

export type CouponRefusalReason =
  | "empty_code"
  | "not_found"
  | "already_applied"
  | "individual_use_only"
  | "invalid_amount"
  | "expired"
  | "usage_limit_reached"
  | "usage_limit_per_customer_reached"
  | "minimum_spend"
  | "maximum_spend"
  | "not_applicable_to_products"
  | "excluded_products"
  | "excluded_categories"
  | "sale_items";

export interface ShippingRate {
  id: string;
  kind: ShippingMethodKind;
  label: string;
  cost: Cents;
}

export interface ShippingResult {
  needsShipping: boolean;
  rates: ShippingRate[];
  chosenRateId: string | null;
  total: Cents;
  /** Who granted free shipping (rule codes and coupon codes). */
  freeShippingGrantedBy: { source: DiscountSource; code: string }[];
}

export interface FreeItemGrant {
  ruleCode: string;
  ruleTitle: string;
  /** `${ruleCode}:${parentProductId}` — what the cart's "change product" request sends as rule_unique_id. */
  ruleUniqueId: string;
  parentProductId: number;
  choosableProductIds: number[];
  defaultProductId: number;
  quantity: number;
  discountPercent: number;
}

export interface FreeItemsResult {
  grants: FreeItemGrant[];
  /** Free items the cart should gain (missing or short quantity). */
  toAdd: { ruleUniqueId: string; parentProductId: number; productId: number; quantity: number }[];
  /** Free-item lines whose grant is gone, whose product is not allowed, or that hold too many. */
  toRemove: { lineKey: string; ruleUniqueId: string; quantity: number }[];
}

export interface TierNudge {
  kind: "next_tier" | "free_item";
  ruleCode: string;
  ruleTitle: string;
  groupKey: string;
  currentQuantity: number;
  addQuantity: number;
  targetQuantity: number;
  /** The tier label, e.g. "12 masks for $24", or the free item's description. */
  targetLabel: string;
  /** What the group would cost at the target quantity (bulk only; an estimate for non-fixed tiers). */
  targetTotal?: Cents;
  currentTotal?: Cents;
  /** A ready English sentence, e.g. "Add 1 more to get 12 masks for $24". */
  message: string;
}

export interface PricingWarning {
  kind: "pays_more_than_next_tier";
  ruleCode: string;
  groupKey: string;
  currentQuantity: number;
  currentTotal: Cents;
  nextTierQuantity: number;
  nextTierTotal: Cents;
  /** currentTotal − nextTierTotal (> 0). */
  overpay: Cents;
  message: string;
}

export interface CartTotals {
  regularSubtotal: Cents;
  /** Sum of line subtotals (sale prices), before any discount. */
  subtotal: Cents;
  productDiscount: Cents;
  /** Cart-level rule discounts. */
  cartRuleDiscount: Cents;
  couponDiscount: Cents;
  discountTotal: Cents;
  /** Sum of line totals. */
  itemsTotal: Cents;
  shipping: Cents;
  /** itemsTotal + shipping. */
  grandTotal: Cents;
}

export interface CartResult {
  lines: PricedLine[];
  appliedRules: AppliedRule[];
  cartDiscounts: CartLevelDiscount[];
  coupons: { applied: AppliedCoupon[]; refused: CouponRefusal[] };
  shipping: ShippingResult;
  freeItems: FreeItemsResult;
  nudges: TierNudge[];
  warnings: PricingWarning[];
  totals: CartTotals;
}
