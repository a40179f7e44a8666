/**
 * Everything a request handler or a page loader may use, built once at start-up
 * and handed down (to React Router loaders through the load context). The shape is the use cases'
 * own (core/commerce/services.ts): the server builds it, both adapters read it.
 */
import { SITE_CONFIG } from "../core/config/site-config.ts";
import { applySettingsOverrides } from "../core/config/settings-overrides.ts";
import type { ShopServices } from "../core/commerce/services.ts";
import { FunnelBuffer } from "../core/tracking/funnel.ts";
import type { Destination } from "../core/tracking/intake.ts";
import type { MediaSettings } from "../core/media/uploads.server.ts";

export type AppServices = ShopServices & {
  funnel: FunnelBuffer;
  /** Where server-side tracking events go (TRACKING_* variables); empty = nothing is queued. */
  trackingDestinations: readonly Destination[];
  /** Uploaded images: where they are stored and their limits (MEDIA_* variables, docs/contract/rest/media.md). */
  media: MediaSettings;
};

export function createServices(
  parts: Omit<AppServices, "config" | "now" | "funnel" | "trackingDestinations"> & {
    now?: () => Date;
    settingsJson?: string;
    trackingDestinations?: readonly Destination[];
  },
): AppServices {
  const { settingsJson, trackingDestinations = [], ...rest } = parts;
  // Written every second by itself; flushed on shutdown by the tracking feature (server/features/tracking.ts).
  const funnel = new FunnelBuffer(parts.db, { log: parts.logger });
  return { config: applySettingsOverrides(SITE_CONFIG, settingsJson), now: () => new Date(), funnel, trackingDestinations, ...rest };
}
