/**
 * WooCommerce REST v3 shapes of orders, notes and refunds (docs/contract/rest/orders.md): money as decimal strings
 * ("12.50") from the shop's integer cents, dates as WooCommerce writes them (site time and GMT, no zone suffix),
 * and the argument schemas the order routes share.
 */
import { shortRate } from "../../core/domain/pricing/tax.ts";
import { z } from "zod";
import type { AdminOrder, AdminRefund, OrderNote } from "../../core/db/repositories/order-admin.ts";
import type { OrderAddress } from "../../core/domain/orders/types.ts";
import { orderPayUrl } from "../../core/commerce/orders.ts";
import { isPayable } from "../../core/domain/orders/status.ts";

/** Cents → WooCommerce's decimal string. */
export const money = (cents: number): string => (cents < 0 ? "-" : "") + (Math.abs(cents) / 100).toFixed(2);

/** A WooCommerce amount ("12.50", "12", 12.5) → cents; at most two decimals, never negative. */
export const moneyArg = () =>
  z.preprocess(
    (v) => (typeof v === "number" && Number.isFinite(v) ? v.toFixed(2).replace(/\.?0+$/, "") || "0" : v),
    z
      .string()
      .trim()
      .regex(/^\d{1,9}(\.\d{1,2})?$/, "must be an amount like 12.50")
      .transform((s) => {
        const [whole, frac = ""] = s.split(".");
        return Number(whole) * 100 + Number(frac.padEnd(2, "0"));
      }),
  );

/** WooCommerce's date fields: the site's time (UTC here: the shop keeps no other zone for orders) and GMT. */
export const wcDate = (d: Date | null): string | null => (d ? d.toISOString().slice(0, 19) : null);

const addressField = z.string().max(200);
/** A partial address as a request sends it (WooCommerce updates the fields given). */
export const addressArg = z
  .object({
    first_name: addressField,
    last_name: addressField,
    company: addressField,
    address_1: addressField,
    address_2: addressField,
    city: addressField,
    state: addressField,
    postcode: z.string().max(20),
    country: z.string().regex(/^([A-Z]{2})?$/, "must be an ISO 3166-1 alpha-2 code"),
    email: z.union([z.literal(""), z.email().max(200)]),
    phone: z.string().max(40),
  })
  .partial();
/**
 * The addresses of an update: the e-mail's form and the country are checked by the checkout's rules after the
 * merge (staffAddressProblems), so a refusal names its field (`billing.email`), not the whole address.
 */
export const addressUpdateArg = addressArg.extend({ email: z.string().max(254), country: z.string().max(2) }).partial();

export const EMPTY_ADDRESS: OrderAddress = {
  first_name: "",
  last_name: "",
  company: "",
  country: "",
  address_1: "",
  address_2: "",
  city: "",
  state: "",
  postcode: "",
  phone: "",
  email: "",
};

function addressJson(a: OrderAddress | undefined, kind: "billing" | "shipping") {
  const v = a ?? EMPTY_ADDRESS;
  const base = {
    first_name: v.first_name,
    last_name: v.last_name,
    company: v.company,
    address_1: v.address_1,
    address_2: v.address_2,
    city: v.city,
    state: v.state,
    postcode: v.postcode,
    country: v.country,
  };
  return kind === "billing" ? { ...base, email: v.email, phone: v.phone } : { ...base, phone: v.phone };
}

export function refundSummaryJson(r: AdminRefund) {
  return { id: r.id, reason: r.reason, total: money(-r.amount) };
}

export function orderJson(o: AdminOrder, ctx: { siteUrl: string; version: string; currencySymbol: string }) {
  return {
    id: o.id,
    parent_id: 0,
    number: String(o.id),
    order_key: o.orderKey,
    created_via: o.createdVia,
    version: ctx.version,
    status: o.status,
    currency: o.currency,
    currency_symbol: ctx.currencySymbol,
    date_created: wcDate(o.createdAt),
    date_created_gmt: wcDate(o.createdAt),
    date_modified: wcDate(o.updatedAt),
    date_modified_gmt: wcDate(o.updatedAt),
    discount_total: money(o.discountTotal),
    discount_tax: "0.00",
    shipping_total: money(o.shippingTotal),
    shipping_tax: money(o.shippingTax),
    cart_tax: money(o.totalTax - o.shippingTax),
    total: money(o.total),
    total_tax: money(o.totalTax),
    prices_include_tax: false,
    customer_id: o.customerId ?? 0,
    customer_ip_address: "",
    customer_user_agent: "",
    customer_note: o.customerNote,
    billing: addressJson(o.addresses.billing, "billing"),
    shipping: addressJson(o.addresses.shipping, "shipping"),
    payment_method: o.paymentMethod,
    payment_method_title: o.paymentMethodTitle,
    transaction_id: o.transactionId,
    date_paid: wcDate(o.paidAt),
    date_paid_gmt: wcDate(o.paidAt),
    date_completed: wcDate(o.completedAt),
    date_completed_gmt: wcDate(o.completedAt),
    cart_hash: "",
    meta_data: o.meta.map((m, i) => ({ id: i + 1, key: m.key, value: m.value })),
    line_items: o.lines.map((l) => ({
      id: l.id,
      name: l.name,
      product_id: l.productId,
      variation_id: l.variationId ?? 0,
      quantity: l.quantity,
      tax_class: "",
      subtotal: money(l.subtotal),
      subtotal_tax: money(l.subtotalTax),
      total: money(l.total),
      total_tax: money(l.totalTax),
      taxes: [],
      meta_data: l.details ? [{ id: 0, key: "_details", value: l.details, display_key: "Details", display_value: l.details }] : [],
      sku: l.sku,
      price: Math.round(l.total / l.quantity) / 100,
    })),
    tax_lines: o.taxLines.map((t, i) => ({
      id: i + 1,
      rate_code: `${t.label.toUpperCase().replace(/[^A-Z0-9]+/g, "-")}-${t.rateId}`,
      rate_id: t.rateId,
      label: t.label,
      compound: t.compound,
      tax_total: money(t.taxTotal),
      shipping_tax_total: money(t.shippingTaxTotal),
      rate_percent: Number(shortRate(t.rate)),
      meta_data: [],
    })),
    shipping_lines:
      o.shippingMethodId || o.shippingTotal > 0
        ? [
            {
              id: 1,
              method_title: o.shippingMethodTitle ?? "",
              method_id: (o.shippingMethodId ?? "").split(":")[0] ?? "",
              instance_id: (o.shippingMethodId ?? "").split(":")[1] ?? "",
              total: money(o.shippingTotal),
              total_tax: money(o.shippingTax),
              taxes: [],
              meta_data: [],
            },
          ]
        : [],
    fee_lines: [],
    coupon_lines: o.coupons.map((c, i) => ({ id: i + 1, code: c.code, discount: money(c.discount), discount_tax: "0.00", meta_data: [] })),
    refunds: o.refunds.map(refundSummaryJson),
    payment_url: orderPayUrl(ctx.siteUrl, o.id, o.orderKey),
    is_editable: o.status === "pending" || o.status === "on-hold",
    needs_payment: isPayable(o.status) && o.total > 0,
    needs_processing: true,
  };
}

export function noteJson(n: OrderNote) {
  return {
    id: n.id,
    author: n.addedByName ?? "WooCommerce",
    date_created: wcDate(n.createdAt),
    date_created_gmt: wcDate(n.createdAt),
    note: n.note,
    customer_note: n.customerNote,
  };
}

export function refundJson(r: AdminRefund, order: AdminOrder | null) {
  return {
    id: r.id,
    date_created: wcDate(r.createdAt),
    date_created_gmt: wcDate(r.createdAt),
    amount: money(r.amount),
    reason: r.reason,
    refunded_by: r.refundedBy ?? 0,
    refunded_payment: r.apiRefund,
    meta_data: [],
    line_items: r.lineItems.map((li) => {
      const line = order?.lines.find((l) => l.id === li.id);
      return {
        id: li.id,
        name: line?.name ?? "",
        product_id: line?.productId ?? 0,
        variation_id: line?.variationId ?? 0,
        quantity: -li.quantity,
        tax_class: "",
        subtotal: money(-li.refund_total),
        subtotal_tax: "0.00",
        total: money(-li.refund_total),
        total_tax: "0.00",
        taxes: [],
        meta_data: [],
        sku: line?.sku ?? "",
        price: line ? Math.round(line.total / line.quantity) / 100 : 0,
        refund_total: li.refund_total / 100,
      };
    }),
    shipping_lines: [],
    tax_lines: [],
    fee_lines: [],
  };
}
