import { Form, redirect } from "react-router";
import type { Route } from "./+types/account-payment-methods";
import { pageTitle } from "../lib/listing-params.ts";
import { deleteToken, listTokens, setDefaultToken } from "../../core/db/repositories/orders.ts";
import { AccountNav } from "../components/account/AccountNav.tsx";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Payment methods") }, { name: "robots", content: "noindex" }];

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
  const ok = intent === "delete" ? await deleteToken(context.services.db, id, session.customerId) : intent === "default" ? await setDefaultToken(context.services.db, id, session.customerId) : false;
  await context.shop.queueNotice(
    ok ? { type: "success", message: intent === "delete" ? "Payment method deleted." : "This payment method was successfully set as your default." } : { type: "error", message: "Invalid payment method." },
  );
  return redirect("/my-account/payment-methods/");
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
