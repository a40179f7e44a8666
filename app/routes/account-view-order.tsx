import { useActionData } from "react-router";
import type { Route } from "./+types/account-view-order";
import { pageTitle } from "../lib/listing-params.ts";
import { AccountNav } from "../components/account/AccountNav.tsx";
import { OrderDetails } from "../components/account/OrderDetails.tsx";
import { OrderDownloads } from "../components/account/AccountNav.tsx";
import { formatDate } from "../lib/format.ts";
import { loader as serverLoader, action as serverAction } from "./account-view-order.server.ts";

export const meta: Route.MetaFunction = ({ params }) => [{ title: pageTitle(`Order #${params.id}`) }, { name: "robots", content: "noindex" }];

export async function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
}

/** The order's Cancel button (here and on /my-account/orders/) posts here: WooCommerce's 'cancel' action. */
export async function action(args: Route.ActionArgs) {
  return serverAction(args);
}

export default function AccountViewOrder({ loaderData }: Route.ComponentProps) {
  const { order, refunds, actions, cancelNonce, downloads } = loaderData;
  const actionData = useActionData<typeof action>();
  return (
    <div className="woocommerce my-account">
      <h1 className="page-title">Order #{order.id}</h1>
      <AccountNav current="orders" />
      <p>
        Order #<mark className="order-number">{order.id}</mark> was placed on <mark className="order-date">{formatDate(order.createdAt)}</mark> and is currently{" "}
        <mark className="order-status">{order.statusLabel}</mark>.
      </p>
      {actionData?.error ? (
        <ul className="woocommerce-error" role="alert">
          <li>{actionData.error}</li>
        </ul>
      ) : null}
      {actions.pay || actions.cancel ? (
        <div className="order-actions">
          {actions.pay ? (
            <a className="woocommerce-button button pay" href={actions.pay}>
              Pay
            </a>
          ) : null}{" "}
          {actions.cancel ? (
            <form method="post" action={actions.cancel} className="order-actions-cancel" style={{ display: "inline" }}>
              <input type="hidden" name="_wpnonce" value={cancelNonce} />
              <button type="submit" className="woocommerce-button button cancel">
                Cancel
              </button>
            </form>
          ) : null}
        </div>
      ) : null}
      <OrderDownloads downloads={downloads} />
      <OrderDetails order={order} refunds={refunds} />
    </div>
  );
}
