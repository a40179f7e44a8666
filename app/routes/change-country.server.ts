/**
 * POST /change-country/: the shop pages' 'change country' form (docs/contract/storefront.md §2). Stores the country
 * in the customer session (the checkout starts on it), queues the notice, and goes back to the page (303, so a reload
 * does not post again). No page of its own: a GET goes to the shop.
 */
import { redirect } from "react-router";
import type { Route } from "./+types/change-country";
import { chooseCountry } from "../../core/commerce/customer-country.ts";
import { CHANGE_COUNTRY_MESSAGES, countryName, parseChangeCountry } from "../../core/domain/checkout/change-country.ts";

/** A path on this site to go back to; anything else (another host, a protocol-relative address) is the shop. */
export function localPath(value: FormDataEntryValue | null): string {
  return typeof value === "string" && /^\/(?![/\\])[^\s]{0,1000}$/.test(value) ? value : "/shop/";
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const parsed = parseChangeCountry(form);
  if (parsed.ok) await chooseCountry(context.shop, parsed.country);
  await context.shop.queueNotice(
    parsed.ok ? { type: "success", message: CHANGE_COUNTRY_MESSAGES.changed(countryName(parsed.country)) } : { type: "error", message: parsed.message },
  );
  return redirect(localPath(form.get("redirect_to")), 303);
}

export function loader() {
  return redirect("/shop/", 302);
}
