/**
 * Overrides of the site configuration from the SHOP_SETTINGS environment variable
 * (JSON), deep-merged onto the spec's defaults. Only keys that exist may be set,
 * and only with a value of the same kind (string, number, boolean, array), so a
 * typo fails loudly at start-up instead of being silently ignored.
 */
import type { SiteConfig } from "./site-config.ts";
import { validateShareSettings } from "../domain/share/networks.ts";
import { unknownDisabledCookies } from "../domain/tracking/consent.ts";
import { validOrganics, validReferrals } from "../domain/attribution/options.ts";
import { checkTrackingSettings } from "../domain/tracking/browser-tracking.ts";
import { editableSettingsErrors } from "./editable-settings.ts";
import { searchOverlaySettingsErrors } from "./search-overlay-settings.ts";
import { stickyHeaderSettingsErrors } from "../domain/layout/sticky-header.ts";

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

function kind(value: unknown): string {
  return Array.isArray(value) ? "array" : value === null ? "null" : typeof value;
}

function merge(base: unknown, override: unknown, path: string): unknown {
  if (kind(base) === "object" && kind(override) === "object") {
    const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
    for (const [key, value] of Object.entries(override as Record<string, unknown>)) {
      if (!(key in out)) throw new Error(`SHOP_SETTINGS: unknown setting ${path}${key}`);
      out[key] = merge(out[key], value, `${path}${key}.`);
    }
    return out;
  }
  if (kind(base) !== kind(override)) throw new Error(`SHOP_SETTINGS: ${path.slice(0, -1)} must be a ${kind(base)}, not a ${kind(override)}`);
  return override;
}

export function applySettingsOverrides(base: SiteConfig, json: string | undefined): SiteConfig {
  if (!json) return base;
  let parsed: Json;
  try {
    parsed = JSON.parse(json) as Json;
  } catch {
    throw new Error("SHOP_SETTINGS is not valid JSON");
  }
  if (kind(parsed) !== "object") throw new Error("SHOP_SETTINGS must be a JSON object");
  const config = checkTracking(merge(base, parsed, "") as SiteConfig);
  checkTrackingSettings(config.tracking);
  // Rules beyond the value's kind: each names the setting it refuses.
  // The sections the owner also edits over REST pass the same schemas here (core/config/editable-settings.ts).
  const errors = [...validateShareSettings(config.share), ...editableSettingsErrors(config)];
  errors.push(...searchOverlaySettingsErrors(config), ...stickyHeaderSettingsErrors(config.stickyHeader));
  if (errors.length) throw new Error(`SHOP_SETTINGS: ${errors.join("; ")}`);
  return config;
}

/**
 * The tracking settings whose mistakes would otherwise be dropped without a word in the browser: an unknown cookie
 * group (docs/contract/storefront.md §9 'Tracking (analytics)') and a custom referral without a host or organic
 * entry without a host and a query parameter (§5 'Attribution options').
 */
function checkTracking(config: SiteConfig): SiteConfig {
  const unknown = unknownDisabledCookies(config.consent.disabledCookies);
  if (unknown.length) throw new Error(`SHOP_SETTINGS: consent.disabledCookies has unknown cookie groups: ${unknown.join(", ")}`);
  if (validReferrals(config.attribution.referrals).length !== config.attribution.referrals.length)
    throw new Error("SHOP_SETTINGS: every attribution.referrals entry needs a host");
  if (validOrganics(config.attribution.organics).length !== config.attribution.organics.length)
    throw new Error("SHOP_SETTINGS: every attribution.organics entry needs a host and a param");
  return config;
}
