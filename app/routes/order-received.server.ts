/** The server half of the order-received route: its loader (and action), everything that reaches the database; the route module renders. */
import { data } from "react-router";
import { findOrder } from "../../core/db/repositories/orders.ts";
import { orderKeyMatches } from "../../core/commerce/orders.ts";
import type { Route } from "./+types/order-received";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = /^\d{1,9}$/.test(params.id) ? Number(params.id) : 0;
  const key = new URL(request.url).searchParams.get("key") ?? "";
  const order = id ? await findOrder(context.services.db, id) : null;
  if (!order || !orderKeyMatches(order.orderKey, key)) throw data("Not found", { status: 404 });
  return { order: { ...order, createdAt: order.createdAt.toISOString(), paidAt: order.paidAt?.toISOString() ?? null, meta: {} } };
}
