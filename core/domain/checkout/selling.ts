/**
 * Where the shop sells and ships (Settings › General, `shop/v1/settings/general`, WooCommerce's "Selling location(s)"
 * and "Shipping location(s)"): all the countries it knows, only some, or all but some; shipping also "the same as
 * selling". Pure: the checkouts (server/features/checkout.ts, the Store API) refuse with these, and the checkout's
 * country selects offer only what these allow.
 */
import { COUNTRIES } from "./countries.ts";
import { escapeHtml } from "../text/html.ts";

export type CountryScope = "all" | "specific" | "all_except";

export interface SellingLocations {
  sellTo: CountryScope;
  /** With `specific`: the only countries; with `all_except`: the ones left out; else ignored. */
  sellToCountries: string[];
  shipTo: CountryScope | "same_as_selling";
  shipToCountries: string[];
}

export const ALL_COUNTRIES: SellingLocations = { sellTo: "all", sellToCountries: [], shipTo: "same_as_selling", shipToCountries: [] };

function within(scope: CountryScope, list: readonly string[], country: string): boolean {
  if (!Object.hasOwn(COUNTRIES, country)) return false;
  if (scope === "specific") return list.includes(country);
  if (scope === "all_except") return !list.includes(country);
  return true;
}

/** Whether the shop takes orders from (a billing address in) a country. */
export const sellsTo = (s: SellingLocations, country: string) => within(s.sellTo, s.sellToCountries, country);

/** Whether the shop ships to a country: its own list, or the selling one. */
export function shipsTo(s: SellingLocations, country: string): boolean {
  return s.shipTo === "same_as_selling" ? sellsTo(s, country) : within(s.shipTo, s.shipToCountries, country);
}

/** The countries a select offers, in the shop's order. */
export const sellingCountries = (s: SellingLocations) => Object.keys(COUNTRIES).filter((c) => sellsTo(s, c));
export const shippingCountries = (s: SellingLocations) => Object.keys(COUNTRIES).filter((c) => shipsTo(s, c));

const nameOf = (code: string) => COUNTRIES[code]?.name ?? code;

/** WooCommerce's words (its Store API's address schemas and its checkout's shipping check). */
export const SELLING_MESSAGES = {
  notSold: (code: string) => `Sorry, we do not allow orders from the provided country (${code})`,
  notShipped: (code: string) => `Sorry, we do not ship orders to the provided country (${code})`,
  notShippedHtml: (code: string) =>
    `Unfortunately <strong>we do not ship to ${escapeHtml(nameOf(code))}</strong>. Please enter an alternative shipping address.`,
} as const;

/**
 * The checkout's refusals for an order's addresses: a billing country the shop does not sell to, and (when the cart
 * needs shipping) a shipping country, the billing one when no other address is given, it does not ship to. Each is
 * tied to its country field (`billing_country` / `shipping_country`); an unknown country is the address form's own
 * refusal (address-form.ts), not repeated here.
 */
export function sellingRefusals(
  s: SellingLocations,
  order: { billingCountry: string; shippingCountry: string | null; needsShipping: boolean },
): { id: string; html: string; text: string }[] {
  const out: { id: string; html: string; text: string }[] = [];
  const billing = order.billingCountry;
  if (Object.hasOwn(COUNTRIES, billing) && !sellsTo(s, billing)) {
    const text = SELLING_MESSAGES.notSold(billing);
    out.push({ id: "billing_country", html: escapeHtml(text), text });
  }
  const shipTo = order.shippingCountry ?? billing;
  if (order.needsShipping && Object.hasOwn(COUNTRIES, shipTo) && !shipsTo(s, shipTo)) {
    out.push({
      id: order.shippingCountry === null ? "billing_country" : "shipping_country",
      html: SELLING_MESSAGES.notShippedHtml(shipTo),
      text: SELLING_MESSAGES.notShipped(shipTo),
    });
  }
  return out;
}
