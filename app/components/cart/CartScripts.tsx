import { useEffect } from "react";
import { loadChunk } from "../../lib/page-errors.ts";

/**
 * Mounts the cart's browser behaviour once, after hydration: add-to-cart buttons and forms, the
 * fragments cache, mini-cart removal, the drawer and the cart page. Loaded as its own small chunk.
 */
export function CartScripts() {
  useEffect(() => {
    let stop: (() => void) | undefined;
    let cancelled = false;
    loadChunk("cart-client", () => import("./cart-client.ts")).then(
      (m) => {
        if (!cancelled) stop = m.mountCart();
      },
      () => undefined, // shown to the shopper by loadChunk
    );
    return () => {
      cancelled = true;
      stop?.();
    };
  }, []);
  return null;
}
