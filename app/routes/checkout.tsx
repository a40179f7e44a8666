import type { Route } from "./+types/checkout";
import { pageTitle } from "../lib/listing-params.ts";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Checkout") }, { name: "robots", content: "noindex" }];

export default function Checkout() {
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
