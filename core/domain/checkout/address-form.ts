/**
 * The checkout's details step as a posted form reads: the billing and shipping addresses, the order notes and the
 * new account's password, with WooCommerce's wording. Pure: the server's checkout (core/commerce/checkout-form.ts),
 * the account's address form and the browser's 'Proceed to payment' check all run this one code.
 */
import { escapeHtml } from "../text/html.ts";
import { ADDRESS_FIELDS, COUNTRIES, addressLabels, isAddressFieldRequired, isValidPostcode, normalizeState, subdivisionsOf, type Address } from "./address.ts";

const stateNames = (country: string) => (subdivisionsOf(country) ?? []).map((s) => s.name).join(", ");

export const FIELD_MAX = 200;
export const EMAIL_MAX = 254;

/** One error, tied to the field whose id the browser marks inline (`li[data-id]`). `html` is trusted markup. */
export interface FieldError {
  id: string;
  html: string;
}

/** A form value as one string: arrays (repeated keys) and objects are refused as empty. */
export function field(form: Record<string, unknown>, name: string): string {
  const v = form[name];
  return typeof v === "string" ? v : "";
}

export const isTrue = (v: string) => v === "true" || v === "1" || v === "yes" || v === "on";

/** WordPress's sanitize_text_field, in short: no tags, no control characters or line breaks, collapsed spaces. */
export function sanitizeText(value: string): string {
  return value
    .replace(/<[^>]*>?/g, "")
    .replace(/[^\P{Cc}\x80-\x9f]+/gu, " ") // runs of U+0000–U+001F and U+007F (control characters but not C1)
    .replace(/\s+/g, " ")
    .trim();
}

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/;
export const isEmail = (v: string) => v.length <= EMAIL_MAX && EMAIL.test(v);

export function readAddress(form: Record<string, unknown>, prefix: "billing" | "shipping", errors: FieldError[]): Address {
  const out = {} as Address;
  const title = prefix === "billing" ? "Billing" : "Shipping";
  for (const f of ADDRESS_FIELDS) {
    if (prefix === "shipping" && (f.key === "email" || f.key === "phone")) {
      out[f.key] = "";
      continue;
    }
    const id = `${prefix}_${f.key}`;
    const labels = addressLabels(out.country);
    // A country whose addresses have no state: the field is not shown, and nothing posted for it is kept.
    if (f.key === "state" && labels.state === null) {
      out.state = "";
      continue;
    }
    const raw = field(form, id);
    const max = f.key === "email" ? EMAIL_MAX : FIELD_MAX;
    const value = sanitizeText(raw);
    out[f.key] = value.slice(0, max);
    const fieldLabel = f.key === "state" ? labels.state! : f.key === "postcode" ? labels.postcode : f.label;
    const label = `<strong>${title} ${escapeHtml(fieldLabel)}</strong>`;
    if (raw.length > max) {
      errors.push({ id, html: `${label} is too long (at most ${max} characters).` });
      continue;
    }
    const country = COUNTRIES[out.country];
    if (isAddressFieldRequired(f.key, out.country) && value === "") {
      errors.push({ id, html: `${label} is a required field.` });
      continue;
    }
    if (value === "") continue;
    if (f.key === "country" && !country) errors.push({ id, html: `${label} is not a country we ship to.` });
    if (f.key === "email" && !isEmail(value)) errors.push({ id, html: `${label} is not a valid email address.` });
    if (f.key === "phone" && !/^[\d\s()+.-]{6,25}$/.test(value)) errors.push({ id, html: `${label} is not a valid phone number.` });
    if (f.key === "postcode" && country && !isValidPostcode(out.country, value)) errors.push({ id, html: `${label} is not a valid postcode / ZIP.` });
    if (f.key === "state" && country) {
      const code = normalizeState(out.country, value);
      if (code === null) errors.push({ id, html: `${label} is not valid. Please enter one of the following: ${escapeHtml(stateNames(out.country))}` });
      else out.state = code;
    }
  }
  return out;
}

export interface DetailsInput {
  billing: Address;
  shipping: Address | null;
  createAccount: { password: string } | null;
}

/**
 * The details step: billing, the shipping address when 'Ship to a different address?' is ticked, and a guest's
 * account (password rules, or WooCommerce's refusal when the shop requires an account). Errors are appended.
 */
export function readDetails(form: Record<string, unknown>, opts: { loggedIn: boolean; guestCheckout: boolean }, errors: FieldError[]): DetailsInput {
  const billing = readAddress(form, "billing", errors);
  const shipping = isTrue(field(form, "ship_to_different_address")) ? readAddress(form, "shipping", errors) : null;
  let createAccount: { password: string } | null = null;
  if (!opts.loggedIn && isTrue(field(form, "createaccount"))) {
    const password = field(form, "account_password");
    if (password === "") errors.push({ id: "account_password", html: "<strong>Account password</strong> is a required field." });
    else if (password.length < 8) errors.push({ id: "account_password", html: "Please use a password of at least 8 characters." });
    else if (password.length > 200) errors.push({ id: "account_password", html: "That password is too long." });
    else createAccount = { password };
  } else if (!opts.loggedIn && !opts.guestCheckout) {
    errors.push({ id: "createaccount", html: "You must be logged in to checkout." });
  }
  return { billing, shipping, createAccount };
}

/** The failure body's `messages`: WooCommerce's error list with one `li[data-id]` per field. */
export function errorListHtml(errors: readonly FieldError[]): string {
  const items = errors.map((e) => `<li data-id="${escapeHtml(e.id)}">${e.html}</li>`).join("");
  return `<ul class="woocommerce-error" role="alert">${items}</ul>`;
}

/**
 * An address written by staff (the admin Order screen's Edit, `PUT wc/v3/orders/{id}`), checked by the checkout's
 * rules: the e-mail's form, a country the shop ships to, a state on the country's list (given as its code or name;
 * the code is kept), a postcode of the country's form. Only the fields `changed` names are checked, and state and
 * postcode again when the country changed, so an old order's odd value does not block an edit of another field.
 * Nothing is required: WooCommerce's order editor lets staff clear fields. Returns the address to store (state
 * normalized) and the problems by field key.
 */
export function staffAddressProblems(
  kind: "billing" | "shipping",
  address: Address,
  changed: readonly string[],
): { address: Address; problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const out = { ...address };
  const touched = (k: string) => changed.includes(k) || ((k === "state" || k === "postcode") && changed.includes("country"));
  const country = COUNTRIES[out.country];
  const labels = addressLabels(out.country);
  if (touched("country") && out.country !== "" && !country) problems.country = `${kind}.country is not a country the shop ships to.`;
  if (kind === "billing" && touched("email") && out.email !== "" && !isEmail(out.email)) problems.email = `${kind}.email is not a valid e-mail address.`;
  if (country && touched("state") && out.state !== "") {
    if (labels.state === null) out.state = "";
    else {
      const code = normalizeState(out.country, out.state);
      if (code === null) problems.state = `${kind}.state is not one of ${country.name}'s: ${stateNames(out.country)}.`;
      else out.state = code;
    }
  }
  if (country && touched("postcode") && out.postcode !== "" && !isValidPostcode(out.country, out.postcode))
    problems.postcode = `${kind}.postcode is not a valid ${labels.postcode.toLowerCase()} for ${country.name}.`;
  return { address: out, problems };
}
