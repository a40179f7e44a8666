/**
 * Everything a request handler or a page loader may use, built once at start-up
 * and handed down (to React Router loaders through the load context). The shape is the use cases'
 * own (core/commerce/services.ts): the server builds it, both adapters read it.
 */
import { SITE_CONFIG } from "../core/config/site-config.ts";
import { applySettingsOverrides } from "../core/config/settings-overrides.ts";
import type { ShopServices } from "../core/commerce/services.ts";

export type AppServices = ShopServices;

export function createServices(parts: Omit<AppServices, "config" | "now"> & { now?: () => Date; settingsJson?: string }): AppServices {
  const { settingsJson, ...rest } = parts;
  return { config: applySettingsOverrides(SITE_CONFIG, settingsJson), now: () => new Date(), ...rest };
}
