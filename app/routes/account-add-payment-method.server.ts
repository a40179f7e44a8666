/** The server half of the account-add-payment-method route: its loader (and action), everything that reaches the database; the route module renders. */
import { redirect } from "react-router";
import { readPayment } from "../../core/commerce/checkout-form.ts";
import { saveToken } from "../../core/db/repositories/orders.ts";
import { yearMonthOf, PAYMENT_MESSAGES } from "../../core/domain/payments/index.ts";
import { randomBytes } from "node:crypto";
import type { Route } from "./+types/account-add-payment-method";

const NONCE = "woocommerce-add-payment-method";

export async function loader({ context }: Route.LoaderArgs) {
  const session = await context.shop.session();
  if (!session?.customerId) throw redirect("/my-account/");
  const rt = context.storefront.checkout.payments;
  return { nonce: context.shop.nonce(NONCE), gateways: await context.storefront.checkout.gateways(), testMode: rt.gateway.testMode };
}

export async function action({ request, context }: Route.ActionArgs) {
  const session = await context.shop.session();
  if (!session?.customerId) throw redirect("/my-account/");
  const form = Object.fromEntries(await request.formData());
  if (!context.shop.verifyNonce(NONCE, form["woocommerce-add-payment-method-nonce"]))
    return { errors: ["Your session has expired. Please reload the page and try again."] };
  const rt = context.storefront.checkout.payments;
  const parsed = readPayment(
    { ...form, [`wc-${rt.gateways.card.id_dasherized}-payment-token`]: "", [`wc-${rt.gateways.echeck.id_dasherized}-payment-token`]: "" },
    // The card options in effect (shop/v1/settings/payments).
    await context.storefront.checkout.gateways(),
    yearMonthOf(context.services.now(), "utc"),
    {
      ownedTokenIds: new Set(),
      canTokenize: true,
    },
  );
  if (!parsed.ok) return { errors: parsed.errors.map((e) => e.html.replace(/<[^>]*>/g, "")) };
  const p = parsed.value;
  if (p.kind !== "card" && p.kind !== "bank") return { errors: [PAYMENT_MESSAGES.general] };
  const result = await rt.gateway.tokenize({
    idempotencyKey: `add-method-${session.customerId}-${randomBytes(8).toString("hex")}`,
    customerRef: `customer-${session.customerId}`,
    source:
      p.kind === "card"
        ? { type: "card", card: { number: p.number, expMonth: p.expMonth, expYear: p.expYear, csc: p.csc ?? undefined } }
        : { type: "bank", account: { routingNumber: p.routingNumber, accountNumber: p.accountNumber } },
  });
  if (result.status !== "approved")
    return { errors: [result.status === "declined" ? `${result.message} ${PAYMENT_MESSAGES.general}` : PAYMENT_MESSAGES.general] };
  await saveToken(context.services.db, session.customerId, p.kind === "card" ? rt.gateways.card.id : rt.gateways.echeck.id, result.token);
  await context.shop.queueNotice({ type: "success", message: "Payment method successfully added." });
  return redirect("/my-account/payment-methods/");
}
