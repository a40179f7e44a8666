import { Form, useActionData } from "react-router";
import type { Route } from "./+types/account-edit-account";
import { pageTitle } from "../lib/listing-params.ts";
import { AccountNav } from "../components/account/AccountNav.tsx";
import { PasswordInput } from "../components/chrome/PasswordInput.tsx";
import { loader as serverLoader, action as serverAction } from "./account-edit-account.server.ts";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Account details") }, { name: "robots", content: "noindex" }];

export async function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
}

export async function action(args: Route.ActionArgs) {
  return serverAction(args);
}

export default function EditAccount({ loaderData }: Route.ComponentProps) {
  const { nonce } = loaderData;
  const actionData = useActionData<typeof action>();
  const customer = actionData?.typed ?? loaderData.customer;
  const row = (name: string, label: string, value: string, type = "text", autoComplete = "off", describedBy?: string) => (
    <p className="woocommerce-form-row form-row form-row-wide">
      <label htmlFor={name}>
        {label}{" "}
        <abbr className="required" title="required">
          *
        </abbr>
      </label>
      <input
        type={type}
        className="input-text"
        name={name}
        id={name}
        defaultValue={value}
        autoComplete={autoComplete}
        maxLength={type === "email" ? 254 : 100}
        required
        aria-describedby={describedBy}
      />
    </p>
  );
  return (
    <div className="woocommerce my-account">
      <h1 className="page-title">Account details</h1>
      <AccountNav current="edit-account" />
      <div className="woocommerce-MyAccount-content">
        <Form method="post" className="woocommerce-EditAccountForm edit-account">
          {actionData?.error ? (
            <ul className="woocommerce-error" role="alert">
              <li>{actionData.error}</li>
            </ul>
          ) : null}
          {row("account_first_name", "First name", customer.first_name, "text", "given-name")}
          {row("account_last_name", "Last name", customer.last_name, "text", "family-name")}
          {row("account_display_name", "Display name", customer.display_name, "text", "nickname", "account_display_name_description")}
          <p className="description" id="account_display_name_description">
            <em>This will be how your name will be displayed in the account section and in reviews</em>
          </p>
          {row("account_email", "Email address", customer.email, "email", "email")}
          <fieldset>
            <legend>Password change</legend>
            <p className="woocommerce-form-row form-row form-row-wide">
              <label htmlFor="password_current">Current password (leave blank to leave unchanged)</label>
              <PasswordInput name="password_current" id="password_current" autoComplete="current-password" required={false} />
            </p>
            <p className="woocommerce-form-row form-row form-row-wide">
              <label htmlFor="password_1">New password (leave blank to leave unchanged)</label>
              <PasswordInput name="password_1" id="password_1" autoComplete="new-password" required={false} />
            </p>
            <p className="woocommerce-form-row form-row form-row-wide">
              <label htmlFor="password_2">Confirm new password</label>
              <PasswordInput name="password_2" id="password_2" autoComplete="new-password" required={false} />
            </p>
          </fieldset>
          <input type="hidden" name="save-account-details-nonce" value={nonce} />
          <p>
            <button type="submit" className="woocommerce-Button button" name="save_account_details" value="Save changes">
              Save changes
            </button>
          </p>
        </Form>
      </div>
    </div>
  );
}
