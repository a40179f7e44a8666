import type { Route } from "./+types/checkout";
import { pageTitle } from "../lib/listing-params.ts";
import { CheckoutForm } from "../components/checkout/CheckoutForm.tsx";
import { OrderReviewRefresh } from "../components/discounts/OrderReviewRefresh.tsx";
import { loader as serverLoader } from "./checkout.server.ts";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Checkout") }, { name: "robots", content: "noindex" }];

export async function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
}

export default function Checkout({ loaderData }: Route.ComponentProps) {
  if (loaderData.empty) {
    return (
      <div className="woocommerce checkout-page">
        <h1 className="page-title">Checkout</h1>
        <div className="woocommerce-info" role="status">
          Your cart is empty, so there is nothing to check out yet.
        </div>
        <p className="return-to-shop">
          <a className="button wc-backward" href="/shop/">
            Return to shop
          </a>
        </p>
      </div>
    );
  }
  return (
    <div className="woocommerce checkout-page">
      <h1 className="page-title">Checkout</h1>
      <CheckoutForm {...loaderData} />
      <OrderReviewRefresh />
    </div>
  );
}
