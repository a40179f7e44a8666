/**
 * The product page's discount script on demand (issue 18): the live price and bulk-table refresh
 * (dynamic-pricing.ts) load when the shopper first touches the product form — a pointer, a key, focus, or a change
 * another script makes (a variation event, the variation field, the add-on's init trigger) — not with the page.
 * Changes made while the chunk loads are applied once it is there.
 */
import type { AwdrParams } from "./awdr-params.ts";
import type * as DynamicPricing from "./dynamic-pricing.ts";

type Load = () => Promise<typeof DynamicPricing>;

const TOUCH_EVENTS = ["pointerdown", "touchstart", "focusin", "keydown"] as const;
const CHANGE_EVENTS = ["change", "input", "found_variation", "show_variation"] as const;

export function mountDynamicPricingOnDemand(params: AwdrParams, load: Load): () => void {
  const form = document.querySelector("div.product form.cart");
  let stopped = false;
  let stopMounted: (() => void) | undefined;
  if (!(form instanceof HTMLFormElement)) {
    // No product form: the script itself says so ('Incorrect form provided').
    void load().then((m) => !stopped && (stopMounted = m.mountDynamicPricing(params, form)));
    return () => {
      stopped = true;
      stopMounted?.();
    };
  }
  let started = false;
  let changed: { variation: DynamicPricing.VariationInfo | null } | null = null;
  const cleanups: (() => void)[] = [];
  const release = () => cleanups.splice(0).forEach((f) => f());

  const start = () => {
    if (started) return;
    started = true;
    load().then(
      (m) => {
        if (stopped) return;
        release();
        stopMounted = m.mountDynamicPricing(params, form, changed ?? undefined);
      },
      () => undefined, // a failed chunk leaves the server-rendered prices and table
    );
  };
  const onTouch = () => start();
  const onChange = (event: Event) => {
    const detail = event instanceof CustomEvent ? (event.detail as DynamicPricing.VariationInfo | undefined) : undefined;
    changed = { variation: detail ?? changed?.variation ?? null };
    start();
  };
  for (const name of TOUCH_EVENTS) {
    form.addEventListener(name, onTouch, { passive: true });
    cleanups.push(() => form.removeEventListener(name, onTouch));
  }
  for (const name of CHANGE_EVENTS) {
    form.addEventListener(name, onChange);
    cleanups.push(() => form.removeEventListener(name, onChange));
  }
  const variationField = form.querySelector('[name="variation_id"]');
  if (variationField) {
    const observer = new MutationObserver(() => onChange(new Event("change")));
    observer.observe(variationField, { attributes: true, attributeFilter: ["value"] });
    cleanups.push(() => observer.disconnect());
  }
  if (params.js_init_trigger) {
    const trigger = params.js_init_trigger;
    const reinit = (event: Event) => onChange(event);
    document.addEventListener(trigger, reinit);
    cleanups.push(() => document.removeEventListener(trigger, reinit));
  }
  // A quantity the browser restored (back/forward) is a change already made.
  const quantity = form.querySelector<HTMLInputElement>('[name="quantity"]');
  if (quantity && quantity.value !== quantity.defaultValue) onChange(new Event("change"));

  return () => {
    stopped = true;
    release();
    stopMounted?.();
  };
}
