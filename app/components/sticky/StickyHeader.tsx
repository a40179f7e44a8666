/**
 * Mounts the sticky header behaviour on the page's header (`#masthead`) when a mode is set for either device
 * (docs/contract/sticky-quick-view.md §1). Renders nothing: the header component stays as it is, this only adds
 * classes and a placeholder beside it. With both modes 'none' (the spec's configuration) no script chunk or stylesheet loads.
 */
import { useEffect } from "react";
import { useRouteLoaderData } from "react-router";
import { loadChunk } from "../../lib/page-errors.ts";
import type { StickyHeaderSettings } from "./sticky-header.client.ts";

export function StickyHeader() {
  const root = useRouteLoaderData("root") as { globals?: { shop_sticky_header?: StickyHeaderSettings } } | undefined;
  const settings = root?.globals?.shop_sticky_header;
  const key = settings ? JSON.stringify(settings) : "";
  useEffect(() => {
    if (!settings || (settings.desktop === "none" && settings.mobile === "none")) return;
    const header = document.getElementById("masthead");
    if (!header) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    loadChunk("sticky-header", () => import("./sticky-header.client.ts")).then(
      (m) => {
        if (!cancelled) stop = m.mountStickyHeader(header, settings);
      },
      () => undefined, // shown to the shopper by loadChunk
    );
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [key]); // eslint-disable-line react-hooks/exhaustive-deps
  return null;
}
