/** The order views the pages and e-mails read (camelCase, amounts in integer cents). Pure types, no I/O. */
import type { Address } from "../checkout/address.ts";
import type { OrderStatus } from "./status.ts";

/** A billing or shipping address as the order keeps it: the checkout form's fields (one definition, checkout/address.ts). */
export type OrderAddress = Address;

export interface OrderLineView {
  productId: number;
  variationId: number | null;
  name: string;
  /** The choice the cart showed (variation attributes, a bundle's contents); empty when there is none. */
  details: string;
  quantity: number;
  subtotal: number;
  total: number;
  /** Tax on the line before / after discounts (0 while Settings › Tax is off). */
  subtotalTax: number;
  totalTax: number;
}

/** One tax rate an order was charged (WooCommerce's tax_lines): what it was called and at what rate, when placed. */
export interface OrderTaxLine {
  rateId: number;
  label: string;
  /** Ten-thousandths of a percent (core/domain/pricing/tax.ts). */
  rate: number;
  compound: boolean;
  taxTotal: number;
  shippingTaxTotal: number;
}

/** What is shown of the card or account that paid (never a number). */
export interface PaymentMethodView {
  brand?: string;
  last4?: string;
  kind?: string;
}

export interface OrderView {
  id: number;
  orderKey: string;
  status: OrderStatus;
  statusLabel: string;
  customerId: number | null;
  billingEmail: string;
  currency: string;
  subtotal: number;
  discountTotal: number;
  shippingTotal: number;
  /** Tax charged in all (items and shipping) and the shipping's share; `total` includes it. */
  totalTax: number;
  shippingTax: number;
  taxLines: OrderTaxLine[];
  total: number;
  shippingMethodTitle: string | null;
  paymentMethod: string;
  paymentMethodTitle: string;
  customerNote: string;
  createdAt: Date;
  paidAt: Date | null;
  lines: OrderLineView[];
  addresses: Partial<Record<"billing" | "shipping", OrderAddress>>;
  coupons: { code: string; discount: number }[];
  meta: Record<string, string>;
  paymentMethodSummary: PaymentMethodView | null;
}

/** One row of the account's orders list. */
export interface OrderSummary {
  id: number;
  orderKey: string;
  status: OrderStatus;
  statusLabel: string;
  total: number;
  items: number;
  createdAt: Date;
}

/** A saved payment method: the gateway's token, brand, last four and expiry — nothing else. */
export interface SavedToken {
  id: number;
  customerId: number;
  gatewayId: string;
  token: string;
  kind: "card" | "bank";
  brand: string;
  last4: string;
  expMonth: number | null;
  expYear: number | null;
  isDefault: boolean;
}
