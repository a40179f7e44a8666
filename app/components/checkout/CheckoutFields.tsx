/** The checkout's address fields, with WooCommerce's markup (`p.form-row#…_field`, invalid rows marked). */
import { createContext, useContext, useState } from "react";
import { COUNTRIES, DEFAULT_COUNTRY, addressLabels, subdivisionsOf } from "../../../core/domain/checkout/address.ts";

export interface FieldDefaults {
  /** A returning customer's last billing address. */
  savedBilling: Record<string, string> | null;
  /** The shipping address saved in My account → Addresses. */
  savedShipping?: Record<string, string> | null;
  /** The shopper's country from the 'change country' form: the newest choice, so it wins over a saved address's. */
  chosenCountry?: string | null;
  customer: { email: string; first_name: string; last_name: string } | null;
  /** The countries the billing select offers (where the shop sells, Settings › General); all when absent. */
  billingCountries?: readonly string[];
  /** The countries the shipping select offers (where the shop ships); all when absent. */
  shippingCountries?: readonly string[];
}

/** The names of the fields the last failed checkout named (`data-id`), and where prefilled values come from. */
export const CheckoutFieldsContext = createContext<{ errors: ReadonlySet<string>; defaults: FieldDefaults }>({
  errors: new Set(),
  defaults: { savedBilling: null, customer: null },
});

/** `form-row`, plus `woocommerce-invalid` when the last failure named the field. */
export function useRowClass(): (name: string) => string {
  const { errors } = useContext(CheckoutFieldsContext);
  return (name) => `form-row${errors.has(name) ? " woocommerce-invalid" : ""}`;
}

interface TextFieldProps {
  name: string;
  label: string;
  required?: boolean;
  type?: string;
  autoComplete?: string;
  defaultValue?: string | undefined;
  wide?: boolean;
  /** A hint that slides open while the field has focus (app/lib/field-descriptions.ts). */
  description?: string;
}

export function TextField({ name, label, required, type, autoComplete, defaultValue, wide, description }: TextFieldProps) {
  const { errors, defaults } = useContext(CheckoutFieldsContext);
  const rowClass = useRowClass();
  const saved = name.startsWith("billing_")
    ? defaults.savedBilling?.[name.slice(8)]
    : name.startsWith("shipping_")
      ? defaults.savedShipping?.[name.slice(9)]
      : undefined;
  return (
    <p className={`${rowClass(name)} ${wide === false ? "" : "form-row-wide"}`} id={`${name}_field`}>
      <label htmlFor={name}>
        {label}{" "}
        {required === false ? (
          <span className="optional">(optional)</span>
        ) : (
          <abbr className="required" title="required">
            *
          </abbr>
        )}
      </label>
      <input
        type={type ?? "text"}
        className="input-text"
        name={name}
        id={name}
        autoComplete={autoComplete}
        defaultValue={defaultValue ?? saved}
        maxLength={200}
        aria-invalid={errors.has(name) || undefined}
        aria-describedby={description ? `${name}-description` : undefined}
      />
      {description ? (
        <span className="description" id={`${name}-description`}>
          {description}
        </span>
      ) : null}
    </p>
  );
}

export function AddressFields({ prefix }: { prefix: "billing" | "shipping" }) {
  const { defaults, errors } = useContext(CheckoutFieldsContext);
  const rowClass = useRowClass();
  const saved = prefix === "billing" ? defaults.savedBilling : defaults.savedShipping;
  // Only the countries the shop sells (billing) or ships (shipping) to are offered.
  const offered = (prefix === "billing" ? defaults.billingCountries : defaults.shippingCountries) ?? Object.keys(COUNTRIES);
  const allowed = (code: string | null | undefined): code is string => !!code && !!COUNTRIES[code] && offered.includes(code);
  // The country decides the state and postcode fields (labels, a subdivision list, whether they are asked for).
  const [country, setCountry] = useState(
    allowed(defaults.chosenCountry)
      ? defaults.chosenCountry
      : allowed(saved?.country)
        ? saved.country
        : allowed(DEFAULT_COUNTRY)
          ? DEFAULT_COUNTRY
          : (offered.find((c) => COUNTRIES[c]) ?? DEFAULT_COUNTRY),
  );
  const locale = COUNTRIES[country]!;
  const labels = addressLabels(country);
  const subdivisions = subdivisionsOf(country);
  const stateName = `${prefix}_state`;
  const savedState = saved?.country === country ? saved?.state : undefined;
  return (
    <>
      <TextField
        name={`${prefix}_first_name`}
        label="First name"
        autoComplete="given-name"
        defaultValue={prefix === "billing" ? defaults.savedBilling?.first_name || defaults.customer?.first_name : defaults.savedShipping?.first_name}
      />
      <TextField
        name={`${prefix}_last_name`}
        label="Last name"
        autoComplete="family-name"
        defaultValue={prefix === "billing" ? defaults.savedBilling?.last_name || defaults.customer?.last_name : defaults.savedShipping?.last_name}
      />
      <TextField name={`${prefix}_company`} label="Company name" required={false} autoComplete="organization" />
      <p className={`${rowClass(`${prefix}_country`)} form-row-wide`} id={`${prefix}_country_field`}>
        <label htmlFor={`${prefix}_country`}>
          Country / Region{" "}
          <abbr className="required" title="required">
            *
          </abbr>
        </label>
        <select name={`${prefix}_country`} id={`${prefix}_country`} value={country} onChange={(e) => setCountry(e.target.value)} autoComplete="country">
          {Object.entries(COUNTRIES)
            .filter(([code]) => offered.includes(code))
            .map(([code, c]) => (
              <option key={code} value={code}>
                {c.name}
              </option>
            ))}
        </select>
      </p>
      <TextField name={`${prefix}_address_1`} label="Street address" autoComplete="address-line1" />
      <TextField name={`${prefix}_address_2`} label="Apartment, suite, unit, etc." required={false} autoComplete="address-line2" />
      <TextField name={`${prefix}_city`} label="Town / City" autoComplete="address-level2" />
      {labels.state === null ? null : subdivisions ? (
        <p className={`${rowClass(stateName)} form-row-wide`} id={`${stateName}_field`} key={`state-${country}`}>
          <label htmlFor={stateName}>
            {labels.state} <RequiredMark required={locale.stateRequired} />
          </label>
          <select
            name={stateName}
            id={stateName}
            defaultValue={savedState ?? ""}
            autoComplete="address-level1"
            aria-invalid={errors.has(stateName) || undefined}
          >
            <option value="">Select an option…</option>
            {subdivisions.map((d) => (
              <option key={d.code} value={d.code}>
                {d.name}
              </option>
            ))}
          </select>
        </p>
      ) : (
        <TextField
          key={`state-${country}`}
          name={stateName}
          label={labels.state}
          required={locale.stateRequired}
          autoComplete="address-level1"
          defaultValue={savedState}
        />
      )}
      <TextField name={`${prefix}_postcode`} label={labels.postcode} required={locale.postcodeRequired} autoComplete="postal-code" />
    </>
  );
}

function RequiredMark({ required }: { required: boolean }) {
  return required ? (
    <abbr className="required" title="required">
      *
    </abbr>
  ) : (
    <span className="optional">(optional)</span>
  );
}

/** The order's e-mail address: a guest's (with the account check's note) and a signed-in customer's alike, editable. */
export function EmailField({ value, onChange, describedBy }: { value: string; onChange: (email: string) => void; describedBy?: string }) {
  const { errors } = useContext(CheckoutFieldsContext);
  const rowClass = useRowClass();
  return (
    <p className={`${rowClass("billing_email")} form-row-wide`} id="billing_email_field">
      <label htmlFor="billing_email">
        Email address{" "}
        <abbr className="required" title="required">
          *
        </abbr>
      </label>
      <input
        type="email"
        className="input-text"
        name="billing_email"
        id="billing_email"
        autoComplete="email"
        maxLength={254}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={describedBy}
        aria-invalid={errors.has("billing_email") || undefined}
      />
    </p>
  );
}
