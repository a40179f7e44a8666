/** The server half of the account-edit-address route: its loader (and action), everything that reaches the database; the route module renders. */
import { redirect } from "react-router";
import { loadCustomerAddresses, saveCustomerAddress, type AddressKind } from "../../core/commerce/accounts.ts";
import { readAddress, type FieldError } from "../../core/commerce/checkout-form.ts";
import { currentSiteConfig } from "../../core/commerce/site-settings.ts";
import { SELLING_MESSAGES, sellingCountries, sellsTo, shippingCountries, shipsTo } from "../../core/domain/checkout/selling.ts";
import type { Route } from "./+types/account-edit-address";

const NONCE = "woocommerce-edit_address";

function kindOf(param: string | undefined): AddressKind | null | "bad" {
  if (param === undefined) return null;
  return param === "billing" || param === "shipping" ? param : "bad";
}

export async function loader({ context, params }: Route.LoaderArgs) {
  const session = await context.shop.session();
  if (!session?.customerId) throw redirect("/my-account/");
  const kind = kindOf(params.kind);
  if (kind === "bad") throw redirect("/my-account/edit-address/");
  const [addresses, config] = await Promise.all([loadCustomerAddresses(context.services.db, session.customerId), currentSiteConfig(context.services)]);
  // The country select offers what the checkout offers: a billing address where the shop sells, a shipping one where it ships.
  const countries = kind === "shipping" ? shippingCountries(config.store) : sellingCountries(config.store);
  return { kind, addresses, countries, nonce: context.shop.nonce(NONCE) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const session = await context.shop.session();
  if (!session?.customerId) throw redirect("/my-account/");
  const kind = kindOf(params.kind);
  if (kind === null || kind === "bad") throw redirect("/my-account/edit-address/");
  const form = Object.fromEntries(await request.formData());
  if (!context.shop.verifyNonce(NONCE, form["woocommerce-edit-address-nonce"])) {
    return { errors: [{ id: "", html: "Your session has expired. Please reload the page and try again." }] as FieldError[] };
  }
  const errors: FieldError[] = [];
  const address = readAddress(form, kind, errors);
  // The checkout would refuse this country (Settings › General): say so now, at the country, not at the next order.
  const { store } = await currentSiteConfig(context.services);
  if (address.country && !errors.some((e) => e.id === `${kind}_country`) && !(kind === "shipping" ? shipsTo : sellsTo)(store, address.country)) {
    errors.push({ id: `${kind}_country`, html: (kind === "shipping" ? SELLING_MESSAGES.notShipped : SELLING_MESSAGES.notSold)(address.country) });
  }
  // The shopper's (sanitized) entries come back with the errors, so nothing typed is lost.
  if (errors.length) return { errors, values: address };
  await saveCustomerAddress(context.services.db, session.customerId, kind, address);
  await context.shop.queueNotice({ type: "success", message: "Address changed successfully." });
  return redirect("/my-account/edit-address/");
}
