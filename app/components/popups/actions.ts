/**
 * Link actions (docs/contract/storefront.md §2 'Popups and link actions'), loaded on the first click on such a link:
 * popup:open / popup:close go to the engine, off_canvas:* show or hide the element `#off-canvas-{id}`, reload-page
 * reloads.
 */
import { parseLinkAction } from "../../../core/domain/popups/link-actions.ts";
import { popupBridge, withEngine } from "./bridge.ts";
import { SITE_CONFIG } from "../../../core/config/site-config.ts";

function offCanvas(action: "open" | "close" | "toggle", id: string, link: Element): void {
  const panel = document.getElementById(`off-canvas-${id}`);
  if (!panel) return;
  const open = action === "toggle" ? panel.hidden : action === "open";
  panel.hidden = !open;
  panel.classList.toggle("is-open", open);
  for (const l of document.querySelectorAll(`[aria-controls="off-canvas-${id}"]`)) l.setAttribute("aria-expanded", String(open));
  if (open) {
    if (!panel.hasAttribute("tabindex")) panel.setAttribute("tabindex", "-1");
    setTimeout(() => panel.focus(), SITE_CONFIG.popups.offCanvasFocusDelayMs);
  } else if (panel.contains(document.activeElement) && link instanceof HTMLElement) link.focus();
}

/** Runs the link's action; false when the href names none (the click then proceeds as a plain link). */
export function runLinkAction(href: string, link: Element, hasPopups: boolean): boolean {
  const action = parseLinkAction(href);
  if (!action) return false;
  switch (action.action) {
    case "popup:open":
      if (hasPopups || popupBridge.engine) withEngine((e) => e.open(action.id, action.toggle));
      break;
    case "popup:close":
      popupBridge.engine?.close(link, action.doNotShowAgain);
      break;
    case "reload-page":
      window.location.reload();
      break;
    default:
      offCanvas(action.action.slice("off_canvas:".length) as "open" | "close" | "toggle", action.id, link);
  }
  return true;
}
