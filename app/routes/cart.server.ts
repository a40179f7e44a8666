/** The server half of the cart route: its loader (and action), everything that reaches the database; the route module renders. */
import { cartTotalsView } from "../components/cart/cart-view.ts";
import { cartSummaryView } from "../components/cart/cart-view.ts";
import { productsByIds } from "../../core/db/repositories/catalog.ts";
import { crossSellIds } from "../../core/db/repositories/cart.ts";
import type { Route } from "./+types/cart";

export async function loader({ context }: Route.LoaderArgs) {
  const { shop, services, storefront } = context;
  const cart = await storefront.cart.get();
  const inCart = new Set(cart.lines.map((l) => l.productId));
  const crossSells = (await productsByIds(services.db, await crossSellIds(services.db, [...inCart]), { listed: "catalog" }))
    .filter((p) => !inCart.has(p.id))
    .slice(0, 4);
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
