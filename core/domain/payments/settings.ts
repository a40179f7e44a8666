import * as z from "zod";
// DEFAULT_ENABLED_CARD_TYPES lives with the card types, zod-free: the site configuration, which pages load, reads it.
import { DEFAULT_ENABLED_CARD_TYPES, type CardTypeName, isCardTypeName } from "./card-types.ts";

/** The payment gateway settings given to the payment form (spec §3), with the spec's field names. */
export interface GatewaySettings {
  id: string;
  id_dasherized: string;
  plugin_id: string;
  type: "credit-card" | "echeck";
  csc_required: boolean;
  csc_required_for_tokens: boolean;
  enabled_card_types: readonly CardTypeName[];
}


/**
 * Parses settings from configuration or the wire. Unknown card type names in enabled_card_types are dropped
 * (a type we cannot detect can never match); id_dasherized defaults to the id with '_' turned into '-'.
 */
export const GatewaySettingsSchema = z
  .object({
    id: z.string().min(1),
    id_dasherized: z.string().min(1).optional(),
    plugin_id: z.string().default(""),
    type: z.enum(["credit-card", "echeck"]).default("credit-card"),
    csc_required: z.boolean().default(true),
    csc_required_for_tokens: z.boolean().default(false),
    enabled_card_types: z.array(z.string()).default([...DEFAULT_ENABLED_CARD_TYPES]),
  })
  .transform(
    (s): GatewaySettings => ({
      id: s.id,
      id_dasherized: s.id_dasherized ?? s.id.replace(/_/g, "-"),
      plugin_id: s.plugin_id,
      type: s.type,
      csc_required: s.csc_required,
      csc_required_for_tokens: s.csc_required_for_tokens,
      enabled_card_types: s.enabled_card_types.filter(isCardTypeName),
    }),
  );

export type GatewaySettingsInput = z.input<typeof GatewaySettingsSchema>;

/** Settings with the defaults filled in (throws on an invalid input). */
export function gatewaySettings(input: GatewaySettingsInput): GatewaySettings {
  return GatewaySettingsSchema.parse(input);
}

/** The form's field keys; DOM ids are `wc-{id_dasherized}-{key}`. */
export type PaymentFieldKey =
  | "account-number"
  | "expiry"
  | "csc"
  | "routing-number"
  | "check-number"
  | "drivers-license-state"
  | "drivers-license-number";

export function paymentFieldId(settings: Pick<GatewaySettings, "id_dasherized">, field: PaymentFieldKey): string {
  return `wc-${settings.id_dasherized}-${field}`;
}
