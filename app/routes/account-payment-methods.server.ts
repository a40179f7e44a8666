/** The server half of the account-payment-methods route: its loader (and action), everything that reaches the database; the route module renders. */
import { redirect } from "react-router";
import { deleteToken, listTokens, setDefaultToken } from "../../core/db/repositories/orders.ts";
import type { Route } from "./+types/account-payment-methods";

const NONCE = "payment-methods";

export async function loader({ context }: Route.LoaderArgs) {
  const session = await context.shop.session();
  if (!session?.customerId) throw redirect("/my-account/");
  const tokens = await listTokens(context.services.db, session.customerId);
  return {
    nonce: context.shop.nonce(NONCE),
    methods: tokens.map((t) => ({
      id: t.id,
      label: t.kind === "card" ? `${t.brand.charAt(0).toUpperCase()}${t.brand.slice(1)} ending in ${t.last4}` : `Bank account ending in ${t.last4}`,
      expires: t.expMonth && t.expYear ? `${String(t.expMonth).padStart(2, "0")}/${String(t.expYear).slice(-2)}` : "",
      isDefault: t.isDefault,
      gateway: t.gatewayId,
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const session = await context.shop.session();
  if (!session?.customerId) throw redirect("/my-account/");
  const form = await request.formData();
  if (!context.shop.verifyNonce(NONCE, form.get("_wpnonce"))) {
    await context.shop.queueNotice({ type: "error", message: "Your session has expired. Please reload the page and try again." });
    return redirect("/my-account/payment-methods/");
  }
  const id = /^\d{1,9}$/.test(String(form.get("token_id") ?? "")) ? Number(form.get("token_id")) : 0;
  const intent = String(form.get("intent") ?? "");
  const ok =
    intent === "delete"
      ? await deleteToken(context.services.db, id, session.customerId)
      : intent === "default"
        ? await setDefaultToken(context.services.db, id, session.customerId)
        : false;
  await context.shop.queueNotice(
    ok
      ? { type: "success", message: intent === "delete" ? "Payment method deleted." : "This payment method was successfully set as your default." }
      : { type: "error", message: "Invalid payment method." },
  );
  return redirect("/my-account/payment-methods/");
}
