import { useEffect, useRef, useState } from "react";
import type { ProductDetail, ProductSummary, Term } from "../../../core/domain/catalog/products.ts";
import { formatMoney } from "../../../core/domain/money/money.ts";
import { Amount, Price } from "./Price.tsx";
import { mediaUrl, productUrl } from "../../lib/format.ts";
import { VariationsForm, type VariationAttributeView } from "./VariationsForm.tsx";
import type { VariationJson } from "./variation-json.ts";
import type { SwatchSettings } from "../../../core/domain/catalog/settings.ts";
import { bundleModel, bundlePrice, bundlesAvailable, shopPrice, storedBundledItems } from "../../../core/domain/catalog/product-kinds.ts";

export interface VariableFormProps {
  attributes: VariationAttributeView[];
  variations: VariationJson[] | null;
  initialChosen: Record<string, string>;
  settings: SwatchSettings;
  onVariation: (v: VariationJson | null) => void;
}

export const productFormId = (id: number) => `product-form-${id}`;

/**
 * The single-product add-to-cart form for each product kind, with WooCommerce's
 * field names (docs/contract/storefront.md §3 'Add-to-cart form', 'Product kinds', 'Digital-download
 * products'). Plain HTML forms first: they post without JavaScript.
 */
export function AddToCartForm({
  product,
  childProducts,
  bundledProducts,
  variable,
}: {
  product: ProductDetail;
  childProducts: ProductSummary[];
  bundledProducts: ProductSummary[];
  terms?: Term[];
  variable?: VariableFormProps;
}) {
  const soldOut = product.stockStatus === "outofstock";
  const formId = productFormId(product.id);
  switch (product.type) {
    case "external":
      return (
        <form id={formId} className="cart" action={String(product.details.productUrl)} method="get">
          <a className="single_add_to_cart_button button alt" href={String(product.details.productUrl)} rel="nofollow noopener" target="_blank">
            {String(product.details.buttonText ?? "Buy product")}
          </a>
        </form>
      );
    case "simple":
      return soldOut ? (
        <p className="stock out-of-stock">Out of stock</p>
      ) : (
        <form id={formId} className="cart" method="post">
          <StockNote quantity={product.stockQuantity} />
          <Quantity name="quantity" max={product.stockQuantity} label={product.name} />
          <button type="submit" name="add-to-cart" value={product.id} className="single_add_to_cart_button button alt">
            Add to cart
          </button>
        </form>
      );
    case "variable":
      return variable ? (
        <VariationsForm productId={product.id} productName={product.name} formId={formId} {...variable}>
          {(chosen) => <Quantity name="quantity" label={product.name} max={chosen && chosen.max_qty !== "" ? chosen.max_qty : null} />}
        </VariationsForm>
      ) : null;
    case "grouped":
      return (
        <form id={formId} className="cart grouped_form" method="post">
          <table className="woocommerce-grouped-product-list group_table">
            <tbody>
              {childProducts.map((child) => (
                <tr key={child.id} id={`product-${child.id}`} className={`woocommerce-grouped-product-list-item ${child.stockStatus}`}>
                  <td className="woocommerce-grouped-product-list-item__quantity">
                    {child.stockStatus === "outofstock" || child.type !== "simple" ? (
                      <a href={productUrl(child.slug)} className="button">
                        View
                      </a>
                    ) : (
                      <Quantity name={`quantity[${child.id}]`} min={0} initial={0} max={child.stockQuantity} label={child.name} />
                    )}
                  </td>
                  <td className="woocommerce-grouped-product-list-item__label">
                    <label htmlFor={`quantity_${child.id}`}>
                      <a href={productUrl(child.slug)}>{child.name}</a>
                    </label>
                  </td>
                  <td className="woocommerce-grouped-product-list-item__price">
                    <Price regular={child.regularPrice} sale={child.salePrice} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <input type="hidden" name="add-to-cart" value={product.id} />
          <button type="submit" className="single_add_to_cart_button button alt">
            Add to cart
          </button>
        </form>
      );
    case "bundle":
      return <BundleForm product={product} bundledProducts={bundledProducts} formId={formId} />;
    case "downloadable": {
      const downloadId = Number(product.details.downloadId ?? product.id);
      const prices = (product.details.prices ?? []) as { index: number; name: string; amount: number }[];
      return (
        <form
          id={formId}
          className="edd_download_purchase_form cart"
          method="post"
          data-download_id={downloadId}
          data-price_mode={String(product.details.priceMode ?? "single")}
        >
          {product.details.priceMode === "multi" ? (
            <fieldset className="edd_price_options">
              <legend>Choose your options</legend>
              <ul>
                {prices.map((option, i) => (
                  <li key={option.index}>
                    <label>
                      <input type="checkbox" name="edd_options[price_id][]" value={option.index} defaultChecked={i === 0} /> {option.name} —{" "}
                      <Amount cents={option.amount} />
                    </label>
                    <input
                      type="number"
                      className="edd-item-quantity"
                      name={`edd_download_quantity_${option.index}`}
                      defaultValue={1}
                      min={1}
                      step={1}
                      aria-label={`Quantity of ${option.name}`}
                    />
                  </li>
                ))}
              </ul>
            </fieldset>
          ) : (
            <Quantity name="edd_download_quantity" label={product.name} />
          )}
          <input type="hidden" name="download_id" value={downloadId} />
          <button type="submit" name="add-to-cart" value={product.id} className="single_add_to_cart_button button alt">
            Add to cart
          </button>
        </form>
      );
    }
  }
}

/** What a bundle's form shows and counts: its items with their shop prices, from the one bundle rule (core/domain/catalog). */
export function bundleView(product: ProductDetail, bundledProducts: ProductSummary[]) {
  const items = storedBundledItems(product.details);
  const bySlug = new Map(bundledProducts.map((p) => [p.slug, p]));
  const model = bundleModel(product.id, product.regularPrice ?? 0, items, (slug) => {
    const p = bySlug.get(slug);
    return p ? { id: p.id, price: shopPrice(p.regularPrice, p.salePrice) } : undefined;
  });
  const rows = items.flatMap((item, i) => {
    const p = bySlug.get(item.product);
    return p ? [{ item, product: p, unitPrice: model.bundledItems[i]!.priceCents }] : [];
  });
  return { model, rows, requiredTotal: bundlePrice(model, { ticked: [] }) };
}

/**
 * A bundle: its items with their pictures and links, the optional ones as checkboxes, and the running total (the box,
 * its mandatory items and the ticked extras, times the quantity) that the cart will charge before discounts.
 */
function BundleForm({ product, bundledProducts, formId }: { product: ProductDetail; bundledProducts: ProductSummary[]; formId: string }) {
  const { model, rows } = bundleView(product, bundledProducts);
  const [ticked, setTicked] = useState<readonly number[]>([]);
  const [quantity, setQuantity] = useState(1);
  const soldOut = product.stockStatus === "outofstock";
  // Each product inside draws on its own stock: an optional one that is short cannot be ticked, a mandatory one
  // that is short makes the whole bundle unavailable (the cart and the order check the same on the server).
  const short = (p: ProductSummary, units: number) => p.stockStatus === "outofstock" || (p.stockQuantity !== null && p.stockQuantity < units);
  const mandatory = rows.filter((r) => !r.item.optional);
  const mandatoryShort = mandatory.some((r) => short(r.product, r.item.quantity));
  const max = bundlesAvailable(
    product.stockQuantity,
    mandatory.map((r) => ({ productId: r.product.id, name: r.product.name, unitsPerBundle: r.item.quantity, stockQuantity: r.product.stockQuantity })),
  );
  const perBundle = bundlePrice(model, { ticked });
  const totalId = `${formId}-total`;
  return (
    <form id={formId} className="cart bundle_form" method="post" data-base_price={product.regularPrice ?? 0}>
      <input type="hidden" name="base_price" value={product.regularPrice ?? 0} />
      <ul className="bundled_products">
        {rows.map(({ item, product: p, unitPrice }) => {
          const unavailable = short(p, item.quantity);
          const itemPrice = <Amount cents={unitPrice * item.quantity} />;
          const name = <a href={productUrl(p.slug)}>{p.name}</a>;
          return (
            <li
              key={item.bundledItemId}
              className={`bundled_product${unavailable ? " out-of-stock" : ""}`}
              data-bundled_item_id={item.bundledItemId}
              data-price={unitPrice}
            >
              <a href={productUrl(p.slug)} className="bundled_product_image" tabIndex={-1} aria-hidden="true">
                <img src={mediaUrl(p.imageSlugs[0])} alt="" width={48} height={48} loading="lazy" decoding="async" />
              </a>
              {item.optional ? (
                <label className="bundled_product_details">
                  <input
                    type="checkbox"
                    name={`bundle_selected_optional_${item.bundledItemId}`}
                    value="yes"
                    disabled={unavailable}
                    aria-label={`Add ${item.quantity} × ${p.name} for ${formatMoney(unitPrice * item.quantity)}`}
                    aria-describedby={totalId}
                    onChange={(e) => {
                      const on = e.currentTarget.checked;
                      setTicked((t) =>
                        on ? [...t.filter((id) => id !== item.bundledItemId), item.bundledItemId] : t.filter((id) => id !== item.bundledItemId),
                      );
                    }}
                  />{" "}
                  Add {item.quantity} × {name} for {itemPrice}
                  {unavailable ? <span className="stock out-of-stock"> (out of stock)</span> : null}
                </label>
              ) : (
                <span className="bundled_product_details">
                  {item.quantity} × {name} — {itemPrice}
                  {unavailable ? <span className="stock out-of-stock"> (out of stock)</span> : null}
                </span>
              )}
              <input type="hidden" name={`bundle_quantity_${item.bundledItemId}`} value={item.quantity} />
            </li>
          );
        })}
      </ul>
      <p className="bundle_total" id={totalId} aria-live="polite" aria-atomic="true">
        {quantity > 1 ? `Total for ${quantity} bundles: ` : "Bundle total: "}
        <Amount cents={perBundle * Math.max(1, quantity)} />
      </p>
      {soldOut || mandatoryShort ? (
        <p className="stock out-of-stock">Out of stock</p>
      ) : (
        <Quantity name="quantity" max={max} label={product.name} onChange={(n) => setQuantity(n)} />
      )}
      <button type="submit" name="add-to-cart" value={product.id} className="single_add_to_cart_button button alt" disabled={soldOut || mandatoryShort}>
        Add to cart
      </button>
    </form>
  );
}

function StockNote({ quantity }: { quantity: number | null }) {
  if (quantity === null) return null;
  return <p className="stock in-stock">{quantity} in stock</p>;
}

/** The inline stock message under a quantity above the stock (the server says the same on add, after a round trip). */
const quantityAboveStockMessage = (max: number) => `Only ${max} in stock: please choose ${max} or fewer.`;

function Quantity({
  name,
  min = 1,
  initial = 1,
  max,
  label,
  onChange,
}: {
  name: string;
  min?: number;
  initial?: number;
  max?: number | null;
  label: string;
  onChange?: (quantity: number) => void;
}) {
  const id = name === "quantity" ? "quantity" : `quantity_${name.replace(/\D/g, "")}`;
  const input = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState(initial);
  // The stock can change under a typed value (another variation chosen): compare again when the maximum moves.
  useEffect(() => {
    if (input.current) setValue(Math.trunc(Number(input.current.value)) || 0);
  }, [max]);
  const over = max != null && value > max;
  const messageId = `${id}-stock-message`;
  return (
    <div className="quantity">
      <label className="screen-reader-text" htmlFor={id}>
        {label} quantity
      </label>
      <input
        ref={input}
        type="number"
        id={id}
        className="input-text qty text"
        name={name}
        defaultValue={initial}
        min={min}
        max={max ?? undefined}
        step={1}
        inputMode="numeric"
        autoComplete="off"
        aria-invalid={over || undefined}
        aria-describedby={over ? messageId : undefined}
        onChange={(e) => {
          const n = Math.trunc(Number(e.currentTarget.value)) || 0;
          setValue(n);
          onChange?.(n);
        }}
      />
      <p id={messageId} className="quantity-stock-message" role="status">
        {over ? quantityAboveStockMessage(max) : null}
      </p>
    </div>
  );
}
