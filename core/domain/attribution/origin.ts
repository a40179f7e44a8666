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

/** What the order screen shows of an order's attribution: WooCommerce's "Order attribution" box, field by field. */
export interface OrderAttribution {
  origin: string;
  details: { label: string; value: string }[];
}

const ATTRIBUTION_LABELS: [key: string, label: string][] = [
  ["source_type", "Source type"],
  ["referrer", "Referrer"],
  ["utm_campaign", "UTM campaign"],
  ["utm_source", "UTM source"],
  ["utm_medium", "UTM medium"],
  ["utm_content", "UTM content"],
  ["utm_term", "UTM term"],
  ["utm_id", "UTM id"],
  ["utm_source_platform", "UTM source platform"],
  ["session_entry", "Entry page"],
  ["session_start_time", "Session started"],
  ["session_pages", "Pages viewed"],
  ["session_count", "Visits"],
  ["device_type", "Device type"],
];

const SOURCE_TYPE_NAMES: Record<string, string> = {
  utm: "UTM",
  organic: "Organic search",
  referral: "Referral",
  typein: "Direct",
  admin: "Web admin",
  mobile_app: "Mobile app",
};

/**
 * An order's attribution from its meta (`_wc_order_attribution_{field}`, as the checkout stores them: '(none)' values
 * are never stored), or null when the order has none (placed before attribution, by the REST API, or with tracking off).
 */
export function orderAttribution(meta: readonly { key: string; value: unknown }[]): OrderAttribution | null {
  const values = new Map<string, string>();
  for (const m of meta) {
    if (m.key.startsWith("_wc_order_attribution_") && typeof m.value === "string" && m.value !== "") values.set(m.key.slice(22), m.value);
  }
  const sourceType = values.get("source_type");
  if (!sourceType) return null;
  return {
    origin: originLabel(sourceType, values.get("utm_source") ?? ""),
    details: ATTRIBUTION_LABELS.flatMap(([key, label]) => {
      const value = values.get(key);
      if (value === undefined) return [];
      return [{ label, value: key === "source_type" ? (SOURCE_TYPE_NAMES[value] ?? value) : value }];
    }),
  };
}
