/**
 * The storefront of one request: the use cases bound to this request's shopper, built once per request by the
 * server (server/app.ts) and handed to the wc-ajax/admin-ajax/REST endpoints (`req.storefront`) and to the route
 * loaders and actions (`context.storefront`). Hydrogen's `context.cart` is the model: callers say
 * `storefront.cart.addLines(request)`, never `addToCart(db, owner, { now, loggedIn, … })`.
 *
 * server/ and app/ are two adapters over this object; neither imports the other (decision 0008).
 */
import { randomBytes } from "node:crypto";
import {
  addToCart,
  applyCoupon,
  cartOwnerOf,
  changeFreeItem,
  chooseShippingMethod,
  emptyCart,
  loadPricedCart,
  productPageUrl,
  removeCartItem,
  removeCoupon,
  updateQuantities,
  type AddedLine,
  type CartChange,
  type CartOwner,
  type PricedCart,
  type PricingOptions,
} from "./cart.ts";
import { cartLinesForPricing, loadPricingProduct, type PricingProductLookup } from "./pricing.ts";
import { gatewaysFor, paymentRuntime, type Gateways, type PaymentRuntime } from "./payment-runtime.server.ts";
import { currentSiteConfig } from "./site-settings.ts";
import { sessionDestination } from "./customer-country.ts";
import { taxPricing } from "./tax.ts";
import type { ShopServices } from "./services.ts";
import type { ShopSession } from "./session.ts";
import { cachedPricingSetup } from "../db/repositories/discounts.ts";
import {
  customerEmailExists,
  findCustomerProfile,
  latestOrderBillingAddress,
  type CustomerProfile,
  type OrderBillingAddress,
} from "../db/repositories/customers.ts";
import { listTokens } from "../db/repositories/orders.ts";
import type { SavedToken } from "../domain/orders/types.ts";
import type { AddToCartRequest } from "../domain/catalog/index.ts";
import type { CartLineInput, DiscountRule } from "../domain/pricing/index.ts";
import { funnelHit, type Visitor } from "../tracking/funnel.ts";
import { AWAITING_PAYMENT_KEY, CART_NONCE_ACTION, CHECKOUT_TOKEN_KEY, HASH_COOKIE, ITEMS_COOKIE } from "./session-keys.ts";

/** The shopper's cart. Changes that need a cart create the session; the others answer null when there is none. */
export class StorefrontCart {
  constructor(
    private readonly services: ShopServices,
    private readonly session: ShopSession,
    private readonly visitor: Visitor | null = null,
  ) {}

  async pricingOptions(): Promise<PricingOptions> {
    const [session, config] = await Promise.all([this.session.session(), currentSiteConfig(this.services)]);
    const where = sessionDestination(session?.data, config.store);
    return {
      now: this.services.now(),
      loggedIn: Boolean(session?.customerId),
      currencyFormat: this.services.config.currency.format,
      // The rates are the shipping zone's of where the cart goes (customer-country.ts).
      ...where,
      // Tax (Settings › Tax on): where the cart goes is the best guess of both addresses until the order is placed.
      ...taxPricing(config, { shipping: where.destination, billing: where.destination }),
    };
  }

  /** Who owns this shopper's cart (null: no session yet, so no cart). */
  async owner(): Promise<CartOwner | null> {
    return cartOwnerOf(await this.session.session());
  }

  /** The owner, creating the session (and its cookie) when this browser has none yet. */
  async ensureOwner(): Promise<CartOwner> {
    return cartOwnerOf(await this.session.ensureSession())!;
  }

  /** The priced cart (an empty one when there is none). */
  async get(): Promise<PricedCart> {
    return loadPricedCart(this.services.db, await this.owner(), await this.pricingOptions());
  }

  async addLines(request: AddToCartRequest): Promise<CartChange<AddedLine[]>> {
    const owner = await this.ensureOwner();
    const result = await addToCart(this.services.db, owner, request, await this.pricingOptions());
    // The funnel's add-to-cart step, whichever entry point added (docs/contract/storefront.md §9 'Tracking (analytics)').
    if (result.ok && this.visitor) this.services.funnel?.record(funnelHit("add_to_cart", this.visitor, this.session.cookies));
    return result;
  }

  /** The page of a product (or a variation's parent) a refused add points to; false when there is none to show. */
  async productPageUrl(productId: number): Promise<string | false> {
    return productPageUrl(this.services.db, productId);
  }

  /** New quantities by cart item key (0 removes the line). */
  async updateLines(quantities: Record<string, number>): Promise<CartChange<boolean>> {
    const owner = await this.ensureOwner();
    return updateQuantities(this.services.db, owner, quantities, await this.pricingOptions());
  }

  async removeLines(key: string): Promise<CartChange<string> | null> {
    const owner = await this.owner();
    return owner ? removeCartItem(this.services.db, owner, key, await this.pricingOptions()) : null;
  }

  async applyCoupon(code: string): Promise<CartChange<string>> {
    const owner = await this.ensureOwner();
    return applyCoupon(this.services.db, owner, code, await this.pricingOptions());
  }

  async removeCoupon(code: string): Promise<CartChange<string> | null> {
    const owner = await this.owner();
    return owner ? removeCoupon(this.services.db, owner, code, await this.pricingOptions()) : null;
  }

  async chooseShippingMethod(methodId: string): Promise<CartChange<string> | null> {
    const owner = await this.owner();
    return owner ? chooseShippingMethod(this.services.db, owner, methodId, await this.pricingOptions()) : null;
  }

  /** The discount add-on's free-item choice (awdr_change_discount_product_in_cart). */
  async changeFreeItem(choice: { product_id: number; rule_unique_id: string; parent_id: number }): Promise<CartChange<boolean> | null> {
    const owner = await this.owner();
    return owner ? changeFreeItem(this.services.db, owner, choice, await this.pricingOptions()) : null;
  }

  async empty(): Promise<void> {
    const owner = await this.owner();
    if (owner) await emptyCart(this.services.db, owner);
  }

  /** The nonce of the cart form and the remove links. */
  nonce(): string {
    return this.session.nonce(CART_NONCE_ACTION);
  }

  /**
   * The two cart cookies, readable by scripts, set on the response that changed the cart (and on any
   * response that finds them stale); both removed when the cart is empty (docs/contract/wire.md §1.5).
   */
  syncCookies(cart: PricedCart): void {
    const shop = this.session;
    const items = shop.cookies[ITEMS_COOKIE];
    const hash = shop.cookies[HASH_COOKIE];
    if (cart.hash === "") {
      if (items !== undefined) shop.setCookie(ITEMS_COOKIE, "", { httpOnly: false, maxAgeSeconds: 0 });
      if (hash !== undefined) shop.setCookie(HASH_COOKIE, "", { httpOnly: false, maxAgeSeconds: 0 });
      return;
    }
    if (items !== "1") shop.setCookie(ITEMS_COOKIE, "1", { httpOnly: false });
    if (hash !== cart.hash) shop.setCookie(HASH_COOKIE, cart.hash, { httpOnly: false });
  }
}

/** What the discount engine prices with for this shopper. */
export class StorefrontPricing {
  constructor(
    private readonly services: ShopServices,
    private readonly session: ShopSession,
    private readonly cart: StorefrontCart,
  ) {}

  /** The product or variation as the engine prices it, from published rows only. */
  product(id: number, opts: { parentId?: number; cheapestVariation?: boolean; bundleOptional?: readonly number[] } = {}): Promise<PricingProductLookup> {
    return loadPricingProduct(this.services.db, id, opts);
  }

  /** The shop's discount rules (cached for a few seconds). */
  async rules(): Promise<DiscountRule[]> {
    return (await cachedPricingSetup(this.services.db, this.services.db)).rules;
  }

  /** The shopper's cart as engine lines (free items left out), so a product page prices the way the cart will. */
  async cartLines(): Promise<CartLineInput[]> {
    if (!(await this.cart.owner())) return [];
    return cartLinesForPricing(this.services.db, await this.cart.get());
  }

  /** When and for whom the rules apply (call after the session has been loaded). */
  context(): { now: Date; customer: { loggedIn: boolean } } {
    return { now: this.services.now(), customer: { loggedIn: this.session.customerId() > 0 } };
  }
}

/** The checkout's per-session state and the shop's payment runtime. */
export class StorefrontCheckout {
  constructor(
    private readonly services: ShopServices,
    private readonly session: ShopSession,
    private readonly cart: StorefrontCart,
  ) {}

  /** The shop's one payment runtime (gateway, the two gateway settings, the order use cases' dependencies). */
  get payments(): PaymentRuntime {
    return paymentRuntime(this.services);
  }

  /**
   * The gateways' settings in effect for this request: the card options the owner saved (shop/v1/settings/payments)
   * over the start-up ones, so the forms and the server's check of a payment follow a save from the next request.
   */
  async gateways(): Promise<Gateways> {
    return gatewaysFor((await currentSiteConfig(this.services)).payments);
  }

  /** The per-session checkout token: the same in every tab, replaced once an order is placed. */
  async token(): Promise<string> {
    const session = await this.session.ensureSession();
    let token = session.data[CHECKOUT_TOKEN_KEY];
    if (typeof token !== "string" || !/^[0-9a-f]{32}$/.test(token)) {
      const fresh = randomBytes(16).toString("hex");
      await this.session.updateSessionData((d) => {
        d[CHECKOUT_TOKEN_KEY] = fresh;
      });
      token = fresh;
    }
    return token as string;
  }

  /** The signed-in customer's saved payment methods (none for a guest). */
  async savedTokens(): Promise<SavedToken[]> {
    const customerId = (await this.session.session())?.customerId;
    return customerId ? listTokens(this.services.db, customerId) : [];
  }

  /** The billing address of the signed-in customer's latest order (a returning customer's prefill). */
  async latestBillingAddress(): Promise<OrderBillingAddress | null> {
    const customerId = (await this.session.session())?.customerId;
    return customerId ? latestOrderBillingAddress(this.services.db, customerId) : null;
  }

  /** Whether an account already uses this e-mail address (checkout's "create an account"). */
  emailRegistered(email: string): Promise<boolean> {
    return customerEmailExists(this.services.db, email);
  }

  /**
   * After the session's own failed checkout order is paid (order-pay), its cart was that order: empty it and start a
   * new checkout token, as WooCommerce's wc_clear_cart_after_payment does — the next checkout is a new one, and the
   * cart is not bought a second time.
   */
  async clearCartAfterPayment(orderId: number): Promise<void> {
    const session = await this.session.session();
    if (!session || session.data[AWAITING_PAYMENT_KEY] !== orderId) return;
    await this.cart.empty();
    await this.session.updateSessionData((d) => {
      delete d[AWAITING_PAYMENT_KEY];
      delete d[CHECKOUT_TOKEN_KEY];
    });
  }
}

export class Storefront {
  readonly cart: StorefrontCart;
  readonly pricing: StorefrontPricing;
  readonly checkout: StorefrontCheckout;

  constructor(
    readonly services: ShopServices,
    readonly session: ShopSession,
    /** The request's client address and user agent: the funnel's anonymous visitor (core/tracking/funnel.ts). */
    readonly visitor: Visitor | null = null,
  ) {
    this.cart = new StorefrontCart(services, session, visitor);
    this.pricing = new StorefrontPricing(services, session, this.cart);
    this.checkout = new StorefrontCheckout(services, session, this.cart);
  }

  /** The funnel's purchase step for an order this request placed or paid (once per order, whoever reports it again). */
  trackPurchase(orderId: number, orderMeta: Record<string, string> | null): void {
    if (this.visitor) this.services.funnel?.record(funnelHit("purchase", this.visitor, this.session.cookies, { order: { id: orderId }, orderMeta }));
  }

  /** The signed-in customer's profile, or null for a guest. */
  async customer(): Promise<CustomerProfile | null> {
    const customerId = (await this.session.session())?.customerId;
    return customerId ? findCustomerProfile(this.services.db, customerId) : null;
  }
}

export function createStorefront(services: ShopServices, session: ShopSession, visitor: Visitor | null = null): Storefront {
  return new Storefront(services, session, visitor);
}
