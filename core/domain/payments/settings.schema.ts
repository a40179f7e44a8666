/** Parsing gateway settings (server and tests only: it brings zod, which the payment form's pages do not load). */
import * as z from "zod";
import { DEFAULT_ENABLED_CARD_TYPES, isCardTypeName } from "./card-types.ts";
import type { GatewaySettings } from "./settings.ts";

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
  .transform((s): GatewaySettings => ({
    id: s.id,
    id_dasherized: s.id_dasherized ?? s.id.replace(/_/g, "-"),
    plugin_id: s.plugin_id,
    type: s.type,
    csc_required: s.csc_required,
    csc_required_for_tokens: s.csc_required_for_tokens,
    enabled_card_types: s.enabled_card_types.filter(isCardTypeName),
  }));

export type GatewaySettingsInput = z.input<typeof GatewaySettingsSchema>;

/** Settings with the defaults filled in (throws on an invalid input). */
export function gatewaySettings(input: GatewaySettingsInput): GatewaySettings {
  return GatewaySettingsSchema.parse(input);
}
