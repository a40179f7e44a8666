// Zod-free (pages load it); the parsing schema is in settings.schema.ts, which only the server and tests import.
import type { CardTypeName } from "./card-types.ts";

/** The payment gateway settings given to the payment form (docs/contract/storefront.md §3), with the spec's field names. */
export interface GatewaySettings {
  id: string;
  id_dasherized: string;
  plugin_id: string;
  type: "credit-card" | "echeck";
  csc_required: boolean;
  csc_required_for_tokens: boolean;
  enabled_card_types: readonly CardTypeName[];
}

/** The form's field keys; DOM ids are `wc-{id_dasherized}-{key}`. */
export type PaymentFieldKey = "account-number" | "expiry" | "csc" | "routing-number" | "check-number" | "drivers-license-state" | "drivers-license-number";

export function paymentFieldId(settings: Pick<GatewaySettings, "id_dasherized">, field: PaymentFieldKey): string {
  return `wc-${settings.id_dasherized}-${field}`;
}
