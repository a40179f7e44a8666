/**
 * Everything a request handler or a page loader may use, built once at start-up
 * and handed down (to React Router loaders through the load context).
 */
import type { Db } from "../core/db/client.ts";
import { SITE_CONFIG, type SiteConfig } from "../core/config/site-config.ts";
import type { Logger } from "./log.ts";
import { applySettingsOverrides } from "../core/config/settings-overrides.ts";

export interface AppServices {
  db: Db;
  config: SiteConfig;
  /** Canonical site URL (no trailing slash); absolute links use the request's own origin. */
  siteUrl: string;
  secret: string;
  logger: Logger;
  now: () => Date;
  production: boolean;
}

export function createServices(parts: Omit<AppServices, "config" | "now"> & { now?: () => Date; settingsJson?: string }): AppServices {
  const { settingsJson, ...rest } = parts;
  return { config: applySettingsOverrides(SITE_CONFIG, settingsJson), now: () => new Date(), ...rest };
}
