import { Form, redirect, useActionData } from "react-router";
import type { Route } from "./+types/account-lost-password";
import { pageTitle } from "../lib/listing-params.ts";
import { AUTH_LIMITS, requestPasswordReset, resetPassword } from "../../core/commerce/accounts.ts";
import { PasswordInput } from "../components/chrome/PasswordInput.tsx";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Lost password") }, { name: "robots", content: "noindex" }];

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
    const result = await resetPassword(services.db, /^\d{1,9}$/.test(id) ? Number(id) : 0, String(form.get("key") ?? "").slice(0, 64), String(form.get("password_1") ?? ""), services.now());
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

export default function LostPassword({ loaderData }: Route.ComponentProps) {
  const { nonce, reset } = loaderData;
  const result = useActionData<typeof action>();
  return (
    <div className="woocommerce my-account">
      <h1 className="page-title">Lost password</h1>
      {result && "error" in result && result.error ? (
        <ul className="woocommerce-error" role="alert">
          <li>{result.error}</li>
        </ul>
      ) : null}
      {result && "sent" in result ? (
        <div className="woocommerce-message" role="status">
          {result.sent}
        </div>
      ) : reset ? (
        <Form method="post" className="woocommerce-ResetPassword lost_reset_password">
          <p>Enter a new password below.</p>
          <p className="form-row">
            <label htmlFor="password_1">
              New password <span className="required">*</span>
            </label>
            <PasswordInput name="password_1" id="password_1" autoComplete="new-password" minLength={8} />
          </p>
          <input type="hidden" name="key" value={reset.key} />
          <input type="hidden" name="id" value={reset.id} />
          <input type="hidden" name="_wpnonce" value={nonce} />
          <button type="submit" className="button" name="intent" value="reset">
            Save
          </button>
        </Form>
      ) : (
        <Form method="post" className="woocommerce-ResetPassword lost_reset_password">
          <p>Lost your password? Please enter your username or email address. You will receive a link to create a new password via email.</p>
          <p className="form-row">
            <label htmlFor="user_login">
              Username or email <span className="required">*</span>
            </label>
            <input className="input-text" type="text" name="user_login" id="user_login" autoComplete="username" maxLength={254} required />
          </p>
          <input type="hidden" name="_wpnonce" value={nonce} />
          <button type="submit" className="button" name="intent" value="request">
            Reset password
          </button>
        </Form>
      )}
    </div>
  );
}
