import { data, redirect, useActionData } from "react-router";
import { useState } from "react";
import type { Route } from "./+types/order-pay";
import { pageTitle } from "../lib/listing-params.ts";
import { findOrder, listTokens } from "../../core/db/repositories/orders.ts";
import { OrderDetails } from "../components/account/OrderDetails.tsx";
import { PaymentForm } from "../components/checkout/PaymentForm.tsx";
import { paymentRuntime } from "../../server/features/checkout.ts";
import { readPayment } from "../../core/commerce/checkout-form.ts";
import { payExistingOrder } from "../../core/commerce/orders.ts";
import { yearMonthOf } from "../../core/domain/payments/index.ts";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Pay for order") }, { name: "robots", content: "noindex" }];

const NONCE = "woocommerce-pay";

/** The order is shown to whoever holds its key (a guest's proof) or to the customer who owns it. */
async function allowedOrder(context: Route.LoaderArgs["context"], idParam: string, key: string) {
  const session = await context.shop.session();
  const id = /^\d{1,9}$/.test(idParam) ? Number(idParam) : 0;
  const order = id ? await findOrder(context.services.db, id) : null;
  if (!order || !(order.orderKey === key || (order.customerId !== null && order.customerId === session?.customerId))) throw data("Not found", { status: 404 });
  return { order, customerId: session?.customerId ?? null };
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const key = new URL(request.url).searchParams.get("key") ?? "";
  const { order, customerId } = await allowedOrder(context, params.id, key);
  const rt = paymentRuntime(context.services);
  const tokens = customerId && order.customerId === customerId ? await listTokens(context.services.db, customerId) : [];
  return {
    order: { ...order, createdAt: order.createdAt.toISOString(), paidAt: order.paidAt?.toISOString() ?? null, meta: {} },
    payable: order.status === "pending" || order.status === "failed",
    nonce: context.shop.nonce(NONCE),
    gateways: rt.gateways,
    testMode: rt.gateway.testMode,
    key,
    tokens: tokens.map((t) => ({ id: t.id, gatewayId: t.gatewayId, isDefault: t.isDefault, label: t.kind === "card" ? `${t.brand.charAt(0).toUpperCase()}${t.brand.slice(1)} ending in ${t.last4}` : `Bank account ending in ${t.last4}` })),
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const url = new URL(request.url);
  const key = url.searchParams.get("key") ?? "";
  const { order, customerId } = await allowedOrder(context, params.id, key);
  const form = Object.fromEntries(await request.formData());
  if (!context.shop.verifyNonce(NONCE, form["woocommerce-pay-nonce"])) return { errors: ["Your session has expired. Please reload the page and try again."] };
  const rt = paymentRuntime(context.services);
  const owns = customerId !== null && order.customerId === customerId;
  const tokens = owns ? await listTokens(context.services.db, customerId) : [];
  const parsed = readPayment(form, rt.gateways, yearMonthOf(context.services.now(), "utc"), { ownedTokenIds: new Set(tokens.map((t) => t.id)), canTokenize: owns });
  if (!parsed.ok) return { errors: parsed.errors.map((e) => e.html.replace(/<[^>]*>/g, "").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")) };
  const result = await payExistingOrder(rt.deps, order.id, owns ? customerId : null, parsed.value);
  if (!result.ok) return { errors: [result.message] };
  return redirect(`/checkout/order-received/${order.id}/?key=${encodeURIComponent(order.orderKey)}`);
}

export default function OrderPay({ loaderData }: Route.ComponentProps) {
  const { order, payable, gateways, testMode, nonce, tokens } = loaderData;
  const actionData = useActionData<typeof action>();
  const [method, setMethod] = useState(gateways.card.id);
  const [tokenChoice, setTokenChoice] = useState<Record<string, string>>({});
  return (
    <div className="woocommerce order-pay">
      <h1 className="page-title">Pay for order</h1>
      {!payable ? (
        <div className="woocommerce-error" role="alert">
          This order&rsquo;s status is &ldquo;{order.statusLabel}&rdquo;&mdash;it cannot be paid for. Please contact us if you need assistance.
        </div>
      ) : (
        <form id="order_review" method="post" className="woocommerce-checkout">
          {actionData?.errors?.length ? (
            <ul className="woocommerce-error" role="alert">
              {actionData.errors.map((e, i) => (
                <li key={i}>{e}</li>
              ))}
            </ul>
          ) : null}
          <OrderDetails order={order} />
          <div id="payment" className="woocommerce-checkout-payment">
            <PaymentForm gateways={gateways} testMode={testMode} tokens={tokens} canSave={false} method={method} onMethodChange={setMethod} tokenChoice={tokenChoice} onTokenChoice={(g, v) => setTokenChoice((c) => ({ ...c, [g]: v }))} slideMs={200} />
            <input type="hidden" name="woocommerce-pay-nonce" value={nonce} />
            <input type="hidden" name="woocommerce_pay" value="1" />
            <button type="submit" className="button alt" id="place_order" value="Pay for order">
              Pay for order
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
