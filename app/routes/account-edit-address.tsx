import { Form, useActionData } from "react-router";
import type { Route } from "./+types/account-edit-address";
import { pageTitle } from "../lib/listing-params.ts";
import { AccountNav } from "../components/account/AccountNav.tsx";
import { AddressForm, AddressSummary } from "../components/account/AddressForm.tsx";
import { loader as serverLoader, action as serverAction } from "./account-edit-address.server.ts";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Addresses") }, { name: "robots", content: "noindex" }];

export async function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
}

export async function action(args: Route.ActionArgs) {
  return serverAction(args);
}

export default function EditAddress({ loaderData }: Route.ComponentProps) {
  const { kind, addresses, countries, nonce } = loaderData;
  const actionData = useActionData<typeof action>();
  return (
    <div className="woocommerce my-account">
      <h1 className="page-title">{kind ? (kind === "billing" ? "Billing address" : "Shipping address") : "Addresses"}</h1>
      <AccountNav current="edit-address" />
      <div className="woocommerce-MyAccount-content">
        {kind ? (
          <Form method="post" className="edit-address-form" noValidate>
            {actionData?.errors?.length ? (
              <ul className="woocommerce-error" role="alert">
                {actionData.errors.map((e, i) => (
                  <li key={i} data-id={e.id || undefined} dangerouslySetInnerHTML={{ __html: e.html }} />
                ))}
              </ul>
            ) : null}
            <AddressForm
              kind={kind}
              values={actionData && "values" in actionData ? actionData.values : addresses[kind]}
              errorIds={new Set((actionData?.errors ?? []).map((e) => e.id))}
              countries={countries}
            />
            <input type="hidden" name="woocommerce-edit-address-nonce" value={nonce} />
            <p>
              <button type="submit" className="button" name="save_address" value="Save address">
                Save address
              </button>
            </p>
          </Form>
        ) : (
          <>
            <p>The following addresses will be used on the checkout page by default.</p>
            <div className="u-columns woocommerce-Addresses col2-set addresses">
              {(["billing", "shipping"] as const).map((k) => (
                <section key={k} className={`woocommerce-Address ${k}-address`}>
                  <header className="woocommerce-Address-title title">
                    <h2>{k === "billing" ? "Billing address" : "Shipping address"}</h2>
                    <a href={`/my-account/edit-address/${k}/`} className="edit">
                      {addresses[k] ? "Edit" : "Add"} <span className="screen-reader-text">{k === "billing" ? "Billing address" : "Shipping address"}</span>
                    </a>
                  </header>
                  <AddressSummary address={addresses[k]} />
                </section>
              ))}
            </div>
          </>
        )}
      </div>
    </div>
  );
}
