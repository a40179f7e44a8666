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

export const popupBridge: {
  engine: EngineHandle | null;
  pending: ((engine: EngineHandle) => void)[];
  /**
   * Where the page was scrolled when the boot began waiting for the shopper's first move (the engine loads then,
   * PopupBoot.tsx): a scroll made before the engine came counts for its scrolling trigger. Null when it loaded at once.
   */
  scrollBaseline: number | null;
} = { engine: null, pending: [], scrollBaseline: null };

export function withEngine(run: (engine: EngineHandle) => void): void {
  if (popupBridge.engine) run(popupBridge.engine);
  else popupBridge.pending.push(run);
}
