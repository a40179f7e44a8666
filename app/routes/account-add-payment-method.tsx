import { useActionData } from "react-router";
import { useState } from "react";
import type { Route } from "./+types/account-add-payment-method";
import { pageTitle } from "../lib/listing-params.ts";
import { AccountNav } from "../components/account/AccountNav.tsx";
import { PaymentForm } from "../components/checkout/PaymentForm.tsx";
import { loader as serverLoader, action as serverAction } from "./account-add-payment-method.server.ts";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Add payment method") }, { name: "robots", content: "noindex" }];

export async function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
}

/** The card data is read once, handed to the gateway and dropped: only the token, brand, last four and expiry are kept. */
export async function action(args: Route.ActionArgs) {
  return serverAction(args);
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
          <PaymentForm
            gateways={gateways}
            testMode={testMode}
            tokens={[]}
            canSave={false}
            method={method}
            onMethodChange={setMethod}
            tokenChoice={{}}
            onTokenChoice={() => undefined}
            slideMs={200}
          />
          <input type="hidden" name="woocommerce-add-payment-method-nonce" value={nonce} />
          <button type="submit" className="button alt" id="place_order" value="Add payment method">
            Add payment method
          </button>
        </div>
      </form>
    </div>
  );
}
