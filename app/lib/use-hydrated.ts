/**
 * Whether the page is hydrated: false in the server render and in the hydration render (so both produce the same
 * markup), true from then on and in components first mounted on the client. Progressive enhancement keys off it.
 */
import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
