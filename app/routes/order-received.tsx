import { useActionData } from "react-router";
import type { Route } from "./+types/order-received";
import { pageTitle } from "../lib/listing-params.ts";
import { OrderDetails } from "../components/account/OrderDetails.tsx";
import { OrderDownloads } from "../components/account/AccountNav.tsx";
import { PasswordInput } from "../components/chrome/PasswordInput.tsx";
import { loader as serverLoader, action as serverAction } from "./order-received.server.ts";
import { TrackingPageEvent } from "../components/tracking/TrackingData.tsx";
import { linesParams } from "../../core/domain/tracking/browser-tracking.ts";

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
  if (loaderData.state === "verify")
    return <VerifyEmail message={loaderData.message} nonce={loaderData.nonce} error={actionData && "error" in actionData ? actionData.error : undefined} />;
  const { order, createAccountNonce } = loaderData;
  const paid = order.status === "processing" || order.status === "completed";
  return (
    <div className="woocommerce order-received">
      {paid ? (
        // Purchase: the value and lines of the order the server rendered (docs/contract/storefront.md §9 'Tracking (analytics)').
        <TrackingPageEvent
          event="Purchase"
          orderId={order.id}
          params={linesParams(
            order.lines.map((l) => ({
              productId: l.productId,
              variationId: l.variationId,
              quantity: l.quantity,
              unitCents: l.quantity ? l.total / l.quantity : 0,
            })),
            order.total,
            order.currency,
          )}
        />
      ) : null}
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
      <OrderDownloads downloads={loaderData.downloads} />
      <OrderDetails order={order} />
      {createAccountNonce ? (
        <CreateAccount
          email={order.billingEmail}
          nonce={createAccountNonce}
          error={actionData && "accountError" in actionData ? actionData.accountError : undefined}
        />
      ) : null}
      <p className="return-to-shop">
        <a className="button wc-backward" href="/shop/">
          Continue shopping
        </a>
      </p>
    </div>
  );
}

/** A guest's order: an account on the order's e-mail address, with this order in it (order-access.ts). */
function CreateAccount({ email, nonce, error }: { email: string; nonce: string; error?: string | undefined }) {
  return (
    <section className="order-create-account" aria-labelledby="order-create-account-title">
      <h2 id="order-create-account-title">Create an account with this order</h2>
      <p>
        Track this order and check out faster next time. The account uses <strong>{email}</strong>.
      </p>
      <form method="post" className="woocommerce-form woocommerce-form-register">
        {error ? (
          <ul className="woocommerce-error" role="alert">
            <li>{error}</li>
          </ul>
        ) : null}
        <p className="form-row">
          <label htmlFor="order-account-password">
            Password{" "}
            <abbr className="required" title="required">
              *
            </abbr>
          </label>
          <PasswordInput name="password" id="order-account-password" autoComplete="new-password" minLength={8} required />
        </p>
        <input type="hidden" name="woocommerce-create-account-nonce" value={nonce} />
        <button type="submit" className="button" name="intent" value="create_account">
          Create account
        </button>
      </form>
    </section>
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
