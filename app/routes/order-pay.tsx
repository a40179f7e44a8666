import { data, redirect, useActionData } from "react-router";
import { useState } from "react";
import type { Route } from "./+types/order-pay";
import { pageTitle } from "../lib/listing-params.ts";
import { findOrder, listTokens } from "../../core/db/repositories/orders.ts";
import { OrderDetails } from "../components/account/OrderDetails.tsx";
import { PaymentForm } from "../components/checkout/PaymentForm.tsx";
import { readPayment } from "../../core/commerce/checkout-form.ts";
import { orderKeyMatches, payExistingOrder } from "../../core/commerce/orders.ts";
import { loginWithLimits } from "../../core/commerce/accounts.ts";
import { LoginFields } from "../components/account/LoginFields.tsx";
import { yearMonthOf } from "../../core/domain/payments/index.ts";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Pay for order") }, { name: "robots", content: "noindex" }];

const NONCE = "woocommerce-pay";
const LOGIN_NONCE = "woocommerce-login";

// WooCommerce's wording (WC_Shortcode_Checkout::order_pay).
const INVALID = "Sorry, this order is invalid and cannot be paid for.";
const LOG_IN = "Please log in to your account below to continue to the payment form.";
const NOT_YOURS = "This order cannot be paid for. Please contact us if you need assistance.";
const GUEST_ORDER = "You are paying for a guest order. Please continue with payment only if you recognize this order.";

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
  if (a.state === "login") return { state: a.state, loginNonce: context.shop.nonce(LOGIN_NONCE) };
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
    gateways: rt.gateways,
    testMode: rt.gateway.testMode,
    key,
    tokens: tokens.map((t) => ({ id: t.id, gatewayId: t.gatewayId, isDefault: t.isDefault, label: t.kind === "card" ? `${t.brand.charAt(0).toUpperCase()}${t.brand.slice(1)} ending in ${t.last4}` : `Bank account ending in ${t.last4}` })),
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const url = new URL(request.url);
  const key = url.searchParams.get("key") ?? "";
  const form = Object.fromEntries(await request.formData());
  const a = await access(context, params.id, key);
  if (a.state === "login" && form.intent === "login") {
    // The login form of the page (WooCommerce's woocommerce_login_form with this page as its redirect).
    if (!context.shop.verifyNonce(LOGIN_NONCE, form["woocommerce-login-nonce"])) return { loginError: "Your session has expired. Please reload the page and try again." };
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
  const parsed = readPayment(form, rt.gateways, yearMonthOf(context.services.now(), "utc"), { ownedTokenIds: new Set(tokens.map((t) => t.id)), canTokenize: owns });
  if (!parsed.ok) return { errors: parsed.errors.map((e) => e.html.replace(/<[^>]*>/g, "").replace(/&quot;/g, '"').replace(/&#0?39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")) };
  const result = await payExistingOrder(rt.deps, order.id, owns ? customerId : null, parsed.value);
  if (!result.ok) return { errors: [result.message] };
  await context.storefront.checkout.clearCartAfterPayment(order.id);
  return redirect(`/checkout/order-received/${order.id}/?key=${encodeURIComponent(order.orderKey)}`);
}

export default function OrderPay({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  if (loaderData.state === "login") return <LoginFirst nonce={loaderData.loginNonce} error={actionData && "loginError" in actionData ? actionData.loginError : undefined} />;
  if (loaderData.state !== "ok") {
    return (
      <div className="woocommerce order-pay">
        <h1 className="page-title">Pay for order</h1>
        <ul className="woocommerce-error" role="alert">
          <li>{loaderData.message}</li>
        </ul>
      </div>
    );
  }
  return <PayForm data={loaderData} errors={actionData && "errors" in actionData ? actionData.errors : undefined} />;
}

/** A registered customer's order, opened signed out: log in here and come back to the payment form. */
function LoginFirst({ nonce, error }: { nonce: string; error?: string }) {
  return (
    <div className="woocommerce order-pay">
      <h1 className="page-title">Pay for order</h1>
      {error ? (
        <ul className="woocommerce-error" role="alert">
          <li>{error}</li>
        </ul>
      ) : null}
      <div className="woocommerce-info" role="status">
        {LOG_IN}
      </div>
      <form method="post" className="woocommerce-form woocommerce-form-login login">
        <LoginFields nonce={nonce} />
        <button type="submit" className="button" name="intent" value="login">
          Log in
        </button>
        <p className="woocommerce-LostPassword lost_password">
          <a href="/my-account/lost-password/">Lost your password?</a>
        </p>
      </form>
    </div>
  );
}

type PayData = Extract<Route.ComponentProps["loaderData"], { state: "ok" }>;

function PayForm({ data: { order, payable, guestWarning, gateways, testMode, nonce, tokens }, errors }: { data: PayData; errors?: string[] }) {
  const [method, setMethod] = useState(gateways.card.id);
  const [tokenChoice, setTokenChoice] = useState<Record<string, string>>({});
  return (
    <div className="woocommerce order-pay">
      <h1 className="page-title">Pay for order</h1>
      {!payable ? (
        <div className="woocommerce-error" role="alert">
          This order&rsquo;s status is &ldquo;{order.statusLabel}&rdquo;&mdash;it cannot be paid for. Please contact us if you need assistance.
        </div>
      ) : (
        <form id="order_review" method="post" className="woocommerce-checkout">
          {errors?.length ? (
            <ul className="woocommerce-error" role="alert">
              {errors.map((e, i) => (
                <li key={i}>{e}</li>
              ))}
            </ul>
          ) : null}
          {guestWarning ? (
            <ul className="woocommerce-error" role="alert">
              <li>{GUEST_ORDER}</li>
            </ul>
          ) : null}
          <OrderDetails order={order} />
          <div id="payment" className="woocommerce-checkout-payment">
            <PaymentForm gateways={gateways} testMode={testMode} tokens={tokens} canSave={false} method={method} onMethodChange={setMethod} tokenChoice={tokenChoice} onTokenChoice={(g, v) => setTokenChoice((c) => ({ ...c, [g]: v }))} slideMs={200} />
            <input type="hidden" name="woocommerce-pay-nonce" value={nonce} />
            <input type="hidden" name="woocommerce_pay" value="1" />
            <button type="submit" className="button alt" id="place_order" value="Pay for order">
              Pay for order
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
