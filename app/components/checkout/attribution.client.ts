/**
 * Order attribution in the browser after hydration (docs/contract/wire.md §4): each in-app navigation is a page view
 * (attribution-run.ts; the document load was counted by the inline pre-hydration script), a consent change counts
 * or clears, and each form's <wc-order-attribution-inputs> gets the 16 hidden wc_order_attribution_* inputs, as
 * WooCommerce's order-attribution.js does.
 */
import { WC_ATTRIBUTION_PREFIX, WC_FIELD_MAP, attributionInputs } from "../../../core/domain/attribution/sourcebuster.ts";
import { consentChanged, pageView } from "./attribution-run.ts";

/** One page view; the document load only when the inline script did not run (it sets window.sbjs). */
export function trackPageView(url: string, referrer: string, documentLoad: boolean): void {
  if (documentLoad && window.sbjs) return;
  pageView(url, referrer);
}

export function trackConsentChange(): void {
  consentChanged();
}

const filled = new WeakSet<Element>();

/**
 * Fills the first <wc-order-attribution-inputs> of each form (and any outside a form). An element is given its
 * inputs once; when one has gone missing later, the console says the element was manipulated (§8), as WooCommerce does.
 */
export function fillAttributionInputs(root: ParentNode = document): void {
  const values = attributionInputs(window.sbjs?.get ?? null);
  const seenForms = new Set<Element>();
  for (const el of root.querySelectorAll("wc-order-attribution-inputs")) {
    const form = el.closest("form");
    if (form) {
      if (seenForms.has(form)) continue;
      seenForms.add(form);
    }
    const first = !filled.has(el);
    filled.add(el);
    for (const field of Object.keys(WC_FIELD_MAP)) {
      const name = WC_ATTRIBUTION_PREFIX + field;
      let input = el.querySelector<HTMLInputElement>(`input[name="${name}"]`);
      if (!input) {
        if (!first) {
          console.warn(`Field "${field}" not found. Most likely, the '<wc-order-attribution-inputs>' element was manipulated.`);
          continue;
        }
        input = document.createElement("input");
        input.type = "hidden";
        input.name = name;
        el.appendChild(input);
      }
      input.value = values[name] ?? "";
    }
  }
}
