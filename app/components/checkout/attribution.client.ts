/**
 * Order attribution in the browser (docs/contract/wire.md §4): on every page view, classify the visit and write the
 * sbjs_* cookies (core/domain/attribution), then fill each form's <wc-order-attribution-inputs> with the 16 hidden
 * wc_order_attribution_* inputs, as WooCommerce's order-attribution.js does.
 */
import {
  WC_ATTRIBUTION_PREFIX,
  WC_FIELD_MAP,
  WC_SBJS_PARAMS,
  attributionInputs,
  cookieString,
  parseCookieHeader,
  sbjsInit,
  type SbjsData,
} from "../../../core/domain/attribution/sourcebuster.ts";

let latest: SbjsData | null = null;

/** One page view: `referrer` is document.referrer on a document load, the previous URL after an in-app navigation. */
export function trackPageView(url: string, referrer: string): SbjsData {
  const { data, writes } = sbjsInit(
    { url, referrer, now: new Date(), userAgent: navigator.userAgent, cookies: parseCookieHeader(document.cookie) },
    WC_SBJS_PARAMS,
  );
  for (const write of writes) document.cookie = cookieString(write);
  latest = data;
  return data;
}

/** Fills the first <wc-order-attribution-inputs> of each form (and any outside a form) with its hidden inputs. */
export function fillAttributionInputs(root: ParentNode = document): void {
  const values = attributionInputs(latest);
  const seenForms = new Set<Element>();
  for (const el of root.querySelectorAll("wc-order-attribution-inputs")) {
    const form = el.closest("form");
    if (form) {
      if (seenForms.has(form)) continue;
      seenForms.add(form);
    }
    for (const field of Object.keys(WC_FIELD_MAP)) {
      const name = WC_ATTRIBUTION_PREFIX + field;
      let input = el.querySelector<HTMLInputElement>(`input[name="${name}"]`);
      if (!input) {
        input = document.createElement("input");
        input.type = "hidden";
        input.name = name;
        el.appendChild(input);
      }
      input.value = values[name] ?? "";
    }
  }
}
