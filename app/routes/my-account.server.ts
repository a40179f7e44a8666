/** The server half of the my-account route: its loader (and action), everything that reaches the database; the route module renders. */
import { redirect } from "react-router";
import { loginWithLimits, registerWithLimits, registrationSchema } from "../../core/commerce/accounts.ts";
import { listCustomerOrders } from "../../core/db/repositories/orders.ts";
import { CANCEL_ORDER_NONCE_ACTION, orderActionsFor } from "../../core/commerce/orders.ts";
import { REGISTRATION_SESSION_FLAG } from "../../core/domain/tracking/events.ts";
import type { Route } from "./+types/my-account";

export async function loader({ context }: Route.LoaderArgs) {
  const { shop, services } = context;
  const session = await shop.session();
  const customerId = session?.customerId ?? null;
  const profile = await context.storefront.customer();
  const customer = profile ? { email: profile.email, first_name: profile.firstName, display_name: profile.displayName } : null;
  const orders = customerId
    ? (await listCustomerOrders(services.db, customerId, 5)).map((o) => ({ ...o, createdAt: o.createdAt.toISOString(), actions: orderActionsFor(o) }))
    : [];
  return {
    customer,
    orders,
    loginNonce: shop.nonce("woocommerce-login"),
    registerNonce: shop.nonce("woocommerce-register"),
    logoutNonce: shop.nonce("log-out"),
    cancelNonce: customerId ? shop.nonce(CANCEL_ORDER_NONCE_ACTION) : "",
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { shop, services } = context;
  await shop.session();
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  if (intent === "login") {
    if (!shop.verifyNonce("woocommerce-login", form.get("woocommerce-login-nonce")))
      return { error: "Your session has expired. Please reload the page and try again.", intent };
    const username = String(form.get("username") ?? "");
    const password = String(form.get("password") ?? "");
    if (!username || !password) return { error: "Please enter your e-mail address and password.", intent };
    // The same per-account and per-address limits as the checkout's login (AUTH_LIMITS in core/commerce/accounts.ts).
    const outcome = await loginWithLimits(services.db, { login: username, password, address: context.clientAddress, now: services.now() });
    if (!outcome.ok) return { error: outcome.message, intent };
    await shop.signIn(outcome.customerId);
    await shop.queueNotice({ type: "success", message: "You are now signed in." });
    return redirect("/my-account/");
  }
  if (intent === "register") {
    if (!shop.verifyNonce("woocommerce-register", form.get("woocommerce-register-nonce")))
      return { error: "Your session has expired. Please reload the page and try again.", intent };
    const parsed = registrationSchema.safeParse({ email: form.get("email"), password: form.get("password") });
    if (!parsed.success) return { error: parsed.error.issues[0]!.message, intent };
    const result = await registerWithLimits(services.db, { input: parsed.data, address: context.clientAddress, now: services.now() });
    if (!result.ok) return { error: result.message, intent };
    await shop.signIn(result.customerId);
    await shop.updateSessionData((d) => (d[REGISTRATION_SESSION_FLAG] = true));
    await shop.queueNotice({ type: "success", message: "Your account was created. Welcome!" });
    return redirect("/my-account/");
  }
  if (intent === "logout") {
    if (shop.verifyNonce("log-out", form.get("_wpnonce"))) await shop.signOut();
    return redirect("/my-account/");
  }
  return { error: "Unknown request.", intent };
}
