/**
 * The shopper's chosen country, kept in the customer session (docs/contract/storefront.md §2 'Change country'):
 * the checkout's billing and shipping country start on it. Validation is core/domain/checkout/change-country.ts.
 */
import { COUNTRIES } from "../domain/checkout/address.ts";
import type { ShopSession } from "./session.ts";

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
