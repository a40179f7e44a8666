import { Form, redirect, useActionData } from "react-router";
import type { Route } from "./+types/account-edit-address";
import { pageTitle } from "../lib/listing-params.ts";
import { AccountNav } from "../components/account/AccountNav.tsx";
import { AddressForm, AddressSummary } from "../components/account/AddressForm.tsx";
import { loadCustomerAddresses, saveCustomerAddress, type AddressKind } from "../../core/commerce/accounts.ts";
import { readAddress, type FieldError } from "../../core/commerce/checkout-form.ts";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Addresses") }, { name: "robots", content: "noindex" }];

const NONCE = "woocommerce-edit_address";

function kindOf(param: string | undefined): AddressKind | null | "bad" {
  if (param === undefined) return null;
  return param === "billing" || param === "shipping" ? param : "bad";
}

export async function loader({ context, params }: Route.LoaderArgs) {
  const session = await context.shop.session();
  if (!session?.customerId) throw redirect("/my-account/");
  const kind = kindOf(params.kind);
  if (kind === "bad") throw redirect("/my-account/edit-address/");
  const addresses = await loadCustomerAddresses(context.services.db, session.customerId);
  return { kind, addresses, nonce: context.shop.nonce(NONCE) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const session = await context.shop.session();
  if (!session?.customerId) throw redirect("/my-account/");
  const kind = kindOf(params.kind);
  if (kind === null || kind === "bad") throw redirect("/my-account/edit-address/");
  const form = Object.fromEntries(await request.formData());
  if (!context.shop.verifyNonce(NONCE, form["woocommerce-edit-address-nonce"])) {
    return { errors: [{ id: "", html: "Your session has expired. Please reload the page and try again." }] as FieldError[] };
  }
  const errors: FieldError[] = [];
  const address = readAddress(form, kind, errors);
  // The shopper's (sanitized) entries come back with the errors, so nothing typed is lost.
  if (errors.length) return { errors, values: address };
  await saveCustomerAddress(context.services.db, session.customerId, kind, address);
  await context.shop.queueNotice({ type: "success", message: "Address changed successfully." });
  return redirect("/my-account/edit-address/");
}

export default function EditAddress({ loaderData }: Route.ComponentProps) {
  const { kind, addresses, nonce } = loaderData;
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
            <AddressForm kind={kind} values={actionData && "values" in actionData ? actionData.values : addresses[kind]} errorIds={new Set((actionData?.errors ?? []).map((e) => e.id))} />
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
