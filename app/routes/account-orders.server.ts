/** The server half of the account-orders route: its loader (and action), everything that reaches the database; the route module renders. */
import { redirect } from "react-router";
import { listCustomerOrders } from "../../core/db/repositories/orders.ts";
import { CANCEL_ORDER_NONCE_ACTION, orderActionsFor } from "../../core/commerce/orders.ts";
import type { Route } from "./+types/account-orders";

export async function loader({ context }: Route.LoaderArgs) {
  const session = await context.shop.session();
  if (!session?.customerId) throw redirect("/my-account/");
  const orders = await listCustomerOrders(context.services.db, session.customerId, 100);
  return {
    orders: orders.map((o) => ({ ...o, createdAt: o.createdAt.toISOString(), actions: orderActionsFor(o) })),
    cancelNonce: context.shop.nonce(CANCEL_ORDER_NONCE_ACTION),
  };
}
