/** The server half of the account-view-order route: its loader (and action), everything that reaches the database; the route module renders. */
import { data, redirect } from "react-router";
import { findOrder } from "../../core/db/repositories/orders.ts";
import { listRefunds } from "../../core/db/repositories/order-admin.ts";
import { CANCEL_ORDER_NONCE_ACTION, cancelUnpaidOrder, orderActionsFor } from "../../core/commerce/orders.ts";
import { orderDownloads } from "../../core/commerce/downloads.ts";
import type { Route } from "./+types/account-view-order";

const CANCEL_NONCE = CANCEL_ORDER_NONCE_ACTION;

export async function loader({ params, context }: Route.LoaderArgs) {
  const session = await context.shop.session();
  if (!session?.customerId) throw redirect("/my-account/");
  const id = /^\d{1,9}$/.test(params.id) ? Number(params.id) : 0;
  const order = id ? await findOrder(context.services.db, id) : null;
  // Someone else's order is "not found", not "forbidden": its existence is not disclosed.
  if (!order || order.customerId !== session.customerId) throw data("Not found", { status: 404 });
  return {
    order: { ...order, createdAt: order.createdAt.toISOString(), paidAt: order.paidAt?.toISOString() ?? null, meta: {} },
    // Completed refunds, oldest first (docs/contract/storefront.md: the account's order view shows them).
    refunds: (await listRefunds(context.services.db, order.id)).reverse().map((r) => ({ id: r.id, amount: r.amount, reason: r.reason })),
    actions: orderActionsFor(order),
    downloads: await orderDownloads(context.services.db, order.id, context.services.now()),
    cancelNonce: context.shop.nonce(CANCEL_NONCE),
  };
}

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
