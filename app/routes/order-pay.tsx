import { useActionData } from "react-router";
import { useRef, useState } from "react";
import type { Route } from "./+types/order-pay";
import { pageTitle } from "../lib/listing-params.ts";
import { OrderDetails } from "../components/account/OrderDetails.tsx";
import { PaymentForm } from "../components/checkout/PaymentForm.tsx";
import { LoginFields } from "../components/account/LoginFields.tsx";
import { checkPaymentBeforeSubmit } from "../components/checkout/payment-check.ts";
import type { PaymentErrors } from "../components/checkout/PaymentStep.tsx";
import { revealNotices } from "../components/chrome/Notices.tsx";
import { loader as serverLoader, action as serverAction } from "./order-pay.server.ts";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Pay for order") }, { name: "robots", content: "noindex" }];

// WooCommerce's wording (WC_Shortcode_Checkout::order_pay).
const GUEST_ORDER = "You are paying for a guest order. Please continue with payment only if you recognize this order.";

export async function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
}

export async function action(args: Route.ActionArgs) {
  return serverAction(args);
}

export default function OrderPay({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  if (loaderData.state === "login")
    return (
      <LoginFirst
        nonce={loaderData.loginNonce}
        message={loaderData.message}
        error={actionData && "loginError" in actionData ? actionData.loginError : undefined}
      />
    );
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
function LoginFirst({ nonce, message, error }: { nonce: string; message: string; error?: string }) {
  return (
    <div className="woocommerce order-pay">
      <h1 className="page-title">Pay for order</h1>
      {error ? (
        <ul className="woocommerce-error" role="alert">
          <li>{error}</li>
        </ul>
      ) : null}
      <div className="woocommerce-info" role="status">
        {message}
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
  // The customer's default saved method of each gateway is chosen from the start, as on the checkout.
  const defaultToken = (gatewayId: string) => String(tokens.find((t) => t.gatewayId === gatewayId && t.isDefault)?.id ?? "new");
  const [tokenChoice, setTokenChoice] = useState<Record<string, string>>(() => ({
    [gateways.card.id]: defaultToken(gateways.card.id),
    [gateways.echeck.id]: defaultToken(gateways.echeck.id),
  }));
  // The payment form's own check before posting: the same one the checkout runs (payment-check.ts).
  const [checkErrors, setCheckErrors] = useState<PaymentErrors>({ messages: [], fields: new Set(), seq: 0 });
  const paymentRef = useRef<HTMLDivElement>(null);
  const onSubmit = (e: React.FormEvent<HTMLFormElement>) => {
    const form = e.currentTarget;
    const check = checkPaymentBeforeSubmit(form, new FormData(form), gateways, tokenChoice);
    if (check.ok) return;
    e.preventDefault();
    setCheckErrors((p) => ({ messages: check.messages, fields: check.fields, seq: p.seq + 1 }));
    requestAnimationFrame(() => revealNotices(paymentRef.current));
  };
  return (
    <div className="woocommerce order-pay">
      <h1 className="page-title">Pay for order</h1>
      {!payable ? (
        <div className="woocommerce-error" role="alert">
          This order&rsquo;s status is &ldquo;{order.statusLabel}&rdquo;&mdash;it cannot be paid for. Please contact us if you need assistance.
        </div>
      ) : (
        <form id="order_review" method="post" className="woocommerce-checkout" onSubmit={onSubmit}>
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
          <div id="payment" className="woocommerce-checkout-payment" ref={paymentRef}>
            {checkErrors.messages.length ? (
              <ul className="woocommerce-error payment-form-errors" role="alert" key={checkErrors.seq}>
                {checkErrors.messages.map((m, i) => (
                  <li key={i}>{m}</li>
                ))}
              </ul>
            ) : null}
            <PaymentForm
              gateways={gateways}
              testMode={testMode}
              tokens={tokens}
              canSave={false}
              method={method}
              invalidFields={checkErrors.fields}
              onMethodChange={(id) => {
                setMethod(id);
                setCheckErrors((p) => ({ messages: [], fields: new Set(), seq: p.seq }));
              }}
              tokenChoice={tokenChoice}
              onTokenChoice={(g, v) => setTokenChoice((c) => ({ ...c, [g]: v }))}
              slideMs={200}
            />
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
