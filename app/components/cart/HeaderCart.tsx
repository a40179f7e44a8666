import { Amount } from "../product/Price.tsx";
import { mediaUrl } from "../../lib/format.ts";
import { EMPTY_CART, type CartSummaryView } from "./cart-view.ts";

export { EMPTY_CART, type CartSummaryView };

/**
 * The header cart link; `a.cart-contents` is a cart fragment key, so keep its markup in this one place. On a page for
 * everyone it is a placeholder (`data-cart-placeholder`): a shopper with a cart sees its box, not its "0", until the
 * fragments replace it (docs/decisions/0042-cart-shoppers-cached.md; the fragments never carry the attribute).
 */
export function HeaderCartLink({ cart, placeholder = false }: { cart: CartSummaryView; placeholder?: boolean }) {
  return (
    <a
      className="cart-contents"
      href="/cart/"
      aria-label={`Cart, ${cart.count} ${cart.count === 1 ? "item" : "items"}`}
      {...(placeholder ? { "data-cart-placeholder": "" } : {})}
    >
      <svg aria-hidden="true" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
        <path d="M6 6h15l-1.5 9h-12z" />
        <path d="M6 6 5 3H2" />
        <circle cx="9" cy="20" r="1.5" />
        <circle cx="18" cy="20" r="1.5" />
      </svg>
      <span className="count">{cart.count}</span>
    </a>
  );
}

/** The pricing engine's nudges ("Add 1 more to get 12 masks for $24") and over-tier warnings. */
export function CartPromotions({ cart }: { cart: Pick<CartSummaryView, "nudges" | "warnings"> }) {
  if (cart.nudges.length === 0 && cart.warnings.length === 0) return null;
  return (
    <div className="cart-promotions">
      {cart.warnings.map((w) => (
        <p key={w} className="cart-promotion cart-promotion--warning">
          {w}
        </p>
      ))}
      {cart.nudges.map((n) => (
        <p key={n} className="cart-promotion cart-promotion--nudge">
          {n}
        </p>
      ))}
    </div>
  );
}

/**
 * `div.widget_shopping_cart_content` is the fragment WooCommerce's scripts require (docs/contract/wire.md §1.3, §1.4);
 * a placeholder on a page for everyone, as the header cart link.
 */
export function MiniCartContent({ cart, placeholder = false }: { cart: CartSummaryView; placeholder?: boolean }) {
  return (
    <div className="widget_shopping_cart_content" {...(placeholder ? { "data-cart-placeholder": "" } : {})}>
      {cart.lines.length === 0 ? (
        <p className="woocommerce-mini-cart__empty-message">No products in the cart.</p>
      ) : (
        <>
          <ul className="woocommerce-mini-cart cart_list product_list_widget">
            {cart.lines.map((line) => (
              <li className="woocommerce-mini-cart-item mini_cart_item" key={line.key}>
                {/* A free item follows its rule (it would come straight back), so, as on the cart page, it has no remove link. */}
                {line.free ? (
                  <span aria-hidden="true" />
                ) : (
                  <a
                    href={line.removeUrl}
                    className="remove remove_from_cart_button"
                    aria-label={`Remove ${line.name} from cart`}
                    data-product_id={line.productId}
                    data-cart_item_key={line.key}
                    data-product_sku={line.sku}
                  >
                    ×
                  </a>
                )}
                <a href={line.url}>
                  <img src={mediaUrl(line.imageSlug)} alt="" width={60} height={60} loading="lazy" />
                  {line.name}
                </a>
                {line.details ? <span className="variation">{line.details}</span> : null}
                <span className="quantity">
                  {line.quantity} × {line.free && line.subtotalCents === 0 ? <span className="free-item">Free</span> : <Amount cents={line.unitPriceCents} />}
                </span>
              </li>
            ))}
          </ul>
          <CartPromotions cart={cart} />
          <p className="woocommerce-mini-cart__total total">
            <strong>Subtotal:</strong> <Amount cents={cart.subtotalCents} />
          </p>
          <p className="woocommerce-mini-cart__buttons buttons">
            <a href="/cart/" className="button wc-forward">
              View cart
            </a>
            <a href="/checkout/" className="button checkout wc-forward">
              Checkout
            </a>
          </p>
        </>
      )}
    </div>
  );
}

/** The mobile cart drawer (slides in after an add when configured) holding the same mini-cart fragment. */
export function CartDrawer({ cart, placeholder = false }: { cart: CartSummaryView; placeholder?: boolean }) {
  return (
    <div id="astra-mobile-cart-drawer" className="astra-mobile-cart-overlay-wrap" hidden>
      <div className="astra-mobile-cart-overlay" data-cart-drawer-close="" />
      <aside className="astra-cart-drawer" role="dialog" aria-modal="true" aria-labelledby="astra-cart-drawer-title" tabIndex={-1}>
        <div className="astra-cart-drawer-header">
          <h2 id="astra-cart-drawer-title" className="astra-cart-drawer-title">
            Shopping Cart
          </h2>
          <button type="button" className="astra-cart-drawer-close" data-cart-drawer-close="" aria-label="Close Cart Drawer">
            ×
          </button>
        </div>
        <div className="astra-cart-drawer-content">
          <MiniCartContent cart={cart} placeholder={placeholder} />
        </div>
      </aside>
    </div>
  );
}
