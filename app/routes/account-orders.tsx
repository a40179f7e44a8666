import { redirect } from "react-router";
import type { Route } from "./+types/account-orders";
import { pageTitle } from "../lib/listing-params.ts";
import { listCustomerOrders } from "../../core/db/repositories/orders.ts";
import { AccountNav, OrdersTable } from "../components/account/AccountNav.tsx";
import { CANCEL_ORDER_NONCE_ACTION, orderActionsFor } from "../../core/commerce/orders.ts";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Orders") }, { name: "robots", content: "noindex" }];

export async function loader({ context }: Route.LoaderArgs) {
  const session = await context.shop.session();
  if (!session?.customerId) throw redirect("/my-account/");
  const orders = await listCustomerOrders(context.services.db, session.customerId, 100);
  return {
    orders: orders.map((o) => ({ ...o, createdAt: o.createdAt.toISOString(), actions: orderActionsFor(o) })),
    cancelNonce: context.shop.nonce(CANCEL_ORDER_NONCE_ACTION),
  };
}

export default function AccountOrders({ loaderData }: Route.ComponentProps) {
  return (
    <div className="woocommerce my-account">
      <h1 className="page-title">Orders</h1>
      <AccountNav current="orders" />
      {loaderData.orders.length ? (
        <OrdersTable orders={loaderData.orders} cancelNonce={loaderData.cancelNonce} />
      ) : (
        <div className="woocommerce-info" role="status">
          No order has been made yet. <a href="/shop/">Browse products</a>
        </div>
      )}
    </div>
  );
}
