/** The account area's address form and summary; the fields and rules are the checkout's (core/domain/checkout/address.ts). */
import { ADDRESS_FIELD_LABELS, COUNTRIES, type AddressKind, type SavedAddress } from "../../../core/domain/checkout/address.ts";

const AUTOCOMPLETE: Record<string, string> = {
  first_name: "given-name",
  last_name: "family-name",
  company: "organization",
  country: "country",
  address_1: "address-line1",
  address_2: "address-line2",
  city: "address-level2",
  state: "address-level1",
  postcode: "postal-code",
  phone: "tel",
  email: "email",
};

/** `countries`: the codes the select offers (where the shop sells, or ships, for this kind of address). */
export function AddressForm({
  kind,
  values,
  errorIds,
  countries,
}: {
  kind: AddressKind;
  values?: SavedAddress;
  errorIds: Set<string>;
  countries: readonly string[];
}) {
  const country = values?.country && countries.includes(values.country) ? values.country : countries.includes("US") ? "US" : countries[0];
  return (
    <div className="woocommerce-address-fields">
      {ADDRESS_FIELD_LABELS.filter((f) => kind === "billing" || (f.key !== "phone" && f.key !== "email")).map((f) => {
        const id = `${kind}_${f.key}`;
        const invalid = errorIds.has(id) || undefined;
        return (
          <p key={id} className={`form-row form-row-wide${f.required ? " validate-required" : ""}${invalid ? " woocommerce-invalid" : ""}`} id={`${id}_field`}>
            <label htmlFor={id}>
              {f.label}{" "}
              {f.required ? (
                <abbr className="required" title="required">
                  *
                </abbr>
              ) : (
                <span className="optional">(optional)</span>
              )}
            </label>
            {f.key === "country" ? (
              <select name={id} id={id} defaultValue={country} autoComplete="country" aria-invalid={invalid}>
                {countries.map((code) => (
                  <option key={code} value={code}>
                    {COUNTRIES[code]?.name ?? code}
                  </option>
                ))}
              </select>
            ) : (
              <input
                type={f.key === "email" ? "email" : f.key === "phone" ? "tel" : "text"}
                className="input-text"
                name={id}
                id={id}
                defaultValue={values?.[f.key] ?? ""}
                autoComplete={AUTOCOMPLETE[f.key]}
                maxLength={f.key === "email" ? 254 : 200}
                aria-invalid={invalid}
              />
            )}
          </p>
        );
      })}
    </div>
  );
}

export function AddressSummary({ address }: { address?: SavedAddress }) {
  if (!address) return <address>You have not set up this type of address yet.</address>;
  const lines = [
    `${address.first_name} ${address.last_name}`.trim(),
    address.company,
    address.address_1,
    address.address_2,
    [address.city, address.state, address.postcode].filter(Boolean).join(", "),
    COUNTRIES[address.country]?.name ?? address.country,
    address.phone,
    address.email,
  ].filter(Boolean);
  return (
    <address>
      {lines.map((l, i) => (
        <span key={i}>
          {l}
          <br />
        </span>
      ))}
    </address>
  );
}
