/** The pricing and discount engine: pure functions over rules, coupons and cart lines (integer cents). */
export type * from "./types.ts";
export { evaluateCart } from "./engine.ts";
export { validateCoupon, normalizeCouponCode } from "./coupons.ts";
export { validateFreeItemChange } from "./free-items.ts";
export { MASK_PROMOTION_RULES, MASK_CATEGORY_SLUG } from "./mask-promotion.ts";
export { priceProduct, priceHtmlResponse, bulkTableModel, bulkTableHtml, productDiscountDetail, type ProductForPricing } from "./display.ts";
export { discountRuleSchema, couponSchema, shippingMethodSchema } from "./schema.ts";
