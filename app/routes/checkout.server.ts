/** The server half of the checkout route: its loader (and action), everything that reaches the database; the route module renders. */
import { cartSummaryView, cartTotalsView } from "../components/cart/cart-view.ts";
import { CHECKOUT_NONCE_ACTION } from "../../core/commerce/session-keys.ts";
import { tokenLabel } from "../../core/domain/payments/token-label.ts";
import { loadCustomerAddresses } from "../../core/commerce/accounts.ts";
import { chosenCountry } from "../../core/commerce/customer-country.ts";
import { sellingCountries, shippingCountries } from "../../core/domain/checkout/selling.ts";
import { currentSiteConfig } from "../../core/commerce/site-settings.ts";
import type { Route } from "./+types/checkout";

export async function loader({ context }: Route.LoaderArgs) {
  const { shop, services, storefront } = context;
  const { checkout } = storefront;
  const session = await shop.ensureSession();
  const loggedIn = !!session.customerId;
  const rt = checkout.payments;
  const cart = await storefront.cart.get();
  const token = await checkout.token();
  const profile = await storefront.customer();
  const customer = profile ? { email: profile.email, first_name: profile.firstName, last_name: profile.lastName } : null;
  const tokens = await checkout.savedTokens();
  // A returning customer's addresses: the ones saved in My account, else the billing address of their latest order.
  const saved = loggedIn ? await loadCustomerAddresses(services.db, session.customerId!) : {};
  const lastBilling = loggedIn && !saved.billing ? await checkout.latestBillingAddress() : null;
  // The owner's saved checkout and account settings (shop/v1/settings/checkout, accounts) apply from the next page on.
  const config = await currentSiteConfig(services);
  return {
    empty: cart.lines.length === 0,
    summary: cartSummaryView(cart, ""),
    totals: cartTotalsView(cart),
    nonce: shop.nonce(CHECKOUT_NONCE_ACTION),
    reviewNonce: shop.nonce("update-order-review"),
    userCheckNonce: shop.nonce("check-user-exist"),
    loginNonce: shop.nonce("woocommerce-login"),
    couponNonces: { applyCouponNonce: shop.nonce("apply-coupon"), removeCouponNonce: shop.nonce("remove-coupon") },
    checkoutToken: token,
    scriptLogNonce: shop.nonce(`${rt.gateways.card.id}-log-script-event`),
    echeckScriptLogNonce: shop.nonce(`${rt.gateways.echeck.id}-log-script-event`),
    gateways: await checkout.gateways(),
    testMode: rt.gateway.testMode,
    tokens: tokens.map((t) => ({
      id: t.id,
      gatewayId: t.gatewayId,
      isDefault: t.isDefault,
      label: tokenLabel(t),
    })),
    loggedIn,
    customer,
    savedBilling: saved.billing ?? lastBilling ?? null,
    savedShipping: saved.shipping ?? null,
    chosenCountry: await chosenCountry(shop),
    billingCountries: sellingCountries(config.store),
    shippingCountries: shippingCountries(config.store),
    layout: config.checkout.layout,
    toggleTexts: config.checkout.orderReviewToggleTexts,
    placeOrderText: config.checkout.placeOrderText,
    checkoutError: config.checkout.checkoutError,
    account: config.account,
    timings: {
      emailDebounceMs: config.timings.emailCheckDebounceMs,
      collapseMs: config.timings.orderReviewCollapseMs,
      slideMs: config.timings.savedTokenSlideMs,
      scrollOffsetPx: config.timings.scrollToNoticesOffsetPx,
      scrollMs: config.timings.scrollToNoticesMs,
    },
  };
}
