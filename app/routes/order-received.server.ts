/** The server half of the order-received route: its loader (and action), everything that reaches the database; the route module renders. */
import { data, redirect } from "react-router";
import { findOrder } from "../../core/db/repositories/orders.ts";
import { orderKeyMatches } from "../../core/commerce/orders.ts";
import { ORDER_VERIFY_MESSAGES, canSeeOrder, confirmOrderEmail, createAccountFromOrder, rememberOrder } from "../../core/commerce/order-access.ts";
import { orderDownloads } from "../../core/commerce/downloads.ts";
import type { Route } from "./+types/order-received";

const VERIFY_NONCE = "wc_verify_email";
const CREATE_ACCOUNT_NONCE = "woocommerce-create-account-from-order";

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
  const session = await context.shop.session();
  // Nothing of the order (not even its e-mail address) goes to a visitor who has not shown it is theirs.
  if (!canSeeOrder(order, session)) return { state: "verify" as const, message: ORDER_VERIFY_MESSAGES.prompt, nonce: context.shop.nonce(VERIFY_NONCE) };
  // A guest's order, seen by a visitor who is not signed in: offer an account made from it.
  const offerAccount = order.customerId === null && !session?.customerId;
  return {
    state: "ok" as const,
    order: { ...order, createdAt: order.createdAt.toISOString(), paidAt: order.paidAt?.toISOString() ?? null, meta: {} },
    downloads: await orderDownloads(context.services.db, order.id, context.services.now()),
    createAccountNonce: offerAccount ? context.shop.nonce(CREATE_ACCOUNT_NONCE) : null,
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const order = await orderFromLink(context, params.id, request);
  const form = await request.formData();
  if (form.get("intent") === "create_account") return createAccount(context, order, form, request);
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

/** "Create an account with this order": only for a guest's order, by a visitor who may see it and is not signed in. */
async function createAccount(context: Context, order: { id: number; customerId: number | null }, form: FormData, request: Request) {
  const session = await context.shop.session();
  if (!canSeeOrder(order, session) || session?.customerId || order.customerId !== null)
    return data({ accountError: "An account cannot be created from this order here." }, { status: 403 });
  if (!context.shop.verifyNonce(CREATE_ACCOUNT_NONCE, form.get("woocommerce-create-account-nonce")))
    return data({ accountError: "Your session has expired. Please reload the page and try again." }, { status: 403 });
  const password = form.get("password");
  const outcome = await createAccountFromOrder(context.services.db, order.id, typeof password === "string" ? password : "");
  if (!outcome.ok) return { accountError: outcome.message };
  await context.shop.signIn(outcome.customerId);
  await context.shop.queueNotice({ type: "success", message: "Your account was created and this order is in it. Welcome!" });
  const url = new URL(request.url);
  return redirect(`${url.pathname}${url.search}`);
}
