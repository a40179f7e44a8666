import { redirect, useActionData } from "react-router";
import { useState } from "react";
import type { Route } from "./+types/account-add-payment-method";
import { pageTitle } from "../lib/listing-params.ts";
import { AccountNav } from "../components/account/AccountNav.tsx";
import { PaymentForm } from "../components/checkout/PaymentForm.tsx";
import { readPayment } from "../../core/commerce/checkout-form.ts";
import { saveToken } from "../../core/db/repositories/orders.ts";
import { yearMonthOf, PAYMENT_MESSAGES } from "../../core/domain/payments/index.ts";
import { randomBytes } from "node:crypto";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Add payment method") }, { name: "robots", content: "noindex" }];

const NONCE = "woocommerce-add-payment-method";

export async function loader({ context }: Route.LoaderArgs) {
  const session = await context.shop.session();
  if (!session?.customerId) throw redirect("/my-account/");
  const rt = context.storefront.checkout.payments;
  return { nonce: context.shop.nonce(NONCE), gateways: rt.gateways, testMode: rt.gateway.testMode };
}

/** The card data is read once, handed to the gateway and dropped: only the token, brand, last four and expiry are kept. */
export async function action({ request, context }: Route.ActionArgs) {
  const session = await context.shop.session();
  if (!session?.customerId) throw redirect("/my-account/");
  const form = Object.fromEntries(await request.formData());
  if (!context.shop.verifyNonce(NONCE, form["woocommerce-add-payment-method-nonce"])) return { errors: ["Your session has expired. Please reload the page and try again."] };
  const rt = context.storefront.checkout.payments;
  const parsed = readPayment({ ...form, [`wc-${rt.gateways.card.id_dasherized}-payment-token`]: "", [`wc-${rt.gateways.echeck.id_dasherized}-payment-token`]: "" }, rt.gateways, yearMonthOf(context.services.now(), "utc"), {
    ownedTokenIds: new Set(),
    canTokenize: true,
  });
  if (!parsed.ok) return { errors: parsed.errors.map((e) => e.html.replace(/<[^>]*>/g, "")) };
  const p = parsed.value;
  if (p.kind !== "card" && p.kind !== "bank") return { errors: [PAYMENT_MESSAGES.general] };
  const result = await rt.gateway.tokenize({
    idempotencyKey: `add-method-${session.customerId}-${randomBytes(8).toString("hex")}`,
    customerRef: `customer-${session.customerId}`,
    source: p.kind === "card" ? { type: "card", card: { number: p.number, expMonth: p.expMonth, expYear: p.expYear, csc: p.csc ?? undefined } } : { type: "bank", account: { routingNumber: p.routingNumber, accountNumber: p.accountNumber } },
  });
  if (result.status !== "approved") return { errors: [result.status === "declined" ? `${result.message} ${PAYMENT_MESSAGES.general}` : PAYMENT_MESSAGES.general] };
  await saveToken(context.services.db, session.customerId, p.kind === "card" ? rt.gateways.card.id : rt.gateways.echeck.id, result.token);
  await context.shop.queueNotice({ type: "success", message: "Payment method successfully added." });
  return redirect("/my-account/payment-methods/");
}

export default function AddPaymentMethod({ loaderData }: Route.ComponentProps) {
  const { gateways, testMode, nonce } = loaderData;
  const actionData = useActionData<typeof action>();
  const [method, setMethod] = useState(gateways.card.id);
  return (
    <div className="woocommerce my-account">
      <h1 className="page-title">Add payment method</h1>
      <AccountNav current="payment-methods" />
      <form id="add_payment_method" method="post" className="woocommerce-checkout">
        {actionData?.errors?.length ? (
          <ul className="woocommerce-error" role="alert">
            {actionData.errors.map((e, i) => (
              <li key={i}>{e}</li>
            ))}
          </ul>
        ) : null}
        <div id="payment" className="woocommerce-Payment">
          <PaymentForm gateways={gateways} testMode={testMode} tokens={[]} canSave={false} method={method} onMethodChange={setMethod} tokenChoice={{}} onTokenChoice={() => undefined} slideMs={200} />
          <input type="hidden" name="woocommerce-add-payment-method-nonce" value={nonce} />
          <button type="submit" className="button alt" id="place_order" value="Add payment method">
            Add payment method
          </button>
        </div>
      </form>
    </div>
  );
}
