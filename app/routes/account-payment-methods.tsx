import { Form } from "react-router";
import type { Route } from "./+types/account-payment-methods";
import { pageTitle } from "../lib/listing-params.ts";
import { AccountNav } from "../components/account/AccountNav.tsx";
import { loader as serverLoader, action as serverAction } from "./account-payment-methods.server.ts";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Payment methods") }, { name: "robots", content: "noindex" }];

export async function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
}

export async function action(args: Route.ActionArgs) {
  return serverAction(args);
}

export default function PaymentMethods({ loaderData }: Route.ComponentProps) {
  const { methods, nonce } = loaderData;
  return (
    <div className="woocommerce my-account">
      <h1 className="page-title">Payment methods</h1>
      <AccountNav current="payment-methods" />
      {methods.length ? (
        <table className="woocommerce-MyAccount-paymentMethods shop_table shop_table_responsive">
          <thead>
            <tr>
              <th scope="col">Method</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span className="screen-reader-text">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {methods.map((m) => (
              <tr key={m.id} className={`payment-method${m.isDefault ? " default-payment-method" : ""}`}>
                <td data-title="Method">
                  <span>
                    {m.label} {m.isDefault ? <strong>(default)</strong> : null}
                  </span>
                </td>
                <td data-title="Expires">{m.expires || "—"}</td>
                <td data-title="Actions">
                  <Form method="post" className="payment-method-actions">
                    <input type="hidden" name="_wpnonce" value={nonce} />
                    <input type="hidden" name="token_id" value={m.id} />
                    {m.isDefault ? null : (
                      <button type="submit" name="intent" value="default" className="button default" aria-label={`Make ${m.label} default`}>
                        Make default
                      </button>
                    )}{" "}
                    <button type="submit" name="intent" value="delete" className="button delete" aria-label={`Delete ${m.label}`}>
                      Delete
                    </button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <div className="woocommerce-info" role="status">
          No saved methods found.
        </div>
      )}
      <p>
        <a className="button" href="/my-account/add-payment-method/">
          Add payment method
        </a>
      </p>
    </div>
  );
}
