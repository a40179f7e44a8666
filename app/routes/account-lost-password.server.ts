/** The server half of the account-lost-password route: its loader (and action), everything that reaches the database; the route module renders. */
import { redirect } from "react-router";
import { AUTH_LIMITS, requestPasswordReset, resetPassword } from "../../core/commerce/accounts.ts";
import type { Route } from "./+types/account-lost-password";

const SENT = "If an account matches, a password reset e-mail has been sent to its address. It may take several minutes to arrive.";

export async function loader({ request, context }: Route.LoaderArgs) {
  await context.shop.session();
  const url = new URL(request.url);
  const key = url.searchParams.get("key") ?? "";
  const id = url.searchParams.get("id") ?? "";
  return { nonce: context.shop.nonce("lost-password"), reset: /^[\w-]{20,64}$/.test(key) && /^\d{1,9}$/.test(id) ? { key, id } : null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { shop, services } = context;
  await shop.session();
  const form = await request.formData();
  if (!shop.verifyNonce("lost-password", form.get("_wpnonce"))) return { error: "Your session has expired. Please reload the page and try again." };
  if (form.get("intent") === "reset") {
    const id = String(form.get("id") ?? "");
    const result = await resetPassword(
      services.db,
      /^\d{1,9}$/.test(id) ? Number(id) : 0,
      String(form.get("key") ?? "").slice(0, 64),
      String(form.get("password_1") ?? ""),
      services.now(),
    );
    if (!result.ok) return { error: result.message };
    await shop.queueNotice({ type: "success", message: "Your password has been reset successfully." });
    return redirect("/my-account/");
  }
  const login = String(form.get("user_login") ?? "").trim();
  if (!login) return { error: "Enter a username or email address." };
  const { limited } = await requestPasswordReset(services.db, { login, siteUrl: services.siteUrl, address: context.clientAddress, now: services.now() });
  if (limited) return { error: AUTH_LIMITS.tooManyMessage };
  return { sent: SENT };
}
