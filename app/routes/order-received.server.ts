/** The server half of the order-received route: its loader (and action), everything that reaches the database; the route module renders. */
import { data, redirect } from "react-router";
import { findOrder } from "../../core/db/repositories/orders.ts";
import { orderKeyMatches } from "../../core/commerce/orders.ts";
import { ORDER_VERIFY_MESSAGES, canSeeOrder, confirmOrderEmail, rememberOrder } from "../../core/commerce/order-access.ts";
import type { Route } from "./+types/order-received";

const VERIFY_NONCE = "wc_verify_email";

type Context = Route.LoaderArgs["context"];

/** The order named by the link, when its key matches (always checked, whoever asks); else 404. */
async function orderFromLink(context: Context, idParam: string, request: Request) {
  const id = /^\d{1,9}$/.test(idParam) ? Number(idParam) : 0;
  const key = new URL(request.url).searchParams.get("key") ?? "";
  const order = id ? await findOrder(context.services.db, id) : null;
  if (!order || !orderKeyMatches(order.orderKey, key)) throw data("Not found", { status: 404 });
  return order;
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const order = await orderFromLink(context, params.id, request);
  // Nothing of the order (not even its e-mail address) goes to a visitor who has not shown it is theirs.
  if (!canSeeOrder(order, await context.shop.session()))
    return { state: "verify" as const, message: ORDER_VERIFY_MESSAGES.prompt, nonce: context.shop.nonce(VERIFY_NONCE) };
  return {
    state: "ok" as const,
    order: { ...order, createdAt: order.createdAt.toISOString(), paidAt: order.paidAt?.toISOString() ?? null, meta: {} },
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const order = await orderFromLink(context, params.id, request);
  const form = await request.formData();
  if (!context.shop.verifyNonce(VERIFY_NONCE, form.get("_wpnonce")))
    return data({ error: "Your session has expired. Please reload the page and try again." }, { status: 403 });
  const email = form.get("email");
  const outcome = await confirmOrderEmail(context.services.db, {
    orderEmail: order.billingEmail,
    given: typeof email === "string" ? email : "",
    address: context.clientAddress,
    now: context.services.now(),
  });
  if (!outcome.ok) return data({ error: outcome.message }, { status: outcome.limited ? 429 : 200 });
  await context.shop.updateSessionData((d) => rememberOrder(d, order.id));
  const url = new URL(request.url);
  return redirect(`${url.pathname}${url.search}`);
}
