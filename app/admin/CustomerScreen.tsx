/**
 * A customer (docs/contract/admin.md 'Customer'): `GET wc/v3/customers/{id}` (name, e-mail, orders, lifetime value,
 * addresses), their orders (`GET wc/v3/orders?customer={id}`), saved payment methods by brand and last four
 * (`GET shop/v1/customers/{id}/payment-methods`), and "Send password reset" (`POST
 * shop/v1/customers/{id}/password-reset`: WordPress's reset e-mail through the outbox, under the lost-password limits).
 */
import { useEffect, useState } from "react";
import { Button } from "@wordpress/components";
import { Loading, LoadError, ResultNotice, type ActionResult } from "./Status.tsx";
import "@wordpress/components/build-style/style.css";
import "./admin-screens.css";
import { getWithHeaders, send, type RestError } from "./api.ts";
import { AddressBlock } from "./OrderScreen.tsx";
import { ORDER_STATUS_NAMES, money, shopMoney } from "./orders-shared.ts";
import type { RestCustomer, RestOrder, SavedMethod } from "./types.ts";

type Load =
  | { state: "loading" }
  | { state: "error"; error: RestError }
  | { state: "ready"; customer: RestCustomer; orders: RestOrder[]; ordersTotal: number; methods: SavedMethod[] };

export default function CustomerScreen({ id }: { id: number }) {
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<ActionResult>(null);

  useEffect(() => {
    let live = true;
    Promise.all([
      getWithHeaders<RestCustomer>(`/wc/v3/customers/${id}`),
      getWithHeaders<RestOrder[]>(`/wc/v3/orders?customer=${id}&per_page=20&orderby=date&order=desc`),
      getWithHeaders<SavedMethod[]>(`/shop/v1/customers/${id}/payment-methods`),
    ]).then(
      ([customer, orders, methods]) =>
        live &&
        setLoad({
          state: "ready",
          customer: customer.body,
          orders: orders.body,
          ordersTotal: Number(orders.headers.get("X-WP-Total") ?? orders.body.length),
          methods: methods.body,
        }),
      (error: RestError) => live && setLoad({ state: "error", error }),
    );
    return () => {
      live = false;
    };
  }, [id]);

  if (load.state === "loading") return <Loading what="the customer" />;
  if (load.state === "error") return <LoadError error={load.error} />;
  const { customer, orders, ordersTotal, methods } = load;

  async function sendReset() {
    if (sending) return;
    setSending(true);
    setResult(null);
    try {
      const { body } = await send<{ email: string }>(`/shop/v1/customers/${customer.id}/password-reset`, "POST", {});
      setResult({ status: "success", text: `A password reset e-mail was sent to ${body.email}.` });
    } catch (e) {
      setResult({ status: "error", text: `The e-mail was not sent: ${(e as RestError).message}` });
    } finally {
      setSending(false);
    }
  }

  return (
    <div className="admin-customer">
      <section className="admin-card" aria-labelledby="customer-summary">
        <h2 id="customer-summary">Account</h2>
        <dl className="admin-details">
          <dt>E-mail</dt>
          <dd>
            <a href={`mailto:${customer.email}`}>{customer.email}</a>
          </dd>
          <dt>Username</dt>
          <dd>{customer.username}</dd>
          <dt>Registered</dt>
          <dd>{customer.date_created.slice(0, 10)}</dd>
          <dt>Orders</dt>
          <dd>{customer.orders_count}</dd>
          <dt>Lifetime value</dt>
          <dd>{shopMoney(customer.total_spent)}</dd>
        </dl>
        <div className="admin-buttons">
          <Button variant="secondary" isBusy={sending} aria-disabled={sending} onClick={() => void sendReset()} __next40pxDefaultSize>
            {sending ? "Sending…" : "Send password reset"}
          </Button>
        </div>
        <ResultNotice result={result} />
      </section>
      <div className="admin-customer-columns">
        <AddressBlock title="Billing" address={customer.billing} />
        <AddressBlock title="Shipping" address={customer.shipping} />
      </div>
      <section className="admin-card" aria-labelledby="customer-orders">
        <h2 id="customer-orders">Orders</h2>
        {orders.length ? (
          <div className="admin-table-scroll">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">Order</th>
                  <th scope="col">Date</th>
                  <th scope="col">Status</th>
                  <th scope="col">Total</th>
                </tr>
              </thead>
              <tbody>
                {orders.map((o) => (
                  <tr key={o.id}>
                    <td>
                      <a href={`/wp-admin/orders/${o.id}/`}>#{o.number}</a>
                    </td>
                    <td>{o.date_created.replace("T", " ").slice(0, 16)}</td>
                    <td>{ORDER_STATUS_NAMES[o.status] ?? o.status}</td>
                    <td>{money(o, o.total)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p>No orders yet.</p>
        )}
        {ordersTotal > orders.length ? (
          <p className="admin-hint">
            The {orders.length} newest of {ordersTotal} orders.
          </p>
        ) : null}
      </section>
      <section className="admin-card" aria-labelledby="customer-methods">
        <h2 id="customer-methods">Saved payment methods</h2>
        {methods.length ? (
          <ul className="admin-methods">
            {methods.map((m) => (
              <li key={m.id}>
                {m.label}
                {m.is_default ? " · default" : ""}
              </li>
            ))}
          </ul>
        ) : (
          <p>No saved payment methods.</p>
        )}
      </section>
    </div>
  );
}
