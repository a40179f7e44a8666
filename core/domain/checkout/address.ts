/**
 * The address form's fields and rules, shared by the checkout (core/commerce/checkout-form.ts reads the posted form
 * with them) and the account's address form in the browser. Pure: no I/O.
 */
import { AU, CA, IE, NZ, US } from "country-region-data";
import { postcodeValidator, postcodeValidatorExistsForCountry } from "postcode-validator";
import { COUNTRIES } from "./countries.ts";

export { COUNTRIES };

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

/** Subdivisions offered as a list (code, name) where WooCommerce offers one; other countries take free text. */
const SUBDIVISIONS: Record<string, readonly (readonly [name: string, code: string])[]> = { US: US[2], CA: CA[2], AU: AU[2], IE: IE[2], NZ: NZ[2] };

export function subdivisionsOf(country: string): readonly { code: string; name: string }[] | null {
  const list = SUBDIVISIONS[country];
  return list ? list.map(([name, code]) => ({ code, name })) : null;
}

/**
 * A state value as stored: the subdivision's code when the country has a list (the code or the name is accepted,
 * any case), else the text as given; null when the country has a list and the value is not on it.
 */
export function normalizeState(country: string, value: string): string | null {
  const list = SUBDIVISIONS[country];
  if (!list || value === "") return value;
  const v = value.trim().toLowerCase();
  const hit = list.find(([name, code]) => code.toLowerCase() === v || name.toLowerCase() === v);
  return hit ? hit[1] : null;
}

/** Whether a postcode has the country's form (countries without a known pattern accept any). */
export function isValidPostcode(country: string, value: string): boolean {
  return !postcodeValidatorExistsForCountry(country) || postcodeValidator(value.trim(), country);
}

/** The field labels of an address form for a country (the shop's labels where the country has no locale). */
export function addressLabels(country: string): { state: string | null; postcode: string } {
  const c = COUNTRIES[country];
  return { state: c ? c.stateLabel : "State / County", postcode: c?.postcodeLabel ?? "Postcode / ZIP" };
}

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
  const c = COUNTRIES[country];
  if (key === "state") return !!c?.stateRequired;
  if (key === "postcode") return c ? c.postcodeRequired : true;
  return !!ADDRESS_FIELDS.find((x) => x.key === key)?.required;
}

/** The country an empty address form starts on (the checkout's and the account's select). */
export const DEFAULT_COUNTRY = "US";

/** The fields as a form labels them: required or "(optional)" by the shared rule, for the form's starting country. */
export const ADDRESS_FIELD_LABELS = ADDRESS_FIELDS.map((f) => ({
  ...f,
  label: f.key === "state" ? (COUNTRIES[DEFAULT_COUNTRY]!.stateLabel ?? f.label) : f.key === "postcode" ? COUNTRIES[DEFAULT_COUNTRY]!.postcodeLabel : f.label,
  required: isAddressFieldRequired(f.key, DEFAULT_COUNTRY),
}));
