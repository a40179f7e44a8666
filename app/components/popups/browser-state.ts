/** The engine's and the page visit's access to the browser: the "elementor" storage objects and the event report (with `_locale=user`, docs/contract/storefront.md §7 'REST client'). */
import { withUserLocale } from "../../lib/rest-url.ts";
/** Reads and writes the "elementor" storage objects; a browser that refuses storage (private mode, quota) gets none. */
export function storageObject(area: "localStorage" | "sessionStorage", key: string): { value: Record<string, unknown>; save(): void } {
  let store: Storage | null = null;
  try {
    store = window[area];
  } catch {
    store = null;
  }
  let value: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(store?.getItem(key) ?? "{}");
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) value = parsed as Record<string, unknown>;
  } catch {
    value = {};
  }
  return {
    value,
    save() {
      try {
        store?.setItem(key, JSON.stringify(value));
      } catch {
        // storage full or refused: the popup still works for this page
      }
    },
  };
}

/** The browser's report to the server (docs/contract/wire.md §2 'Popups'); fire and forget, survives navigation. */
export function reportPopupEvent(id: number, event: string, extra: Record<string, unknown> = {}): void {
  try {
    void fetch(withUserLocale(`/wp-json/shop/v1/popups/${id}/events`), {
      method: "POST",
      keepalive: true,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ event, ...extra }),
    }).catch(() => undefined);
  } catch {
    // never let measuring break the page
  }
}
