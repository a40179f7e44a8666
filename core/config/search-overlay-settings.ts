/**
 * The search overlay's settings (docs/contract/search-overlay.md 'Configuration'), checked at start-up like every
 * SHOP_SETTINGS override: a box type the storefront does not know, or timings out of range, stop the start.
 */
import { z } from "zod";
import type { SiteConfig } from "./site-config.ts";

export const searchOverlaySettingsSchema = z.strictObject({
  boxType: z.enum(["header-cover", "full-screen"]),
  focusDelayMs: z.number().int().min(0).max(5000),
  debounceMs: z.number().int().min(0).max(5000),
  minChars: z.number().int().min(1).max(20),
  suggestLimit: z.number().int().min(1).max(50),
});

/** Problems of `config.searchOverlay`, one line each naming the setting (empty = none). */
export function searchOverlaySettingsErrors(config: SiteConfig): string[] {
  const parsed = searchOverlaySettingsSchema.safeParse(config.searchOverlay);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${["searchOverlay", ...issue.path].join(".")} ${issue.message}`);
}
