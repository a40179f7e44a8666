/**
 * Coupon validation: one pure function, WooCommerce's checks in WooCommerce's order, each refusal with
 * WooCommerce's wording. Amounts are not computed here (see `engine.ts`).
 */
import { formatMoney, type Cents, type CurrencyFormat, DEFAULT_CURRENCY_FORMAT } from "../money/money.ts";
import { isOnSale, effectiveProductId } from "./rules.ts";
import type { CartLineInput, Coupon, CouponRefusalReason, UsageCount } from "./types.ts";

export interface CouponContext {
  /** Coupon definitions known to the shop (at least the one asked for and the applied ones). */
  coupons: readonly Coupon[];
  /** Codes already accepted on this cart, in order. */
  appliedCodes: readonly string[];
  /** Paying lines (free items excluded). */
  lines: readonly CartLineInput[];
  /** What the items cost before coupons (after discount rules) — compared with minimum/maximum spend. */
  spend: Cents;
  usage?: UsageCount;
  now: Date;
  currencyFormat?: CurrencyFormat;
}

export type CouponValidation =
  | {
      ok: true;
      coupon: Coupon;
      /** Lines the coupon's discount may go to. */
      eligibleLineKeys: string[];
      /** Already-applied coupons this (individual-use) coupon removes. */
      replacesCodes: string[];
    }
  | { ok: false; code: string; reason: CouponRefusalReason; message: string };

export function normalizeCouponCode(code: string): string {
  return code.trim().toLowerCase();
}

export function findCoupon(coupons: readonly Coupon[], code: string): Coupon | undefined {
  const wanted = normalizeCouponCode(code);
  return coupons.find((c) => normalizeCouponCode(c.code) === wanted);
}

/** Product-type coupons (percent, fixed product) discount eligible items only, as in WooCommerce. */
export function isProductCoupon(coupon: Coupon): boolean {
  return coupon.kind === "percent" || coupon.kind === "fixed_product";
}

const hasAny = <T>(wanted: readonly T[] | undefined, got: readonly T[] | undefined): boolean => (wanted ?? []).some((w) => (got ?? []).includes(w));

function inProducts(coupon: Coupon, line: CartLineInput): boolean {
  const ids = coupon.productIds ?? [];
  return ids.length === 0 || ids.includes(line.productId) || ids.includes(effectiveProductId(line));
}

function inCategories(coupon: Coupon, line: CartLineInput): boolean {
  const restricted = (coupon.categorySlugs?.length ?? 0) + (coupon.categoryIds?.length ?? 0) > 0;
  return !restricted || hasAny(coupon.categorySlugs, line.categorySlugs) || hasAny(coupon.categoryIds, line.categoryIds);
}

function productExcluded(coupon: Coupon, line: CartLineInput): boolean {
  const ids = coupon.excludedProductIds ?? [];
  return ids.includes(line.productId) || ids.includes(effectiveProductId(line));
}

function categoryExcluded(coupon: Coupon, line: CartLineInput): boolean {
  return hasAny(coupon.excludedCategorySlugs, line.categorySlugs) || hasAny(coupon.excludedCategoryIds, line.categoryIds);
}

/** Whether a line may receive this coupon's discount (WooCommerce's `is_valid_for_product`). */
export function couponAppliesToLine(coupon: Coupon, line: CartLineInput): boolean {
  if (line.freeItem || line.quantity <= 0) return false;
  if (!isProductCoupon(coupon)) {
    // A cart coupon spreads over every paying item; sale items are still skipped when asked.
    return !(coupon.excludeSaleItems && isOnSale(line));
  }
  return (
    inProducts(coupon, line) &&
    inCategories(coupon, line) &&
    !productExcluded(coupon, line) &&
    !categoryExcluded(coupon, line) &&
    !(coupon.excludeSaleItems && isOnSale(line))
  );
}

export const COUPON_MESSAGES = {
  empty_code: () => "Please enter a coupon code.",
  not_found: (code: string) => `Coupon "${code}" does not exist!`,
  already_applied: () => "Coupon code already applied!",
  individual_use_only: (blocking: string) => `Sorry, coupon "${blocking}" has already been applied and cannot be used in conjunction with other coupons.`,
  invalid_amount: () => "Coupon is not valid.",
  expired: () => "This coupon has expired.",
  usage_limit_reached: () => "Coupon usage limit has been reached.",
  usage_limit_per_customer_reached: () => "Coupon usage limit has been reached.",
  minimum_spend: (amount: string) => `The minimum spend for this coupon is ${amount}.`,
  maximum_spend: (amount: string) => `The maximum spend for this coupon is ${amount}.`,
  not_applicable_to_products: () => "Sorry, this coupon is not applicable to selected products.",
  excluded_products: (names: string) => `Sorry, this coupon is not applicable to the products: ${names}.`,
  excluded_categories: (names: string) => `Sorry, this coupon is not applicable to the categories: ${names}.`,
  sale_items: () => "Sorry, this coupon is not valid for sale items.",
} as const satisfies Record<CouponRefusalReason, (...args: string[]) => string>;

/** Checks a coupon code against the cart. Pure; the usage counts and `now` are inputs. */
export function validateCoupon(rawCode: string, ctx: CouponContext): CouponValidation {
  const format = ctx.currencyFormat ?? DEFAULT_CURRENCY_FORMAT;
  const code = rawCode.trim();
  const refuse = (reason: CouponRefusalReason, message: string): CouponValidation => ({ ok: false, code, reason, message });

  if (code === "") return refuse("empty_code", COUPON_MESSAGES.empty_code());
  const coupon = findCoupon(ctx.coupons, code);
  if (!coupon) return refuse("not_found", COUPON_MESSAGES.not_found(code));

  const applied = ctx.appliedCodes.map(normalizeCouponCode);
  if (applied.includes(normalizeCouponCode(coupon.code))) return refuse("already_applied", COUPON_MESSAGES.already_applied());
  const blocking = ctx.appliedCodes.find((c) => findCoupon(ctx.coupons, c)?.individualUse);
  if (blocking !== undefined) return refuse("individual_use_only", COUPON_MESSAGES.individual_use_only(blocking));

  const amountOk =
    Number.isFinite(coupon.amount) &&
    coupon.amount >= 0 &&
    (coupon.kind === "percent" ? coupon.amount <= 100 : Number.isSafeInteger(coupon.amount)) &&
    (coupon.amount > 0 || coupon.freeShipping === true);
  if (!amountOk) return refuse("invalid_amount", COUPON_MESSAGES.invalid_amount());

  const usage = ctx.usage ?? { total: 0, byCustomer: 0 };
  if (coupon.usageLimit !== undefined && usage.total >= coupon.usageLimit) return refuse("usage_limit_reached", COUPON_MESSAGES.usage_limit_reached());
  if (coupon.usageLimitPerCustomer !== undefined && usage.byCustomer >= coupon.usageLimitPerCustomer)
    return refuse("usage_limit_per_customer_reached", COUPON_MESSAGES.usage_limit_per_customer_reached());

  if (coupon.expiresAt !== undefined) {
    const expires = Date.parse(coupon.expiresAt);
    if (Number.isNaN(expires) || ctx.now.getTime() >= expires) return refuse("expired", COUPON_MESSAGES.expired());
  }

  if (coupon.minimumSpend !== undefined && coupon.minimumSpend > 0 && ctx.spend < coupon.minimumSpend)
    return refuse("minimum_spend", COUPON_MESSAGES.minimum_spend(formatMoney(coupon.minimumSpend, format)));
  if (coupon.maximumSpend !== undefined && coupon.maximumSpend > 0 && ctx.spend > coupon.maximumSpend)
    return refuse("maximum_spend", COUPON_MESSAGES.maximum_spend(formatMoney(coupon.maximumSpend, format)));

  const lines = ctx.lines.filter((l) => !l.freeItem && l.quantity > 0);
  if (isProductCoupon(coupon)) {
    const eligible = lines.filter((l) => couponAppliesToLine(coupon, l));
    if (eligible.length === 0) {
      if (coupon.excludeSaleItems && lines.length > 0 && lines.every((l) => isOnSale(l))) return refuse("sale_items", COUPON_MESSAGES.sale_items());
      return refuse("not_applicable_to_products", COUPON_MESSAGES.not_applicable_to_products());
    }
    return ok(coupon, eligible, ctx);
  }

  // Cart coupons: the cart must hold an included item, and no excluded one (WooCommerce's cart checks).
  const restrictsProducts = (coupon.productIds?.length ?? 0) > 0;
  const restrictsCategories = (coupon.categorySlugs?.length ?? 0) + (coupon.categoryIds?.length ?? 0) > 0;
  if (restrictsProducts && !lines.some((l) => inProducts(coupon, l))) return refuse("not_applicable_to_products", COUPON_MESSAGES.not_applicable_to_products());
  if (restrictsCategories && !lines.some((l) => inCategories(coupon, l)))
    return refuse("not_applicable_to_products", COUPON_MESSAGES.not_applicable_to_products());
  const excluded = lines.filter((l) => productExcluded(coupon, l));
  if (excluded.length > 0)
    return refuse("excluded_products", COUPON_MESSAGES.excluded_products(excluded.map((l) => l.name ?? `#${effectiveProductId(l)}`).join(", ")));
  const excludedCats = [
    ...new Set(
      lines.flatMap((l) => [
        ...(l.categorySlugs ?? []).filter((s) => coupon.excludedCategorySlugs?.includes(s)),
        ...(l.categoryIds ?? []).filter((id) => coupon.excludedCategoryIds?.includes(id)).map((id) => `#${id}`),
      ]),
    ),
  ];
  if (excludedCats.length > 0) return refuse("excluded_categories", COUPON_MESSAGES.excluded_categories(excludedCats.join(", ")));
  if (coupon.excludeSaleItems && lines.some((l) => isOnSale(l))) return refuse("sale_items", COUPON_MESSAGES.sale_items());
  return ok(
    coupon,
    lines.filter((l) => couponAppliesToLine(coupon, l)),
    ctx,
  );
}

function ok(coupon: Coupon, eligible: readonly CartLineInput[], ctx: CouponContext): CouponValidation {
  return {
    ok: true,
    coupon,
    eligibleLineKeys: eligible.map((l) => l.key),
    replacesCodes: coupon.individualUse ? [...ctx.appliedCodes] : [],
  };
}
