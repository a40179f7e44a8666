/**
 * The order screen's actions (docs/contract/admin.md 'Order'): the status change along the allowed transitions,
 * resending the order e-mail (`POST wc/v3/orders/{id}/actions/send_order_details`), the packing slip's link, the
 * refund-by-line form, the refunds made, and the notes (list, add, delete).
 */
import { useRef, useState } from "react";
import { Button, CheckboxControl, SelectControl, TextControl, TextareaControl } from "@wordpress/components";
import { send, type RestError } from "./api.ts";
import { ORDER_STATUS_NAMES, cents, money } from "./orders-shared.ts";
import type { ActionResult } from "./Status.tsx";
import type { OrderNote, RestOrder, RestRefund } from "./types.ts";
import { ORDER_STATUS_TRANSITIONS, isOrderStatus } from "../../core/domain/orders/status.ts";
import { lineRefundsLeft } from "../../core/domain/orders/refund-lines.ts";

type Report = (result: ActionResult) => void;
const when = (iso: string) => iso.replace("T", " ").slice(0, 16);

/** The statuses staff may move the order to: the machine's edges, less `refunded`, which only a refund reaches. */
const nextStatuses = (status: string): string[] => (isOrderStatus(status) ? ORDER_STATUS_TRANSITIONS[status].filter((s) => s !== "refunded") : []);

export function OrderActions({ order, onResult, onChanged }: { order: RestOrder; onResult: Report; onChanged: () => void }) {
  const options = nextStatuses(order.status);
  const [to, setTo] = useState(order.status);
  const [busy, setBusy] = useState<"status" | "email" | null>(null);

  async function changeStatus() {
    if (busy || to === order.status) return;
    setBusy("status");
    onResult(null);
    try {
      await send(`/wc/v3/orders/${order.id}`, "PUT", { status: to });
      onResult({ status: "success", text: `Status changed from ${ORDER_STATUS_NAMES[order.status] ?? order.status} to ${ORDER_STATUS_NAMES[to] ?? to}.` });
      onChanged();
    } catch (e) {
      onResult({ status: "error", text: `The status was not changed: ${(e as RestError).message}` });
    } finally {
      setBusy(null);
    }
  }

  async function resend() {
    if (busy) return;
    setBusy("email");
    onResult(null);
    try {
      const { body } = await send<{ message: string }>(`/wc/v3/orders/${order.id}/actions/send_order_details`, "POST", {});
      onResult({ status: "success", text: body.message });
      onChanged();
    } catch (e) {
      onResult({ status: "error", text: `The e-mail was not queued: ${(e as RestError).message}` });
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="admin-card" aria-labelledby="order-actions">
      <h2 id="order-actions">Order actions</h2>
      <div className="admin-order-actions">
        {options.length ? (
          <div className="admin-status-change">
            <SelectControl
              __next40pxDefaultSize
              __nextHasNoMarginBottom
              label="Status"
              value={to}
              options={[order.status, ...options].map((s) => ({
                value: s,
                label: s === order.status ? `${ORDER_STATUS_NAMES[s] ?? s} (current)` : (ORDER_STATUS_NAMES[s] ?? s),
              }))}
              onChange={setTo}
            />
            <Button
              variant="secondary"
              isBusy={busy === "status"}
              aria-disabled={busy !== null || to === order.status}
              onClick={() => void changeStatus()}
              __next40pxDefaultSize
            >
              Change status
            </Button>
          </div>
        ) : (
          <p>
            Status: {ORDER_STATUS_NAMES[order.status] ?? order.status} (no other status can follow it
            {order.status === "processing" || order.status === "completed" ? "; refunding makes it Refunded" : ""}).
          </p>
        )}
        <div className="admin-buttons">
          <Button variant="secondary" isBusy={busy === "email"} aria-disabled={busy !== null} onClick={() => void resend()} __next40pxDefaultSize>
            Resend order details to the customer
          </Button>
          <a className="components-button is-secondary is-next-40px-default-size" href={`/wp-admin/orders/${order.id}/packing-slip/`}>
            Packing slip
          </a>
        </div>
      </div>
    </section>
  );
}

type LineInput = { quantity: string; amount: string; amountTyped: boolean };

/**
 * Refund by line: a quantity and an amount per line (the amount follows the quantity until typed), shipping or another
 * amount tied to no line, restock, reason, the total as typed.
 */
export function LineRefundForm(props: {
  order: RestOrder;
  refunds: RestRefund[];
  /** Cents left to refund on the whole order. */
  remaining: number;
  onDone: (text: string) => void;
  onRefused: (text: string) => void;
  onCancel: () => void;
}) {
  const { order } = props;
  const left = lineRefundsLeft(
    order.line_items.map((l) => ({ id: l.id, quantity: l.quantity, total: cents(l.total) })),
    props.refunds.map((r) => r.line_items.map((li) => ({ id: li.id, quantity: -li.quantity, refund_total: cents(li.refund_total) }))),
  );
  const [inputs, setInputs] = useState<Record<number, LineInput>>({});
  const [restock, setRestock] = useState(true);
  const [reason, setReason] = useState("");
  const [extra, setExtra] = useState("");
  // A new key whenever the request changes: the same key again means "the same refund" (a retry).
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState(false);
  const first = useRef<HTMLInputElement>(null);

  const rows = order.line_items.map((l) => {
    const l2 = left.find((x) => x.id === l.id)!;
    const input = inputs[l.id] ?? { quantity: "", amount: "", amountTyped: false };
    const quantity = input.quantity.trim() === "" ? 0 : /^\d+$/.test(input.quantity.trim()) ? Number(input.quantity) : NaN;
    const amount = input.amount.trim() === "" ? 0 : /^\d+(\.\d{1,2})?$/.test(input.amount.trim()) ? cents(input.amount) : NaN;
    const quantityError = Number.isNaN(quantity) ? "Enter a whole number." : quantity > l2.quantity ? `At most ${l2.quantity}.` : null;
    const amountError = Number.isNaN(amount) ? "Enter an amount such as 12.50." : amount > l2.total ? `At most ${money(order, l2.total / 100)}.` : null;
    return { line: l, left: l2, input, quantity, amount, quantityError, amountError };
  });
  // Shipping, or any amount not tied to a line (a goodwill gesture): part of the refund's amount, in no line.
  const extraCents = extra.trim() === "" ? 0 : /^\d+(\.\d{1,2})?$/.test(extra.trim()) ? cents(extra) : NaN;
  const extraError = Number.isNaN(extraCents) ? "Enter an amount such as 5.00." : null;
  const total = rows.reduce((n, r) => n + (Number.isNaN(r.amount) ? 0 : r.amount), 0) + (Number.isNaN(extraCents) ? 0 : extraCents);
  const lineErrors = rows.some((r) => r.quantityError || r.amountError) || Boolean(extraError);
  const totalError =
    total > props.remaining
      ? `Only ${money(order, props.remaining / 100)} is left to refund on this order.`
      : total === 0
        ? "Enter a quantity or an amount for at least one line, or an amount for shipping or other."
        : null;

  function update(id: number, patch: Partial<LineInput>) {
    setKey(crypto.randomUUID());
    setInputs((all) => {
      const row = rows.find((r) => r.line.id === id)!;
      const next = { ...row.input, ...patch };
      if (patch.quantity !== undefined && !next.amountTyped) {
        const q = /^\d+$/.test(patch.quantity.trim()) ? Number(patch.quantity) : 0;
        const unit = cents(row.line.total) / row.line.quantity;
        const amount = q >= row.left.quantity ? row.left.total : Math.min(row.left.total, Math.round(unit * q));
        next.amount = q > 0 ? (amount / 100).toFixed(2) : "";
      }
      return { ...all, [id]: next };
    });
  }

  async function submit() {
    if (busy) return;
    setTried(true);
    if (lineErrors || totalError) {
      first.current?.closest("fieldset")?.querySelector<HTMLInputElement>("[aria-invalid='true']")?.focus();
      return;
    }
    setBusy(true);
    const chosen = rows.filter((r) => r.quantity > 0 || r.amount > 0);
    try {
      await send(
        `/wc/v3/orders/${order.id}/refunds`,
        "POST",
        {
          amount: (total / 100).toFixed(2),
          reason,
          api_refund: true,
          api_restock: restock,
          line_items: chosen.map((r) => ({ id: r.line.id, quantity: r.quantity, refund_total: (r.amount / 100).toFixed(2) })),
        },
        { "Idempotency-Key": key },
      );
      const what = [
        ...chosen.map((r) => `${r.line.name} × ${r.quantity}`),
        ...(extraCents > 0 ? [`${money(order, extraCents / 100)} shipping or other`] : []),
      ].join(", ");
      props.onDone(
        `Refunded ${money(order, total / 100)} through ${order.payment_method_title || "the payment gateway"} (${what})${restock && chosen.some((r) => r.quantity > 0) ? ", items back in stock" : ""}.`,
      );
    } catch (e) {
      props.onRefused(`The refund was not made: ${(e as RestError).message}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <fieldset className="admin-fieldset admin-line-refund">
      <legend>Refund by line</legend>
      <p className="admin-hint">
        For each line, the units to refund and the amount (it follows the units until you type one); shipping or another amount below.
      </p>
      {rows.map((r, i) => (
        <fieldset key={r.line.id} className="admin-refund-line">
          <legend>
            {r.line.name}
            {r.line.sku ? ` (${r.line.sku})` : ""}: {r.left.quantity} of {r.line.quantity} left, {money(order, r.left.total / 100)} of{" "}
            {money(order, r.line.total)}
          </legend>
          <div className="admin-row">
            <TextControl
              __next40pxDefaultSize
              ref={i === 0 ? first : undefined}
              label="Units to refund"
              type="number"
              min={0}
              max={r.left.quantity}
              value={r.input.quantity}
              onChange={(quantity) => update(r.line.id, { quantity })}
              aria-invalid={Boolean(r.quantityError)}
              help={r.quantityError ? <span className="admin-field-error">{r.quantityError}</span> : undefined}
              disabled={r.left.quantity === 0 && r.left.total === 0}
            />
            <TextControl
              __next40pxDefaultSize
              label="Amount to refund"
              inputMode="decimal"
              value={r.input.amount}
              onChange={(amount) => update(r.line.id, { amount, amountTyped: amount.trim() !== "" })}
              aria-invalid={Boolean(r.amountError)}
              help={r.amountError ? <span className="admin-field-error">{r.amountError}</span> : undefined}
              disabled={r.left.total === 0}
            />
          </div>
        </fieldset>
      ))}
      <TextControl
        __next40pxDefaultSize
        label="Shipping or another amount"
        inputMode="decimal"
        value={extra}
        onChange={(v) => {
          setExtra(v);
          setKey(crypto.randomUUID());
        }}
        aria-invalid={Boolean(extraError)}
        help={
          extraError ? (
            <span className="admin-field-error">{extraError}</span>
          ) : (
            `Refunded with the lines above, tied to none of them (shipping paid: ${money(order, order.shipping_total)}).`
          )
        }
      />
      <CheckboxControl
        label="Put the refunded units back in stock"
        checked={restock}
        onChange={(v) => {
          setRestock(v);
          setKey(crypto.randomUUID());
        }}
      />
      <TextControl
        __next40pxDefaultSize
        label="Reason (optional)"
        value={reason}
        onChange={(v) => {
          setReason(v);
          setKey(crypto.randomUUID());
        }}
      />
      <p className="admin-refund-total" aria-live="polite">
        Refund total: <strong>{money(order, total / 100)}</strong>
      </p>
      {tried && totalError ? (
        <p className="admin-field-error" role="alert">
          {totalError}
        </p>
      ) : null}
      <p>The money goes back through {order.payment_method_title || "the payment gateway"}. This cannot be undone.</p>
      <div className="admin-buttons">
        <Button variant="primary" isDestructive isBusy={busy} aria-disabled={busy} onClick={() => void submit()} __next40pxDefaultSize>
          {busy ? "Refunding…" : `Refund ${money(order, total / 100)}`}
        </Button>
        <Button variant="tertiary" onClick={props.onCancel} __next40pxDefaultSize>
          Cancel
        </Button>
      </div>
    </fieldset>
  );
}

export function RefundList({ order, refunds }: { order: RestOrder; refunds: RestRefund[] }) {
  if (!refunds.length) return null;
  return (
    <section className="admin-card" aria-labelledby="order-refunds">
      <h2 id="order-refunds">Refunds</h2>
      <ul className="admin-notes">
        {refunds.map((r) => (
          <li key={r.id}>
            <p>
              <strong>{money(order, r.amount)}</strong> · {when(r.date_created)} · {r.refunded_payment ? "through the payment gateway" : "recorded by hand"}
            </p>
            {r.line_items.length ? (
              <ul>
                {r.line_items.map((l) => (
                  <li key={l.id}>
                    {l.name} × {-l.quantity} ({money(order, l.refund_total)})
                  </li>
                ))}
              </ul>
            ) : null}
            <p className="admin-hint">Reason: {r.reason || "none given"}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function OrderNotes({ orderId, notes, onResult, onChanged }: { orderId: number; notes: OrderNote[]; onResult: Report; onChanged: () => void }) {
  const [text, setText] = useState("");
  const [kind, setKind] = useState<"private" | "customer">("private");
  const [confirming, setConfirming] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const noteField = useRef<HTMLTextAreaElement>(null);

  async function add() {
    if (busy) return;
    if (!text.trim()) {
      setError("Write the note first.");
      noteField.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    onResult(null);
    try {
      await send(`/wc/v3/orders/${orderId}/notes`, "POST", { note: text, customer_note: kind === "customer" });
      setText("");
      onResult({ status: "success", text: kind === "customer" ? "Note added and e-mailed to the customer." : "Private note added." });
      onChanged();
    } catch (e) {
      const err = e as RestError;
      if (err.data?.params?.note) setError(err.data.params.note);
      else onResult({ status: "error", text: `The note was not added: ${err.message}` });
    } finally {
      setBusy(false);
    }
  }

  async function remove(id: number) {
    if (busy) return;
    setBusy(true);
    onResult(null);
    try {
      await send(`/wc/v3/orders/${orderId}/notes/${id}?force=true`, "DELETE", undefined);
      setConfirming(null);
      onResult({ status: "success", text: "Note deleted." });
      heading.current?.focus();
      onChanged();
    } catch (e) {
      onResult({ status: "error", text: `The note was not deleted: ${(e as RestError).message}` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="admin-card" aria-labelledby="order-notes">
      <h2 id="order-notes" ref={heading} tabIndex={-1}>
        Notes
      </h2>
      {notes.length ? (
        <ul className="admin-notes">
          {notes.map((n) => (
            <li key={n.id}>
              <p>{n.note}</p>
              <p className="admin-hint">
                {n.customer_note ? "To the customer" : "Private"} · {n.author} · {when(n.date_created)}
              </p>
              {confirming === n.id ? (
                <div className="admin-buttons admin-note-confirm" role="group" aria-label="Delete this note for good?">
                  <span>Delete this note for good?</span>
                  <Button variant="secondary" isDestructive size="small" aria-disabled={busy} onClick={() => void remove(n.id)}>
                    Delete note
                  </Button>
                  <Button variant="tertiary" size="small" onClick={() => setConfirming(null)}>
                    Keep it
                  </Button>
                </div>
              ) : (
                <Button
                  variant="link"
                  isDestructive
                  onClick={() => setConfirming(n.id)}
                  aria-label={`Delete the note of ${when(n.date_created)}: ${n.note.slice(0, 40)}`}
                >
                  Delete
                </Button>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p>No notes.</p>
      )}
      <div className="admin-add-note">
        <TextareaControl
          __nextHasNoMarginBottom
          ref={noteField}
          label="Add a note"
          value={text}
          onChange={(v) => {
            setText(v);
            setError(null);
          }}
          aria-invalid={Boolean(error)}
          help={error ? <span className="admin-field-error">{error}</span> : undefined}
          rows={3}
        />
        <SelectControl
          __next40pxDefaultSize
          __nextHasNoMarginBottom
          label="Note type"
          value={kind}
          options={[
            { value: "private", label: "Private note" },
            { value: "customer", label: "Note to the customer (e-mailed)" },
          ]}
          onChange={(v) => setKind(v as "private" | "customer")}
        />
        <Button variant="secondary" isBusy={busy} aria-disabled={busy} onClick={() => void add()} __next40pxDefaultSize>
          Add note
        </Button>
      </div>
    </section>
  );
}
