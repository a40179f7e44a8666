/** `wc/v3/coupons` (docs/contract/rest/orders.md 'Coupons'): what the coupon screens read. */
export interface RestCoupon {
  id: number;
  code: string;
  amount: string;
  discount_type: "percent" | "fixed_cart" | "fixed_product";
  description: string;
  date_created: string;
  date_expires: string | null;
  usage_count: number;
  individual_use: boolean;
  product_ids: number[];
  excluded_product_ids: number[];
  usage_limit: number | null;
  usage_limit_per_user: number | null;
  free_shipping: boolean;
  product_categories: number[];
  excluded_product_categories: number[];
  exclude_sale_items: boolean;
  minimum_amount: string;
  maximum_amount: string;
}

/** WooCommerce's names of the discount types. */
export const COUPON_TYPES = [
  { value: "percent", label: "Percentage discount" },
  { value: "fixed_cart", label: "Fixed cart discount" },
  { value: "fixed_product", label: "Fixed product discount" },
] as const;
