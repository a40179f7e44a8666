/** The server half of the order-pay route: its loader (and action), everything that reaches the database; the route module renders. */
import { data, redirect } from "react-router";
import { findOrder, listTokens } from "../../core/db/repositories/orders.ts";
import { readPayment } from "../../core/commerce/checkout-form.ts";
import { orderKeyMatches, payExistingOrder } from "../../core/commerce/orders.ts";
import { loginWithLimits } from "../../core/commerce/accounts.ts";
import { rememberOrder } from "../../core/commerce/order-access.ts";
import { yearMonthOf } from "../../core/domain/payments/index.ts";
import type { Route } from "./+types/order-pay";

const NONCE = "woocommerce-pay";
const LOGIN_NONCE = "woocommerce-login";

// WooCommerce's wording (WC_Shortcode_Checkout::order_pay).
const INVALID = "Sorry, this order is invalid and cannot be paid for.";
const LOG_IN = "Please log in to your account below to continue to the payment form.";
const NOT_YOURS = "This order cannot be paid for. Please contact us if you need assistance.";

type Context = Route.LoaderArgs["context"];

/**
 * WooCommerce's rules: the key in the link must be the order's (always, whoever asks); an order that belongs to
 * an account is paid only by that customer, signed in (a guest is asked to log in, anyone else is refused); a
 * guest order is paid by whoever holds its key.
 */
async function access(context: Context, idParam: string, key: string) {
  const session = await context.shop.session();
  const customerId = session?.customerId ?? null;
  const id = /^\d{1,9}$/.test(idParam) ? Number(idParam) : 0;
  const order = id ? await findOrder(context.services.db, id) : null;
  if (!order || !orderKeyMatches(order.orderKey, key)) return { state: "invalid" as const };
  if (order.customerId !== null && customerId === null) return { state: "login" as const };
  if (order.customerId !== null && order.customerId !== customerId) return { state: "forbidden" as const };
  return { state: "ok" as const, order, customerId, owns: customerId !== null && order.customerId === customerId };
}

const refusal = (state: "invalid" | "login" | "forbidden") =>
  state === "invalid" ? { message: INVALID, status: 404 } : state === "login" ? { message: LOG_IN, status: 403 } : { message: NOT_YOURS, status: 403 };

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const key = new URL(request.url).searchParams.get("key") ?? "";
  const a = await access(context, params.id, key);
  if (a.state === "login") return { state: a.state, message: LOG_IN, loginNonce: context.shop.nonce(LOGIN_NONCE) };
  if (a.state !== "ok") return data({ state: a.state, message: refusal(a.state).message }, { status: refusal(a.state).status });
  const { order, customerId, owns } = a;
  const rt = context.storefront.checkout.payments;
  const tokens = owns ? await listTokens(context.services.db, customerId!) : [];
  let guestWarning = false;
  if (order.customerId === null && customerId !== null) {
    const me = await context.storefront.customer();
    guestWarning = !me || me.email.toLowerCase() !== order.billingEmail.toLowerCase();
  }
  return {
    state: a.state,
    order: { ...order, createdAt: order.createdAt.toISOString(), paidAt: order.paidAt?.toISOString() ?? null, meta: {} },
    payable: order.status === "pending" || order.status === "failed",
    guestWarning,
    nonce: context.shop.nonce(NONCE),
    gateways: await context.storefront.checkout.gateways(),
    testMode: rt.gateway.testMode,
    key,
    tokens: tokens.map((t) => ({
      id: t.id,
      gatewayId: t.gatewayId,
      isDefault: t.isDefault,
      label: t.kind === "card" ? `${t.brand.charAt(0).toUpperCase()}${t.brand.slice(1)} ending in ${t.last4}` : `Bank account ending in ${t.last4}`,
    })),
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const url = new URL(request.url);
  const key = url.searchParams.get("key") ?? "";
  const form = Object.fromEntries(await request.formData());
  const a = await access(context, params.id, key);
  if (a.state === "login" && form.intent === "login") {
    // The login form of the page (WooCommerce's woocommerce_login_form with this page as its redirect).
    if (!context.shop.verifyNonce(LOGIN_NONCE, form["woocommerce-login-nonce"]))
      return { loginError: "Your session has expired. Please reload the page and try again." };
    const username = typeof form.username === "string" ? form.username : "";
    const password = typeof form.password === "string" ? form.password : "";
    if (!username || !password) return { loginError: "Please enter your e-mail address and password." };
    const outcome = await loginWithLimits(context.services.db, { login: username, password, address: context.clientAddress, now: context.services.now() });
    if (!outcome.ok) return { loginError: outcome.message };
    await context.shop.signIn(outcome.customerId);
    return redirect(`${url.pathname}${url.search}`);
  }
  if (a.state !== "ok") return data({ errors: [refusal(a.state).message] }, { status: refusal(a.state).status });
  const { order, customerId, owns } = a;
  if (!context.shop.verifyNonce(NONCE, form["woocommerce-pay-nonce"])) return { errors: ["Your session has expired. Please reload the page and try again."] };
  const rt = context.storefront.checkout.payments;
  const tokens = owns ? await listTokens(context.services.db, customerId!) : [];
  const parsed = readPayment(form, await context.storefront.checkout.gateways(), yearMonthOf(context.services.now(), "utc"), {
    ownedTokenIds: new Set(tokens.map((t) => t.id)),
    canTokenize: owns,
  });
  if (!parsed.ok)
    return {
      errors: parsed.errors.map((e) =>
        e.html
          .replace(/<[^>]*>/g, "")
          .replace(/&quot;/g, '"')
          .replace(/&#0?39;/g, "'")
          .replace(/&lt;/g, "<")
          .replace(/&gt;/g, ">")
          .replace(/&amp;/g, "&"),
      ),
    };
  const result = await payExistingOrder(rt.deps, order.id, owns ? customerId : null, parsed.value);
  if (!result.ok) return { errors: [result.message] };
  await context.storefront.checkout.clearCartAfterPayment(order.id);
  context.storefront.trackPurchase(order.id, order.meta);
  // The payer sees the order received page without confirming the order's e-mail address.
  await context.shop.updateSessionData((d) => rememberOrder(d, order.id));
  return redirect(`/checkout/order-received/${order.id}/?key=${encodeURIComponent(order.orderKey)}`);
}
