/**
 * The checkout's order review table (`.woocommerce-checkout-review-order-table`): rendered in the page and, by
 * the same component, as the `update_order_review` fragment, so the two never drift.
 */
import type { CartSummaryView, CartTotalsView } from "../cart/cart-view.ts";
import { formatMoney } from "../../../core/domain/money/money.ts";

export interface ReviewOrderProps {
  summary: CartSummaryView;
  totals: CartTotalsView;
  /** Called when the shopper picks another rate (the page then refreshes with update_shipping_method true). */
  onShippingChange?: (rateId: string) => void;
  /** The checkout removes a coupon in the background; the link is the cart page's fallback. */
  onRemoveCoupon?: (code: string) => void;
}

export function ReviewOrder({ summary, totals, onShippingChange, onRemoveCoupon }: ReviewOrderProps) {
  return (
    <table className="shop_table woocommerce-checkout-review-order-table">
      <thead>
        <tr>
          <th className="product-name">Product</th>
          <th className="product-total">Subtotal</th>
        </tr>
      </thead>
      <tbody>
        {summary.lines.map((l) => (
          <tr className="cart_item" key={l.key}>
            <td className="product-name">
              {l.name}&nbsp;<strong className="product-quantity">×&nbsp;{l.quantity}</strong>
              {l.details ? <div className="variation">{l.details}</div> : null}
            </td>
            <td className="product-total">{formatMoney(l.subtotalCents)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr className="cart-subtotal">
          <th>Subtotal</th>
          <td>{formatMoney(totals.subtotalCents)}</td>
        </tr>
        {totals.cartDiscounts.map((d) => (
          <tr className="cart-discount" key={`r-${d.code}`}>
            <th>{d.title}</th>
            <td>-{formatMoney(d.amountCents)}</td>
          </tr>
        ))}
        {totals.coupons.map((c) => (
          <tr className={`cart-discount coupon-${c.code}`} key={`c-${c.code}`}>
            <th>Coupon: {c.code}</th>
            <td>
              -{formatMoney(c.amountCents)}{" "}
              <a
                href={`/cart/?remove_coupon=${encodeURIComponent(c.code)}`}
                className="woocommerce-remove-coupon"
                data-coupon={c.code}
                onClick={
                  onRemoveCoupon
                    ? (e) => {
                        e.preventDefault();
                        onRemoveCoupon(c.code);
                      }
                    : undefined
                }
              >
                [Remove]
              </a>
            </td>
          </tr>
        ))}
        {totals.needsShipping ? (
          <tr className="woocommerce-shipping-totals shipping">
            <th>Shipping</th>
            <td data-title="Shipping">
              <ul id="shipping_method" className="woocommerce-shipping-methods">
                {totals.rates.map((r, i) => (
                  <li key={r.id}>
                    <input
                      type="radio"
                      name="shipping_method[0]"
                      data-index="0"
                      id={`shipping_method_0_${r.id.replace(/[^\w]/g, "")}`}
                      value={r.id}
                      className="shipping_method"
                      defaultChecked={totals.chosenRateId ? r.id === totals.chosenRateId : i === 0}
                      onChange={onShippingChange ? () => onShippingChange(r.id) : undefined}
                    />
                    <label htmlFor={`shipping_method_0_${r.id.replace(/[^\w]/g, "")}`}>
                      {r.label}
                      {r.costCents > 0 ? `: ${formatMoney(r.costCents)}` : ""}
                    </label>
                  </li>
                ))}
              </ul>
            </td>
          </tr>
        ) : null}
        {totals.taxes.map((t) => (
          <tr key={t.rateId} className={`tax-rate tax-rate-${t.rateId}`}>
            <th>{t.label}</th>
            <td>{formatMoney(t.amountCents)}</td>
          </tr>
        ))}
        <tr className="order-total">
          <th>Total</th>
          <td>
            <strong>{formatMoney(totals.totalCents)}</strong>
          </td>
        </tr>
      </tfoot>
    </table>
  );
}
