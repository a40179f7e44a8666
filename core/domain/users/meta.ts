/**
 * The user meta keys the shop registers, as WordPress's register_meta(show_in_rest) does: only these may be read and
 * written through the REST API's `meta` object (docs/contract/wire.md §2 'Users'), each with its allowed values.
 */

export const USER_META: Record<string, { values: readonly string[]; default: string }> = {
  /** The coming-soon footer banner was dismissed (docs/contract/storefront.md §4 'Banners and fields'). */
  coming_soon_banner_dismissed: { values: ["yes", "no", ""], default: "" },
};

export type UserMetaUpdate = { ok: true; values: Record<string, string> } | { ok: false; param: string; message: string };

/** Checks a `meta` object of a REST request: an object of registered keys with allowed values, nothing else. */
export function parseUserMetaUpdate(meta: unknown): UserMetaUpdate {
  if (meta === null || typeof meta !== "object" || Array.isArray(meta)) return { ok: false, param: "meta", message: "meta is not of type object." };
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(meta)) {
    const field = Object.hasOwn(USER_META, key) ? USER_META[key] : undefined;
    if (!field) return { ok: false, param: "meta", message: `meta.${key} is not a registered user meta key.` };
    if (typeof value !== "string" || !field.values.includes(value)) {
      return { ok: false, param: "meta", message: `meta.${key} is not one of ${field.values.map((v) => JSON.stringify(v)).join(", ")}.` };
    }
    values[key] = value;
  }
  return { ok: true, values };
}

/** Every registered key with its stored value, or its default. */
export function userMetaView(stored: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(USER_META).map(([key, f]) => [key, Object.hasOwn(stored, key) ? stored[key]! : f.default]));
}
