/**
 * The shopper's chosen country, kept in the customer session (docs/contract/storefront.md §2 'Change country'):
 * the checkout's billing and shipping country start on it. Validation is core/domain/checkout/change-country.ts.
 *
 * And where the cart is shipped, for its rates (shipping zones, core/domain/pricing/zones.ts): the address the
 * checkout last sent (`update_order_review`, the Store API's update-customer), else the chosen country, else the
 * store's own address (WooCommerce's default customer location, the shop's base), when the shop ships there.
 */
import { COUNTRIES } from "../domain/checkout/address.ts";
import { shipsTo, type SellingLocations } from "../domain/checkout/selling.ts";
import type { ShippingDestination } from "../domain/pricing/zones.ts";
import type { ShopSession } from "./session.ts";
import { DESTINATION_KEY } from "./session-keys.ts";

const SESSION_KEY = "customer_country";

export async function chosenCountry(shop: ShopSession): Promise<string | null> {
  const value = (await shop.session())?.data[SESSION_KEY];
  return typeof value === "string" && Object.hasOwn(COUNTRIES, value) ? value : null;
}

export async function chooseCountry(shop: ShopSession, country: string): Promise<void> {
  await shop.updateSessionData((data) => {
    data[SESSION_KEY] = country;
  });
}

const text = (v: unknown, max: number) => (typeof v === "string" ? v.trim().slice(0, max) : "");

/** A destination from what a client sent: null when its country is none the shop knows. */
export function destinationFrom(fields: { country?: unknown; state?: unknown; postcode?: unknown }): ShippingDestination | null {
  const country = text(fields.country, 2).toUpperCase();
  if (!Object.hasOwn(COUNTRIES, country)) return null;
  return { country, state: text(fields.state, 50), postcode: text(fields.postcode, 20) };
}

/** Keeps where the checkout says the cart goes (null: forget it). */
export async function rememberDestination(shop: ShopSession, destination: ShippingDestination | null): Promise<void> {
  await shop.updateSessionData((data) => {
    if (destination) data[DESTINATION_KEY] = destination;
    else delete data[DESTINATION_KEY];
  });
}

/** Where this session's cart is shipped, and whether the shop ships there (see the module's comment). */
export function sessionDestination(
  data: Record<string, unknown> | null | undefined,
  store: SellingLocations & { country: string; state: string; postcode: string },
): { destination: ShippingDestination | null; shippable: boolean } {
  const saved = data?.[DESTINATION_KEY];
  const fromCheckout = saved && typeof saved === "object" ? destinationFrom(saved as Record<string, unknown>) : null;
  const chosen = typeof data?.[SESSION_KEY] === "string" ? destinationFrom({ country: data[SESSION_KEY] }) : null;
  const shopper = fromCheckout ?? chosen;
  if (shopper) return { destination: shopper, shippable: shipsTo(store, shopper.country) };
  const base = destinationFrom(store);
  return base && shipsTo(store, base.country) ? { destination: base, shippable: true } : { destination: null, shippable: true };
}
