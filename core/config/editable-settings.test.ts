import { describe, expect, it } from "vitest";
import { SITE_CONFIG } from "./site-config.ts";
import { applySettingsOverrides } from "./settings-overrides.ts";
import { editableSettingsErrors, withSavedSettings } from "./editable-settings.ts";

describe("editable settings", () => {
  it("the defaults pass their schemas", () => {
    expect(editableSettingsErrors(SITE_CONFIG)).toEqual([]);
  });

  it("SHOP_SETTINGS goes through the same schemas", () => {
    expect(() => applySettingsOverrides(SITE_CONFIG, JSON.stringify({ storeNotice: { noticeId: "<b>" } }))).toThrow(/storeNotice\.noticeId/);
    expect(() => applySettingsOverrides(SITE_CONFIG, JSON.stringify({ attribution: { sessionMinutes: 0 } }))).toThrow(/attribution\.sessionMinutes/);
  });

  it("saved fields win over SHOP_SETTINGS, field by field; a stored section that no longer passes is ignored", () => {
    const base = applySettingsOverrides(SITE_CONFIG, JSON.stringify({ storeNotice: { text: "env" } }));
    const config = withSavedSettings(base, { "store-notice": { enabled: false }, consent: { required: "maybe" } });
    expect(config.storeNotice).toEqual({ enabled: false, noticeId: "a1b2c3", text: "env" });
    expect(config.consent).toEqual(SITE_CONFIG.consent);
    expect(withSavedSettings(base, {})).toBe(base);
  });
});
