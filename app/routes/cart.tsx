import type { Route } from "./+types/cart";
import { pageTitle } from "../lib/listing-params.ts";
import { CartPageContent } from "../components/cart/CartPage.tsx";
import { cartTotalsView } from "../components/cart/cart-view.ts";
import { cartSummaryView } from "../components/cart/cart-view.ts";
import { productsByIds } from "../../core/db/repositories/catalog.ts";
import { crossSellIds } from "../../core/db/repositories/cart.ts";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Cart") }, { name: "robots", content: "noindex" }];

// Form posts to /cart/ (update, coupon, shipping) are handled before the page by the cart feature
// (server/features/cart.ts), which redirects back here: post, redirect, get.
export async function loader({ context }: Route.LoaderArgs) {
  const { shop, services, storefront } = context;
  const cart = await storefront.cart.get();
  const inCart = new Set(cart.lines.map((l) => l.productId));
  const crossSells = (await productsByIds(services.db, await crossSellIds(services.db, [...inCart]))).filter((p) => !inCart.has(p.id)).slice(0, 4);
  return {
    view: {
      cart: cartSummaryView(cart, storefront.cart.nonce()),
      totals: cartTotalsView(cart),
      crossSells,
      cartNonce: storefront.cart.nonce(),
      awdrNonce: shop.nonce(services.config.discounts.nonceAction),
    },
  };
}

export default function Cart({ loaderData }: Route.ComponentProps) {
  const { view } = loaderData;
  return (
    <div className="woocommerce cart-page">
      <h1 className="page-title">Cart</h1>
      {view.cart.lines.length === 0 ? (
        <>
          <div className="cart-empty woocommerce-info" role="status">
            Your cart is currently empty.
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
