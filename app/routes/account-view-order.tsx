import { data, redirect, useActionData } from "react-router";
import type { Route } from "./+types/account-view-order";
import { pageTitle } from "../lib/listing-params.ts";
import { findOrder } from "../../core/db/repositories/orders.ts";
import { CANCEL_ORDER_NONCE_ACTION, cancelUnpaidOrder, orderActionsFor } from "../../core/commerce/orders.ts";
import { AccountNav } from "../components/account/AccountNav.tsx";
import { OrderDetails } from "../components/account/OrderDetails.tsx";
import { formatDate } from "../lib/format.ts";

export const meta: Route.MetaFunction = ({ params }) => [{ title: pageTitle(`Order #${params.id}`) }, { name: "robots", content: "noindex" }];

export async function loader({ params, context }: Route.LoaderArgs) {
  const session = await context.shop.session();
  if (!session?.customerId) throw redirect("/my-account/");
  const id = /^\d{1,9}$/.test(params.id) ? Number(params.id) : 0;
  const order = id ? await findOrder(context.services.db, id) : null;
  // Someone else's order is "not found", not "forbidden": its existence is not disclosed.
  if (!order || order.customerId !== session.customerId) throw data("Not found", { status: 404 });
  return { order: { ...order, createdAt: order.createdAt.toISOString(), paidAt: order.paidAt?.toISOString() ?? null, meta: {} }, actions: orderActionsFor(order), cancelNonce: context.shop.nonce(CANCEL_NONCE) };
}

const CANCEL_NONCE = CANCEL_ORDER_NONCE_ACTION;

/** The order's Cancel button (here and on /my-account/orders/) posts here: WooCommerce's 'cancel' action. */
export async function action({ params, request, context }: Route.ActionArgs) {
  const session = await context.shop.session();
  if (!session?.customerId) throw redirect("/my-account/");
  const id = /^\d{1,9}$/.test(params.id) ? Number(params.id) : 0;
  const form = await request.formData();
  if (!context.shop.verifyNonce(CANCEL_NONCE, form.get("_wpnonce"))) return { error: "Your session has expired. Please reload the page and try again." };
  // Someone else's order, a paid one, or one whose payment is under way: nothing changes.
  if (!id || !(await cancelUnpaidOrder(context.services.db, id, session.customerId))) {
    return data({ error: "Your order can no longer be cancelled. Please contact us if you need assistance." }, { status: 409 });
  }
  await context.shop.queueNotice({ type: "notice", message: "Your order was cancelled." });
  return redirect("/my-account/orders/");
}

export default function AccountViewOrder({ loaderData }: Route.ComponentProps) {
  const { order, actions, cancelNonce } = loaderData;
  const actionData = useActionData<typeof action>();
  return (
    <div className="woocommerce my-account">
      <h1 className="page-title">Order #{order.id}</h1>
      <AccountNav current="orders" />
      <p>
        Order #<mark className="order-number">{order.id}</mark> was placed on{" "}
        <mark className="order-date">{formatDate(order.createdAt)}</mark> and is currently{" "}
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
      <OrderDetails order={order} />
    </div>
  );
}
