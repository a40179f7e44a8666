/**
 * The cart as the page regions show it: plain JSON (it travels in loader data) built from the
 * priced cart. The fragments, the header, the mini-cart and the cart page all render this one value,
 * so the page and the wc-ajax fragments never drift.
 */
import type { PricedCart } from "../../../core/domain/cart/types.ts";
import { taxLabel } from "../../../core/domain/pricing/tax.ts";

export interface MiniCartLine {
  key: string;
  productId: number;
  variationId: number;
  sku: string;
  name: string;
  details: string;
  url: string;
  imageSlug: string | null;
  quantity: number;
  /** Unit price after product-level rules (display). */
  unitPriceCents: number;
  /** The line before any discount (struck through when higher). */
  regularSubtotalCents: number;
  /** The line after product-level rules. */
  subtotalCents: number;
  removeUrl: string;
  maxQuantity: number | null;
  free: { ruleUniqueId: string; parentProductId: number; choices: { id: number; label: string }[] } | null;
}

export interface CartSummaryView {
  count: number;
  /** Σ line subtotals after product rules, before cart discounts and coupons (WooCommerce's "Subtotal"). */
  subtotalCents: number;
  lines: MiniCartLine[];
  nudges: string[];
  warnings: string[];
}

export interface CartTotalsView {
  subtotalCents: number;
  cartDiscounts: { code: string; title: string; amountCents: number }[];
  coupons: { code: string; amountCents: number }[];
  needsShipping: boolean;
  rates: { id: string; label: string; costCents: number }[];
  chosenRateId: string | null;
  shippingCents: number;
  /** One row per tax rate charged, itemised as WooCommerce shows them (empty while Settings › Tax is off). */
  taxes: { rateId: number; label: string; amountCents: number }[];
  totalCents: number;
}

export const EMPTY_CART: CartSummaryView = { count: 0, subtotalCents: 0, lines: [], nudges: [], warnings: [] };

export function cartSummaryView(cart: PricedCart, removeNonce: string): CartSummaryView {
  return {
    count: cart.count,
    subtotalCents: cart.lines.reduce((n, l) => n + l.discountedSubtotal, 0),
    lines: cart.lines.map((l) => ({
      key: l.key,
      productId: l.productId,
      variationId: l.variationId,
      sku: l.sku,
      name: l.name,
      details: l.details,
      url: `/product/${l.slug}/`,
      imageSlug: l.imageSlug,
      quantity: l.quantity,
      unitPriceCents: l.unitPrice,
      regularSubtotalCents: l.subtotal,
      subtotalCents: l.discountedSubtotal,
      removeUrl: `/cart/?remove_item=${l.key}&_wpnonce=${removeNonce}`,
      maxQuantity: l.stockQuantity,
      free: l.freeItem,
    })),
    nudges: cart.result.nudges.map((n) => n.message),
    warnings: cart.result.warnings.map((w) => w.message),
  };
}

export function cartTotalsView(cart: PricedCart): CartTotalsView {
  const r = cart.result;
  return {
    subtotalCents: cart.lines.reduce((n, l) => n + l.discountedSubtotal, 0),
    cartDiscounts: r.cartDiscounts.filter((d) => d.source === "rule").map((d) => ({ code: d.code, title: d.title, amountCents: d.amount })),
    coupons: r.coupons.applied.map((c) => ({ code: c.code, amountCents: c.discount })),
    needsShipping: r.shipping.needsShipping,
    rates: r.shipping.rates.map((x) => ({ id: x.id, label: x.label, costCents: x.cost })),
    chosenRateId: r.shipping.chosenRateId,
    shippingCents: r.totals.shipping,
    taxes: (cart.tax?.taxLines ?? []).map((t) => ({ rateId: t.rateId, label: taxLabel(t), amountCents: t.itemsTax + t.shippingTax })),
    totalCents: r.totals.grandTotal,
  };
}
