/**
 * The server half of /wp-login.php (docs/contract/rest/auth.md 'wp-login.php'): WordPress's sign-in form and its
 * sign-out. The sign-in goes through the storefront's use case and limits (loginWithLimits), and answers with
 * WordPress's error texts.
 */
import { data, redirect } from "react-router";
import type { Route } from "./+types/wp-login";
import { loginFailureKind, loginWithLimits } from "../../core/commerce/accounts.ts";
import { isAdminPath, safeRedirectPath, signInDestination } from "../../core/domain/users/sign-in.ts";
import { signedInUser } from "../lib/staff.server.ts";

/** WordPress's cookie check: set by the form's page, expected back with `testcookie=1`. */
const TEST_COOKIE = "wordpress_test_cookie";
const LOGOUT_NONCE = "log-out";

export type LoginError =
  | { kind: "empty_username" | "empty_password" | "cookies" | "unknown_email" }
  | { kind: "unknown_username" | "incorrect_password_email" | "incorrect_password_username"; login: string }
  | { kind: "limited"; message: string };

export async function loader({ request, context }: Route.LoaderArgs) {
  const { shop } = context;
  await shop.session();
  const q = new URL(request.url).searchParams;
  const action = q.get("action") ?? "login";
  const redirectTo = safeRedirectPath(q.get("redirect_to"), context.origin);

  if (action === "logout") {
    if (shop.verifyNonce(LOGOUT_NONCE, q.get("_wpnonce"))) {
      await shop.signOut();
      throw redirect(redirectTo ?? "/wp-login.php?loggedout=true");
    }
    // WordPress's confirmation when the link's nonce is missing or stale: a fresh link, never a silent sign-out.
    const again = new URLSearchParams({ action: "logout", _wpnonce: shop.nonce(LOGOUT_NONCE) });
    if (redirectTo) again.set("redirect_to", redirectTo);
    return { view: "logout" as const, siteName: context.services.config.siteName, logoutUrl: `/wp-login.php?${again}` };
  }
  if (action === "lostpassword" || action === "retrievepassword") throw redirect("/my-account/lost-password/");
  if (action === "register") throw redirect("/my-account/");

  const user = await signedInUser(context);
  if (user && !q.get("reauth")) throw redirect(signInDestination(user.staff, redirectTo));
  shop.setCookie(TEST_COOKIE, "WP Cookie check", { httpOnly: false });
  return {
    view: "login" as const,
    siteName: context.services.config.siteName,
    redirectTo: redirectTo ?? "",
    loggedOut: q.get("loggedout") === "true",
    reauth: q.get("reauth") === "1",
    // A customer sent here from /wp-admin/: the admin needs a staff account (WordPress would answer 403 there).
    notStaff: Boolean(user && !user.staff && redirectTo && isAdminPath(redirectTo)),
    log: "",
    errors: [] as LoginError[],
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { shop, services } = context;
  await shop.session();
  const form = await request.formData();
  const field = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  const log = field("log").trim().slice(0, 254);
  const pwd = field("pwd").slice(0, 200);
  const redirectTo = safeRedirectPath(field("redirect_to"), context.origin);
  const fail = (errors: LoginError[]) =>
    data(
      { view: "login" as const, redirectTo: redirectTo ?? "", loggedOut: false, reauth: false, notStaff: false, log, errors },
      { status: errors[0]?.kind === "limited" ? 429 : 200 },
    );

  // A form posted from another site (login CSRF) never gets here: React Router refuses an action whose Origin
  // header is not the request's own (400).
  if (field("testcookie") && !shop.cookies[TEST_COOKIE]) return fail([{ kind: "cookies" }]);
  const errors: LoginError[] = [];
  if (!log) errors.push({ kind: "empty_username" });
  if (!pwd) errors.push({ kind: "empty_password" });
  if (errors.length) return fail(errors);

  // The storefront's limits, per account and per address (AUTH_LIMITS, decision 0009).
  const outcome = await loginWithLimits(services.db, { login: log, password: pwd, address: context.clientAddress, now: services.now() });
  if (!outcome.ok) {
    if (outcome.limited) return fail([{ kind: "limited", message: outcome.message }]);
    const why = await loginFailureKind(services.db, log);
    if (why === "unknown_email") return fail([{ kind: "unknown_email" }]);
    if (why === "unknown_username") return fail([{ kind: "unknown_username", login: log }]);
    return fail([{ kind: log.includes("@") ? "incorrect_password_email" : "incorrect_password_username", login: log }]);
  }
  await shop.signIn(outcome.customerId);
  const user = await signedInUser(context);
  return redirect(signInDestination(user?.staff ?? false, redirectTo));
}
