/** A message shown once at the top of the next page (WooCommerce's wc_add_notice). */
export interface Notice {
  type: "success" | "error" | "notice";
  message: string;
}
