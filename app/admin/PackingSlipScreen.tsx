/**
 * An order's packing slip (docs/contract/admin.md 'Packing slip'): the shipping and billing addresses, the customer's
 * note and the lines with their SKU and quantity, no prices, from `GET wc/v3/orders/{id}`. A Print button; the print
 * styles (app/admin/admin-screens.css, `@media print`) leave only the slip on paper.
 */
import { useEffect, useState } from "react";
import { Button } from "@wordpress/components";
import "@wordpress/components/build-style/style.css";
import "./admin-screens.css";
import { getWithHeaders, type RestError } from "./api.ts";
import { Loading, LoadError } from "./Status.tsx";
import { AddressBlock } from "./OrderAddress.tsx";
import type { RestOrder } from "./types.ts";

type Load = { state: "loading" } | { state: "error"; error: RestError } | { state: "ready"; order: RestOrder };

export default function PackingSlipScreen({ id }: { id: number }) {
  const [load, setLoad] = useState<Load>({ state: "loading" });
  useEffect(() => {
    let live = true;
    getWithHeaders<RestOrder>(`/wc/v3/orders/${id}`).then(
      ({ body }) => live && setLoad({ state: "ready", order: body }),
      (error: RestError) => live && setLoad({ state: "error", error }),
    );
    return () => {
      live = false;
    };
  }, [id]);
  if (load.state === "loading") return <Loading what="the packing slip" />;
  if (load.state === "error") return <LoadError error={load.error} />;
  const { order } = load;
  const units = order.line_items.reduce((n, l) => n + l.quantity, 0);
  const shipTo = order.shipping.address_1 || order.shipping.city ? order.shipping : order.billing;
  return (
    <div className="admin-packing-slip">
      <div className="admin-buttons admin-print-hide">
        <Button variant="primary" onClick={() => window.print()} __next40pxDefaultSize>
          Print
        </Button>
        <a className="components-button is-tertiary is-next-40px-default-size" href={`/wp-admin/orders/${order.id}/`}>
          Back to order #{order.number}
        </a>
      </div>
      <section className="admin-card" aria-labelledby="slip-order">
        <h2 id="slip-order">Order #{order.number}</h2>
        <p>Ordered {order.date_created.slice(0, 10)}</p>
      </section>
      <div className="admin-order-columns">
        <AddressBlock title="Ship to" address={shipTo} />
        <AddressBlock title="Bill to" address={order.billing} />
      </div>
      <section className="admin-card" aria-labelledby="slip-items">
        <h2 id="slip-items">Items</h2>
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">Product</th>
              <th scope="col">SKU</th>
              <th scope="col">Quantity</th>
            </tr>
          </thead>
          <tbody>
            {order.line_items.map((l) => (
              <tr key={l.id}>
                <td>{l.name}</td>
                <td>{l.sku || "–"}</td>
                <td>{l.quantity}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={2}>
                Units
              </th>
              <td>{units}</td>
            </tr>
          </tfoot>
        </table>
        {order.customer_note ? <p>Customer’s note: {order.customer_note}</p> : null}
      </section>
    </div>
  );
}
