import type { Route } from "./+types/checkout";
import { pageTitle } from "../lib/listing-params.ts";
import { cartOwnerOf, loadPricedCart } from "../../core/commerce/cart.ts";
import { cartSummaryView, cartTotalsView } from "../components/cart/cart-view.ts";
import { CheckoutForm } from "../components/checkout/CheckoutForm.tsx";
import { OrderReviewRefresh } from "../components/discounts/OrderReviewRefresh.tsx";
import { CHECKOUT_NONCE_ACTION, CHECKOUT_TOKEN_KEY, paymentRuntime, tokenLabel } from "../../server/features/checkout.ts";
import { listTokens } from "../../core/db/repositories/orders.ts";
import { randomBytes } from "node:crypto";
import { loadCustomerAddresses } from "../../core/commerce/accounts.ts";

export const meta: Route.MetaFunction = () => [{ title: pageTitle("Checkout") }, { name: "robots", content: "noindex" }];

export async function loader({ context }: Route.LoaderArgs) {
  const { shop, services } = context;
  const session = await shop.ensureSession();
  const loggedIn = !!session.customerId;
  const rt = paymentRuntime(services);
  const cart = await loadPricedCart(services.db, cartOwnerOf(session), { now: services.now(), loggedIn, currencyFormat: services.config.currency.format });
  let token = session.data[CHECKOUT_TOKEN_KEY];
  if (typeof token !== "string" || !/^[0-9a-f]{32}$/.test(token)) {
    const fresh = randomBytes(16).toString("hex");
    await shop.updateSessionData((d) => {
      d[CHECKOUT_TOKEN_KEY] = fresh;
    });
    token = fresh;
  }
  const [customer] = loggedIn
    ? await services.db.query<{ email: string; first_name: string; last_name: string }>(`SELECT email, first_name, last_name FROM customers WHERE id = $1`, [session.customerId])
    : [];
  const tokens = loggedIn ? await listTokens(services.db, session.customerId!) : [];
  // A returning customer's addresses: the ones saved in My account, else the billing address of their latest order.
  const saved = loggedIn ? await loadCustomerAddresses(services.db, session.customerId!) : {};
  const [lastBilling] = loggedIn && !saved.billing
    ? await services.db.query<Record<string, string>>(
        `SELECT a.first_name, a.last_name, a.company, a.country, a.address_1, a.address_2, a.city, a.state, a.postcode, a.phone
         FROM order_addresses a JOIN orders o ON o.id = a.order_id WHERE o.customer_id = $1 AND a.kind = 'billing' ORDER BY o.id DESC LIMIT 1`,
        [session.customerId],
      )
    : [];
  const config = services.config;
  return {
    empty: cart.lines.length === 0,
    summary: cartSummaryView(cart, ""),
    totals: cartTotalsView(cart),
    nonce: shop.nonce(CHECKOUT_NONCE_ACTION),
    reviewNonce: shop.nonce("update-order-review"),
    userCheckNonce: shop.nonce("check-user-exist"),
    loginNonce: shop.nonce("woocommerce-login"),
    couponNonces: { applyCouponNonce: shop.nonce("apply-coupon"), removeCouponNonce: shop.nonce("remove-coupon") },
    checkoutToken: token as string,
    scriptLogNonce: shop.nonce(`${rt.gateways.card.id}-log-script-event`),
    echeckScriptLogNonce: shop.nonce(`${rt.gateways.echeck.id}-log-script-event`),
    gateways: rt.gateways,
    testMode: rt.gateway.testMode,
    tokens: tokens.map((t) => ({
      id: t.id,
      gatewayId: t.gatewayId,
      isDefault: t.isDefault,
      label: tokenLabel(t),
    })),
    loggedIn,
    customer: customer ?? null,
    savedBilling: saved.billing ?? lastBilling ?? null,
    savedShipping: saved.shipping ?? null,
    layout: config.checkout.layout,
    toggleTexts: config.checkout.orderReviewToggleTexts,
    placeOrderText: config.checkout.placeOrderText,
    checkoutError: config.checkout.checkoutError,
    account: config.account,
    timings: { emailDebounceMs: config.timings.emailCheckDebounceMs, collapseMs: config.timings.orderReviewCollapseMs, slideMs: config.timings.savedTokenSlideMs, scrollOffsetPx: config.timings.scrollToNoticesOffsetPx, scrollMs: config.timings.scrollToNoticesMs },
  };
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
