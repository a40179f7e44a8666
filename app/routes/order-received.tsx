import type { Route } from "./+types/order-received";
import { pageTitle } from "../lib/listing-params.ts";
import { OrderDetails } from "../components/account/OrderDetails.tsx";
import { loader as serverLoader } from "./order-received.server.ts";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Order received") }, { name: "robots", content: "noindex" }];

/**
 * The order received page: shown only with the order's key in the link (compared in constant time), like
 * WooCommerce's — signed in or not; a customer finds their orders without it under My account → Orders.
 */
export async function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
}

export default function OrderReceived({ loaderData }: Route.ComponentProps) {
  const { order } = loaderData;
  const paid = order.status === "processing" || order.status === "completed";
  return (
    <div className="woocommerce order-received">
      <h1 className="page-title">Order received</h1>
      {paid ? (
        <p className="woocommerce-notice woocommerce-notice--success woocommerce-thankyou-order-received" role="status">
          Thank you. Your order has been received.
        </p>
      ) : (
        <p className="woocommerce-notice woocommerce-notice--error woocommerce-thankyou-order-failed" role="alert">
          Unfortunately your order cannot be processed as the payment was not completed.{" "}
          <a className="button pay" href={`/checkout/order-pay/${order.id}/?pay_for_order=true&key=${encodeURIComponent(order.orderKey)}`}>
            Pay
          </a>
        </p>
      )}
      <OrderDetails order={order} />
    </div>
  );
}
