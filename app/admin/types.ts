/** The parts of WooCommerce's REST shapes (docs/contract/rest/products.md) the admin's screens read. */
export interface Term {
  id: number;
  name: string;
  slug: string;
  parent?: number;
}

export interface RestProduct {
  id: number;
  name: string;
  slug: string;
  permalink: string;
  type: string;
  status: string;
  downloadable: boolean;
  virtual: boolean;
  /** A downloadable product's files (WooCommerce's `downloads`). */
  downloads: { id: string; name: string; file: string }[];
  /** -1 = unlimited / never. */
  download_limit: number;
  download_expiry: number;
  description: string;
  short_description: string;
  sku: string;
  price: string;
  regular_price: string;
  sale_price: string;
  date_on_sale_from: string | null;
  date_on_sale_to: string | null;
  on_sale: boolean;
  manage_stock: boolean;
  stock_quantity: number | null;
  stock_status: string;
  categories: { id: number; name: string; slug: string }[];
  tags: { id: number; name: string; slug: string }[];
  upsell_ids: number[];
  cross_sell_ids: number[];
  /** visible | catalog | search | hidden */
  catalog_visibility: string;
  /** An external product's address and button label ("" for other kinds). */
  external_url: string;
  button_text: string;
  /** A grouped product's children. */
  grouped_products: number[];
  /** A bundle's items (WooCommerce Product Bundles' field; bundles only). */
  bundled_items?: { bundled_item_id: number; product_id: number; quantity_default: number; optional: boolean; discount: number }[];
  images: { id: number; src: string; alt: string }[];
  attributes: { id: number; name: string; options: string[]; variation: boolean; visible: boolean }[];
  date_created: string;
  date_modified: string;
}

export interface Address {
  first_name: string;
  last_name: string;
  company: string;
  address_1: string;
  address_2: string;
  city: string;
  state: string;
  postcode: string;
  country: string;
  email?: string;
  phone: string;
}

export interface RestOrder {
  id: number;
  number: string;
  status: string;
  currency: string;
  currency_symbol: string;
  date_created: string;
  date_paid: string | null;
  discount_total: string;
  shipping_total: string;
  total: string;
  /** Tax charged (Settings › Tax), one row per rate; `[]` for an order without tax. */
  total_tax?: string;
  tax_lines?: { id: number; label: string; tax_total: string; shipping_tax_total: string }[];
  customer_id: number;
  customer_note: string;
  billing: Address;
  shipping: Address;
  payment_method: string;
  payment_method_title: string;
  transaction_id: string;
  line_items: { id: number; name: string; product_id: number; variation_id: number; quantity: number; subtotal: string; total: string; sku: string }[];
  shipping_lines: { id: number; method_title: string; total: string }[];
  coupon_lines: { id: number; code: string; discount: string }[];
  refunds: { id: number; reason: string; total: string }[];
  /** WooCommerce's `is_editable`: pending payment or on hold, whose items staff may change (decision 0048). */
  is_editable?: boolean;
  /** Staff see every stored key, the checkout's attribution (`_wc_order_attribution_*`) among them. */
  meta_data: { id: number; key: string; value: unknown }[];
}

/** `wc/v3/orders/{id}/refunds`: a refund, its lines' quantities and totals negative as WooCommerce sends them. */
export interface RestRefund {
  id: number;
  date_created: string;
  amount: string;
  reason: string;
  refunded_payment: boolean;
  line_items: { id: number; name: string; sku: string; quantity: number; total: string; refund_total: number }[];
}

export interface OrderNote {
  id: number;
  author: string;
  date_created: string;
  note: string;
  customer_note: boolean;
}

/** `wc/v3/customers` (docs/contract/rest/people.md): what the customer screens read. */
export interface RestCustomer {
  id: number;
  date_created: string;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  username: string;
  billing: Address;
  shipping: Address;
  is_paying_customer: boolean;
  orders_count: number;
  total_spent: string;
  /** When the latest order was placed (any status), or null. */
  date_last_order: string | null;
}

/** `shop/v1/customers/{id}/payment-methods`: brand and last four, never a token. */
export interface SavedMethod {
  id: number;
  gateway: string;
  type: "card" | "bank";
  brand: string;
  last4: string;
  expires: string | null;
  is_default: boolean;
  label: string;
}
