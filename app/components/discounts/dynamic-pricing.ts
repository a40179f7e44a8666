/**
 * The discount add-on's page script (docs/contract/storefront.md §2 "Discount pricing", §5 "Discount add-on", §7, §8): finds the
 * product form and the price area by the configured selectors at run time — it needs nothing from the
 * product page's own components — and refreshes the price area as the quantity or the variation changes,
 * and the bulk-discount table as the variation changes. Plain DOM; the server does all the pricing.
 */
import type { AwdrParams } from "./awdr-params.ts";
import { emitWcEvent } from "../../lib/wc-events.ts";

export const DEFAULT_SIMPLE_TARGET = "div.product p.price";
export const DEFAULT_VARIABLE_TARGET = "div.product .woocommerce-variation-price";
export const BULK_TABLE_SELECTOR = ".awdr-bulk-customizable-table";
export const PRICE_UPDATE_EVENT = "wdr_dynamic_price_update";
export const PRODUCT_DISCOUNT_EVENT = "advanced_woo_discount_rules_on_get_response_for_dynamic_discount";
export const ERROR_PREFIX = "Advance discount rule error: ";

interface AjaxAnswer {
  success?: boolean;
  data?: Record<string, unknown> & { message?: string };
}

/** The variation object the add-on reads (docs/contract/storefront.md §3): id and whether it belongs to a bundle. */
export interface VariationInfo {
  variation_id?: number | string;
  is_bundled?: boolean;
}

/** 'Incorrect form provided' unless it is a form element. */
export function asProductForm(form: unknown): HTMLFormElement | null {
  if (typeof HTMLFormElement === "undefined" || !(form instanceof HTMLFormElement)) {
    console.log("Incorrect form provided");
    return null;
  }
  return form;
}

export function isVariableForm(form: HTMLFormElement): boolean {
  return form.classList.contains("variations_form");
}

/** The quantity field's value; 0 when the form has no quantity input (docs/contract/storefront.md §5). */
export function readQuantity(form: HTMLFormElement): number {
  const input = form.querySelector<HTMLInputElement>('[name="quantity"]');
  if (!input) return 0;
  const n = Number.parseInt(input.value, 10);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

function fieldValue(el: Element | null): string {
  if (!el) return "";
  if (el instanceof HTMLInputElement || el instanceof HTMLButtonElement || el instanceof HTMLSelectElement) return el.value;
  return el.getAttribute("value") ?? el.getAttribute("data-product_id") ?? "";
}

/** The attribute values chosen in a variable form's selects. */
function chosenAttributes(form: HTMLFormElement): Record<string, string> {
  const chosen: Record<string, string> = {};
  for (const select of form.querySelectorAll<HTMLSelectElement>("select[data-attribute_name], select[name^='attribute_']")) {
    chosen[select.dataset.attribute_name ?? select.name] = select.value;
  }
  return chosen;
}

/**
 * The variation the form has chosen: its `variation_id` field, or — when nothing has filled it in yet —
 * the one variation in `data-product_variations` matching every chosen attribute (an empty side matches
 * anything, docs/contract/storefront.md §5 "Variations").
 */
export function readVariation(form: HTMLFormElement): VariationInfo | null {
  const field = fieldValue(form.querySelector('[name="variation_id"]'));
  const all = parseVariations(form);
  if (field && field !== "0") return all.find((v) => String(v.variation_id) === field) ?? { variation_id: field, is_bundled: false };
  const chosen = chosenAttributes(form);
  const values = Object.values(chosen);
  if (values.length === 0 || values.some((v) => v === "")) return null;
  const match = all.find((v) => Object.entries(v.attributes ?? {}).every(([k, want]) => !want || !chosen[k] || chosen[k] === want));
  return match ?? null;
}

function parseVariations(form: HTMLFormElement): (VariationInfo & { attributes?: Record<string, string> })[] {
  try {
    const parsed: unknown = JSON.parse(form.dataset.product_variations ?? "[]");
    return Array.isArray(parsed) ? (parsed as (VariationInfo & { attributes?: Record<string, string> })[]) : [];
  } catch {
    return [];
  }
}

/** The product id to price: the variation for a variable form, else the add-to-cart id (or a configured selector). */
export function readProductId(form: HTMLFormElement, params: AwdrParams): string {
  if (isVariableForm(form)) {
    if (params.custom_variable_product_id_selector) return fieldValue(document.querySelector(params.custom_variable_product_id_selector));
    return String(readVariation(form)?.variation_id ?? "");
  }
  if (params.custom_simple_product_id_selector) return fieldValue(document.querySelector(params.custom_simple_product_id_selector));
  return fieldValue(form.querySelector('[name="add-to-cart"]')) || fieldValue(form.querySelector('[name="product_id"]'));
}

/**
 * A bundle form's ticked optional items, as its add-to-cart sends them: the price asked for is the bundle the
 * shopper would add (docs/contract/storefront.md §3 'Product kinds').
 */
function bundleExtras(form: HTMLFormElement): Record<string, string> {
  const extras: Record<string, string> = {};
  if (!form.classList.contains("bundle_form")) return extras;
  for (const box of form.querySelectorAll<HTMLInputElement>('input[type="checkbox"][name^="bundle_selected_optional_"]')) {
    if (box.checked && !box.disabled) extras[box.name] = box.value;
  }
  return extras;
}

/** The element the price HTML goes into; for a variable product a `.price` child is created if missing. */
export function findPriceArea(form: HTMLFormElement, params: AwdrParams): HTMLElement | null {
  if (!isVariableForm(form)) return document.querySelector<HTMLElement>(params.custom_target_simple_product || DEFAULT_SIMPLE_TARGET);
  const target = document.querySelector<HTMLElement>(params.custom_target_variable_product || DEFAULT_VARIABLE_TARGET);
  if (!target) return null;
  let price = target.querySelector<HTMLElement>(".price");
  if (!price) {
    price = document.createElement("span");
    price.className = "price";
    target.appendChild(price);
  }
  return price;
}

async function post(params: AwdrParams, fields: Record<string, string>, signal?: AbortSignal): Promise<AjaxAnswer> {
  const body = new URLSearchParams({ ...fields, awdr_nonce: params.nonce });
  const res = await fetch(params.ajaxurl, { method: "POST", body, credentials: "same-origin", ...(signal ? { signal } : {}) });
  let answer: AjaxAnswer;
  try {
    answer = (await res.json()) as AjaxAnswer;
  } catch {
    throw new Error(`${res.status} ${res.statusText}`.trim());
  }
  if (!res.ok || answer.success !== true) throw Object.assign(new Error(answer.data?.message ?? `${res.status}`), { answer });
  return answer;
}

/** A DOM event on document.body, and with jQuery on the page the jQuery event too (app/lib/wc-events.ts). */
function fire(name: string, detail: unknown): void {
  emitWcEvent(name, detail);
}

/** Marks the bulk-table rows of the tier the quantity falls in (the highest minimum reached, per rule). */
export function highlightTier(table: Element, quantity: number): void {
  const rows = [...table.querySelectorAll<HTMLElement>("tr[data-rule][data-min]")];
  const best = new Map<string, HTMLElement>();
  for (const row of rows) {
    row.classList.remove("awdr-active-tier");
    row.removeAttribute("aria-current");
    const min = Number(row.dataset.min);
    const current = best.get(row.dataset.rule!);
    if (quantity >= min && (!current || min > Number(current.dataset.min))) best.set(row.dataset.rule!, row);
  }
  for (const row of best.values()) {
    row.classList.add("awdr-active-tier");
    row.setAttribute("aria-current", "true");
  }
}

/**
 * Starts the live price and bulk table on the page's product form. Returns a function that stops it. With
 * `changedBeforeMount` (the form changed while this chunk loaded, dynamic-pricing-boot.ts), it reacts to that change at once.
 */
export function mountDynamicPricing(
  params: AwdrParams,
  formElement: unknown = document.querySelector("div.product form.cart"),
  changedBeforeMount?: { variation: VariationInfo | null },
): () => void {
  const form = asProductForm(formElement);
  if (!form) return () => {};
  const stops: (() => void)[] = [];
  let priceTimer: ReturnType<typeof setTimeout> | undefined;
  let tableTimer: ReturnType<typeof setTimeout> | undefined;
  let priceRequest: AbortController | undefined;
  let tableRequest: AbortController | undefined;
  let lastVariation: string | null = null;

  // The request last sent (product, quantity, bundle extras): the same question is never asked twice in a row,
  // however many events one change raises (input, change, the variation field); a failed one may be asked again.
  let lastAsked: string | null = null;

  const updatePrice = () => {
    const productId = readProductId(form, params);
    if (!productId || productId === "0") {
      // A simple product always has an id; a variable one has none until a variation is chosen.
      if (!isVariableForm(form)) console.log("Invalid product");
      return;
    }
    const area = findPriceArea(form, params);
    if (!area) return;
    const qty = readQuantity(form);
    const table = document.querySelector(BULK_TABLE_SELECTOR);
    if (table) highlightTier(table, qty);
    // Nothing to price without a quantity: the server-rendered price stays (the server refuses qty 0).
    if (qty < 1) return;
    const fields: Record<string, string> = { action: "wdr_ajax", method: "get_price_html", product_id: productId, qty: String(qty), ...bundleExtras(form) };
    const key = JSON.stringify(fields);
    if (key === lastAsked) return;
    lastAsked = key;
    // A newer question makes the answer to the older one stale: it is aborted and, if it still arrives, dropped.
    priceRequest?.abort();
    const controller = (priceRequest = new AbortController());
    post(params, fields, controller.signal)
      .then((answer) => {
        if (controller.signal.aborted) return;
        const data = answer.data ?? {};
        const htmlText =
          typeof data.price_html === "string" && data.price_html
            ? data.price_html
            : typeof data.original_price_html === "string"
              ? data.original_price_html
              : null;
        if (htmlText !== null) area.innerHTML = htmlText;
        fire(PRICE_UPDATE_EVENT, answer);
        if (params.refresh_order_review === "1") fire("update_checkout", { update_shipping_method: false });
      })
      .catch((error: Error & { answer?: unknown }) => {
        if (controller.signal.aborted) return;
        lastAsked = null;
        area.innerHTML = "";
        console.log(ERROR_PREFIX + error.message);
        fire(PRICE_UPDATE_EVENT, error.answer ?? { success: false, data: { message: error.message } });
      });
  };

  const loadBulkTable = (variation: VariationInfo) => {
    const id = variation.variation_id === undefined ? "" : String(variation.variation_id);
    if (!id || id === "0" || variation.is_bundled) return;
    if (params.awdr_dynamic_bulk_table_off !== "on" && params.awdr_dynamic_bulk_table_status !== "1") return;
    const table = document.querySelector<HTMLElement>(BULK_TABLE_SELECTOR);
    if (!table) return;
    clearTimeout(tableTimer);
    tableTimer = setTimeout(() => {
      tableRequest?.abort();
      const controller = (tableRequest = new AbortController());
      table.style.opacity = params.awdr_opacity_to_bulk_table || "0.5";
      table.setAttribute("aria-busy", "true");
      post(params, { action: "wdr_ajax", method: "get_variable_product_bulk_table", product_id: id }, controller.signal)
        .then((answer) => {
          if (controller.signal.aborted) return;
          table.innerHTML = typeof answer.data?.bulk_table === "string" ? answer.data.bulk_table : "";
          highlightTier(table, readQuantity(form));
        })
        .catch((error: Error) => {
          if (controller.signal.aborted) return;
          table.innerHTML = "";
          console.log(ERROR_PREFIX + error.message);
        })
        .finally(() => {
          if (controller.signal.aborted) return;
          table.style.opacity = "1";
          table.removeAttribute("aria-busy");
        });
    }, params.bulk_table_load_delay_ms);
  };

  // Debounced: a burst of changes (typing "12", the events of one change) asks once, after the burst.
  const schedulePrice = () => {
    clearTimeout(priceTimer);
    priceTimer = setTimeout(updatePrice, params.price_update_delay_ms + (params.price_request_debounce_ms ?? 0));
  };

  /** Called on any change: a new variation reloads the bulk table; the price follows every change. */
  const onChange = (variation?: VariationInfo | null) => {
    if (isVariableForm(form)) {
      const chosen = variation ?? readVariation(form);
      const key = chosen ? `${chosen.variation_id ?? ""}` : "";
      if (key !== lastVariation) {
        lastVariation = key;
        if (chosen) loadBulkTable(chosen);
      }
    }
    schedulePrice();
  };

  // Other scripts may fill variation_id after the change event, so look once they have run.
  const onFormEvent = () => setTimeout(() => onChange(), 0);
  form.addEventListener("change", onFormEvent);
  form.addEventListener("input", onFormEvent);
  stops.push(() => {
    form.removeEventListener("change", onFormEvent);
    form.removeEventListener("input", onFormEvent);
  });
  // WooCommerce-style events carrying the variation object (fired by the variation script, if any).
  const onFoundVariation = (event: Event) => onChange(((event as CustomEvent).detail as VariationInfo | undefined) ?? null);
  for (const name of ["found_variation", "show_variation"]) {
    form.addEventListener(name, onFoundVariation);
    stops.push(() => form.removeEventListener(name, onFoundVariation));
  }
  const variationField = form.querySelector('[name="variation_id"]');
  if (variationField) {
    const observer = new MutationObserver(() => onChange());
    observer.observe(variationField, { attributes: true, attributeFilter: ["value"] });
    stops.push(() => observer.disconnect());
  }
  if (params.js_init_trigger) {
    const reinit = () => onChange();
    document.addEventListener(params.js_init_trigger, reinit);
    stops.push(() => document.removeEventListener(params.js_init_trigger, reinit));
  }
  const table = document.querySelector(BULK_TABLE_SELECTOR);
  if (table) highlightTier(table, readQuantity(form));
  if (changedBeforeMount) setTimeout(() => onChange(changedBeforeMount.variation), 0);

  return () => {
    clearTimeout(priceTimer);
    clearTimeout(tableTimer);
    priceRequest?.abort();
    tableRequest?.abort();
    for (const stop of stops) stop();
  };
}

/**
 * `awdr_get_product_discount` for other scripts (the response shape is documented in
 * core/domain/pricing/README.md); the answer also goes out as the add-on's event.
 */
export async function getProductDiscount(params: AwdrParams, productId: number | string, qty: number, customPrice?: string): Promise<unknown> {
  const fields: Record<string, string> = { action: "awdr_get_product_discount", product_id: String(productId), qty: String(qty) };
  if (customPrice !== undefined) fields.custom_price = customPrice;
  try {
    const answer = await post(params, fields);
    fire(PRODUCT_DISCOUNT_EVENT, answer);
    return answer;
  } catch (error) {
    console.log(ERROR_PREFIX + (error as Error).message);
    return null;
  }
}
