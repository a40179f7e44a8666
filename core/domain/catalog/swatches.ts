/**
 * Swatch items: the clickable tiles that stand in for an attribute select (docs/contract/storefront.md §4 'Swatch items').
 * Pure state: the UI renders what these functions return and feeds events back in.
 */
import { DEFAULT_SWATCH_SETTINGS, type SwatchSettings } from "./settings.ts";
import { attributeOptionsState, findMatchingVariations, findVariation, type AttributeMap, type Variation } from "./variations.ts";

export interface SwatchValue {
  readonly value: string;
  readonly title: string;
}

export interface SwatchItemState {
  readonly value: string;
  readonly title: string;
  readonly selected: boolean;
  readonly disabled: boolean;
  /** Out of stock but still clickable (clickable_out_of_stock). */
  readonly noStock: boolean;
  readonly ariaChecked: boolean;
  /** The status tooltip ('(Unavailable)' / '(Out of Stock)'), or null when there is none. */
  readonly tooltip: string | null;
}

export interface SwatchStateInput {
  readonly attributeName: string;
  /** Every value the attribute can take, in display order. */
  readonly values: readonly SwatchValue[];
  /** The values of the select's enabled options. */
  readonly enabledOptions: readonly string[];
  /** Which of the enabled options are out of stock. */
  readonly outOfStockOptions: readonly string[];
  /** The select's current value ('' when nothing is chosen). */
  readonly selectedValue: string;
  /** Variations are loaded on demand (the product's variation list is empty). */
  readonly loadOnDemand: boolean;
  readonly settings?: SwatchSettings;
}

/** docs/contract/storefront.md §4 'Swatch items' steps 1–5, for one attribute. */
export function computeSwatchItems(input: SwatchStateInput): SwatchItemState[] {
  const settings = input.settings ?? DEFAULT_SWATCH_SETTINGS;
  const enabled = new Set(input.enabledOptions);
  const outOfStock = new Set(input.outOfStockOptions);
  return input.values.map(({ value, title }) => {
    // Step 5: with on-demand variations nothing is known yet, so everything is open.
    if (input.loadOnDemand) {
      const selected = value === input.selectedValue && value !== "";
      return { value, title, selected, disabled: false, noStock: false, ariaChecked: selected, tooltip: null };
    }
    // Step 1: reset to disabled and unchecked.
    let disabled = true;
    let selected = false;
    let noStock = false;
    let tooltip: string | null = null;
    if (enabled.has(value)) {
      // Step 2: enabled options become available; the selected one is checked.
      disabled = false;
      selected = value === input.selectedValue && value !== "";
      // Step 3: enabled but out of stock.
      if (outOfStock.has(value)) {
        tooltip = settings.tooltip_out_of_stock;
        if (settings.clickable_out_of_stock) noStock = true;
        else disabled = true;
      }
    } else {
      // Step 4: not among the options, or its option is disabled.
      tooltip = settings.tooltip_unavailable;
    }
    return { value, title, selected, disabled, noStock, ariaChecked: selected, tooltip };
  });
}

/**
 * The whole refresh for one attribute, run whenever the variation form reports a change:
 * enabled / out-of-stock options from the variations (honouring disable_out_of_stock),
 * then steps 1–5. An empty variation list means "loaded on demand" (step 5).
 */
export function computeAttributeSwatches(input: {
  readonly variations: readonly Variation[];
  readonly chosen: AttributeMap;
  readonly attributeName: string;
  readonly values: readonly SwatchValue[];
  readonly settings?: SwatchSettings;
}): SwatchItemState[] {
  const settings = input.settings ?? DEFAULT_SWATCH_SETTINGS;
  const options = attributeOptionsState(
    input.variations,
    input.chosen,
    input.attributeName,
    input.values.map((v) => v.value),
    { disableOutOfStock: settings.disable_out_of_stock },
  );
  return computeSwatchItems({
    attributeName: input.attributeName,
    values: input.values,
    enabledOptions: options.enabled,
    outOfStockOptions: options.outOfStock,
    selectedValue: input.chosen[input.attributeName] ?? "",
    loadOnDemand: input.variations.length === 0,
    settings,
  });
}

export interface SwatchClickInput {
  /** Every attribute's current value ('' = not chosen). */
  readonly chosen: AttributeMap;
  readonly attributeName: string;
  readonly value: string;
  /** The clicked item's state; a disabled item ignores clicks. */
  readonly item: Pick<SwatchItemState, "disabled">;
  /** The product's variations; empty when loaded on demand (deselect_unavailable then cannot judge). */
  readonly variations: readonly Variation[];
  readonly settings?: SwatchSettings;
}

/** The choice after a click on a swatch item. Returns the same object when nothing changes. */
export function clickSwatch(input: SwatchClickInput): AttributeMap {
  const settings = input.settings ?? DEFAULT_SWATCH_SETTINGS;
  const { chosen, attributeName, value } = input;
  if (input.item.disabled) return chosen;
  const current = chosen[attributeName] ?? "";
  if (current === value) {
    return settings.clear_on_reselect ? { ...chosen, [attributeName]: "" } : chosen;
  }
  const next = { ...chosen, [attributeName]: value };
  if (settings.deselect_unavailable && input.variations.length > 0 && value !== "") {
    // Matching counts in-stock variations only, whatever disable_out_of_stock says.
    const inStockMatches = findMatchingVariations(input.variations, next, { disableOutOfStock: true });
    if (inStockMatches.length === 0) {
      const cleared: Record<string, string> = {};
      for (const name of Object.keys(next)) cleared[name] = "";
      cleared[attributeName] = value;
      return cleared;
    }
  }
  return next;
}

/** Keys that activate a focused swatch item, as on a button. 'Spacebar' is old Edge/IE. */
const ACTIVATION_KEYS = new Set([" ", "Spacebar", "Enter"]);

/**
 * A key press on a swatch item: Space or Enter on a non-disabled item acts as a click.
 * `handled` tells the UI to prevent the key's default action (page scroll on Space).
 */
export function keySwatch(key: string, input: SwatchClickInput): { handled: boolean; chosen: AttributeMap } {
  if (!ACTIVATION_KEYS.has(key) || input.item.disabled) return { handled: false, chosen: input.chosen };
  return { handled: true, chosen: clickSwatch(input) };
}

const NEXT_KEYS = new Set(["ArrowRight", "ArrowDown", "Right", "Down"]);
const PREVIOUS_KEYS = new Set(["ArrowLeft", "ArrowUp", "Left", "Up"]);

/**
 * The ARIA radio group's arrow keys (WAI-ARIA APG 'Radio Group'): Right/Down move to the next item, Left/Up to the
 * previous one, wrapping around and skipping disabled items; Home and End go to the first and last enabled item.
 * The index to move to (and select), or null when the key is not one of these or no other item is enabled.
 */
export function radioGroupKeyTarget(items: readonly { disabled: boolean }[], from: number, key: string): number | null {
  const n = items.length;
  if (n === 0) return null;
  const enabled = (i: number) => !items[i]!.disabled;
  if (key === "Home" || key === "End") {
    const order = [...items.keys()];
    if (key === "End") order.reverse();
    const found = order.find(enabled);
    return found === undefined || found === from ? null : found;
  }
  const step = NEXT_KEYS.has(key) ? 1 : PREVIOUS_KEYS.has(key) ? -1 : 0;
  if (step === 0) return null;
  for (let k = 1; k < n; k++) {
    const i = (((from + step * k) % n) + n) % n;
    if (enabled(i)) return i;
  }
  return null;
}

/**
 * The group's one tab stop (roving tabindex): the checked item when it is enabled, else the first enabled item;
 * -1 when every item is disabled.
 */
export function radioGroupTabStop(items: readonly { disabled: boolean; selected: boolean }[]): number {
  const checked = items.findIndex((i) => i.selected && !i.disabled);
  return checked >= 0 ? checked : items.findIndex((i) => !i.disabled);
}

export interface SwatchDisplayLimit<T> {
  readonly visible: readonly T[];
  /** Items hidden until the 'more' control is used. */
  readonly hidden: readonly T[];
  /** Show the 'more' control (there are hidden items). */
  readonly showMore: boolean;
}

/**
 * The 'more' control: with a display limit, items past it are hidden until revealed.
 * A limit of null (or ≤ 0) means no limit.
 */
export function applyDisplayLimit<T>(items: readonly T[], limit: number | null, revealed: boolean): SwatchDisplayLimit<T> {
  if (revealed || limit === null || !Number.isInteger(limit) || limit <= 0 || items.length <= limit) {
    return { visible: items, hidden: [], showMore: false };
  }
  return { visible: items.slice(0, limit), hidden: items.slice(limit), showMore: true };
}

export interface StockLeftInput {
  readonly variations: readonly Variation[];
  readonly chosen: AttributeMap;
  readonly attributeName: string;
  /** The item whose stock-left info is asked for. */
  readonly value: string;
  readonly settings?: SwatchSettings;
}

/**
 * docs/contract/storefront.md §4 'Stock-left info' for one item: the variation_stock_left of the variation this item would
 * select, shown only when show_variation_stock is on, every other attribute is chosen, and
 * that variation is in stock with max_qty at or below stock_label_threshold. Null = no info.
 */
export function stockLeftInfo(input: StockLeftInput): number | null {
  const settings = input.settings ?? DEFAULT_SWATCH_SETTINGS;
  if (!settings.show_variation_stock || input.value === "") return null;
  const others = Object.keys(input.chosen).filter((name) => name !== input.attributeName);
  if (others.some((name) => (input.chosen[name] ?? "") === "")) return null;
  const variation = findVariation(
    input.variations,
    { ...input.chosen, [input.attributeName]: input.value },
    { disableOutOfStock: settings.disable_out_of_stock },
  );
  if (!variation || !variation.is_in_stock || variation.max_qty === null) return null;
  if (variation.max_qty > settings.stock_label_threshold) return null;
  return variation.variation_stock_left;
}
