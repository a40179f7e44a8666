/**
 * A customer (docs/contract/admin.md 'Customer'): `GET wc/v3/customers/{id}` (name, e-mail, orders, lifetime value,
 * addresses), their orders (`GET wc/v3/orders?customer={id}`), saved payment methods by brand and last four
 * (`GET shop/v1/customers/{id}/payment-methods`), and "Send password reset" (`POST
 * shop/v1/customers/{id}/password-reset`: WordPress's reset e-mail through the outbox, under the lost-password limits).
 * Editing names, e-mail and addresses sends the changed fields (`PUT wc/v3/customers/{id}`) with the ETag read as
 * `If-Match`: a save after someone else's is refused (412) and offers to reload. "Delete customer" (staff with
 * `delete_users`) is `DELETE …?force=true`; their orders stay, as guest orders.
 */
import { useCallback, useEffect, useId, useMemo, useState, type FormEvent } from "react";
import { Button, Notice } from "@wordpress/components";
import { Loading, LoadError, ResultNotice, type ActionResult } from "./Status.tsx";
import "@wordpress/components/build-style/style.css";
import "./admin-screens.css";
import { getWithHeaders, send, type RestError } from "./api.ts";
import { ORDER_STATUS_NAMES, money, shopMoney } from "./orders-shared.ts";
import { useUnsavedWarning } from "./use-unsaved-warning.ts";
import { refusedSave, useFocusFirstInvalid, SaveNotice, type SaveNote } from "./SaveNotice.tsx";
import { changedBody, CustomerFields, customerFieldErrors, customerFormOf, type CustomerForm } from "./CustomerForm.tsx";
import type { RestCustomer, RestOrder, SavedMethod } from "./types.ts";

const CHANGED = "woocommerce_rest_customer_changed";

type Load =
  | { state: "loading" }
  | { state: "error"; error: RestError }
  | { state: "ready"; customer: RestCustomer; etag: string; orders: RestOrder[]; ordersTotal: number; methods: SavedMethod[] };

export default function CustomerScreen({ id, canDelete = false }: { id: number; canDelete?: boolean }) {
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<ActionResult>(null);
  const [form, setForm] = useState<CustomerForm | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<SaveNote>(() =>
    new URLSearchParams(window.location.search).get("saved") === "created"
      ? { status: "success", text: "Customer added. They were sent an e-mail with a link to set their password." }
      : null,
  );
  const [saving, setSaving] = useState(false);
  const [leaveTo, setLeaveTo] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const focusFirstInvalid = useFocusFirstInvalid();
  const noticeId = useId();

  useEffect(() => {
    let live = true;
    Promise.all([
      getWithHeaders<RestCustomer>(`/wc/v3/customers/${id}`),
      getWithHeaders<RestOrder[]>(`/wc/v3/orders?customer=${id}&per_page=20&orderby=date&order=desc`),
      getWithHeaders<SavedMethod[]>(`/shop/v1/customers/${id}/payment-methods`),
    ]).then(
      ([customer, orders, methods]) => {
        if (!live) return;
        setLoad({
          state: "ready",
          customer: customer.body,
          etag: customer.headers.get("ETag") ?? "",
          orders: orders.body,
          ordersTotal: Number(orders.headers.get("X-WP-Total") ?? orders.body.length),
          methods: methods.body,
        });
        setForm(customerFormOf(customer.body));
        setErrors({});
      },
      (error: RestError) => live && setLoad({ state: "error", error }),
    );
    return () => {
      live = false;
    };
  }, [id, reloads]);

  const saved = useMemo(() => (load.state === "ready" ? customerFormOf(load.customer) : null), [load]);
  const patch = saved && form ? changedBody(saved, form) : {};
  const dirty = !leaveTo && Object.keys(patch).length > 0;
  useUnsavedWarning(dirty);
  useEffect(() => {
    if (leaveTo) window.location.assign(leaveTo);
  }, [leaveTo]);
  const reload = useCallback(() => {
    setNotice(null);
    setReloads((n) => n + 1);
  }, []);

  if (load.state === "loading") return <Loading what="the customer" />;
  if (load.state === "error") return <LoadError error={load.error} />;
  const { customer, orders, ordersTotal, methods } = load;
  const name = [customer.first_name, customer.last_name].filter(Boolean).join(" ") || customer.email;

  async function save(event: FormEvent) {
    event.preventDefault();
    if (saving || load.state !== "ready" || !form) return;
    setNotice(null);
    if (!Object.keys(patch).length) {
      setNotice({ status: "warning", text: "Nothing to save: no field was changed." });
      return;
    }
    setSaving(true);
    try {
      const answer = await send<RestCustomer>(`/wc/v3/customers/${id}`, "PUT", patch, load.etag ? { "If-Match": load.etag } : {});
      setLoad({ ...load, customer: answer.body, etag: answer.headers.get("ETag") ?? "" });
      setForm(customerFormOf(answer.body));
      setErrors({});
      setNotice({ status: "success", text: "Customer updated." });
    } catch (e) {
      const r = refusedSave(e as RestError, CHANGED, "customer", customerFieldErrors);
      setErrors(r.errors ?? {});
      setNotice(r.note);
      if (r.errors && Object.keys(r.errors).length) focusFirstInvalid();
    } finally {
      setSaving(false);
    }
  }

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
      {form ? (
        <form
          className="admin-product-edit admin-card"
          onSubmit={save}
          noValidate
          aria-labelledby="customer-edit"
          aria-describedby={notice ? noticeId : undefined}
        >
          <h2 id="customer-edit">Profile and addresses</h2>
          <SaveNotice id={noticeId} note={notice} reloadLabel="Reload the customer" onReload={reload} />
          <CustomerFields
            form={form}
            errors={errors}
            onChange={(next, key) => {
              setForm(next);
              if (errors[key]) setErrors(({ [key]: _, ...rest }) => rest);
            }}
          />
          <div className="admin-buttons">
            <Button variant="primary" type="submit" isBusy={saving} aria-disabled={saving} __next40pxDefaultSize>
              {saving ? "Saving…" : "Update customer"}
            </Button>
          </div>
          {dirty ? <p className="admin-hint">Unsaved changes.</p> : null}
        </form>
      ) : null}
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
      {canDelete && customer.role === "customer" ? (
        <DeleteCustomer customer={customer} name={name} etag={load.etag} onDeleted={(to) => setLeaveTo(to)} />
      ) : null}
      <p>
        <a href="/wp-admin/customers/">All customers</a>
      </p>
    </div>
  );
}

/** "Delete customer": the account goes for good; their orders stay (as guest orders), as WooCommerce keeps them. */
function DeleteCustomer({ customer, name, etag, onDeleted }: { customer: RestCustomer; name: string; etag: string; onDeleted: (to: string) => void }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function remove() {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await send(`/wc/v3/customers/${customer.id}?force=true`, "DELETE", undefined, etag ? { "If-Match": etag } : {});
      onDeleted(`/wp-admin/customers/?deleted=${encodeURIComponent(name)}`);
    } catch (e) {
      setError((e as RestError).message);
      setBusy(false);
    }
  }
  const orders = customer.orders_count;
  return (
    <section className="admin-card" aria-labelledby="customer-delete">
      <h2 id="customer-delete">Delete</h2>
      {open ? (
        <div className="admin-confirm" role="group" aria-label={`Confirm deleting ${name}`}>
          <p>
            Delete {name}&rsquo;s account for good? They can no longer sign in; their addresses and saved payment methods go with it.{" "}
            {orders ? `Their ${orders === 1 ? "order stays" : `${orders} orders stay`}, as a guest’s.` : ""}
          </p>
          <div role="alert">
            {error ? (
              <Notice status="error" isDismissible={false}>
                {error}
              </Notice>
            ) : null}
          </div>
          <div className="admin-buttons">
            <Button variant="primary" isDestructive isBusy={busy} aria-disabled={busy} onClick={() => void remove()} __next40pxDefaultSize>
              Delete permanently
            </Button>
            <Button variant="tertiary" onClick={() => setOpen(false)} __next40pxDefaultSize>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <Button variant="secondary" isDestructive onClick={() => setOpen(true)} __next40pxDefaultSize>
          Delete customer
        </Button>
      )}
    </section>
  );
}
