import type { ProductDetail, ProductSummary, Term } from "../../../core/domain/catalog/products.ts";
import { Amount, Price } from "./Price.tsx";
import { productUrl } from "../../lib/format.ts";
import { VariationsForm, type VariationAttributeView } from "./VariationsForm.tsx";
import type { VariationJson } from "./variation-json.ts";
import type { SwatchSettings } from "../../../core/domain/catalog/settings.ts";
import { bundlesAvailable } from "../../../core/domain/catalog/product-kinds.ts";

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
          <Quantity name="quantity" label={product.name} />
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
    case "bundle": {
      const items = (product.details.bundledItems ?? []) as {
        bundledItemId: number;
        product: string;
        quantity: number;
        optional: boolean;
        discountPercent: number;
      }[];
      const bySlug = new Map(bundledProducts.map((p) => [p.slug, p]));
      // Each product inside draws on its own stock: an optional one that is short cannot be ticked, a mandatory one
      // that is short makes the whole bundle unavailable (the cart and the order check the same on the server).
      const short = (p: ProductSummary, units: number) => p.stockStatus === "outofstock" || (p.stockQuantity !== null && p.stockQuantity < units);
      const mandatory = items.flatMap((item) => {
        const p = bySlug.get(item.product);
        return p && !item.optional ? [{ productId: p.id, name: p.name, unitsPerBundle: item.quantity, stockQuantity: p.stockQuantity }] : [];
      });
      const mandatoryShort = items.some((item) => !item.optional && bySlug.has(item.product) && short(bySlug.get(item.product)!, item.quantity));
      const max = bundlesAvailable(product.stockQuantity, mandatory);
      return (
        <form id={formId} className="cart bundle_form" method="post" data-base_price={product.regularPrice ?? 0}>
          <input type="hidden" name="base_price" value={product.regularPrice ?? 0} />
          <ul className="bundled_products">
            {items.map((item) => {
              const p = bySlug.get(item.product);
              if (!p) return null;
              const unit = p.salePrice ?? p.regularPrice ?? 0;
              const price = Math.round((unit * (100 - item.discountPercent)) / 100);
              const unavailable = short(p, item.quantity);
              return (
                <li
                  key={item.bundledItemId}
                  className={`bundled_product${unavailable ? " out-of-stock" : ""}`}
                  data-bundled_item_id={item.bundledItemId}
                  data-price={price}
                >
                  {item.optional ? (
                    <label>
                      <input type="checkbox" name={`bundle_selected_optional_${item.bundledItemId}`} value="yes" disabled={unavailable} /> Add {item.quantity} ×{" "}
                      {p.name} for <Amount cents={price * item.quantity} />
                      {unavailable ? <span className="stock out-of-stock"> (out of stock)</span> : null}
                    </label>
                  ) : (
                    <span>
                      {item.quantity} × {p.name} — <Amount cents={price * item.quantity} />
                      {unavailable ? <span className="stock out-of-stock"> (out of stock)</span> : null}
                    </span>
                  )}
                  <input type="hidden" name={`bundle_quantity_${item.bundledItemId}`} value={item.quantity} />
                </li>
              );
            })}
          </ul>
          {soldOut || mandatoryShort ? <p className="stock out-of-stock">Out of stock</p> : <Quantity name="quantity" max={max} label={product.name} />}
          <button type="submit" name="add-to-cart" value={product.id} className="single_add_to_cart_button button alt" disabled={soldOut || mandatoryShort}>
            Add to cart
          </button>
        </form>
      );
    }
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

function StockNote({ quantity }: { quantity: number | null }) {
  if (quantity === null) return null;
  return <p className="stock in-stock">{quantity} in stock</p>;
}

function Quantity({ name, min = 1, initial = 1, max, label }: { name: string; min?: number; initial?: number; max?: number | null; label: string }) {
  const id = name === "quantity" ? "quantity" : `quantity_${name.replace(/\D/g, "")}`;
  return (
    <div className="quantity">
      <label className="screen-reader-text" htmlFor={id}>
        {label} quantity
      </label>
      <input
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
      />
    </div>
  );
}
