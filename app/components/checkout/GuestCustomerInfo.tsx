/**
 * The guest's part of the billing details: the e-mail field with its validation note, the login section
 * ('Returning customer? login', opened by the e-mail check when the address has an account) and the
 * create-account checkbox with its password.
 */
import { useRef, useState } from "react";
import { PasswordInput } from "../chrome/PasswordInput.tsx";
import { plain, post } from "./checkout-client.ts";
import { EmailField, useRowClass } from "./CheckoutFields.tsx";
import type { EmailNote } from "./useGuestEmailCheck.ts";

interface Props {
  layout: "one-page" | "multi-step" | "modern";
  email: string;
  onEmailChange: (email: string) => void;
  emailNote: EmailNote | null;
  loginOpen: boolean;
  onToggleLogin: () => void;
  showCreateAccount: boolean;
  createAccount: boolean;
  onCreateAccount: (checked: boolean) => void;
  loginNonce: string;
  /** The general failure text, shown when the login answer has no message of its own. */
  checkoutError: string;
}

export function GuestCustomerInfo(props: Props) {
  const { layout, email, emailNote, loginOpen, showCreateAccount, createAccount } = props;
  const rowClass = useRowClass();
  const [password, setPassword] = useState("");
  const [loginError, setLoginError] = useState<string | null>(null);
  const loginBusy = useRef(false);
  // Shown while the sign-in is under way (the password check takes a moment): the button says so and is disabled.
  const [busy, setBusy] = useState(false);

  const login = async () => {
    if (loginBusy.current) return;
    loginBusy.current = true;
    setBusy(true);
    setLoginError(null);
    let reloading = false;
    try {
      const res = await post(
        "/wp-admin/admin-ajax.php",
        new URLSearchParams({ action: "astra_woocommerce_login_user", user_name_email: email, password, security: props.loginNonce }),
      ).catch(() => null);
      const body = res ? ((await res.json().catch(() => null)) as { data?: { success?: boolean; error?: string } } | null) : null;
      if (body?.data?.success) {
        // Signed in: the page reloads as the customer; it stays busy until then.
        reloading = true;
        return void window.location.reload();
      }
      setLoginError(plain(body?.data?.error) || props.checkoutError);
    } finally {
      if (!reloading) {
        loginBusy.current = false;
        setBusy(false);
      }
    }
  };
  // The login section sits inside the checkout form, so it cannot be a <form> of its own: Enter in its inputs
  // logs in (like the Login button) instead of submitting the checkout.
  // Enter in the password field logs in (it does not submit the checkout).
  const onLoginKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== "Enter" || e.nativeEvent.isComposing) return;
    e.preventDefault();
    void login();
  };

  return (
    <div className="ast-customer-info" id="customer_info">
      {layout !== "modern" ? (
        <p className="woocommerce-form-login-toggle">
          Returning customer?{" "}
          <button
            type="button"
            className="showlogin link-button"
            aria-expanded={loginOpen}
            aria-controls="ast-customer-login-section"
            onClick={props.onToggleLogin}
          >
            login
          </button>
        </p>
      ) : null}
      <EmailField value={email} onChange={props.onEmailChange} describedBy="ast-email-note" />
      {/* The live region stays in the page (a region added with its text is often not announced); the note inside comes and goes. */}
      <div id="ast-email-note" className={`ast-email-validation-note ${emailNote?.kind ?? ""}`} role="status" aria-live="polite">
        {emailNote ? <span className="ast-email-validation-note__text">{emailNote.text}</span> : null}
      </div>
      <div id="ast-customer-login-section" className="ast-customer-login-section" hidden={!loginOpen} aria-busy={busy}>
        <p className="form-row form-row-wide">
          <label htmlFor="billing_password">Password</label>
          <PasswordInput
            name="billing_password"
            id="billing_password"
            autoComplete="current-password"
            required={false}
            value={password}
            onChange={setPassword}
            onKeyDown={onLoginKeyDown}
          />
        </p>
        <div className="ast-login-notice" role="alert">
          {loginError ? (
            <ul className="woocommerce-error">
              <li>{loginError}</li>
            </ul>
          ) : null}
        </div>
        <button type="button" className="button ast-customer-login-section__login-button" onClick={() => void login()} disabled={busy}>
          {busy ? "Signing in…" : "Login"}
        </button>
      </div>
      {showCreateAccount ? (
        <div className="woocommerce-account-fields">
          <p className="form-row form-row-wide create-account">
            <label className="woocommerce-form__label-for-checkbox">
              <input
                type="checkbox"
                className="input-checkbox"
                id="createaccount"
                name="createaccount"
                value="1"
                checked={createAccount}
                onChange={(e) => props.onCreateAccount(e.target.checked)}
              />{" "}
              <span>Create an account?</span>
            </label>
          </p>
          {createAccount ? (
            <p className={`${rowClass("account_password")} form-row-wide`} id="account_password_field">
              <label htmlFor="account_password">
                Create account password{" "}
                <abbr className="required" title="required">
                  *
                </abbr>
              </label>
              <PasswordInput name="account_password" id="account_password" autoComplete="new-password" minLength={8} required={false} />
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
