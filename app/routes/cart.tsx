import type { Route } from "./+types/cart";
import { pageTitle } from "../lib/listing-params.ts";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Cart") }, { name: "robots", content: "noindex" }];

export default function Cart() {
  return (
    <div className="woocommerce cart-page">
      <h1 className="page-title">Cart</h1>
      <div className="cart-empty woocommerce-info" role="status">
        Your cart is currently empty.
      </div>
      <p className="return-to-shop">
        <a className="button wc-backward" href="/shop/">
          Return to shop
        </a>
      </p>
    </div>
  );
}
