/**
 * Link actions anywhere in page content (docs/contract/storefront.md §2 'Popups and link actions'): a link whose
 * href is `#popup:open:{id}`, `#popup:close` (`#popup:close:do_not_show_again`), `#off_canvas:open|close|toggle:{id}`
 * or `#reload-page`, or the plugin's own form `#elementor-action:action={name}&settings={base64 JSON}` (also
 * URL-encoded, as editors save it). Anything else is no action: the link behaves as a link.
 */

export type LinkAction =
  | { action: "popup:open"; id: number; toggle: boolean }
  | { action: "popup:close"; doNotShowAgain: boolean }
  | { action: "off_canvas:open" | "off_canvas:close" | "off_canvas:toggle"; id: string }
  | { action: "reload-page" };

const OFF_CANVAS_ID = /^[A-Za-z0-9_-]{1,64}$/;
const popupId = (v: unknown): number | null => {
  const n = typeof v === "number" ? v : typeof v === "string" && /^[1-9][0-9]{0,9}$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647 ? n : null;
};
const yes = (v: unknown) => v === true || v === "yes" || v === "1" || v === 1;

function build(name: string, settings: Record<string, unknown>): LinkAction | null {
  switch (name) {
    case "popup:open": {
      const id = popupId(settings.id);
      return id === null ? null : { action: "popup:open", id, toggle: yes(settings.toggle) };
    }
    case "popup:close":
      return { action: "popup:close", doNotShowAgain: yes(settings.do_not_show_again) };
    case "off_canvas:open":
    case "off_canvas:close":
    case "off_canvas:toggle": {
      const id = typeof settings.id === "string" && OFF_CANVAS_ID.test(settings.id) ? settings.id : null;
      return id === null ? null : { action: name, id };
    }
    case "reload-page":
      return { action: "reload-page" };
    default:
      return null;
  }
}

function decodeSettings(encoded: string | null): Record<string, unknown> | null {
  if (!encoded) return {};
  try {
    const v: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0))));
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The action a link's href names, or null. */
export function parseLinkAction(href: string): LinkAction | null {
  if (!href.startsWith("#") || href.length > 2000) return null;
  let hash = href.slice(1);
  if (/^elementor-action%3A/i.test(hash)) {
    try {
      hash = decodeURIComponent(hash);
    } catch {
      return null;
    }
  }
  if (hash.startsWith("elementor-action:")) {
    const params = new URLSearchParams(hash.slice("elementor-action:".length));
    const name = params.get("action");
    const settings = decodeSettings(params.get("settings"));
    return name && settings ? build(name, settings) : null;
  }
  if (hash === "reload-page") return { action: "reload-page" };
  const popup = /^popup:(open|close)(?::(.+))?$/.exec(hash);
  if (popup) {
    if (popup[1] === "open") return build("popup:open", { id: popup[2] });
    if (popup[2] !== undefined && popup[2] !== "do_not_show_again") return null;
    return build("popup:close", { do_not_show_again: popup[2] === "do_not_show_again" });
  }
  const offCanvas = /^off_canvas:(open|close|toggle):(.+)$/.exec(hash);
  if (offCanvas) return build(`off_canvas:${offCanvas[1]}`, { id: offCanvas[2] });
  return null;
}
