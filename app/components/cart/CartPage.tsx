import type { ProductSummary } from "../../../core/domain/catalog/products.ts";
import { Amount } from "../product/Price.tsx";
import { ProductCard } from "../product/ProductCard.tsx";
import { mediaUrl } from "../../lib/format.ts";
import { CartPromotions } from "./HeaderCart.tsx";
import type { CartSummaryView, CartTotalsView } from "./cart-view.ts";

export interface CartPageView {
  cart: CartSummaryView;
  totals: CartTotalsView;
  crossSells: ProductSummary[];
  cartNonce: string;
  awdrNonce: string;
}

/**
 * The cart form (`form.woocommerce-cart-form`): quantities, remove links, the coupon field and the
 * update button. A plain form: without JavaScript it posts to /cart/ and the page comes back updated.
 */
export function CartForm({ view }: { view: CartPageView }) {
  const { cart } = view;
  return (
    <form className="woocommerce-cart-form" action="/cart/" method="post">
      <table className="shop_table shop_table_responsive cart woocommerce-cart-form__contents">
        <thead>
          <tr>
            <th className="product-remove">
              <span className="screen-reader-text">Remove item</span>
            </th>
            <th className="product-thumbnail">
              <span className="screen-reader-text">Thumbnail image</span>
            </th>
            <th className="product-name">Product</th>
            <th className="product-price">Price</th>
            <th className="product-quantity">Quantity</th>
            <th className="product-subtotal">Subtotal</th>
          </tr>
        </thead>
        <tbody>
          {cart.lines.map((line) => (
            <tr key={line.key} className={`woocommerce-cart-form__cart-item cart_item${line.free ? " awdr-free-item" : ""}`} data-cart_item_key={line.key}>
              <td className="product-remove">
                {line.free ? null : (
                  <a
                    href={line.removeUrl}
                    className="remove"
                    aria-label={`Remove ${line.name} from cart`}
                    data-product_id={line.productId}
                    data-product_sku={line.sku}
                  >
                    ×
                  </a>
                )}
              </td>
              <td className="product-thumbnail">
                {/* The same link as the name beside it: out of the tab order and hidden, so it needs no name of its own. */}
                <a href={line.url} tabIndex={-1} aria-hidden="true">
                  <img src={mediaUrl(line.imageSlug)} alt="" width={64} height={64} loading="lazy" />
                </a>
              </td>
              <td className="product-name" data-title="Product">
                <div className="product-name-inner">
                  <a href={line.url}>{line.name}</a>
                  {line.details ? (
                    <dl className="variation">
                      <dd>{line.details}</dd>
                    </dl>
                  ) : null}
                  {line.free ? <FreeItemChooser line={line} nonce={view.awdrNonce} /> : null}
                </div>
              </td>
              <td className="product-price" data-title="Price">
                {line.free && line.subtotalCents === 0 ? <span className="free-item">Free</span> : <Amount cents={line.unitPriceCents} />}
              </td>
              <td className="product-quantity" data-title="Quantity">
                {line.free ? (
                  <span>{line.quantity}</span>
                ) : (
                  <div className="quantity">
                    <label className="screen-reader-text" htmlFor={`quantity_${line.key}`}>
                      {line.name} quantity
                    </label>
                    <input
                      type="number"
                      id={`quantity_${line.key}`}
                      className="input-text qty text"
                      name={`cart[${line.key}][qty]`}
                      defaultValue={line.quantity}
                      min={0}
                      max={line.maxQuantity ?? undefined}
                      step={1}
                      inputMode="numeric"
                    />
                  </div>
                )}
              </td>
              <td className="product-subtotal" data-title="Subtotal">
                {line.regularSubtotalCents > line.subtotalCents ? (
                  <>
                    <del aria-hidden="true">
                      <Amount cents={line.regularSubtotalCents} />
                    </del>{" "}
                  </>
                ) : null}
                <Amount cents={line.subtotalCents} />
              </td>
            </tr>
          ))}
          <tr>
            <td colSpan={6} className="actions">
              {/* The standard coupon field stays the form's field (the coupon box above copies its code here and submits),
                  hidden so the page offers one coupon entry point, not two. */}
              <div className="coupon" hidden>
                <label htmlFor="coupon_code" className="screen-reader-text">
                  Coupon:
                </label>
                <input type="text" name="coupon_code" className="input-text" id="coupon_code" defaultValue="" placeholder="Coupon code" />
                <button type="submit" className="button" name="apply_coupon" value="Apply coupon">
                  Apply coupon
                </button>
              </div>
              <button type="submit" className="button" name="update_cart" value="Update cart">
                Update cart
              </button>
              <input type="hidden" name="woocommerce-cart-nonce" value={view.cartNonce} />
            </td>
          </tr>
        </tbody>
      </table>
      <CartPromotions cart={cart} />
    </form>
  );
}

/** 'Change product' for a buy-X-get-Y free item: a toggle opens a panel (1000 ms slide) of choices. */
function FreeItemChooser({ line, nonce }: { line: CartSummaryView["lines"][number]; nonce: string }) {
  const free = line.free!;
  if (free.choices.length < 2) return null;
  const panelId = `awdr-choose-${line.key}`;
  return (
    <div className="awdr-free-product-change" data-rule_unique_id={free.ruleUniqueId} data-parent_id={free.parentProductId} data-awdr_nonce={nonce}>
      <button type="button" className="awdr-change-product-toggle button-link" aria-expanded="false" aria-controls={panelId}>
        Change product
      </button>
      <div id={panelId} className="awdr-change-product-panel" hidden>
        <ul>
          {free.choices.map((c) => (
            <li key={c.id}>
              <button
                type="button"
                className="awdr-select-free-variant-product-toggle"
                data-product_id={c.id}
                aria-pressed={c.id === (line.variationId || line.productId)}
              >
                {c.label}
              </button>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

/** `div.cart_totals`: what update_shipping_method and get_cart_totals answer, and what the page shows. */
export function CartTotals({ totals }: { totals: CartTotalsView }) {
  return (
    <div className="cart_totals">
      <h2>Cart totals</h2>
      <table className="shop_table shop_table_responsive">
        <tbody>
          <tr className="cart-subtotal">
            <th>Subtotal</th>
            <td data-title="Subtotal">
              <Amount cents={totals.subtotalCents} />
            </td>
          </tr>
          {totals.cartDiscounts.map((d) => (
            <tr key={d.code} className="cart-discount cart-rule-discount">
              <th>{d.title}</th>
              <td data-title={d.title}>
                −<Amount cents={d.amountCents} />
              </td>
            </tr>
          ))}
          {totals.coupons.map((c) => (
            <tr key={c.code} className={`cart-discount coupon-${c.code}`}>
              <th>Coupon: {c.code}</th>
              <td data-title={`Coupon: ${c.code}`}>
                −<Amount cents={c.amountCents} />{" "}
                <a href={`/cart/?remove_coupon=${encodeURIComponent(c.code)}`} className="woocommerce-remove-coupon" data-coupon={c.code}>
                  [Remove]
                </a>
              </td>
            </tr>
          ))}
          {totals.needsShipping ? (
            <tr className="woocommerce-shipping-totals shipping">
              <th>Shipping</th>
              <td data-title="Shipping">
                {totals.rates.length === 0 ? (
                  <span>No shipping options were found.</span>
                ) : (
                  <ul id="shipping_method" className="woocommerce-shipping-methods">
                    {totals.rates.map((r) => {
                      const id = `shipping_method_0_${r.id.replace(/[^a-z0-9]/gi, "")}`;
                      return (
                        <li key={r.id}>
                          <input
                            type="radio"
                            name="shipping_method[0]"
                            data-index="0"
                            id={id}
                            value={r.id}
                            className="shipping_method"
                            defaultChecked={r.id === totals.chosenRateId}
                            form="cart-shipping-form"
                          />
                          <label htmlFor={id}>
                            {r.label}
                            {r.costCents > 0 ? (
                              <>
                                : <Amount cents={r.costCents} />
                              </>
                            ) : null}
                          </label>
                        </li>
                      );
                    })}
                  </ul>
                )}
              </td>
            </tr>
          ) : null}
          {totals.taxes.map((t) => (
            <tr key={t.rateId} className={`tax-rate tax-rate-${t.rateId}`}>
              <th>{t.label}</th>
              <td data-title={t.label}>
                <Amount cents={t.amountCents} />
              </td>
            </tr>
          ))}
          <tr className="order-total">
            <th>Total</th>
            <td data-title="Total">
              <strong>
                <Amount cents={totals.totalCents} />
              </strong>
            </td>
          </tr>
        </tbody>
      </table>
      {totals.needsShipping && totals.rates.length > 1 ? (
        <noscript>
          <button type="submit" className="button" form="cart-shipping-form">
            Update shipping
          </button>
        </noscript>
      ) : null}
      <div className="wc-proceed-to-checkout">
        <a href="/checkout/" className="checkout-button button alt wc-forward">
          Proceed to checkout
        </a>
      </div>
    </div>
  );
}

/** The custom coupon box: the trigger hides itself and reveals the input; apply / Enter submits the standard field. */
export function CouponBox() {
  return (
    <div className="ast-custom-coupon-wrap">
      <button type="button" id="ast-coupon-trigger" className="ast-coupon-trigger" aria-expanded="false" aria-controls="ast-coupon-box">
        Have a coupon?
      </button>
      <div id="ast-coupon-box" className="ast-coupon-wrap" hidden>
        <label htmlFor="ast-coupon-code" className="screen-reader-text">
          Coupon code
        </label>
        <input type="text" id="ast-coupon-code" className="ast-coupon-code" placeholder="Coupon code" autoComplete="off" />
        <button type="button" id="ast-apply-coupon" className="button ast-apply-coupon">
          Apply
        </button>
      </div>
    </div>
  );
}

export function CrossSells({ products }: { products: ProductSummary[] }) {
  if (products.length === 0) return null;
  return (
    <div className="cross-sells">
      <h2>You may be interested in…</h2>
      <ul className="products columns-2">
        {products.map((p) => (
          <ProductCard key={p.id} product={p} />
        ))}
      </ul>
    </div>
  );
}

export function CartPageContent({ view }: { view: CartPageView }) {
  return (
    <>
      <CouponBox />
      <CartForm view={view} />
      <form id="cart-shipping-form" action="/cart/" method="post">
        <input type="hidden" name="woocommerce-cart-nonce" value={view.cartNonce} />
        <input type="hidden" name="update_shipping" value="1" />
      </form>
      <div className="cart-collaterals">
        <CrossSells products={view.crossSells} />
        <CartTotals totals={view.totals} />
      </div>
    </>
  );
}
