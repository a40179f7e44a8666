/** The server half of the account-edit-account route: its loader (and action), everything that reaches the database; the route module renders. */
import { redirect } from "react-router";
import { accountDetailsSchema, updateAccountDetails } from "../../core/commerce/accounts.ts";
import type { Route } from "./+types/account-edit-account";

const NONCE = "save_account_details";

export async function loader({ context }: Route.LoaderArgs) {
  const session = await context.shop.session();
  if (!session?.customerId) throw redirect("/my-account/");
  const profile = await context.storefront.customer();
  if (!profile) throw redirect("/my-account/");
  const customer = { email: profile.email, first_name: profile.firstName, last_name: profile.lastName, display_name: profile.displayName };
  return { customer, nonce: context.shop.nonce(NONCE) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const session = await context.shop.session();
  if (!session?.customerId) throw redirect("/my-account/");
  const form = await request.formData();
  if (!context.shop.verifyNonce(NONCE, form.get("save-account-details-nonce")))
    return { error: "Your session has expired. Please reload the page and try again." };
  const str = (k: string) => (typeof form.get(k) === "string" ? (form.get(k) as string) : "");
  const parsed = accountDetailsSchema.safeParse(
    Object.fromEntries(
      ["account_first_name", "account_last_name", "account_display_name", "account_email", "password_current", "password_1", "password_2"].map((k) => [
        k,
        str(k),
      ]),
    ),
  );
  // What was typed comes back with the error (never the passwords), so a page without JavaScript loses nothing.
  const typed = {
    first_name: str("account_first_name").slice(0, 100),
    last_name: str("account_last_name").slice(0, 100),
    display_name: str("account_display_name").slice(0, 100),
    email: str("account_email").slice(0, 254),
  };
  if (!parsed.success) return { error: parsed.error.issues[0]!.message, typed };
  const result = await updateAccountDetails(context.services.db, session.customerId, session.id, parsed.data);
  if (!result.ok) return { error: result.message, typed };
  await context.shop.queueNotice({ type: "success", message: "Account details changed successfully." });
  return redirect("/my-account/edit-account/");
}
