/**
 * Zod schemas for the engine's stored data (rules, coupons, shipping methods), for the admin and the
 * database boundary: what an admin saves or a migration seeds is parsed here before the engine sees it.
 * The types in `types.ts` stay the source of truth; the assignments at the bottom make the compiler
 * check that whatever a schema accepts is a valid value of that type.
 */
import { z } from "zod";
import type { Coupon, DiscountRule, RuleAction, RuleActionKind, ShippingMethod } from "./types.ts";

const cents = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const count = z.number().int().min(0);
const id = z.number().int().min(0);
const isoInstant = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "not a date-time");
const percent = z.number().min(0).max(100);

const lineFilterSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("products"), productIds: z.array(id), exclude: z.boolean().optional() }),
  z.object({ type: z.literal("variations"), variationIds: z.array(id), exclude: z.boolean().optional() }),
  z.object({
    type: z.literal("categories"),
    categorySlugs: z.array(z.string().min(1)).optional(),
    categoryIds: z.array(id).optional(),
    exclude: z.boolean().optional(),
  }),
  z.object({ type: z.literal("on_sale"), onSale: z.boolean() }),
]);

const ruleConditionSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("cart_subtotal"), min: cents.optional(), max: cents.optional() }),
  z.object({ type: z.literal("cart_quantity"), min: count.optional(), max: count.optional() }),
  z.object({ type: z.literal("matched_quantity"), min: count.optional(), max: count.optional() }),
  z.object({ type: z.literal("customer_logged_in"), loggedIn: z.boolean() }),
  z.object({ type: z.literal("usage_limit"), max: count }),
  z.object({ type: z.literal("usage_limit_per_customer"), max: count }),
]);

const bulkTierSchema = z
  .object({
    min: z.number().int().min(1),
    max: z.number().int().min(1).optional(),
    type: z.enum(["fixed_unit_price", "fixed_total", "percent", "fixed_per_unit"]),
    value: z.number().min(0),
    label: z.string().optional(),
  })
  .refine((t) => t.max === undefined || t.max >= t.min, { message: "max must be at least min", path: ["max"] })
  .refine((t) => (t.type === "percent" ? t.value <= 100 : Number.isSafeInteger(t.value)), {
    message: "percent 0–100, amounts in whole cents",
    path: ["value"],
  });

/** The typed arguments of each rule kind (rule-kinds/), keyed by its code. */
export const ruleKindArgsSchemas = {
  bulk: z.object({
    kind: z.literal("bulk"),
    countBy: z.enum(["product", "variation", "matched", "cart"]),
    tiers: z.array(bulkTierSchema).min(1),
  }),
  product_percent: z.object({ kind: z.literal("product_percent"), percent }),
  product_fixed: z.object({ kind: z.literal("product_fixed"), amountPerUnit: cents }),
  cart_percent: z.object({ kind: z.literal("cart_percent"), percent, maxDiscount: cents.optional() }),
  cart_fixed: z.object({ kind: z.literal("cart_fixed"), amount: cents }),
  free_shipping: z.object({ kind: z.literal("free_shipping") }),
  buy_x_get_y: z.object({
    kind: z.literal("buy_x_get_y"),
    buyQuantity: z.number().int().min(1),
    getProductId: id,
    choosableProductIds: z.array(id),
    defaultProductId: id.optional(),
    getQuantity: z.number().int().min(1),
    recursive: z.boolean(),
    discountPercent: percent,
  }),
} satisfies { [K in RuleActionKind]: z.ZodType<Extract<RuleAction, { kind: K }>> };

const ruleActionSchema = z.discriminatedUnion(
  "kind",
  Object.values(ruleKindArgsSchemas) as [(typeof ruleKindArgsSchemas)[RuleActionKind], ...(typeof ruleKindArgsSchemas)[RuleActionKind][]],
);

export const discountRuleSchema = z.object({
  code: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, "a lower-case slug"),
  title: z.string().min(1),
  priority: z.number().int(),
  enabled: z.boolean(),
  schedule: z.object({ from: isoInstant.optional(), to: isoInstant.optional() }).optional(),
  filters: z.array(lineFilterSchema),
  conditions: z.array(ruleConditionSchema),
  action: ruleActionSchema,
  stacking: z.enum(["exclusive", "combinable"]),
});

export const couponSchema = z
  .object({
    code: z.string().trim().min(1),
    kind: z.enum(["percent", "fixed_cart", "fixed_product"]),
    amount: z.number().min(0),
    expiresAt: isoInstant.optional(),
    usageLimit: count.optional(),
    usageLimitPerCustomer: count.optional(),
    minimumSpend: cents.optional(),
    maximumSpend: cents.optional(),
    individualUse: z.boolean().optional(),
    productIds: z.array(id).optional(),
    excludedProductIds: z.array(id).optional(),
    categorySlugs: z.array(z.string()).optional(),
    excludedCategorySlugs: z.array(z.string()).optional(),
    categoryIds: z.array(id).optional(),
    excludedCategoryIds: z.array(id).optional(),
    excludeSaleItems: z.boolean().optional(),
    freeShipping: z.boolean().optional(),
  })
  .refine((c) => (c.kind === "percent" ? c.amount <= 100 : Number.isSafeInteger(c.amount)), "percent 0–100, amounts in whole cents");

export const shippingMethodSchema = z.object({
  id: z.string().regex(/^[a-z_]+:[A-Za-z0-9_-]+$/, "method:instance"),
  kind: z.enum(["flat_rate", "free_shipping", "local_pickup"]),
  title: z.string().min(1),
  cost: cents.optional(),
  costPerItem: cents.optional(),
  requires: z.enum(["none", "grant", "min_amount", "either", "both"]).optional(),
  minAmount: cents.optional(),
  ignoreCouponDiscounts: z.boolean().optional(),
});

/** Parses a list of rules and refuses duplicate codes (codes are identities). */
export const discountRulesSchema = z.array(discountRuleSchema).refine((rs) => new Set(rs.map((r) => r.code)).size === rs.length, "rule codes must be unique");

// Compile-time: anything the schemas accept is a valid engine value.
type Accepts<T, S extends z.ZodType> = z.infer<S> extends T ? true : never;
const _SCHEMAS_MATCH_TYPES: [
  Accepts<DiscountRule, typeof discountRuleSchema>,
  Accepts<Coupon, typeof couponSchema>,
  Accepts<ShippingMethod, typeof shippingMethodSchema>,
] = [true, true, true];
