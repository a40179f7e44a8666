import { useRef } from "react";
import { Form, useActionData, useNavigation } from "react-router";
import type { Route } from "./+types/my-account";
import { AccountNav, OrdersTable } from "../components/account/AccountNav.tsx";
import { pageTitle } from "../lib/listing-params.ts";
import { PasswordInput } from "../components/chrome/PasswordInput.tsx";
import { LoginFields } from "../components/account/LoginFields.tsx";
import { useRevealNotices } from "../components/chrome/Notices.tsx";
import { loader as serverLoader, action as serverAction } from "./my-account.server.ts";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("My account") }, { name: "robots", content: "noindex" }];

export async function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
}

export async function action(args: Route.ActionArgs) {
  return serverAction(args);
}

export default function MyAccount({ loaderData }: Route.ComponentProps) {
  const { customer, orders, loginNonce, registerNonce, logoutNonce, cancelNonce } = loaderData;
  const actionData = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  // A refused sign-in or registration is revealed like every other notice: scrolled to, then focused after 500 ms.
  const formsRef = useRef<HTMLDivElement>(null);
  useRevealNotices(formsRef, actionData?.error ? actionData : null);
  if (customer) {
    return (
      <div className="woocommerce my-account">
        <h1 className="page-title">My account</h1>
        <AccountNav current="dashboard" />
        <p>
          Hello <strong>{customer.first_name || customer.display_name}</strong> ({customer.email}).
        </p>
        <p>From your account dashboard you can view your recent orders, manage your addresses and edit your password and account details.</p>
        {orders.length ? (
          <>
            <h2>Recent orders</h2>
            <OrdersTable orders={orders} cancelNonce={cancelNonce} />
          </>
        ) : null}
        <Form method="post">
          <input type="hidden" name="intent" value="logout" />
          <input type="hidden" name="_wpnonce" value={logoutNonce} />
          <button type="submit" className="button">
            Log out
          </button>
        </Form>
      </div>
    );
  }
  return (
    <div className="woocommerce my-account">
      <h1 className="page-title">My account</h1>
      <div className="u-columns col2-set" id="customer_login" ref={formsRef}>
        <section className="u-column1 col-1">
          <h2>Login</h2>
          <Form method="post" className="woocommerce-form woocommerce-form-login login">
            {actionData?.intent === "login" && actionData.error ? (
              <ul className="woocommerce-error" role="alert" tabIndex={-1}>
                <li>{actionData.error}</li>
              </ul>
            ) : null}
            <LoginFields nonce={loginNonce} />
            <button type="submit" className="button" name="intent" value="login" disabled={busy}>
              Log in
            </button>
            <p className="woocommerce-LostPassword lost_password">
              <a href="/my-account/lost-password/">Lost your password?</a>
            </p>
          </Form>
        </section>
        <section className="u-column2 col-2">
          <h2>Register</h2>
          <Form method="post" className="woocommerce-form woocommerce-form-register register">
            {actionData?.intent === "register" && actionData.error ? (
              <ul className="woocommerce-error" role="alert" tabIndex={-1}>
                <li>{actionData.error}</li>
              </ul>
            ) : null}
            <p className="form-row">
              <label htmlFor="reg_email">
                Email address{" "}
                <span className="required" aria-hidden="true">
                  *
                </span>
              </label>
              <input type="email" className="input-text" name="email" id="reg_email" autoComplete="email" required maxLength={254} />
            </p>
            <p className="form-row">
              <label htmlFor="reg_password">
                Password{" "}
                <span className="required" aria-hidden="true">
                  *
                </span>
              </label>
              <PasswordInput name="password" id="reg_password" autoComplete="new-password" minLength={8} />
            </p>
            <input type="hidden" name="woocommerce-register-nonce" value={registerNonce} />
            <button type="submit" className="button" name="intent" value="register" disabled={busy}>
              Register
            </button>
          </Form>
        </section>
      </div>
    </div>
  );
}
