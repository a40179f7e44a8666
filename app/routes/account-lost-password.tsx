import { Form, useActionData } from "react-router";
import type { Route } from "./+types/account-lost-password";
import { pageTitle } from "../lib/listing-params.ts";
import { PasswordInput } from "../components/chrome/PasswordInput.tsx";
import { loader as serverLoader, action as serverAction } from "./account-lost-password.server.ts";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Lost password") }, { name: "robots", content: "noindex" }];

export async function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
}

export async function action(args: Route.ActionArgs) {
  return serverAction(args);
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
