/**
 * Variations of a variable product and the choices a shopper makes among them
 * (docs/contract/storefront.md §3 'Product and variation (swatches)', §5 'Variations').
 *
 * Attribute names are the form's names, e.g. `attribute_pa_color`; a value of '' means
 * "any" on a variation and "not chosen" in a choice.
 */
/** Attribute name → value. '' = any (on a variation) / not chosen (in a choice). */
export type AttributeMap = Readonly<Record<string, string>>;

export interface Variation {
  readonly variation_id: number;
  readonly attributes: AttributeMap;
  readonly is_in_stock: boolean;
  /** Most a shopper may buy; null when stock is not managed (WooCommerce sends ''). */
  readonly max_qty: number | null;
  readonly variation_stock_left: number;
  readonly is_bundled: boolean;
}

export interface Product {
  readonly product_id: number;
  /** Empty means the variations are loaded on demand from the server. */
  readonly product_variations: readonly Variation[];
}

/** One attribute's swatch list: its name and every value it can take. */
export interface AttributeSwatchList {
  readonly attribute_name: string;
  readonly attribute_values: readonly string[];
}

export interface VariationOptions {
  /** docs/contract/storefront.md §9 disable_out_of_stock: not-in-stock variations are unavailable. */
  readonly disableOutOfStock: boolean;
}

export interface ChosenAttributesSummary {
  /** Number of attributes. */
  readonly count: number;
  /** How many of them have a value. */
  readonly chosenCount: number;
  readonly data: AttributeMap;
}

/** True when variations must be fetched from the server instead of matched here. */
export function variationsLoadOnDemand(product: Product): boolean {
  return product.product_variations.length === 0;
}

/**
 * docs/contract/storefront.md §5: a variation matches when, for every attribute, either side is empty or the two are equal.
 * An attribute missing on one side counts as empty.
 */
export function variationMatches(variationAttrs: AttributeMap, chosen: AttributeMap): boolean {
  for (const name of Object.keys(variationAttrs)) {
    const a = variationAttrs[name] ?? "";
    const b = Object.hasOwn(chosen, name) ? (chosen[name] ?? "") : "";
    if (a !== "" && b !== "" && a !== b) return false;
  }
  // Names only in `chosen` are empty on the variation side, so they always match.
  return true;
}

export function isVariationAvailable(variation: Variation, options: VariationOptions): boolean {
  return !options.disableOutOfStock || variation.is_in_stock;
}

/** Available variations that match the choice, in their original order. */
export function findMatchingVariations(variations: readonly Variation[], chosen: AttributeMap, options: VariationOptions): Variation[] {
  return variations.filter((v) => isVariationAvailable(v, options) && variationMatches(v.attributes, chosen));
}

/** Attribute names used by the variations together with those in the choice. */
export function attributeNamesOf(variations: readonly Variation[], chosen: AttributeMap = {}): string[] {
  const names = new Set<string>();
  for (const v of variations) for (const name of Object.keys(v.attributes)) names.add(name);
  for (const name of Object.keys(chosen)) names.add(name);
  return [...names];
}

/** True when every attribute (of the variations and of the choice) has a value. */
export function isChoiceComplete(variations: readonly Variation[], chosen: AttributeMap): boolean {
  return attributeNamesOf(variations, chosen).every((name) => (chosen[name] ?? "") !== "");
}

/**
 * The variation the full choice selects, or undefined while an attribute is still unchosen
 * or nothing available matches. Like WooCommerce, the first match wins when several
 * ('any' variations) match.
 */
export function findVariation(variations: readonly Variation[], chosen: AttributeMap, options: VariationOptions): Variation | undefined {
  if (variations.length === 0 || !isChoiceComplete(variations, chosen)) return undefined;
  return findMatchingVariations(variations, chosen, options)[0];
}

export interface AttributeOptionsState {
  /** Options a shopper can pick given the other attributes' choices. */
  readonly enabled: readonly string[];
  /** Enabled options for which no matching variation is in stock. */
  readonly outOfStock: readonly string[];
}

/**
 * What WooCommerce's variation form computes for one attribute select: an option is enabled
 * when some available variation matches the other attributes' choices with this option.
 * A variation with 'any' for this attribute enables every value in `allValues`.
 * An enabled option is out of stock when none of the variations enabling it is in stock
 * (possible only while disable_out_of_stock is off).
 */
export function attributeOptionsState(
  variations: readonly Variation[],
  chosen: AttributeMap,
  attributeName: string,
  allValues: readonly string[],
  options: VariationOptions,
): AttributeOptionsState {
  const others: Record<string, string> = { ...chosen, [attributeName]: "" };
  const inStockByValue = new Map<string, boolean>();
  const mark = (value: string, inStock: boolean) => {
    inStockByValue.set(value, (inStockByValue.get(value) ?? false) || inStock);
  };
  for (const v of findMatchingVariations(variations, others, options)) {
    const own = v.attributes[attributeName] ?? "";
    if (own === "") for (const value of allValues) mark(value, v.is_in_stock);
    else mark(own, v.is_in_stock);
  }
  // Keep the order of the attribute's own value list, then any stray values variations carry.
  const order = [...allValues, ...[...inStockByValue.keys()].filter((value) => !allValues.includes(value))];
  const enabled = order.filter((value) => inStockByValue.has(value));
  return { enabled, outOfStock: enabled.filter((value) => inStockByValue.get(value) === false) };
}

/** The options state of every attribute list at once. */
export function allAttributeOptionsStates(
  variations: readonly Variation[],
  chosen: AttributeMap,
  lists: readonly AttributeSwatchList[],
  options: VariationOptions,
): Record<string, AttributeOptionsState> {
  const result: Record<string, AttributeOptionsState> = {};
  for (const list of lists) {
    result[list.attribute_name] = attributeOptionsState(variations, chosen, list.attribute_name, list.attribute_values, options);
  }
  return result;
}

/** docs/contract/storefront.md §3 'Chosen-attributes summary', as WooCommerce's getChosenAttributes reports it. */
export function chosenAttributesSummary(chosen: AttributeMap): ChosenAttributesSummary {
  const names = Object.keys(chosen);
  const data: Record<string, string> = {};
  for (const name of names) data[name] = chosen[name] ?? "";
  return {
    count: names.length,
    chosenCount: names.filter((name) => data[name] !== "").length,
    data,
  };
}
