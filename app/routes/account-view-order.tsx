import { data, redirect } from "react-router";
import type { Route } from "./+types/account-view-order";
import { pageTitle } from "../lib/listing-params.ts";
import { findOrder } from "../../core/db/repositories/orders.ts";
import { AccountNav } from "../components/account/AccountNav.tsx";
import { OrderDetails } from "../components/account/OrderDetails.tsx";

export const meta: Route.MetaFunction = ({ params }) => [{ title: pageTitle(`Order #${params.id}`) }, { name: "robots", content: "noindex" }];

export async function loader({ params, context }: Route.LoaderArgs) {
  const session = await context.shop.session();
  if (!session?.customerId) throw redirect("/my-account/");
  const id = /^\d{1,9}$/.test(params.id) ? Number(params.id) : 0;
  const order = id ? await findOrder(context.services.db, id) : null;
  // Someone else's order is "not found", not "forbidden": its existence is not disclosed.
  if (!order || order.customerId !== session.customerId) throw data("Not found", { status: 404 });
  return { order: { ...order, createdAt: order.createdAt.toISOString(), paidAt: order.paidAt?.toISOString() ?? null, meta: {} } };
}

export default function AccountViewOrder({ loaderData }: Route.ComponentProps) {
  const { order } = loaderData;
  return (
    <div className="woocommerce my-account">
      <h1 className="page-title">Order #{order.id}</h1>
      <AccountNav current="orders" />
      <p>
        Order #<mark className="order-number">{order.id}</mark> was placed on{" "}
        <mark className="order-date">{new Date(order.createdAt).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" })}</mark> and is currently{" "}
        <mark className="order-status">{order.statusLabel}</mark>.
      </p>
      <OrderDetails order={order} />
    </div>
  );
}
