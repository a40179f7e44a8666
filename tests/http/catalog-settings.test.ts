/**
 * Swatch settings from the site configuration (SHOP_SETTINGS) reach the server's own
 * variation matching: with disable_out_of_stock off, get_variation answers a sold-out
 * variation (out of stock) instead of false.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { SITE_CONFIG } from "../../core/config/site-config.ts";
import { applySettingsOverrides } from "../../core/config/settings-overrides.ts";
import { DEFAULT_SWATCH_SETTINGS } from "../../core/domain/catalog/settings.ts";

let shop: TestShop;
let productId: number;

beforeAll(async () => {
  shop = await startTestShop({ SHOP_SETTINGS: JSON.stringify({ swatches: { disable_out_of_stock: false } }) });
  const [row] = await shop.services.db.query<{ product_id: number }>(
    `SELECT v.product_id FROM variations v JOIN products p ON p.id = v.product_id WHERE p.type = 'variable' AND v.stock_status = 'outofstock' ORDER BY v.id LIMIT 1`,
  );
  productId = row!.product_id;
});
afterAll(async () => {
  await shop?.close();
});

describe("swatch settings in the site configuration", () => {
  it("get_variation answers a sold-out variation when disable_out_of_stock is off", async () => {
    const [soldOut] = await shop.services.db.query<{ id: number; attributes: Record<string, string> }>(
      `SELECT id, attributes FROM variations WHERE product_id = $1 AND stock_status = 'outofstock' ORDER BY id LIMIT 1`,
      [productId],
    );
    const client = new TestClient(shop.url);
    const res = await client.post("/?wc-ajax=get_variation", { product_id: String(productId), ...soldOut!.attributes });
    expect(res.status).toBe(200);
    const v = (await res.json()) as { variation_id: number; is_in_stock: boolean };
    expect(v.variation_id).toBe(soldOut!.id);
    expect(v.is_in_stock).toBe(false);
  });

  it("the swatches block mirrors the domain's defaults, and an unknown or mistyped swatch setting is refused", () => {
    // Checked on the merge itself: a shop refusing to start would leave its database behind.
    const { display_limit: _d, archive_display_limit: _a, ...defaults } = DEFAULT_SWATCH_SETTINGS;
    expect(SITE_CONFIG.swatches).toEqual(defaults);
    expect(applySettingsOverrides(SITE_CONFIG, JSON.stringify({ swatches: { clear_on_reselect: true } })).swatches.clear_on_reselect).toBe(true);
    expect(() => applySettingsOverrides(SITE_CONFIG, JSON.stringify({ swatches: { clear_on_reselct: true } }))).toThrow(
      /unknown setting swatches\.clear_on_reselct/,
    );
    expect(() => applySettingsOverrides(SITE_CONFIG, JSON.stringify({ swatches: { stock_label_threshold: "5" } }))).toThrow(/must be a number/);
  });
});
