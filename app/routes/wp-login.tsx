/**
 * /wp-login.php: WordPress's sign-in form (fields `log`, `pwd`, `rememberme`, `redirect_to`, `testcookie`), its
 * messages and the sign-out confirmation. A bare document without scripts: a plain form post works everywhere.
 */
import { useActionData } from "react-router";
import type { Route } from "./+types/wp-login";
import { loader as serverLoader, action as serverAction, type LoginError } from "./wp-login.server.ts";
import { BARE_DOCUMENT } from "../lib/bare-document.ts";
import adminStyles from "../styles/wp-admin.css?url";

export const handle = BARE_DOCUMENT;

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: adminStyles }];

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data?.view === "logout" ? `Log Out ‹ ${data.siteName}` : `Log In ‹ ${data?.siteName ?? ""}` },
  { name: "robots", content: "noindex, nofollow" },
];

export async function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
}

export async function action(args: Route.ActionArgs) {
  return serverAction(args);
}

const LOST_PASSWORD = "/wp-login.php?action=lostpassword";

function ErrorText({ error }: { error: LoginError }) {
  // One text expression between elements, so the markup reads as WordPress's (no React text separators).
  const label = <strong>Error:</strong>;
  switch (error.kind) {
    case "empty_username":
      return (
        <>
          {label}
          {" The username field is empty."}
        </>
      );
    case "empty_password":
      return (
        <>
          {label}
          {" The password field is empty."}
        </>
      );
    case "cookies":
      return (
        <>
          {label}
          {" Cookies are blocked or not supported by your browser. You must enable cookies to log in."}
        </>
      );
    case "unknown_email":
      return (
        <>
          {label}
          {" Unknown email address. Check again or try your username."}
        </>
      );
    case "unknown_username":
      return (
        <>
          {label}
          {" The username "}
          <strong>{error.login}</strong>
          {" is not registered on this site. If you are unsure of your username, try your email address instead."}
        </>
      );
    case "incorrect_password_email":
    case "incorrect_password_username":
      return (
        <>
          {label}
          {` The password you entered for the ${error.kind === "incorrect_password_email" ? "email address" : "username"} `}
          <strong>{error.login}</strong>
          {" is incorrect. "}
          <a href={LOST_PASSWORD}>Lost your password?</a>
        </>
      );
    case "limited":
      return (
        <>
          {label}
          {` ${error.message}`}
        </>
      );
  }
}

export default function WpLogin({ loaderData }: Route.ComponentProps) {
  const posted = useActionData<typeof action>();
  const { siteName } = loaderData;
  if (loaderData.view === "logout") {
    return (
      <main id="login" className="wp-login">
        <h1>Log out of {siteName}</h1>
        <div className="notice" role="alert">
          <p>You are attempting to log out of {siteName}.</p>
          <p>
            Do you really want to <a href={loaderData.logoutUrl}>log out</a>?
          </p>
        </div>
        <p id="backtoblog">
          <a href="/">← Go to {siteName}</a>
        </p>
      </main>
    );
  }
  const state = posted ?? loaderData;
  const errors = state.errors;
  const invalid = errors.length > 0 || undefined;
  return (
    <main id="login" className="wp-login">
      <h1>Log in to {siteName}</h1>
      {errors.length > 0 ? (
        <div id="login_error" className="notice notice-error" role="alert">
          {errors.map((e) => (
            <p key={e.kind}>
              <ErrorText error={e} />
            </p>
          ))}
        </div>
      ) : null}
      {state.loggedOut ? (
        <p className="message" id="login-message" role="status">
          You are now logged out.
        </p>
      ) : null}
      {state.notStaff && errors.length === 0 ? (
        <div id="login-message" className="notice notice-error" role="alert">
          <p>Sorry, you are not allowed to access this page. Log in with an administrator or shop manager account to open the admin.</p>
        </div>
      ) : state.reauth && errors.length === 0 ? (
        <p className="message" id="login-message">
          Please log in to continue.
        </p>
      ) : null}
      <form name="loginform" id="loginform" action="/wp-login.php" method="post">
        <p>
          <label htmlFor="user_login">Username or Email Address</label>
          <input
            type="text"
            name="log"
            id="user_login"
            className="input"
            defaultValue={state.log}
            size={20}
            autoCapitalize="off"
            autoComplete="username"
            maxLength={254}
            required
            aria-invalid={invalid}
            aria-describedby={invalid && "login_error"}
          />
        </p>
        <p className="user-pass-wrap">
          <label htmlFor="user_pass">Password</label>
          <input
            type="password"
            name="pwd"
            id="user_pass"
            className="input password-input"
            size={20}
            autoComplete="current-password"
            spellCheck={false}
            maxLength={200}
            required
            aria-invalid={invalid}
            aria-describedby={invalid && "login_error"}
          />
        </p>
        <p className="forgetmenot">
          <input name="rememberme" type="checkbox" id="rememberme" value="forever" /> <label htmlFor="rememberme">Remember Me</label>
        </p>
        <p className="submit">
          <input type="submit" name="wp-submit" id="wp-submit" className="button button-primary button-large" value="Log In" />
          <input type="hidden" name="redirect_to" value={state.redirectTo} />
          <input type="hidden" name="testcookie" value="1" />
        </p>
      </form>
      <p id="nav">
        <a href={LOST_PASSWORD}>Lost your password?</a>
      </p>
      <p id="backtoblog">
        <a href="/">← Go to {siteName}</a>
      </p>
    </main>
  );
}
