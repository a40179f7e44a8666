/**
 * An order (docs/contract/admin.md 'Order'): `GET wc/v3/orders/{id}`, its notes and its refunds — lines (edited
 * while the order is pending or on hold, OrderItems.tsx), totals,
 * addresses (each editable, OrderAddress.tsx), payment, origin (the checkout's attribution) — with the order's actions: a status change along the allowed transitions, resending the order
 * e-mail, the packing slip, notes (private or to the customer, deleted), and refunds through
 * `POST wc/v3/orders/{id}/refunds` (the gateway): in full, or by line with a quantity and amount per line and
 * restock. Each confirmed refund carries an idempotency key, so a retry is never a second refund. The download
 * permissions box (grant, edit, revoke) is OrderDownloads.tsx.
 */
import { Fragment, useEffect, useState } from "react";
import { Button, CheckboxControl, TextControl } from "@wordpress/components";
import { OrderActions, OrderNotes, LineRefundForm, RefundList } from "./OrderParts.tsx";
import { OrderDownloads } from "./OrderDownloads.tsx";
import { OrderAddress } from "./OrderAddress.tsx";
import { OrderItems } from "./OrderItems.tsx";
import { Loading, LoadError, ResultNotice, type ActionResult } from "./Status.tsx";
import "@wordpress/components/build-style/style.css";
import "./admin-screens.css";
import { getWithHeaders, send, type RestError } from "./api.ts";
import { ORDER_STATUS_NAMES, cents, money, personOf } from "./orders-shared.ts";
import type { OrderNote, RestOrder, RestRefund } from "./types.ts";
import { orderAttribution } from "../../core/domain/attribution/origin.ts";

type Load =
  { state: "loading" } | { state: "error"; error: RestError } | { state: "ready"; order: RestOrder; etag: string; notes: OrderNote[]; refunds: RestRefund[] };

/** Where the customer came from (WooCommerce's "Order attribution" box), as the checkout stored it. */
function OrderOrigin({ order }: { order: RestOrder }) {
  const attribution = orderAttribution(order.meta_data);
  return (
    <section className="admin-card" aria-labelledby="order-origin">
      <h2 id="order-origin">Origin</h2>
      {attribution ? (
        <>
          <p className="admin-order-origin">{attribution.origin}</p>
          <dl className="admin-details">
            {attribution.details.map((d) => (
              <Fragment key={d.label}>
                <dt>{d.label}</dt>
                <dd>{d.value}</dd>
              </Fragment>
            ))}
          </dl>
        </>
      ) : (
        <p>Unknown: the order was placed without attribution (through the API, or with tracking off).</p>
      )}
    </section>
  );
}

export default function OrderScreen({ id }: { id: number }) {
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [reloads, setReloads] = useState(0);
  const [refund, setRefund] = useState<{ key: string; reason: string; restock: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ActionResult>(null);
  const [lineForm, setLineForm] = useState(false);

  useEffect(() => {
    let live = true;
    Promise.all([
      getWithHeaders<RestOrder>(`/wc/v3/orders/${id}`),
      getWithHeaders<OrderNote[]>(`/wc/v3/orders/${id}/notes`),
      getWithHeaders<RestRefund[]>(`/wc/v3/orders/${id}/refunds?per_page=100`),
    ]).then(
      ([order, notes, refunds]) =>
        live && setLoad({ state: "ready", order: order.body, etag: order.headers.get("ETag") ?? "", notes: notes.body, refunds: refunds.body }),
      (e: RestError) => live && setLoad({ state: "error", error: e }),
    );
    return () => {
      live = false;
    };
  }, [id, reloads]);

  if (load.state === "loading") return <Loading what="the order" />;
  if (load.state === "error") return <LoadError error={load.error} />;
  const { order, etag, notes, refunds } = load;
  const reload = () => setReloads((n) => n + 1);
  const refunded = order.refunds.reduce((sum, r) => sum - cents(r.total), 0);
  const remaining = cents(order.total) - refunded;
  const subtotal = order.line_items.reduce((sum, l) => sum + cents(l.subtotal), 0);
  const paid = Boolean(order.date_paid) && remaining > 0;
  const amount = (remaining / 100).toFixed(2);

  async function confirmRefund() {
    if (!refund || busy) return;
    setBusy(true);
    setResult(null);
    try {
      // A first refund may restock every line; after an earlier refund only the amount is sent.
      const lines = refunded === 0 ? order.line_items.map((l) => ({ id: l.id, quantity: l.quantity, refund_total: l.total })) : [];
      await send(
        `/wc/v3/orders/${order.id}/refunds`,
        "POST",
        { amount, reason: refund.reason, api_refund: true, api_restock: refund.restock && lines.length > 0, line_items: lines },
        { "Idempotency-Key": refund.key },
      );
      setRefund(null);
      setResult({ status: "success", text: `Refunded ${money(order, amount)} through ${order.payment_method_title || "the payment gateway"}.` });
      reload();
    } catch (e) {
      setResult({ status: "error", text: `The refund was not made: ${(e as RestError).message}` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="admin-order">
      <ResultNotice result={result} />
      <section className="admin-card" aria-labelledby="order-summary">
        <h2 id="order-summary">
          {personOf(order.billing)} · {ORDER_STATUS_NAMES[order.status] ?? order.status}
        </h2>
        <p>
          Created {order.date_created.replace("T", " ").slice(0, 16)}
          {order.date_paid ? ` · paid ${order.date_paid.replace("T", " ").slice(0, 16)}` : " · not paid"}
        </p>
        <p>
          Payment: {order.payment_method_title || order.payment_method || "none"}
          {order.transaction_id ? ` · transaction ${order.transaction_id}` : ""}
        </p>
        {order.customer_note ? <p>Customer’s note: {order.customer_note}</p> : null}
      </section>
      <OrderActions order={order} onResult={setResult} onChanged={reload} />
      <OrderOrigin order={order} />
      <div className="admin-order-columns">
        {(["billing", "shipping"] as const).map((kind) => (
          <OrderAddress
            key={kind}
            kind={kind}
            order={order}
            etag={etag}
            onSaved={(text) => {
              setResult({ status: "success", text });
              reload();
            }}
            onRefused={(text, conflict) => {
              setResult({ status: "error", text: conflict ? `${text} Reload the page to see the changes.` : text });
            }}
          />
        ))}
      </div>
      <section className="admin-card" aria-labelledby="order-items">
        <OrderItems
          order={order}
          etag={etag}
          onSaved={(text) => {
            setResult({ status: "success", text });
            reload();
          }}
          onRefused={(text, conflict) => setResult({ status: "error", text: conflict ? `${text} Reload the page to see the changes.` : text })}
        />
        <dl className="admin-totals">
          <dt>Items subtotal</dt>
          <dd>{money(order, subtotal / 100)}</dd>
          {order.coupon_lines.length ? (
            <>
              <dt>Coupons ({order.coupon_lines.map((c) => c.code).join(", ")})</dt>
              <dd>−{money(order, order.discount_total)}</dd>
            </>
          ) : null}
          {order.shipping_lines.map((s) => (
            <div key={s.id} className="admin-totals-row">
              <dt>Shipping: {s.method_title}</dt>
              <dd>{money(order, s.total)}</dd>
            </div>
          ))}
          {(order.tax_lines ?? []).map((t) => (
            <div key={`tax-${t.id}`} className="admin-totals-row">
              <dt>{t.label}</dt>
              <dd>{money(order, (Number(t.tax_total) + Number(t.shipping_tax_total)).toFixed(2))}</dd>
            </div>
          ))}
          <dt>Order total</dt>
          <dd>{money(order, order.total)}</dd>
          {refunded ? (
            <>
              <dt>Refunded</dt>
              <dd>−{money(order, refunded / 100)}</dd>
              <dt>Net</dt>
              <dd>{money(order, remaining / 100)}</dd>
            </>
          ) : null}
        </dl>
        {paid ? (
          refund ? (
            <fieldset className="admin-fieldset">
              <legend>Refund {money(order, amount)}</legend>
              <TextControl __next40pxDefaultSize label="Reason (optional)" value={refund.reason} onChange={(reason) => setRefund({ ...refund, reason })} />
              {refunded === 0 ? (
                <CheckboxControl label="Put the items back in stock" checked={refund.restock} onChange={(restock) => setRefund({ ...refund, restock })} />
              ) : null}
              <p>The money goes back through {order.payment_method_title || "the payment gateway"}. This cannot be undone.</p>
              <div className="admin-buttons">
                <Button variant="primary" isDestructive isBusy={busy} aria-disabled={busy} onClick={() => void confirmRefund()} __next40pxDefaultSize>
                  {busy ? "Refunding…" : `Confirm refund of ${money(order, amount)}`}
                </Button>
                <Button variant="tertiary" onClick={() => setRefund(null)} __next40pxDefaultSize>
                  Cancel
                </Button>
              </div>
            </fieldset>
          ) : lineForm ? null : (
            <div className="admin-buttons">
              <Button variant="secondary" onClick={() => setRefund({ key: crypto.randomUUID(), reason: "", restock: true })} __next40pxDefaultSize>
                Refund {money(order, amount)}
              </Button>
              <Button variant="secondary" onClick={() => setLineForm(true)} __next40pxDefaultSize>
                Refund by line…
              </Button>
            </div>
          )
        ) : null}
        {paid && lineForm && !refund ? (
          <LineRefundForm
            order={order}
            refunds={refunds}
            remaining={remaining}
            onDone={(text) => {
              setLineForm(false);
              setResult({ status: "success", text });
              reload();
            }}
            onRefused={(text) => setResult({ status: "error", text })}
            onCancel={() => setLineForm(false)}
          />
        ) : null}
      </section>
      <OrderDownloads orderId={order.id} reloads={reloads} onResult={setResult} />
      <RefundList order={order} refunds={refunds} />
      <OrderNotes orderId={order.id} notes={notes} onResult={setResult} onChanged={reload} />
    </div>
  );
}
