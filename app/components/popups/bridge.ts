/**
 * What the always-loaded boot (PopupBoot.tsx) and the lazily loaded engine share: the engine registers its handle
 * here once it runs; link actions that arrive before that wait in `pending` (docs/contract/storefront.md §2
 * 'Popups and link actions').
 */
export interface EngineHandle {
  open(id: number, toggle: boolean): void;
  /** Closes the popup holding `from` (else the top one). */
  close(from: Element | null, doNotShowAgain: boolean): void;
}

export const popupBridge: { engine: EngineHandle | null; pending: ((engine: EngineHandle) => void)[] } = { engine: null, pending: [] };

export function withEngine(run: (engine: EngineHandle) => void): void {
  if (popupBridge.engine) run(popupBridge.engine);
  else popupBridge.pending.push(run);
}

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
    void fetch(`/wp-json/shop/v1/popups/${id}/events`, {
      method: "POST",
      keepalive: true,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ event, ...extra }),
    }).catch(() => undefined);
  } catch {
    // never let measuring break the page
  }
}
