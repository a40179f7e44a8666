import type { SiteConfig } from "../../../core/config/site-config.ts";
import type { ShareSettings } from "./ShareButtons.tsx";

/** The part of the share settings a page needs (none when the owner turned share buttons off). */
export function shareSettings(config: SiteConfig["share"]): ShareSettings {
  return config.enabled ? { networks: [...config.networks], counters: [...config.counters] } : { networks: [], counters: [] };
}
