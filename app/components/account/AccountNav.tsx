/** The account area's navigation, the orders table (dashboard and the orders page) and the downloads table. */
import { formatMoney } from "../../../core/domain/money/money.ts";
import { formatDate } from "../../lib/format.ts";

const LINKS = [
  { key: "dashboard", href: "/my-account/", label: "Dashboard" },
  { key: "orders", href: "/my-account/orders/", label: "Orders" },
  { key: "downloads", href: "/my-account/downloads/", label: "Downloads" },
  { key: "edit-address", href: "/my-account/edit-address/", label: "Addresses" },
  { key: "payment-methods", href: "/my-account/payment-methods/", label: "Payment methods" },
  { key: "edit-account", href: "/my-account/edit-account/", label: "Account details" },
] as const;

export function AccountNav({ current }: { current: (typeof LINKS)[number]["key"] | "other" }) {
  return (
    <nav className="woocommerce-MyAccount-navigation" aria-label="Account pages">
      <ul>
        {LINKS.map((l) => (
          <li key={l.key} className={`woocommerce-MyAccount-navigation-link woocommerce-MyAccount-navigation-link--${l.key}`}>
            <a href={l.href} aria-current={current === l.key ? "page" : undefined}>
              {l.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export interface OrderRow {
  id: number;
  status: string;
  statusLabel: string;
  total: number;
  items: number;
  createdAt: string;
  orderKey: string;
  /** Pay and Cancel for a pending or failed order (orderActionsFor); null when not offered. */
  actions?: { pay: string | null; cancel: string | null };
}

/** `cancelNonce` signs the Cancel forms, which post to the order's view page (it cancels and comes back here). */
export function OrdersTable({ orders, cancelNonce }: { orders: OrderRow[]; cancelNonce?: string }) {
  return (
    <table className="woocommerce-orders-table account-orders-table shop_table shop_table_responsive">
      <thead>
        <tr>
          <th scope="col">Order</th>
          <th scope="col">Date</th>
          <th scope="col">Status</th>
          <th scope="col">Total</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {orders.map((o) => (
          <tr key={o.id} className={`woocommerce-orders-table__row order status-${o.status}`}>
            <td data-title="Order">
              <a href={`/my-account/view-order/${o.id}/`}>#{o.id}</a>
            </td>
            <td data-title="Date">
              <time dateTime={o.createdAt}>{formatDate(o.createdAt)}</time>
            </td>
            <td data-title="Status">{o.statusLabel}</td>
            <td data-title="Total">
              {formatMoney(o.total)} for {o.items} {o.items === 1 ? "item" : "items"}
            </td>
            <td data-title="Actions">
              {o.actions?.pay ? (
                <a className="button pay" href={o.actions.pay} aria-label={`Pay for order #${o.id}`}>
                  Pay
                </a>
              ) : null}{" "}
              <a className="button view" href={`/my-account/view-order/${o.id}/`} aria-label={`View order #${o.id}`}>
                View
              </a>
              {o.actions?.cancel && cancelNonce ? (
                <form method="post" action={o.actions.cancel} className="order-actions-cancel">
                  <input type="hidden" name="_wpnonce" value={cancelNonce} />
                  <button type="submit" className="button cancel" aria-label={`Cancel order #${o.id}`}>
                    Cancel
                  </button>
                </form>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A granted download as the account pages show it (core/db/repositories/downloads.ts). */
export interface DownloadRow {
  productName: string;
  productSlug: string;
  downloadName: string;
  url: string;
  /** null = unlimited. */
  downloadsRemaining: number | null;
  /** ISO date; null = never. */
  accessExpires: string | null;
}

/** WooCommerce's downloads table (myaccount/downloads.php, order/order-downloads.php). */
export function DownloadsTable({ downloads }: { downloads: DownloadRow[] }) {
  return (
    <table className="woocommerce-table woocommerce-table--order-downloads shop_table shop_table_responsive order_details">
      <thead>
        <tr>
          <th scope="col">Product</th>
          <th scope="col">Downloads remaining</th>
          <th scope="col">Expires</th>
          <th scope="col">Download</th>
        </tr>
      </thead>
      <tbody>
        {downloads.map((d) => (
          <tr key={d.url}>
            <td data-title="Product">
              <a href={`/product/${d.productSlug}/`}>{d.productName}</a>
            </td>
            <td data-title="Downloads remaining">{d.downloadsRemaining === null ? "\u221e" : d.downloadsRemaining}</td>
            <td data-title="Expires">{d.accessExpires === null ? "Never" : <time dateTime={d.accessExpires}>{formatDate(d.accessExpires)}</time>}</td>
            <td data-title="Download">
              <a className="woocommerce-MyAccount-downloads-file button alt" href={d.url} download>
                {d.downloadName || d.productName}
              </a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The "Downloads" section of an order (the order view and the order-received page), when it has any. */
export function OrderDownloads({ downloads }: { downloads: DownloadRow[] }) {
  if (!downloads.length) return null;
  return (
    <section className="woocommerce-order-downloads" aria-labelledby="order-downloads-title">
      <h2 id="order-downloads-title" className="woocommerce-order-downloads__title">
        Downloads
      </h2>
      <DownloadsTable downloads={downloads} />
    </section>
  );
}
