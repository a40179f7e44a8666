/**
 * The customer's fields (docs/contract/admin.md 'Add customer', 'Customer'): e-mail, names and the billing and
 * shipping addresses in `wc/v3/customers`' shape, shared by Add customer and the Customer screen's edit form. The
 * API's refusals are mapped to the field they name (`data.params`, the duplicate e-mail's code); there is no password
 * field: a customer the shop creates chooses theirs with the link of the "New account" e-mail.
 */
import { SelectControl, TextControl } from "@wordpress/components";
import { COUNTRIES } from "../../core/domain/checkout/countries.ts";
import type { RestError } from "./api.ts";
import type { Address, RestCustomer } from "./types.ts";

export const ADDRESS_KEYS = ["first_name", "last_name", "company", "address_1", "address_2", "city", "state", "postcode", "country", "phone"] as const;
type AddressKey = (typeof ADDRESS_KEYS)[number];
export type AddressForm = Record<AddressKey, string> & { email: string };

export interface CustomerForm {
  email: string;
  first_name: string;
  last_name: string;
  billing: AddressForm;
  shipping: AddressForm;
}

const emptyAddress = (): AddressForm => ({ ...(Object.fromEntries(ADDRESS_KEYS.map((k) => [k, ""])) as Record<AddressKey, string>), email: "" });
export const EMPTY_CUSTOMER: CustomerForm = { email: "", first_name: "", last_name: "", billing: emptyAddress(), shipping: emptyAddress() };

const addressOf = (a: Partial<Address> | undefined): AddressForm => ({
  ...emptyAddress(),
  ...Object.fromEntries(Object.entries(a ?? {}).map(([k, v]) => [k, typeof v === "string" ? v : ""])),
});
export const customerFormOf = (c: RestCustomer): CustomerForm => ({
  email: c.email,
  first_name: c.first_name,
  last_name: c.last_name,
  billing: addressOf(c.billing),
  shipping: addressOf(c.shipping),
});

/** What an address sends: billing has its e-mail, shipping has none (WooCommerce's shapes). */
const addressBody = (kind: "billing" | "shipping", a: AddressForm) => {
  const { email, ...rest } = a;
  return kind === "billing" ? { ...rest, email } : rest;
};
const hasAny = (a: AddressForm) => Object.values(a).some((v) => v.trim() !== "");

/** A new customer's body: the addresses only when something was typed in them. */
export function createBody(f: CustomerForm): Record<string, unknown> {
  return {
    email: f.email.trim(),
    first_name: f.first_name,
    last_name: f.last_name,
    ...(hasAny(f.billing) ? { billing: addressBody("billing", f.billing) } : {}),
    ...(hasAny(f.shipping) ? { shipping: addressBody("shipping", f.shipping) } : {}),
  };
}

/** An edit's body: the changed fields only (an address with its changed fields: the API merges them). */
export function changedBody(before: CustomerForm, after: CustomerForm): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ["email", "first_name", "last_name"] as const) if (before[key] !== after[key]) out[key] = key === "email" ? after[key].trim() : after[key];
  for (const kind of ["billing", "shipping"] as const) {
    const changed = Object.fromEntries(Object.entries(addressBody(kind, after[kind])).filter(([k, v]) => before[kind][k as keyof AddressForm] !== v));
    if (Object.keys(changed).length) out[kind] = changed;
  }
  return out;
}

const LABELS: Record<string, string> = {
  email: "E-mail",
  first_name: "First name",
  last_name: "Last name",
  company: "Company",
  address_1: "Address line 1",
  address_2: "Address line 2",
  city: "City",
  state: "State / County",
  postcode: "Postcode / ZIP",
  country: "Country",
  phone: "Phone",
};

/**
 * The API's refusal → the form's field keys ("email", "billing.country"…). A nested parameter's message names the
 * field ("billing.country is not…" or "billing[country]…"); when it does not, the address's first field carries it.
 */
export function customerFieldErrors(e: RestError): Record<string, string> {
  if (e.code === "registration-error-email-exists" || e.code === "woocommerce_rest_customer_invalid_email")
    return { email: "Another account already uses this e-mail address." };
  const params: unknown = e.data?.params;
  if (Array.isArray(params)) return Object.fromEntries(params.map((p: string) => [p, `${LABELS[p] ?? p} is required.`]));
  const out: Record<string, string> = {};
  for (const [param, message] of Object.entries((params ?? {}) as Record<string, string>)) {
    if (param === "billing" || param === "shipping") {
      const named = new RegExp(`${param}(?:\\.|\\[)([a-z_0-9]+)`).exec(message)?.[1];
      const key = named && (named in LABELS || named === "email") ? named : "first_name";
      out[`${param}.${key}`] = message.replace(new RegExp(`^${param}(?:\\.|\\[)[a-z_0-9]+\\]?\\s*`), `${LABELS[key] ?? key} `);
    } else out[param] = message.replace(/^email\b/, "E-mail").replace(/^(first|last)_name\b/, (w) => LABELS[w] ?? w);
  }
  return out;
}

const text = { __next40pxDefaultSize: true, __nextHasNoMarginBottom: true } as const;

/** The form's fields; `errors` by key ("email", "billing.city"), each shown under its field and marked invalid. */
export function CustomerFields({
  form,
  errors,
  onChange,
}: {
  form: CustomerForm;
  errors: Record<string, string>;
  onChange: (next: CustomerForm, key: string) => void;
}) {
  const err = (key: string) => (errors[key] ? { help: <span className="admin-field-error">{errors[key]}</span>, "aria-invalid": true as const } : {});
  const setTop = (key: "email" | "first_name" | "last_name", v: string) => onChange({ ...form, [key]: v }, key);
  const setAddress = (kind: "billing" | "shipping", key: keyof AddressForm, v: string) =>
    onChange({ ...form, [kind]: { ...form[kind], [key]: v } }, `${kind}.${key}`);
  const address = (kind: "billing" | "shipping", title: string) => {
    const a = form[kind];
    const country = COUNTRIES[a.country];
    const countryOptions = [
      { value: "", label: "Choose a country…" },
      ...Object.entries(COUNTRIES).map(([code, c]) => ({ value: code, label: c.name })),
      ...(a.country && !country ? [{ value: a.country, label: a.country }] : []),
    ];
    const field = (key: keyof AddressForm, label: string, extra: Record<string, unknown> = {}) => (
      <TextControl {...text} label={label} value={a[key]} onChange={(v) => setAddress(kind, key, v)} {...extra} {...err(`${kind}.${key}`)} />
    );
    return (
      <fieldset className="admin-fieldset admin-customer-address">
        <legend>{title}</legend>
        <div className="admin-row">
          {field("first_name", "First name", { autoComplete: "off" })}
          {field("last_name", "Last name", { autoComplete: "off" })}
        </div>
        {field("company", "Company")}
        {field("address_1", "Address line 1")}
        {field("address_2", "Address line 2")}
        <div className="admin-row">
          {field("city", "City")}
          {field("postcode", country?.postcodeLabel ?? "Postcode / ZIP")}
        </div>
        <div className="admin-row">
          <SelectControl
            {...text}
            label="Country"
            value={a.country}
            options={countryOptions}
            onChange={(v) => setAddress(kind, "country", v)}
            {...err(`${kind}.country`)}
          />
          {field("state", country?.stateLabel ?? "State / County")}
        </div>
        <div className="admin-row">
          {kind === "billing" ? field("email", "E-mail for orders", { type: "email" }) : null}
          {field("phone", "Phone", { type: "tel" })}
        </div>
      </fieldset>
    );
  };
  return (
    <>
      <fieldset className="admin-fieldset">
        <legend>Customer</legend>
        <TextControl
          {...text}
          type="email"
          label="E-mail (required)"
          autoComplete="off"
          value={form.email}
          onChange={(v) => setTop("email", v)}
          {...err("email")}
        />
        <div className="admin-row">
          <TextControl
            {...text}
            label="First name"
            autoComplete="off"
            value={form.first_name}
            onChange={(v) => setTop("first_name", v)}
            {...err("first_name")}
          />
          <TextControl {...text} label="Last name" autoComplete="off" value={form.last_name} onChange={(v) => setTop("last_name", v)} {...err("last_name")} />
        </div>
      </fieldset>
      <div className="admin-customer-columns">
        {address("billing", "Billing address")}
        {address("shipping", "Shipping address")}
      </div>
    </>
  );
}
