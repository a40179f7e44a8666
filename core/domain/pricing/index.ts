/** The pricing and discount engine: pure functions over rules, coupons and cart lines (integer cents). */
export type * from "./types.ts";
export { evaluateCart, priceCartLines, computeCartTotals, type LinePricing } from "./engine.ts";
export { decideRules, type DecideInput, type DecideResult, type RuleDecision, type BulkGroupDecision } from "./decide.ts";
export {
  RULE_KINDS,
  ruleKindOf,
  type RuleKind,
  type ActionOf,
  type ApplyPhase,
  type RuleCheck,
  type RuleCheckContext,
  type RuleApplyContext,
} from "./rule-kinds/index.ts";
export {
  ruleIsActive,
  sortRules,
  lineMatchesFilter,
  lineMatchesFilters,
  conditionHolds,
  tierForQuantity,
  nextTierAbove,
  tierLabel,
  tierRangeLabel,
  tierDiscounts,
  baseUnitPrice,
  isOnSale,
  effectiveProductId,
  freeItemUniqueId,
  type ConditionContext,
  type GroupMember,
} from "./rules.ts";
export {
  validateCoupon,
  findCoupon,
  normalizeCouponCode,
  couponAppliesToLine,
  isProductCoupon,
  COUPON_MESSAGES,
  type CouponContext,
  type CouponValidation,
} from "./coupons.ts";
export { computeShipping, FREE_SHIPPING_PROMOTION_RATE_ID, type ShippingInput } from "./shipping.ts";
export { validateFreeItemChange, type FreeItemChange, type FreeItemChangeRequest } from "./free-items.ts";
export { MASK_PROMOTION_RULES, MASK_CATEGORY_SLUG } from "./mask-promotion.ts";
export {
  priceProduct,
  priceHtmlResponse,
  priceAmountHtml,
  exactCurrencyFormat,
  salePriceHtml,
  productPriceHtml,
  bulkTableModel,
  bulkTableHtml,
  productDiscountDetail,
  saleBadgeMap,
  renderSaleBadge,
  escapeHtml,
  type ProductForPricing,
  type ProductPriceInput,
  type ProductPrice,
  type PriceHtmlResponse,
  type UpdatePriceWithQtyMode,
  type BulkTableRow,
  type BulkTableInput,
  type ProductDiscountDetail,
  type SaleBadgeInput,
  type SaleBadgeMap,
} from "./display.ts";
export { discountRuleSchema, discountRulesSchema, couponSchema, shippingMethodSchema } from "./schema.ts";
