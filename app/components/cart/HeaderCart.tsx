import { Amount } from "../product/Price.tsx";

export interface MiniCartLine {
  key: string;
  productId: number;
  sku: string;
  name: string;
  url: string;
  imageSlug: string | null;
  quantity: number;
  unitPriceCents: number;
  removeUrl: string;
}

export interface CartSummaryView {
  count: number;
  subtotalCents: number;
  lines: MiniCartLine[];
}

export const EMPTY_CART: CartSummaryView = { count: 0, subtotalCents: 0, lines: [] };

/** The header cart link; `a.cart-contents` is a cart fragment key, so keep its markup in this one place. */
export function HeaderCartLink({ cart }: { cart: CartSummaryView }) {
  return (
    <a className="cart-contents" href="/cart/" aria-label={`Cart, ${cart.count} ${cart.count === 1 ? "item" : "items"}`}>
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

/** `div.widget_shopping_cart_content` is the fragment WooCommerce's scripts require (wire-contracts §1.3, §1.4). */
export function MiniCartContent({ cart }: { cart: CartSummaryView }) {
  return (
    <div className="widget_shopping_cart_content">
      {cart.lines.length === 0 ? (
        <p className="woocommerce-mini-cart__empty-message">No products in the cart.</p>
      ) : (
        <>
          <ul className="woocommerce-mini-cart cart_list product_list_widget">
            {cart.lines.map((line) => (
              <li className="woocommerce-mini-cart-item mini_cart_item" key={line.key}>
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
                <a href={line.url}>
                  <img src={`/media/${line.imageSlug}.svg`} alt="" width={60} height={60} />
                  {line.name}
                </a>
                <span className="quantity">
                  {line.quantity} × <Amount cents={line.unitPriceCents} />
                </span>
              </li>
            ))}
          </ul>
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
