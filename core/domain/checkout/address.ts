/**
 * The address form's fields and rules, shared by the checkout (core/commerce/checkout-form.ts reads the posted form
 * with them) and the account's address form in the browser. Pure: no I/O.
 */

/** Columns of a saved address (customer_addresses), in form order. */
export const ADDRESS_COLUMNS = [
  "first_name",
  "last_name",
  "company",
  "country",
  "address_1",
  "address_2",
  "city",
  "state",
  "postcode",
  "phone",
  "email",
] as const;
export type AddressKind = "billing" | "shipping";
export type SavedAddress = Record<(typeof ADDRESS_COLUMNS)[number], string>;

export const COUNTRIES: Record<string, { name: string; stateRequired: boolean; postcode?: RegExp }> = {
  US: { name: "United States (US)", stateRequired: true, postcode: /^\d{5}(-\d{4})?$/ },
  CA: { name: "Canada", stateRequired: true, postcode: /^[A-Za-z]\d[A-Za-z] ?\d[A-Za-z]\d$/ },
  GB: { name: "United Kingdom (UK)", stateRequired: false },
  IE: { name: "Ireland", stateRequired: false },
  AU: { name: "Australia", stateRequired: true, postcode: /^\d{4}$/ },
  NZ: { name: "New Zealand", stateRequired: false, postcode: /^\d{4}$/ },
  DE: { name: "Germany", stateRequired: false, postcode: /^\d{5}$/ },
  FR: { name: "France", stateRequired: false, postcode: /^\d{5}$/ },
  NL: { name: "Netherlands", stateRequired: false, postcode: /^\d{4} ?[A-Za-z]{2}$/ },
};

export interface Address {
  first_name: string;
  last_name: string;
  company: string;
  country: string;
  address_1: string;
  address_2: string;
  city: string;
  state: string;
  postcode: string;
  phone: string;
  email: string;
}

/** The address fields in form order, with WooCommerce's labels and whether each is required anywhere. */
export const ADDRESS_FIELDS: { key: keyof Address; label: string; required: boolean }[] = [
  { key: "first_name", label: "First name", required: true },
  { key: "last_name", label: "Last name", required: true },
  { key: "company", label: "Company name", required: false },
  { key: "country", label: "Country / Region", required: true },
  { key: "address_1", label: "Street address", required: true },
  { key: "address_2", label: "Apartment, suite, unit, etc.", required: false },
  { key: "city", label: "Town / City", required: true },
  { key: "state", label: "State / County", required: false },
  { key: "postcode", label: "ZIP Code", required: true },
  { key: "phone", label: "Phone", required: true },
  { key: "email", label: "Email address", required: true },
];

/**
 * Whether an address field must be filled in for a country: the one rule the checkout and the account's address
 * form share (State / County is required where the country has states, e.g. the US).
 */
export function isAddressFieldRequired(key: keyof Address, country: string): boolean {
  const f = ADDRESS_FIELDS.find((x) => x.key === key);
  return !!f?.required || (key === "state" && !!COUNTRIES[country]?.stateRequired);
}

/** The country an empty address form starts on (the checkout's and the account's select). */
export const DEFAULT_COUNTRY = "US";

/** The fields as a form labels them: required or "(optional)" by the shared rule, for the form's starting country. */
export const ADDRESS_FIELD_LABELS = ADDRESS_FIELDS.map((f) => ({ ...f, required: isAddressFieldRequired(f.key, DEFAULT_COUNTRY) }));
