/**
 * The Order screen's Billing and Shipping blocks (docs/contract/admin.md 'Order'): the address, and "Edit" (as
 * WooCommerce's pencil) turning the block into a form with WooCommerce's fields — the checkout's country list and
 * its states (a list where the country has one, none where its addresses have no state). Save sends the changed
 * fields with `PUT wc/v3/orders/{id}` and the order's ETag as `If-Match`: the server checks them by the checkout's
 * rules and each refusal (`shipping.postcode`) is shown under its field, focus on the first; a save over someone
 * else's change is refused (412) and offers to reload.
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Button, SelectControl, TextControl } from "@wordpress/components";
import { pencil } from "@wordpress/icons";
import { COUNTRIES } from "../../core/domain/checkout/countries.ts";
import { addressLabels, subdivisionsOf } from "../../core/domain/checkout/address.ts";
import { send, type RestError } from "./api.ts";
import { personOf } from "./orders-shared.ts";
import { useFocusFirstInvalid } from "./SaveNotice.tsx";
import type { Address, RestOrder } from "./types.ts";

type Kind = "billing" | "shipping";
const KEYS = ["first_name", "last_name", "company", "address_1", "address_2", "city", "postcode", "country", "state", "email", "phone"] as const;
type Key = (typeof KEYS)[number];
type Form = Record<Key, string>;

const LABELS: Record<Key, string> = {
  first_name: "First name",
  last_name: "Last name",
  company: "Company",
  address_1: "Address line 1",
  address_2: "Address line 2",
  city: "City",
  postcode: "Postcode / ZIP",
  country: "Country / Region",
  state: "State / County",
  email: "E-mail address",
  phone: "Phone",
};

const formOf = (a: Partial<Address> | undefined): Form => Object.fromEntries(KEYS.map((k) => [k, typeof a?.[k] === "string" ? (a[k] as string) : ""])) as Form;

/** The changed fields only (the API merges them); shipping sends no e-mail (WooCommerce's shape). */
export function changedAddress(kind: Kind, before: Form, after: Form): Partial<Form> {
  return Object.fromEntries(KEYS.filter((k) => (kind === "billing" || k !== "email") && before[k] !== after[k]).map((k) => [k, after[k].trim()]));
}

/** The API's refusal → this form's fields: `data.params` named `shipping.postcode`, its message without the name. */
export function addressErrors(kind: Kind, e: RestError, labelOf: (k: Key) => string): Partial<Record<Key, string>> {
  const out: Partial<Record<Key, string>> = {};
  for (const [param, message] of Object.entries(e.data?.params ?? {})) {
    const key = param.startsWith(`${kind}.`) ? (param.slice(kind.length + 1) as Key) : param === kind ? "first_name" : null;
    if (key && KEYS.includes(key)) out[key] = message.replace(new RegExp(`^${kind}(?:\\.[a-z_0-9]+)?\\s*`), `${labelOf(key)} `);
  }
  return out;
}

const text = { __next40pxDefaultSize: true, __nextHasNoMarginBottom: true } as const;

export function OrderAddress({
  kind,
  order,
  etag,
  onSaved,
  onRefused,
}: {
  kind: Kind;
  order: RestOrder;
  etag: string;
  onSaved: (text: string) => void;
  onRefused: (text: string, conflict: boolean) => void;
}) {
  const title = kind === "billing" ? "Billing" : "Shipping";
  const address = order[kind];
  const [form, setForm] = useState<Form | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Key, string>>>({});
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const editRef = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  const focusFirstInvalid = useFocusFirstInvalid();
  const editing = form !== null;

  useEffect(() => {
    if (editing) formRef.current?.querySelector<HTMLElement>("input, select")?.focus();
    else if (returnFocus.current) {
      returnFocus.current = false;
      editRef.current?.focus();
    }
  }, [editing]);

  const labels = addressLabels(form?.country ?? address.country);
  const labelOf = (k: Key) => (k === "state" ? (labels.state ?? LABELS.state) : k === "postcode" ? labels.postcode : LABELS[k]);

  function close() {
    returnFocus.current = true;
    setForm(null);
    setErrors({});
  }

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!form || busy) return;
    const patch = changedAddress(kind, formOf(address), form);
    if (!Object.keys(patch).length) return close();
    setBusy(true);
    try {
      await send(`/wc/v3/orders/${order.id}`, "PUT", { [kind]: patch }, etag ? { "If-Match": etag } : {});
      close();
      onSaved(`${title} address saved.`);
    } catch (thrown) {
      const error = thrown as RestError;
      const named = addressErrors(kind, error, labelOf);
      setErrors(named);
      if (Object.keys(named).length) {
        focusFirstInvalid();
        onRefused(`The ${kind} address was not saved: ${Object.keys(named).length === 1 ? "a field needs" : "some fields need"} correcting.`, false);
      } else onRefused(`The ${kind} address was not saved: ${error.message}`, error.code === "woocommerce_rest_order_changed");
    } finally {
      setBusy(false);
    }
  }

  const heading = `address-${kind}`;
  if (!form) {
    return (
      <section className="admin-card" aria-labelledby={heading}>
        <div className="admin-card-head">
          <h2 id={heading}>{title}</h2>
          <Button
            ref={editRef}
            variant="secondary"
            icon={pencil}
            aria-label={`Edit ${kind} address`}
            onClick={() => setForm(formOf(address))}
            __next40pxDefaultSize
          >
            Edit
          </Button>
        </div>
        <AddressText address={address} />
      </section>
    );
  }

  const set = (k: Key, v: string) => {
    setForm({ ...form, [k]: v });
    if (errors[k]) setErrors({ ...errors, [k]: undefined });
  };
  const err = (k: Key) => (errors[k] ? { help: <span className="admin-field-error">{errors[k]}</span>, "aria-invalid": true as const } : {});
  const field = (k: Key, extra: Record<string, unknown> = {}) => (
    <TextControl {...text} label={labelOf(k)} value={form[k]} onChange={(v) => set(k, v)} {...extra} {...err(k)} />
  );
  const states = subdivisionsOf(form.country);
  const countryOptions = [
    { value: "", label: "Choose a country…" },
    ...Object.entries(COUNTRIES).map(([code, c]) => ({ value: code, label: c.name })),
    ...(form.country && !COUNTRIES[form.country] ? [{ value: form.country, label: form.country }] : []),
  ];
  const stateKnown = !form.state || (states ?? []).some((s) => s.code === form.state);
  return (
    <section className="admin-card" aria-labelledby={heading}>
      <h2 id={heading}>Edit {kind} address</h2>
      <form ref={formRef} className="admin-order-address-form" onSubmit={(e) => void save(e)} noValidate>
        <div className="admin-row">
          {field("first_name")}
          {field("last_name")}
        </div>
        {field("company")}
        {field("address_1")}
        {field("address_2")}
        <div className="admin-row">
          {field("city")}
          {field("postcode")}
        </div>
        <div className="admin-row">
          <SelectControl
            {...text}
            label={labelOf("country")}
            value={form.country}
            options={countryOptions}
            onChange={(v) => set("country", v)}
            {...err("country")}
          />
          {labels.state === null ? null : states ? (
            <SelectControl
              {...text}
              label={labelOf("state")}
              value={form.state}
              options={[
                { value: "", label: "Choose…" },
                ...states.map((s) => ({ value: s.code, label: s.name })),
                ...(stateKnown ? [] : [{ value: form.state, label: form.state }]),
              ]}
              onChange={(v) => set("state", v)}
              {...err("state")}
            />
          ) : (
            field("state")
          )}
        </div>
        <div className="admin-row">
          {kind === "billing" ? field("email", { type: "email" }) : null}
          {field("phone", { type: "tel" })}
        </div>
        <div className="admin-buttons">
          <Button variant="primary" type="submit" isBusy={busy} aria-disabled={busy} __next40pxDefaultSize>
            {busy ? "Saving…" : `Save ${kind} address`}
          </Button>
          {kind === "shipping" ? (
            <Button variant="secondary" onClick={() => setForm({ ...formOf(order.billing), email: "" })} __next40pxDefaultSize>
              Copy billing address
            </Button>
          ) : null}
          <Button variant="tertiary" onClick={close} __next40pxDefaultSize>
            Cancel
          </Button>
        </div>
      </form>
    </section>
  );
}

/** An address as the Order screen and the packing slip print it: the lines, then the e-mail and phone. */
function AddressText({ address }: { address: Address }) {
  const lines = [
    personOf(address),
    address.company,
    address.address_1,
    address.address_2,
    [address.postcode, address.city].filter(Boolean).join(" "),
    [address.state, address.country].filter(Boolean).join(", "),
  ].filter(Boolean);
  return (
    <>
      {address.address_1 || address.city ? (
        <address>
          {lines.map((l, i) => (
            <span key={i}>
              {l}
              <br />
            </span>
          ))}
        </address>
      ) : (
        <p>No address.</p>
      )}
      {address.email ? <p>{address.email}</p> : null}
      {address.phone ? <p>{address.phone}</p> : null}
    </>
  );
}

/** A titled address, read only (the packing slip). */
export function AddressBlock({ title, address }: { title: string; address: Address }) {
  return (
    <section className="admin-card" aria-labelledby={`address-${title}`}>
      <h2 id={`address-${title}`}>{title}</h2>
      <AddressText address={address} />
    </section>
  );
}
