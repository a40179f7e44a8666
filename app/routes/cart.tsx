import type { Route } from "./+types/cart";
import { pageTitle } from "../lib/listing-params.ts";
import { CartPageContent } from "../components/cart/CartPage.tsx";
import { loader as serverLoader } from "./cart.server.ts";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Cart") }, { name: "robots", content: "noindex" }];

// Form posts to /cart/ (update, coupon, shipping) are handled before the page by the cart feature
// (server/features/cart.ts), which redirects back here: post, redirect, get.
export async function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
}

export default function Cart({ loaderData }: Route.ComponentProps) {
  const { view } = loaderData;
  return (
    <div className="woocommerce cart-page">
      <h1 className="page-title">Cart</h1>
      {view.cart.lines.length === 0 ? (
        <>
          {/* WooCommerce's empty-cart markup: cart.js swaps in the .woocommerce around .wc-empty-cart-message
              when the last item goes (docs/contract/wire.md §1.12). */}
          <div className="wc-empty-cart-message">
            <div className="cart-empty woocommerce-info" role="status">
              Your cart is currently empty.
            </div>
          </div>
          <p className="return-to-shop">
            <a className="button wc-backward" href="/shop/">
              Return to shop
            </a>
          </p>
        </>
      ) : (
        <CartPageContent view={view} />
      )}
    </div>
  );
}
