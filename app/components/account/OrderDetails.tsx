/** An order's overview, lines, totals and addresses (order received page and the account's order view). */
import { formatMoney } from "../../../core/domain/money/money.ts";
import { formatDate } from "../../lib/format.ts";

export interface OrderDetailsView {
  id: number;
  status: string;
  statusLabel: string;
  billingEmail: string;
  subtotal: number;
  discountTotal: number;
  shippingTotal: number;
  /** One row per tax rate charged (Settings › Tax); absent or empty: no tax rows. */
  taxLines?: { rateId: number; label: string; taxTotal: number; shippingTaxTotal: number }[];
  total: number;
  shippingMethodTitle: string | null;
  paymentMethodTitle: string;
  customerNote: string;
  createdAt: string;
  lines: { name: string; details: string; quantity: number; total: number; subtotal: number }[];
  coupons: { code: string; discount: number }[];
  addresses: Partial<
    Record<
      "billing" | "shipping",
      {
        first_name: string;
        last_name: string;
        company: string;
        address_1: string;
        address_2: string;
        city: string;
        state: string;
        postcode: string;
        country: string;
        phone: string;
        email: string;
      }
    >
  >;
  paymentMethodSummary: { brand?: string; last4?: string; kind?: string } | null;
}

/** A refund of the order, as the account's order view lists it (WooCommerce's "Refund:" rows). Cents. */
export interface OrderRefundView {
  id: number;
  amount: number;
  reason: string;
}

export function OrderDetails({ order, refunds = [] }: { order: OrderDetailsView; refunds?: readonly OrderRefundView[] }) {
  const refunded = refunds.reduce((n, r) => n + r.amount, 0);
  const date = formatDate(order.createdAt);
  const method = order.paymentMethodSummary?.last4
    ? `${order.paymentMethodTitle} (${order.paymentMethodSummary.brand ? `${order.paymentMethodSummary.brand} ` : ""}ending in ${order.paymentMethodSummary.last4})`
    : order.paymentMethodTitle;
  return (
    <div className="order-details">
      <ul className="woocommerce-order-overview woocommerce-thankyou-order-details order_details">
        <li className="woocommerce-order-overview__order order">
          Order number: <strong>{order.id}</strong>
        </li>
        <li className="woocommerce-order-overview__date date">
          Date: <strong>{date}</strong>
        </li>
        <li className="woocommerce-order-overview__email email">
          Email: <strong>{order.billingEmail}</strong>
        </li>
        <li className="woocommerce-order-overview__total total">
          Total: <strong>{formatMoney(order.total)}</strong>
        </li>
        <li className="woocommerce-order-overview__payment-method method">
          Payment method: <strong>{method}</strong>
        </li>
        <li className="order-status">
          Status: <strong>{order.statusLabel}</strong>
        </li>
      </ul>
      <h2 className="woocommerce-order-details__title">Order details</h2>
      <table className="woocommerce-table woocommerce-table--order-details shop_table order_details">
        <thead>
          <tr>
            <th>Product</th>
            <th>Total</th>
          </tr>
        </thead>
        <tbody>
          {order.lines.map((l, i) => (
            <tr key={i} className="order_item">
              <td>
                {l.name} <strong className="product-quantity">×&nbsp;{l.quantity}</strong>
                {l.details ? <div className="variation wc-item-meta">{l.details}</div> : null}
              </td>
              <td>{formatMoney(l.total)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th>Subtotal:</th>
            <td>{formatMoney(order.subtotal)}</td>
          </tr>
          {order.discountTotal > 0 ? (
            <tr>
              <th>Discount:</th>
              <td>-{formatMoney(order.discountTotal)}</td>
            </tr>
          ) : null}
          {order.shippingMethodTitle ? (
            <tr>
              <th>Shipping:</th>
              <td>
                {order.shippingTotal > 0 ? formatMoney(order.shippingTotal) : ""} {order.shippingMethodTitle}
              </td>
            </tr>
          ) : null}
          {(order.taxLines ?? []).map((t) => (
            <tr key={t.rateId} className="order-tax">
              <th>{`${t.label}:`}</th>
              <td>{formatMoney(t.taxTotal + t.shippingTaxTotal)}</td>
            </tr>
          ))}
          <tr>
            <th>Total:</th>
            <td>{formatMoney(order.total)}</td>
          </tr>
          {refunds.map((r) => (
            <tr key={r.id} className="order-refund">
              <th>Refund:</th>
              <td>
                -{formatMoney(r.amount)}
                {r.reason ? <small className="refund-reason"> {r.reason}</small> : null}
              </td>
            </tr>
          ))}
          {refunded > 0 ? (
            <tr className="order-net-total">
              <th>Net total:</th>
              <td>{formatMoney(order.total - refunded)}</td>
            </tr>
          ) : null}
        </tfoot>
      </table>
      {order.customerNote ? (
        <p className="order-note">
          <strong>Note:</strong> {order.customerNote}
        </p>
      ) : null}
      <section className="woocommerce-customer-details">
        {(["billing", "shipping"] as const).map((k) => {
          const a = order.addresses[k];
          if (!a) return null;
          return (
            <div key={k} className={`woocommerce-column woocommerce-column--${k}-address`}>
              <h2>{k === "billing" ? "Billing address" : "Shipping address"}</h2>
              <address>
                {[
                  `${a.first_name} ${a.last_name}`.trim(),
                  a.company,
                  a.address_1,
                  a.address_2,
                  `${a.city} ${a.state} ${a.postcode}`.trim(),
                  a.country,
                  a.phone,
                  a.email,
                ]
                  .filter(Boolean)
                  .map((line, i) => (
                    <span key={i}>
                      {line}
                      <br />
                    </span>
                  ))}
              </address>
            </div>
          );
        })}
      </section>
    </div>
  );
}
