import type { Route } from "./+types/account-orders";
import { pageTitle } from "../lib/listing-params.ts";
import { AccountNav, OrdersTable } from "../components/account/AccountNav.tsx";
import { loader as serverLoader } from "./account-orders.server.ts";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Orders") }, { name: "robots", content: "noindex" }];

export async function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
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
