/**
 * The pure parts of the discount add-on's admin-ajax answers (docs/contract/storefront.md §7 "Discount pricing"):
 *  (a) `priceProduct` + `priceHtmlResponse`   — wdr_ajax / get_price_html → price_html | original_price_html
 *  (b) `bulkTableModel` + `bulkTableHtml`     — wdr_ajax / get_variable_product_bulk_table → bulk_table
 *  (c) `productDiscountDetail`                — awdr_get_product_discount (shape documented in README.md)
 *  (d) `saleBadgeMap` + `renderSaleBadge`     — the 'sale-percentage' badge of a variable product
 * Every price here comes from `priceCartLines`, the same function that prices the cart.
 */
import { formatMoney, roundCents, type Cents, type CurrencyFormat, DEFAULT_CURRENCY_FORMAT } from "../money/money.ts";
import { priceCartLines } from "./engine.ts";
import { baseUnitPrice, conditionHolds, lineMatchesFilters, ruleIsActive, sortRules, tierDiscounts, tierLabel, tierRangeLabel } from "./rules.ts";
import type { CartLineInput, CustomerContext, DiscountRule, UsageCount } from "./types.ts";
import { escapeHtml } from "../text/html.ts";

/** The product as the pricing helpers need it (for a variation: the variation's own prices). */
export interface ProductForPricing {
  productId: number;
  variationId?: number;
  name?: string;
  categoryIds?: readonly number[];
  categorySlugs?: readonly string[];
  regularUnitPrice: Cents;
  saleUnitPrice?: Cents;
}

export interface ProductPriceInput {
  product: ProductForPricing;
  /** The quantity field's value; below 1 (spec: 0 when there is no quantity input) prices one unit. */
  quantity: number;
  rules: readonly DiscountRule[];
  now: Date;
  customer?: CustomerContext;
  ruleUsage?: Readonly<Record<string, UsageCount>>;
  /**
   * The shopper's cart. The product is priced as `quantity` more added to it, so tiers counted over a
   * category or the whole cart include what is already there. Defaults to an empty cart.
   */
  cartLines?: readonly CartLineInput[];
}

export interface ProductPrice {
  productId: number;
  variationId?: number;
  quantity: number;
  regularUnitPrice: Cents;
  /** Sale price when on sale, else regular: the price discounts start from ("initial price"). */
  baseUnitPrice: Cents;
  /** After product-level rules; rounded for display when a group price does not divide evenly. */
  unitPrice: Cents;
  /** baseUnitPrice × quantity. */
  subtotal: Cents;
  /** After product-level rules: exactly what the cart would charge for these units before cart discounts. */
  lineTotal: Cents;
  totalDiscount: Cents;
  /** Whether any rule changed the price. */
  matched: boolean;
  appliedRules: { code: string; title: string; discount: Cents }[];
}

const PREVIEW_KEY = "\u0000preview";

export function priceProduct(input: ProductPriceInput): ProductPrice {
  const quantity = Math.max(1, Math.trunc(input.quantity));
  const { product } = input;
  const previewLine: CartLineInput = {
    key: PREVIEW_KEY,
    productId: product.productId,
    ...(product.variationId ? { variationId: product.variationId } : {}),
    ...(product.categoryIds ? { categoryIds: product.categoryIds } : {}),
    ...(product.categorySlugs ? { categorySlugs: product.categorySlugs } : {}),
    quantity,
    regularUnitPrice: product.regularUnitPrice,
    ...(product.saleUnitPrice !== undefined ? { saleUnitPrice: product.saleUnitPrice } : {}),
  };
  const pricing = priceCartLines({
    lines: [...(input.cartLines ?? []).filter((l) => !l.freeItem && l.key !== PREVIEW_KEY), previewLine],
    rules: input.rules,
    now: input.now,
    ...(input.customer ? { customer: input.customer } : {}),
    ...(input.ruleUsage ? { ruleUsage: input.ruleUsage } : {}),
  });
  const line = pricing.lines.find((l) => l.key === PREVIEW_KEY)!;
  const byRule = new Map<string, { code: string; title: string; discount: Cents }>();
  for (const d of line.discounts) {
    if (d.level !== "product") continue;
    const r = byRule.get(d.code) ?? { code: d.code, title: d.title, discount: 0 };
    r.discount += d.amount;
    byRule.set(d.code, r);
  }
  return {
    productId: product.productId,
    ...(product.variationId ? { variationId: product.variationId } : {}),
    quantity,
    regularUnitPrice: line.regularUnitPrice,
    baseUnitPrice: line.baseUnitPrice,
    unitPrice: line.unitPrice,
    subtotal: line.subtotal,
    lineTotal: line.discountedSubtotal,
    totalDiscount: line.productDiscount,
    matched: line.productDiscount > 0,
    appliedRules: [...byRule.values()],
  };
}

// ---------------------------------------------------------------------------------------------------
// WooCommerce price HTML
// ---------------------------------------------------------------------------------------------------

export { escapeHtml };

/** `<span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">$</span>15</bdi></span>` */
export function priceAmountHtml(amount: Cents, format: CurrencyFormat = DEFAULT_CURRENCY_FORMAT): string {
  const number = escapeHtml(formatMoney(Math.abs(amount), { ...format, symbol: "", position: "left" }));
  const symbol = `<span class="woocommerce-Price-currencySymbol">${escapeHtml(format.symbol)}</span>`;
  const sign = amount < 0 ? "-" : "";
  const inner =
    format.position === "left"
      ? `${symbol}${number}`
      : format.position === "left_space"
        ? `${symbol}&nbsp;${number}`
        : format.position === "right"
          ? `${number}${symbol}`
          : `${number}&nbsp;${symbol}`;
  return `<span class="woocommerce-Price-amount amount"><bdi>${sign}${inner}</bdi></span>`;
}

/**
 * WooCommerce's sale format: the old price struck through, then the new one. Every amount prints in the shop's one
 * format (decision 0003), so when the two print the same at the shop's precision only the new one is shown: a
 * "$3 $3" pair would say nothing.
 */
export function salePriceHtml(from: Cents, to: Cents, format: CurrencyFormat = DEFAULT_CURRENCY_FORMAT): string {
  if (formatMoney(from, format) === formatMoney(to, format)) return priceAmountHtml(to, format);
  return `<del>${priceAmountHtml(from, format)}</del> <ins>${priceAmountHtml(to, format)}</ins>`;
}

/** The product's own price HTML (regular, or regular struck through with the sale price). */
export function productPriceHtml(product: Pick<ProductForPricing, "regularUnitPrice" | "saleUnitPrice">, format?: CurrencyFormat): string {
  const base = baseUnitPrice(product);
  return base < product.regularUnitPrice ? salePriceHtml(product.regularUnitPrice, base, format) : priceAmountHtml(base, format);
}

export type UpdatePriceWithQtyMode = "show_when_matched" | "show_dynamically";

export interface PriceHtmlResponse {
  /** Present when a rule matched, or always in `show_dynamically` mode. */
  price_html?: string;
  /** The product's own price HTML; the price area falls back to it when price_html is absent. */
  original_price_html: string;
}

/**
 * The answer to `wdr_ajax / get_price_html`. Unit prices: with a matching rule, the initial (base) unit
 * price struck through and the discounted unit price; `show_dynamically` also answers when nothing matched
 * (with the product's own price HTML), `show_when_matched` then leaves price_html out.
 */
export function priceHtmlResponse(price: ProductPrice, mode: UpdatePriceWithQtyMode, format?: CurrencyFormat): PriceHtmlResponse {
  const original_price_html = productPriceHtml({ regularUnitPrice: price.regularUnitPrice, saleUnitPrice: price.baseUnitPrice }, format);
  if (price.matched && price.unitPrice < price.baseUnitPrice)
    return { price_html: salePriceHtml(price.baseUnitPrice, price.unitPrice, format), original_price_html };
  if (price.matched) return { price_html: priceAmountHtml(price.unitPrice, format), original_price_html };
  return mode === "show_dynamically" ? { price_html: original_price_html, original_price_html } : { original_price_html };
}

// ---------------------------------------------------------------------------------------------------
// Bulk table
// ---------------------------------------------------------------------------------------------------

export interface BulkTableRow {
  ruleCode: string;
  ruleTitle: string;
  tierIndex: number;
  minQuantity: number;
  maxQuantity: number | null;
  /** "6 - 11", "12 +", or "3" for a single quantity. */
  range: string;
  /** The tier's label, e.g. "6 masks for $15" or "10% off". */
  discountLabel: string;
  /** The unit price of this product at the tier's minimum quantity. */
  unitPrice: Cents;
}

export interface BulkTableInput {
  product: ProductForPricing;
  rules: readonly DiscountRule[];
  now: Date;
  customer?: CustomerContext;
  ruleUsage?: Readonly<Record<string, UsageCount>>;
  currencyFormat?: CurrencyFormat;
}

/**
 * Rows for every active bulk rule whose filters select this product, in priority order. Conditions about
 * the cart (subtotal, quantities) are not known on a product page and are not checked; conditions about
 * the customer and usage limits are.
 */
export function bulkTableModel(input: BulkTableInput): BulkTableRow[] {
  const format = input.currencyFormat ?? DEFAULT_CURRENCY_FORMAT;
  const line: CartLineInput = { key: PREVIEW_KEY, quantity: 1, ...input.product };
  const base = baseUnitPrice(line);
  const rows: BulkTableRow[] = [];
  for (const rule of sortRules(input.rules)) {
    if (rule.action.kind !== "bulk" || !ruleIsActive(rule, input.now) || !lineMatchesFilters(rule.filters, line)) continue;
    const ctx = {
      lines: [line],
      matched: [line],
      customer: input.customer ?? { loggedIn: false },
      usage: input.ruleUsage?.[rule.code] ?? { total: 0, byCustomer: 0 },
    };
    const known = rule.conditions.filter((c) => c.type.startsWith("customer_") || c.type.startsWith("usage_"));
    if (!known.every((c) => conditionHolds(c, ctx))) continue;
    rule.action.tiers.forEach((tier, tierIndex) => {
      const qty = Math.max(1, tier.min);
      const discount = tierDiscounts(tier, [{ key: "p", quantity: qty, amount: base * qty }]).get("p") ?? 0;
      rows.push({
        ruleCode: rule.code,
        ruleTitle: rule.title,
        tierIndex,
        minQuantity: tier.min,
        maxQuantity: tier.max ?? null,
        range: tierRangeLabel(tier),
        discountLabel: tierLabel(tier, format),
        unitPrice: roundCents((base * qty - discount) / qty),
      });
    });
  }
  return rows;
}

/** The table that goes inside '.awdr-bulk-customizable-table'; empty string when there are no rows. */
export function bulkTableHtml(rows: readonly BulkTableRow[], format?: CurrencyFormat): string {
  if (rows.length === 0) return "";
  const th = (id: string, text: string) => `<th id="customize-bulk-table-${id}" class="wdr_bulk_table_td awdr-dragable"><span>${text}</span></th>`;
  const body = rows
    .map(
      (r, i) =>
        `<tr class="wdr_bulk_table_tr bulk_table_row" data-rule="${escapeHtml(r.ruleCode)}" data-min="${r.minQuantity}">` +
        `<td class="wdr_bulk_table_td bulk_table_title col_index_1" data-colindex="1">${escapeHtml(r.ruleTitle)}</td>` +
        `<td class="wdr_bulk_table_td bulk_table_range col_index_2" data-colindex="2">${escapeHtml(r.range)}</td>` +
        `<td class="wdr_bulk_table_td bulk_table_discount col_index_3" data-colindex="3"><span class="wdr_table_discounted_value">${escapeHtml(r.discountLabel)}</span></td>` +
        `<td class="wdr_bulk_table_td bulk_table_price col_index_4" data-colindex="4"><span class="wdr_table_discounted_price">${priceAmountHtml(r.unitPrice, format)}</span></td>` +
        `</tr>` +
        (i < rows.length - 1 ? "\n" : ""),
    )
    .join("");
  return (
    `<table id="sort_customizable_table" class="wdr_bulk_table_msg sar-table">` +
    `<thead class="wdr_bulk_table_thead"><tr class="wdr_bulk_table_tr wdr_bulk_table_thead">` +
    th("title", "Title") +
    th("range", "Range") +
    th("discount", "Discount") +
    th("price", "Price") +
    `</tr></thead><tbody>\n${body}\n</tbody></table>`
  );
}

// ---------------------------------------------------------------------------------------------------
// awdr_get_product_discount
// ---------------------------------------------------------------------------------------------------

export interface ProductDiscountDetail {
  product_id: number;
  qty: number;
  /** Unit price the rules start from (sale price if on sale), cents. */
  initial_price: Cents;
  /** Unit price after the rules, cents (rounded for display). */
  discounted_price: Cents;
  initial_price_total: Cents;
  /** Exactly what the cart charges for qty units before cart discounts and coupons, cents. */
  discounted_price_total: Cents;
  total_discount: Cents;
  /** Whole percent of initial_price_total. */
  discount_percentage: number;
  has_discount: boolean;
  applied_rules: { code: string; title: string; discount: Cents }[];
  initial_price_html: string;
  discounted_price_html: string;
  /** Only when custom_price was sent: the rules applied to that unit price. Never charged. */
  custom_price_preview?: {
    custom_price: Cents;
    discounted_price: Cents;
    discounted_price_total: Cents;
    total_discount: Cents;
    applied_rules: { code: string; title: string; discount: Cents }[];
  };
}

export function productDiscountDetail(input: ProductPriceInput & { customPrice?: Cents; currencyFormat?: CurrencyFormat }): ProductDiscountDetail {
  const price = priceProduct(input);
  const detail: ProductDiscountDetail = {
    product_id: price.variationId ?? price.productId,
    qty: price.quantity,
    initial_price: price.baseUnitPrice,
    discounted_price: price.unitPrice,
    initial_price_total: price.subtotal,
    discounted_price_total: price.lineTotal,
    total_discount: price.totalDiscount,
    discount_percentage: price.subtotal > 0 ? roundCents((price.totalDiscount * 100) / price.subtotal) : 0,
    has_discount: price.matched,
    applied_rules: price.appliedRules,
    initial_price_html: priceAmountHtml(price.baseUnitPrice, input.currencyFormat),
    discounted_price_html: priceAmountHtml(price.unitPrice, input.currencyFormat),
  };
  if (input.customPrice !== undefined) {
    if (!Number.isSafeInteger(input.customPrice) || input.customPrice < 0)
      throw new RangeError(`custom price must be whole non-negative cents: ${input.customPrice}`);
    const { saleUnitPrice: _ignored, ...rest } = input.product;
    const preview = priceProduct({ ...input, product: { ...rest, regularUnitPrice: input.customPrice } });
    detail.custom_price_preview = {
      custom_price: input.customPrice,
      discounted_price: preview.unitPrice,
      discounted_price_total: preview.lineTotal,
      total_discount: preview.totalDiscount,
      applied_rules: preview.appliedRules,
    };
  }
  return detail;
}

// ---------------------------------------------------------------------------------------------------
// Sale badge
// ---------------------------------------------------------------------------------------------------

export interface SaleBadgeInput {
  parentProductId: number;
  categoryIds?: readonly number[];
  categorySlugs?: readonly string[];
  variations: readonly { variationId: number; regularUnitPrice: Cents; saleUnitPrice?: Cents }[];
  /** The badge text, e.g. "-[value]%". */
  template: string;
  /** When given, the percentage also counts discount rules for one unit (what the price area shows). */
  rules?: readonly DiscountRule[];
  now?: Date;
  customer?: CustomerContext;
}

export interface SaleBadgeMap {
  type: "sale-percentage";
  template: string;
  /** Variation id → whole percent off the regular price; variations without a saving are left out. */
  values: Record<string, number>;
}

export function saleBadgeMap(input: SaleBadgeInput): SaleBadgeMap {
  const values: Record<string, number> = {};
  for (const v of input.variations) {
    let price = baseUnitPrice(v);
    if (input.rules && input.now) {
      price = priceProduct({
        product: {
          productId: input.parentProductId,
          variationId: v.variationId,
          ...(input.categoryIds ? { categoryIds: input.categoryIds } : {}),
          ...(input.categorySlugs ? { categorySlugs: input.categorySlugs } : {}),
          regularUnitPrice: v.regularUnitPrice,
          ...(v.saleUnitPrice !== undefined ? { saleUnitPrice: v.saleUnitPrice } : {}),
        },
        quantity: 1,
        rules: input.rules,
        now: input.now,
        ...(input.customer ? { customer: input.customer } : {}),
      }).unitPrice;
    }
    if (v.regularUnitPrice <= 0 || price >= v.regularUnitPrice) continue;
    const percent = roundCents(((v.regularUnitPrice - price) * 100) / v.regularUnitPrice);
    if (percent > 0) values[String(v.variationId)] = percent;
  }
  return { type: "sale-percentage", template: input.template, values };
}

export function renderSaleBadge(template: string, value: number): string {
  return template.split("[value]").join(String(value));
}
