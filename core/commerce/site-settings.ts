/**
 * The site configuration as the storefront reads it on each page: `services.config` (defaults + SHOP_SETTINGS,
 * fixed at start-up) with the sections the owner saved over REST laid over it, field by field
 * (core/config/editable-settings.ts, docs/contract/rest/shop-v1.md 'Settings'). Saved values live in the `settings`
 * table under `site_settings.{section}` as the fields the owner set.
 *
 * Cached per database for SITE_SETTINGS_CACHE_MS, because every page reads it; a save in this process clears the
 * cache after its transaction commits, so the next page shows the change. Other processes sharing a PostgreSQL
 * database are told over Redis when REDIS_URL is set (core/cache-tags.ts), else see it within the cache's lifetime.
 */
import { createHash } from "node:crypto";
import type { z } from "zod";
import type { Db, Queryable } from "../db/client.ts";
import type { SiteConfig } from "../config/site-config.ts";
import { EDITABLE_SETTINGS, sectionFields, withSavedSettings, type EditableSection } from "../config/editable-settings.ts";
import { deleteSetting, putSetting, readSetting, settingsWithPrefix } from "../db/repositories/settings.ts";
import { registerSingleton } from "../singletons.ts";
import { onTagChanged, tagChanged } from "../cache-tags.ts";

const PREFIX = "site_settings.";
export const SITE_SETTINGS_CACHE_MS = 5_000;

/** The merged configuration per database handle (one shop's `services.config` is fixed for its life). */
let cache = new WeakMap<object, { at: number; base: SiteConfig; config: Promise<SiteConfig> }>();
registerSingleton("site settings cache");

onTagChanged("site-settings", () => (cache = new WeakMap()));

/** Clears the cached configurations, in this process and (through core/cache-tags.ts) in every other one. */
function invalidateSiteSettings(): void {
  tagChanged("site-settings");
}

/** The configuration the storefront uses for this request. */
export function currentSiteConfig(services: { db: Db; config: SiteConfig }, nowMs = Date.now()): Promise<SiteConfig> {
  const { db, config: base } = services;
  const hit = cache.get(db);
  if (hit && hit.base === base && nowMs - hit.at < SITE_SETTINGS_CACHE_MS) return hit.config;
  const config = settingsWithPrefix(db, PREFIX).then((saved) => withSavedSettings(base, saved as Partial<Record<EditableSection, unknown>>));
  const entries = cache;
  entries.set(db, { at: nowMs, base, config });
  // A failed read is not remembered.
  config.catch(() => entries.get(db)?.config === config && entries.delete(db));
  return config;
}

/** One section's values in effect (what GET answers). */
export async function readSection(services: { db: Db; config: SiteConfig }, name: EditableSection): Promise<unknown> {
  return (await currentSiteConfig(services))[EDITABLE_SETTINGS[name].key];
}

/**
 * The version of a section's values in effect (its `ETag`): a digest of the values themselves, so it changes with
 * every save that changes something, and a save that changed nothing (or a reset to the same values) keeps it.
 */
export function sectionVersion(values: unknown): string {
  return createHash("md5").update(canonicalJson(values)).digest("hex").slice(0, 16);
}

/** JSON with object keys sorted: the defaults and a parsed section hold the same values in different key orders. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

export type SaveSectionOutcome =
  | { ok: true; before: Record<string, unknown>; after: Record<string, unknown> }
  | { ok: false; error: z.ZodError; value: unknown }
  | { ok: false; changed: true };

/**
 * Saves the fields of `patch` for a section: each is checked with the section's schema together with the values
 * in effect (so a rule spanning two fields holds), then stored beside the fields saved before. `onSaved` runs in
 * the same transaction (the audit line). Nothing is stored when the schema refuses.
 */
export async function saveSection(
  services: { db: Db; config: SiteConfig },
  name: EditableSection,
  patch: unknown,
  onSaved: (tx: Queryable, before: Record<string, unknown>, after: Record<string, unknown>) => Promise<void>,
  /** The version the writer read (`If-Match`): a save over values changed since then is refused, nothing stored. */
  expectedVersion?: string,
): Promise<SaveSectionOutcome> {
  const { key, schema } = EDITABLE_SETTINGS[name];
  const fields = sectionFields(name).safeParse(patch ?? {});
  if (!fields.success) return { ok: false, error: fields.error, value: patch };
  const outcome = await services.db.transaction(async (tx): Promise<SaveSectionOutcome> => {
    // Two owners saving different fields at once must not lose one: the row is locked for the read-modify-write.
    const stored = await readSetting(tx, PREFIX + name, true);
    const savedBefore = stored && typeof stored === "object" ? (stored as Record<string, unknown>) : {};
    const base = services.config[key] as Record<string, unknown>;
    const beforeParsed = schema.safeParse({ ...base, ...savedBefore });
    const before = (beforeParsed.success ? beforeParsed.data : base) as Record<string, unknown>;
    if (expectedVersion !== undefined && expectedVersion !== sectionVersion(before)) return { ok: false, changed: true };
    const changes: Record<string, unknown> = { ...fields.data };
    // As WooCommerce names its notice by the text's md5: a new text shows again to those who hid the old one.
    if (name === "store-notice" && typeof changes.text === "string" && changes.noticeId === undefined && changes.text !== before.text) {
      changes.noticeId = createHash("md5").update(changes.text).digest("hex");
    }
    const savedAfter = { ...(beforeParsed.success ? savedBefore : {}), ...changes };
    const after = schema.safeParse({ ...base, ...savedAfter });
    if (!after.success) return { ok: false, error: after.error, value: patch };
    await putSetting(tx, PREFIX + name, savedAfter);
    await onSaved(tx, before, after.data as Record<string, unknown>);
    return { ok: true, before, after: after.data as Record<string, unknown> };
  });
  invalidateSiteSettings();
  return outcome;
}

/** Forgets what the owner saved for a section: SHOP_SETTINGS and the defaults apply again. */
export async function resetSection(
  services: { db: Db; config: SiteConfig },
  name: EditableSection,
  onReset: (tx: Queryable, before: unknown) => Promise<void>,
): Promise<boolean> {
  const before = await readSection(services, name);
  const removed = await services.db.transaction(async (tx) => {
    const gone = await deleteSetting(tx, PREFIX + name);
    if (gone) await onReset(tx, before);
    return gone;
  });
  invalidateSiteSettings();
  return removed;
}
