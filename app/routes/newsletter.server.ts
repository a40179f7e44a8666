/**
 * POST /newsletter/: the newsletter sign-up (docs/contract/storefront.md §2 'Newsletter sign-up'), posted by the
 * demo popup's form. Stores the address once (a repeat is the same success), queues the notice, and goes back to
 * the page (303, so a reload does not post again; the way back is a path of this shop, as for /change-country/).
 * No page of its own: a GET goes to the shop.
 */
import { redirect } from "react-router";
import type { Route } from "./+types/newsletter";
import { subscribeToNewsletter } from "../../core/commerce/newsletter.ts";
import { localPath } from "./change-country.server.ts";

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const outcome = await subscribeToNewsletter(context.services.db, form, context.services.now());
  await context.shop.queueNotice({ type: outcome.ok ? "success" : "error", message: outcome.message });
  return redirect(localPath(form.get("redirect_to")), 303);
}

export function loader() {
  return redirect("/shop/", 302);
}
