/** The sign-in fields of WooCommerce's login form (user name or e-mail, password, nonce), shared by every page that signs in. */
import { PasswordInput } from "../chrome/PasswordInput.tsx";

export function LoginFields({ nonce }: { nonce: string }) {
  return (
    <>
      <p className="form-row">
        <label htmlFor="username">
          Username or email address{" "}
          <span className="required" aria-hidden="true">
            *
          </span>
        </label>
        <input type="text" className="input-text" name="username" id="username" autoComplete="username" required maxLength={254} />
      </p>
      <p className="form-row">
        <label htmlFor="password">
          Password{" "}
          <span className="required" aria-hidden="true">
            *
          </span>
        </label>
        <PasswordInput name="password" id="password" autoComplete="current-password" />
      </p>
      <input type="hidden" name="woocommerce-login-nonce" value={nonce} />
    </>
  );
}
