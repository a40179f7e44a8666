/**
 * The live-match widget's behaviour without React: loading, selection with the
 * stored slug, live updates, indicators and the auto-update timer (docs/contract/storefront.md §4). The
 * component only renders `getState()`; tests drive this with fakes and a fake clock.
 */
import { LIVE_AUTO_UPDATE_MS, MATCH_SLUG_STORAGE_KEY, SPORT } from "../../../core/domain/live/constants.ts";
import { nextExpiry, pruneIndicators, setIndicator } from "../../../core/domain/live/indicator.ts";
import { toMatchMap, type LiveMatch, type MatchMap } from "../../../core/domain/live/schema.ts";
import { selectMatch } from "../../../core/domain/live/selection.ts";
import { applyUpdate, parseUpdate, shouldRefetch } from "../../../core/domain/live/update.ts";
import type { Rpc, Subscribe } from "./connection.ts";
import { loadLiveMatches, type Log } from "./loading.ts";
import { INITIAL_LIVE_STATE, selectedMatch, type LiveMatchState } from "./live-state.ts";

export { INITIAL_LIVE_STATE, selectedMatch, type LiveMatchState };

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface ControllerDeps {
  readonly rpc: Rpc;
  readonly subscribe: Subscribe;
  readonly storage: StorageLike | null;
  readonly lang: string;
  readonly log: Log;
  readonly now: () => number;
  readonly timers: Timers;
  readonly channel?: string;
}

export interface LiveMatchController {
  start(): void;
  stop(): void;
  getState(): LiveMatchState;
  /** React's useSyncExternalStore contract. */
  subscribe(listener: () => void): () => void;
  /** Fetches the full data again and re-selects. */
  reload(): Promise<void>;
}

export function createLiveMatchController(deps: ControllerDeps): LiveMatchController {
  let state = INITIAL_LIVE_STATE;
  const listeners = new Set<() => void>();
  let autoTimer: unknown = null;
  let indicatorTimer: unknown = null;
  let unsubscribe: (() => void) | null = null;
  let stopped = true;
  let loadSeq = 0;

  const set = (next: LiveMatchState): void => {
    if (next === state) return;
    state = next;
    for (const l of listeners) l();
  };

  // The auto-update refetches everything; any sign of life for the selected match postpones it.
  const resetAutoUpdate = (): void => {
    if (autoTimer !== null) deps.timers.clearTimeout(autoTimer);
    autoTimer = stopped ? null : deps.timers.setTimeout(() => void reload(), LIVE_AUTO_UPDATE_MS);
  };

  const scheduleIndicatorPrune = (): void => {
    if (indicatorTimer !== null) deps.timers.clearTimeout(indicatorTimer);
    indicatorTimer = null;
    const at = nextExpiry(state.indicators);
    if (at === null || stopped) return;
    indicatorTimer = deps.timers.setTimeout(
      () => {
        set({ ...state, indicators: pruneIndicators(state.indicators, deps.now()) });
        scheduleIndicatorPrune();
      },
      Math.max(0, at - deps.now()),
    );
  };

  const storage = {
    get: (): string | null => {
      try {
        return deps.storage?.getItem(MATCH_SLUG_STORAGE_KEY) ?? null;
      } catch {
        return null; // storage can be blocked (privacy modes); the widget still works
      }
    },
    apply: (action: ReturnType<typeof selectMatch>["storage"]): void => {
      try {
        if (action.kind === "set") deps.storage?.setItem(MATCH_SLUG_STORAGE_KEY, action.slug);
        else if (action.kind === "clear") deps.storage?.removeItem(MATCH_SLUG_STORAGE_KEY);
      } catch {
        /* see above */
      }
    },
  };

  const select = (matches: MatchMap, allowReload: boolean): boolean => {
    const s = selectMatch(matches, storage.get(), state.selected);
    storage.apply(s.storage);
    if (s.reload && allowReload) return true;
    // After a reload the stored slug is gone, so this second pass picks afresh.
    const final = s.reload ? selectMatch(matches, storage.get(), state.selected) : s;
    if (final !== s) storage.apply(final.storage);
    set({ ...state, loading: false, matches, selected: final.slug });
    if (final.changed) resetAutoUpdate();
    return false;
  };

  async function reload(allowReload = true): Promise<void> {
    const seq = ++loadSeq;
    let matches: LiveMatch[];
    try {
      matches = await loadLiveMatches(deps.rpc, deps.lang, deps.log);
    } catch (e) {
      deps.log("Live matches could not be loaded", e);
      matches = [];
    }
    if (stopped || seq !== loadSeq) return; // a newer load won
    const needsReload = select(toMatchMap(matches), allowReload);
    if (needsReload) return reload(false);
    resetAutoUpdate();
  }

  const onPublication = (data: unknown): void => {
    const parsed = parseUpdate(data);
    if (!parsed.ok) {
      deps.log(parsed.log, data);
      return;
    }
    const update = parsed.update;
    const current = selectedMatch(state);
    const refetch = shouldRefetch(current, update);
    const result = applyUpdate(state.matches, update);
    for (const line of result.logs) deps.log(line);
    if (result.applied) {
      let indicators = state.indicators;
      const t = deps.now();
      for (const side of ["home", "away"] as const) {
        const dir = result.scoreChanges[side];
        if (dir) indicators = setIndicator(indicators, update.slug, side, dir, t);
      }
      set({ ...state, matches: result.matches, indicators });
      if (result.scoreChanges.home || result.scoreChanges.away) scheduleIndicatorPrune();
    }
    if (current && update.slug === current.slug) resetAutoUpdate();
    if (refetch) void reload();
  };

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      unsubscribe = deps.subscribe(deps.channel ?? SPORT /* the channel is named after the sport */, onPublication);
      void reload();
    },
    stop() {
      stopped = true;
      unsubscribe?.();
      unsubscribe = null;
      for (const t of [autoTimer, indicatorTimer]) if (t !== null) deps.timers.clearTimeout(t);
      autoTimer = indicatorTimer = null;
    },
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reload: () => reload(),
  };
}
