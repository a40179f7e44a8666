/**
 * An order's origin as WooCommerce's order list names it, from the attribution the checkout stored
 * (`_wc_order_attribution_source_type` and `_wc_order_attribution_utm_source`, docs/contract/wire.md §4.5).
 */
export function originLabel(sourceType: string, source: string): string {
  const named = source && source !== "(none)" ? source : "";
  switch (sourceType) {
    case "utm":
      return `Source: ${named || "(none)"}`;
    case "organic":
      return `Organic: ${named || "(none)"}`;
    case "referral":
      return `Referral: ${named || "(none)"}`;
    case "typein":
      return "Direct";
    case "admin":
      return "Web admin";
    case "mobile_app":
      return "Mobile app";
    default:
      return "Unknown";
  }
}
