import { useActionData } from "react-router";
import type { Route } from "./+types/order-received";
import { pageTitle } from "../lib/listing-params.ts";
import { OrderDetails } from "../components/account/OrderDetails.tsx";
import { loader as serverLoader, action as serverAction } from "./order-received.server.ts";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Order received") }, { name: "robots", content: "noindex" }];

/**
 * The order received page: only with the order's key in the link (compared in constant time), like WooCommerce's.
 * The signed-in owner and the browser that placed or paid the order see it at once; anyone else holding the link
 * confirms the order's e-mail address first (order-received.server.ts, core/commerce/order-access.ts).
 */
export async function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
}

export async function action(args: Route.ActionArgs) {
  return serverAction(args);
}

export default function OrderReceived({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  if (loaderData.state === "verify") return <VerifyEmail message={loaderData.message} nonce={loaderData.nonce} error={actionData?.error} />;
  const { order } = loaderData;
  const paid = order.status === "processing" || order.status === "completed";
  return (
    <div className="woocommerce order-received">
      <h1 className="page-title">Order received</h1>
      {paid ? (
        <p className="woocommerce-notice woocommerce-notice--success woocommerce-thankyou-order-received" role="status">
          Thank you. Your order has been received.
        </p>
      ) : (
        <p className="woocommerce-notice woocommerce-notice--error woocommerce-thankyou-order-failed" role="alert">
          Unfortunately your order cannot be processed as the payment was not completed.{" "}
          <a className="button pay" href={`/checkout/order-pay/${order.id}/?pay_for_order=true&key=${encodeURIComponent(order.orderKey)}`}>
            Pay
          </a>
        </p>
      )}
      <OrderDetails order={order} />
    </div>
  );
}

/** WooCommerce's form-verify-email: the order is shown once its e-mail address is confirmed (or the owner logs in). */
function VerifyEmail({ message, nonce, error }: { message: string; nonce: string; error?: string | undefined }) {
  return (
    <div className="woocommerce order-received">
      <h1 className="page-title">Order received</h1>
      <form method="post" className="woocommerce-form woocommerce-verify-email">
        {error ? (
          <ul className="woocommerce-error" role="alert">
            <li>{error}</li>
          </ul>
        ) : null}
        <p className="woocommerce-info">
          {message} <a href="/my-account/">Log in</a>
        </p>
        <p className="form-row">
          <label htmlFor="verify-email">
            Email address{" "}
            <abbr className="required" title="required">
              *
            </abbr>
          </label>
          <input
            type="email"
            className="input-text"
            name="email"
            id="verify-email"
            autoComplete="email"
            required
            maxLength={254}
            aria-invalid={error ? true : undefined}
          />
        </p>
        <input type="hidden" name="_wpnonce" value={nonce} />
        <button type="submit" className="button" name="verify" value="1">
          Verify
        </button>
      </form>
    </div>
  );
}
