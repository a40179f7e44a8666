/**
 * The variable product's form (docs/contract/storefront.md §2 'Variation form', §4 'Swatch items', §5 'Variations').
 * The attribute selects are the source of truth and post without JavaScript; swatch items
 * mirror them, with their states computed by the domain (computeAttributeSwatches). When the
 * product's variations are too many to print, the matching one is fetched from
 * /?wc-ajax=get_variation once every attribute is chosen.
 */
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "../../lib/use-hydrated.ts";
// The pure modules, not the catalogue's index: that one carries zod schemas the browser does not need.
import {
  applyDisplayLimit,
  clickSwatch,
  computeAttributeSwatches,
  keySwatch,
  radioGroupKeyTarget,
  radioGroupTabStop,
  stockLeftInfo,
  type SwatchItemState,
} from "../../../core/domain/catalog/swatches.ts";
import { chosenAttributesSummary, findVariation, type AttributeMap, type Variation } from "../../../core/domain/catalog/variations.ts";
import type { SwatchSettings } from "../../../core/domain/catalog/settings.ts";
import type { VariationJson } from "./variation-json.ts";

export interface VariationAttributeView {
  name: string; // attribute_pa_color
  label: string;
  style: "color" | "label" | "radio";
  /** `swatch` and `image`: a term's swatch settings (docs/contract/rest/taxonomies.md), absent when not set. */
  values: { value: string; title: string; color: string | null; swatch?: string | null; image?: string | null }[];
}

interface Props {
  productId: number;
  productName: string;
  formId: string;
  attributes: VariationAttributeView[];
  /** null: too many to print, loaded on demand. */
  variations: VariationJson[] | null;
  initialChosen: Record<string, string>;
  settings: SwatchSettings;
  onVariation: (v: VariationJson | null) => void;
  /** The quantity input, given the matching variation (its max_qty is the input's maximum). */
  children: (variation: VariationJson | null) => React.ReactNode;
}

const toDomain = (v: VariationJson): Variation => ({ ...v, max_qty: v.max_qty === "" ? null : v.max_qty });

export function VariationsForm({ productId, productName, formId, attributes, variations, initialChosen, settings, onVariation, children }: Props) {
  const enhanced = useHydrated();
  const [chosen, setChosen] = useState<AttributeMap>(() => Object.fromEntries(attributes.map((a) => [a.name, initialChosen[a.name] ?? ""])));
  const [revealed, setRevealed] = useState<Record<string, boolean>>({});
  const [fetched, setFetched] = useState<{ key: string; variation: VariationJson | null } | null>(null);
  const domain = (variations ?? []).map(toDomain);
  const onDemand = variations === null;
  const complete = attributes.every((a) => (chosen[a.name] ?? "") !== "");
  const choiceKey = JSON.stringify(chosen);
  const matched: VariationJson | null = !complete
    ? null
    : onDemand
      ? fetched?.key === choiceKey
        ? fetched.variation
        : null
      : (() => {
          const found = findVariation(domain, chosen, { disableOutOfStock: settings.disable_out_of_stock });
          return found ? (variations!.find((v) => v.variation_id === found.variation_id) ?? null) : null;
        })();
  const pending = onDemand && complete && fetched?.key !== choiceKey;

  // Variations loaded on demand: one request per complete choice; a stale answer is ignored.
  useEffect(() => {
    if (!onDemand || !complete) return;
    const controller = new AbortController();
    const body = new URLSearchParams({ product_id: String(productId), ...chosen });
    fetch("/?wc-ajax=get_variation", { method: "POST", body, signal: controller.signal, credentials: "same-origin" })
      .then((r) => (r.ok ? r.json() : false))
      .then((v: VariationJson | false) => setFetched({ key: choiceKey, variation: v || null }))
      .catch(() => undefined);
    return () => controller.abort();
  }, [onDemand, complete, choiceKey, productId]); // eslint-disable-line react-hooks/exhaustive-deps

  const reported = useRef<number | null | undefined>(undefined);
  useEffect(() => {
    const id = matched?.variation_id ?? null;
    if (reported.current === id) return;
    reported.current = id;
    onVariation(matched);
  }, [matched, onVariation]);

  const choose = (next: AttributeMap) => {
    if (next !== chosen) setChosen(next);
  };

  const summary = chosenAttributesSummary(chosen);
  const unavailable = complete && !pending && !matched;
  // A matched variation that cannot be bought (out of stock): the button refuses in place, as WooCommerce's
  // add-to-cart-variation.js does (its i18n_unavailable_text); the server refuses the same add (docs/contract/sticky-quick-view.md §2).
  const notBuyable = !!matched && (!matched.is_in_stock || !matched.is_purchasable);
  const [refusedId, setRefusedId] = useState<number | null>(null);
  const refusal = notBuyable && refusedId === matched.variation_id;

  return (
    <form
      id={formId}
      className={`variations_form cart${enhanced ? " cfvsw_variations_form" : ""}`}
      method="post"
      data-product_id={productId}
      data-product_variations={variations === null ? "false" : JSON.stringify(variations)}
    >
      <table className="variations" role="presentation">
        <tbody>
          {attributes.map((attr) => {
            const items = computeAttributeSwatches({ variations: domain, chosen, attributeName: attr.name, values: attr.values, settings });
            const limited = applyDisplayLimit(items, settings.display_limit, revealed[attr.name] ?? false);
            const byValue = new Map(items.map((i) => [i.value, i]));
            const chosenTitle = attr.values.find((v) => v.value === chosen[attr.name])?.title;
            return (
              <tr key={attr.name}>
                <th className="label">
                  <label htmlFor={attr.name} id={`${attr.name}-label`}>
                    {attr.label}
                  </label>
                  {enhanced && chosenTitle ? <span className="cfvsw-selected-label">: {chosenTitle}</span> : null}
                </th>
                <td className="value">
                  <select
                    id={attr.name}
                    name={attr.name}
                    data-attribute_name={attr.name}
                    className={enhanced ? "cfvsw-hidden-select" : undefined}
                    required
                    value={chosen[attr.name] ?? ""}
                    onChange={(e) => choose({ ...chosen, [attr.name]: e.target.value })}
                    tabIndex={enhanced ? -1 : undefined}
                    aria-hidden={enhanced || undefined}
                  >
                    <option value="">Choose an option</option>
                    {attr.values.map((v) => (
                      <option key={v.value} value={v.value} disabled={enhanced && byValue.get(v.value)?.disabled && !byValue.get(v.value)?.noStock}>
                        {v.title}
                      </option>
                    ))}
                  </select>
                  {enhanced ? (
                    <>
                      <ul className={`cfvsw-swatches-list cfvsw-${attr.style}`} role="radiogroup" aria-labelledby={`${attr.name}-label`}>
                        {limited.visible.map((item, index) => (
                          <SwatchItem
                            key={item.value}
                            item={item}
                            style={attr.style}
                            tabStop={index === radioGroupTabStop(limited.visible)}
                            color={attr.values.find((v) => v.value === item.value)?.color ?? null}
                            swatch={attr.values.find((v) => v.value === item.value)?.swatch ?? null}
                            image={attr.values.find((v) => v.value === item.value)?.image ?? null}
                            stockLeft={stockLeftInfo({ variations: domain, chosen, attributeName: attr.name, value: item.value, settings })}
                            onClick={() => choose(clickSwatch({ chosen, attributeName: attr.name, value: item.value, item, variations: domain, settings }))}
                            onKey={(e) => {
                              // Arrow keys move through the group and select, as native radio buttons do.
                              const target = radioGroupKeyTarget(limited.visible, index, e.key);
                              if (target !== null) {
                                e.preventDefault();
                                const next = limited.visible[target]!;
                                choose(clickSwatch({ chosen, attributeName: attr.name, value: next.value, item: next, variations: domain, settings }));
                                e.currentTarget.parentElement?.querySelectorAll<HTMLElement>('[role="radio"]')[target]?.focus();
                                return;
                              }
                              const r = keySwatch(e.key, { chosen, attributeName: attr.name, value: item.value, item, variations: domain, settings });
                              if (r.handled) {
                                e.preventDefault();
                                choose(r.chosen);
                              }
                            }}
                          />
                        ))}
                      </ul>
                      {limited.showMore ? (
                        // Outside the radiogroup: a list item there would not belong to a list (axe 'listitem').
                        <button type="button" className="cfvsw-more-link" onClick={() => setRevealed((r) => ({ ...r, [attr.name]: true }))}>
                          +{limited.hidden.length} more
                        </button>
                      ) : null}
                    </>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {enhanced ? (
        <p className="chosen-summary" data-count={summary.count} data-chosen-count={summary.chosenCount} aria-live="polite">
          {summary.chosenCount ? `${summary.chosenCount} of ${summary.count} chosen` : ""}
          {summary.chosenCount ? (
            <button type="button" className="reset_variations button-link" onClick={() => setChosen(Object.fromEntries(attributes.map((a) => [a.name, ""])))}>
              Clear
            </button>
          ) : null}
        </p>
      ) : null}
      <div className="single_variation_wrap">
        <div className="woocommerce-variation single_variation" aria-live="polite">
          {/* One stable child: WooCommerce's add-to-cart-variation.js, when a theme enqueues it, replaces what is in
              .single_variation with its own template; React's output then lives on in this detached wrapper instead
              of React losing a child it still owns (docs/contract/wire.md §1.11). */}
          <div className="single_variation_content">
            {matched ? (
              <>
                <div className="woocommerce-variation-price">
                  <span className="price" dangerouslySetInnerHTML={{ __html: matched.price_html }} />
                </div>
                <div className="woocommerce-variation-availability">
                  <p className={`stock ${matched.is_in_stock ? "in-stock" : "out-of-stock"}`}>{matched.availability_html}</p>
                </div>
              </>
            ) : unavailable ? (
              <p className="wc-no-matching-variations woocommerce-info">Sorry, this product is unavailable. Please choose a different combination.</p>
            ) : pending ? (
              <p className="variation-loading">Checking availability…</p>
            ) : null}
          </div>
        </div>
        <div className="woocommerce-variation-add-to-cart variations_button">
          {children(matched)}
          <button
            type="submit"
            className={`single_add_to_cart_button button alt${enhanced && !matched ? " disabled wc-variation-selection-needed" : ""}${enhanced && notBuyable ? " disabled wc-variation-is-unavailable" : ""}`}
            aria-disabled={enhanced && (!matched || notBuyable) ? true : undefined}
            aria-describedby={refusal ? `${formId}-refusal` : undefined}
            onClick={(e) => {
              if (enhanced && !matched) e.preventDefault();
              if (enhanced && notBuyable) {
                e.preventDefault();
                setRefusedId(matched.variation_id);
              }
            }}
          >
            Add to cart
          </button>
          {refusal ? (
            <p id={`${formId}-refusal`} className="variation-refusal woocommerce-error" role="alert">
              Sorry, this product is unavailable. Please choose a different combination.
            </p>
          ) : null}
          <input type="hidden" name="add-to-cart" value={productId} />
          <input type="hidden" name="product_id" value={productId} />
          <input type="hidden" name="variation_id" className="variation_id" value={matched?.variation_id ?? 0} />
          <span className="screen-reader-text">{productName}</span>
        </div>
      </div>
    </form>
  );
}

function SwatchItem({
  item,
  style,
  tabStop,
  color,
  swatch,
  image,
  stockLeft,
  onClick,
  onKey,
}: {
  item: SwatchItemState;
  style: VariationAttributeView["style"];
  /** The group's one tab stop (roving tabindex); the other items are reached with the arrow keys. */
  tabStop: boolean;
  color: string | null;
  /** The term's short swatch text, shown instead of its name on a label swatch (the name stays its accessible name). */
  swatch: string | null;
  /** The term's swatch picture, drawn over its colour on a colour swatch. */
  image: string | null;
  stockLeft: number | null;
  onClick: () => void;
  onKey: (e: React.KeyboardEvent<HTMLElement>) => void;
}) {
  const classes = [
    "cfvsw-swatch",
    `is-${style}`,
    item.selected ? "cfvsw-selected-swatch" : "",
    item.disabled ? "is-disabled" : "",
    item.noStock ? "is-no-stock" : "",
  ]
    .filter(Boolean)
    .join(" ");
  // The aria-label replaces the content for assistive technology, so it carries the stock-left info too.
  const label = [item.title, item.tooltip, stockLeft !== null ? `(${stockLeft} left)` : null].filter(Boolean).join(" ");
  return (
    <li
      className={classes}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-element-to-interactive-role -- ARIA in HTML allows role=radio on li (w3.org/TR/html-aria/#el-li); its ul is the radiogroup
      role="radio"
      aria-checked={item.ariaChecked}
      aria-disabled={item.disabled || undefined}
      tabIndex={tabStop ? 0 : -1}
      data-value={item.value}
      data-tooltip={item.tooltip ?? undefined}
      title={label}
      aria-label={label}
      style={
        style === "color" && (color || image)
          ? { ...(color ? { backgroundColor: color } : {}), ...(image ? { backgroundImage: `url("${image}")`, backgroundSize: "cover" } : {}) }
          : undefined
      }
      onClick={onClick}
      onKeyDown={onKey}
    >
      {style === "color" ? <span className="screen-reader-text">{item.title}</span> : (swatch ?? item.title)}
      {stockLeft !== null ? (
        <span className="cfvsw-stock-left" aria-hidden="true">
          {stockLeft} left
        </span>
      ) : null}
    </li>
  );
}
