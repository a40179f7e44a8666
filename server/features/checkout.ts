/**
 * Checkout on the wire (docs/contract/wire.md §1.3): `?wc-ajax=update_order_review` and `?wc-ajax=checkout`, the
 * Astra calls the checkout page makes (`astra_woo_check_user_exist`, `astra_woocommerce_login_user`), the payment
 * form's script-error log, the sandbox's test-number page, and the payment reconciler (started with the server).
 *
 * The checkout request body carries card data: it is never logged, and neither are the parsed fields.
 */
import { createHash } from "node:crypto";
import { json, firstString, type HandlerInput, type Reply } from "../http/dispatch.ts";
import type { Endpoints, Feature } from "./feature.ts";
import type { AppServices } from "../services.ts";
import { SANDBOX_TEST_BANK_ACCOUNTS, SANDBOX_TEST_CARDS, SANDBOX_TEST_ROUTING_NUMBERS } from "../../core/payments/test-numbers.ts";
import { yearMonthOf } from "../../core/domain/payments/index.ts";
import {
  errorListHtml,
  errorNoticeHtml,
  escapeHtml,
  field,
  parseCheckoutForm,
  type CheckoutInput,
  type FieldError,
} from "../../core/commerce/checkout-form.ts";
import { currentSiteConfig } from "../../core/commerce/site-settings.ts";
import { destinationFrom, rememberDestination } from "../../core/commerce/customer-country.ts";
import { taxPricing } from "../../core/commerce/tax.ts";
import { sellingRefusals, shipsTo } from "../../core/domain/checkout/selling.ts";
import { cancelSupersededOrder, placeOrder, reconcilePayments, type PlaceOrderResult } from "../../core/commerce/orders.ts";
import { AUTH_LIMITS, checkUserExists, loginWithLimits } from "../../core/commerce/accounts.ts";
import { rememberOrder } from "../../core/commerce/order-access.ts";
import { consumeLimits } from "../../core/commerce/rate-limits.ts";
import { paymentRuntime, RECONCILE_AFTER_MS, RECONCILE_EVERY_MS } from "../../core/commerce/payment-runtime.server.ts";
import { tokenLabel } from "../../core/domain/payments/token-label.ts";
import { AWAITING_PAYMENT_KEY, CHECKOUT_NONCE_ACTION, CHECKOUT_TOKEN_KEY } from "../../core/commerce/session-keys.ts";
import { hashPassword } from "../../core/security/password.ts";
import { REGISTRATION_SESSION_FLAG } from "../../core/domain/tracking/events.ts";
// Fragment renderers (decision 0008's allowed app/ import): the order review table and the payment form.
import { paymentHtml, reviewOrderHtml } from "../../app/components/fragments.tsx";

const failure = (errors: FieldError[], opts: { refresh?: boolean; reload?: boolean } = {}): Reply =>
  json({ result: "failure", messages: errorListHtml(errors), refresh: opts.refresh ?? false, reload: opts.reload ?? false });

const SESSION_EXPIRED_HTML = `<div class="woocommerce-error">Sorry, your session has expired. <a href="/shop/" class="wc-backward">Return to shop</a></div>`;

async function updateOrderReview({ req, params, services }: HandlerInput): Promise<Reply> {
  const session = await req.shop.session();
  if (!req.shop.verifyNonce("update-order-review", params.security)) {
    return json({ result: "failure", messages: errorNoticeHtml("We were unable to process your order, please try again."), reload: false, fragments: {} });
  }
  const { cart, checkout } = req.storefront;
  const loggedIn = !!session?.customerId;
  const rate = (() => {
    const m = params.shipping_method;
    const v = Array.isArray(m) ? m[0] : m && typeof m === "object" ? (m as Record<string, unknown>)["0"] : m;
    return typeof v === "string" && /^[\w:-]{1,64}$/.test(v) ? v : null;
  })();
  // Where the cart goes, for its shipping zone's rates: checkout.js posts it as s_country… (the shipping address, or
  // the billing one copied); a client sending only the billing country… is taken at that.
  const shipping = firstString(params.s_country) !== undefined;
  const posted = (name: string) => firstString(params[shipping ? `s_${name}` : name]);
  const to = destinationFrom({ country: posted("country"), state: posted("state"), postcode: posted("postcode") });
  if (to && session) await rememberDestination(req.shop, to);
  if (rate) await cart.chooseShippingMethod(rate);
  const priced = await cart.get();
  if (priced.lines.length === 0) return json({ fragments: { "form.woocommerce-checkout": SESSION_EXPIRED_HTML } });
  const table = reviewOrderHtml(priced);
  const rt = checkout.payments;
  const tokens = await checkout.savedTokens();
  const chosen = firstString(params.payment_method);
  const payment = paymentHtml({
    gateways: await checkout.gateways(),
    testMode: rt.gateway.testMode,
    tokens: tokens.map((t) => ({ id: t.id, gatewayId: t.gatewayId, isDefault: t.isDefault, label: tokenLabel(t) })),
    canSave: loggedIn,
    method: chosen === rt.gateways.echeck.id ? rt.gateways.echeck.id : rt.gateways.card.id,
    nonce: req.shop.nonce(CHECKOUT_NONCE_ACTION),
    checkoutToken: await checkout.token(),
    placeOrderText: (await currentSiteConfig(services)).checkout.placeOrderText,
    slideMs: services.config.timings.savedTokenSlideMs,
  });
  return json({
    result: "success",
    messages: "",
    reload: false,
    fragments: { ".woocommerce-checkout-review-order-table": table, ".woocommerce-checkout-payment": payment },
  });
}

/** One checkout among the few in progress at once (defaultCheckoutGate); busy past the wait (server/http/busy.ts). */
function processCheckout(input: HandlerInput): Promise<Reply> {
  return input.req.storefront.checkout.payments.checkoutGate.run(() => placeCheckout(input));
}

async function placeCheckout({ req, params, services }: HandlerInput): Promise<Reply> {
  const { checkout } = req.storefront;
  const session = await req.shop.session();
  const nonce = params["woocommerce-process-checkout-nonce"];
  if (!session || !req.shop.verifyNonce(CHECKOUT_NONCE_ACTION, nonce)) {
    return failure([{ id: "", html: "We were unable to process your order, please try again." }], { refresh: true });
  }
  const loggedIn = !!session.customerId;
  const tokens = await checkout.savedTokens();
  // The card options in effect (shop/v1/settings/payments): enabled card types and the CSC rule, checked here.
  const parsed = parseCheckoutForm(params, await checkout.gateways(), yearMonthOf(services.now(), "utc"), {
    loggedIn,
    ownedTokenIds: new Set(tokens.map((t) => t.id)),
    // The owner's saved setting (shop/v1/settings/accounts), not the start-up configuration.
    guestCheckout: (await currentSiteConfig(services)).account.guestCheckout,
  });
  const token = field(params, "_checkout_token");
  if (!/^[0-9a-f]{32}$/.test(token)) return failure([{ id: "", html: "We were unable to process your order, please try again." }], { refresh: true });
  if (!parsed.ok) return failure(parsed.errors);
  const input = parsed.value;
  const refused = await sellingCheck(req, services, input);
  if (refused.length) return failure(refused.map(({ id, html }) => ({ id, html })));

  const result = await placeSessionOrder(req, services, { input, claimKey: null, nonce: String(nonce), token });
  if (!result.ok) {
    if (result.reload) return json({ result: "failure", messages: errorListHtml(result.errors), refresh: false, reload: false });
    return failure(result.errors);
  }
  const origin = `${req.protocol}://${req.get("host")}`;
  return json({ result: "success", redirect: `${origin}/checkout/order-received/${result.orderId}/?key=${encodeURIComponent(result.orderKey)}` });
}

/**
 * Where the shop sells and ships (Settings › General): a billing country it does not sell to, or (when the cart needs
 * shipping) a shipping country it does not ship to, is refused before anything is placed. Both checkouts ask this.
 */
export async function sellingCheck(req: HandlerInput["req"], services: AppServices, input: CheckoutInput): Promise<ReturnType<typeof sellingRefusals>> {
  const store = (await currentSiteConfig(services)).store;
  const needsShipping = (await req.storefront.cart.get()).lines.some((l) => l.needsShipping);
  return sellingRefusals(store, { billingCountry: input.billing.country, shippingCountry: input.shipping?.country ?? null, needsShipping });
}

/**
 * Places the shopper's cart as an order, the one path of both checkouts (wc-ajax and the Store API): the account
 * to create, the chosen rate, the idempotent claim, the superseded failed order, the cart emptied once.
 * `claimKey` is hashed before use: neither the page's nonce nor the session's checkout token is stored as is.
 */
export async function placeSessionOrder(
  req: HandlerInput["req"],
  services: AppServices,
  opts: { input: CheckoutInput; claimKey: string | null; nonce?: string; token: string },
): Promise<PlaceOrderResult> {
  const { cart, checkout } = req.storefront;
  const session = (await req.shop.session())!;
  const owner = (await cart.owner())!;
  const customerId = session.customerId ?? null;
  const loggedIn = customerId !== null;
  const { input } = opts;
  let newAccount = null;
  if (input.createAccount) {
    if (await checkout.emailRegistered(input.billing.email))
      return { ok: false, errors: [{ id: "billing_email", html: "An account is already registered with your email address. Please log in." }] };
    newAccount = {
      email: input.billing.email.toLowerCase(),
      passwordHash: await hashPassword(input.createAccount.password),
      firstName: input.billing.first_name,
      lastName: input.billing.last_name,
    };
  }
  if (input.shippingMethodId) await cart.chooseShippingMethod(input.shippingMethodId);

  // The idempotency key: the page's nonce and the session's checkout token (or the caller's own key), hashed.
  const claimKey =
    "co_" +
    createHash("sha256")
      .update(opts.claimKey ?? `${opts.nonce ?? ""}:${opts.token}`)
      .digest("hex");
  // The order is priced with the shipping zone of its own address (the shipping one, else the billing one).
  const config = await currentSiteConfig(services);
  const store = config.store;
  const to = destinationFrom(input.shipping ?? input.billing);
  const shipping = { destination: to, shippable: to === null || shipsTo(store, to.country) };
  if (to) await rememberDestination(req.shop, to);
  // Tax (Settings › Tax on): the rates of the order's own shipping, billing or store address.
  const { tax } = taxPricing(config, { shipping: to, billing: destinationFrom(input.billing) });
  const result = await placeOrder(checkout.payments.deps, { claimKey, customerId, input, owner, newAccount, shipping, ...(tax ? { tax } : {}) });
  // The session's earlier failed order ("awaiting payment") is superseded by the order this checkout just made.
  const awaiting = session.data[AWAITING_PAYMENT_KEY];
  const made = result.ok ? (result.replay ? null : result.orderId) : (result.orderId ?? null);
  if (made !== null) {
    if (typeof awaiting === "number" && awaiting !== made) await cancelSupersededOrder(services.db, awaiting);
    await req.shop.updateSessionData((d) => {
      if (result.ok) delete d[AWAITING_PAYMENT_KEY];
      else d[AWAITING_PAYMENT_KEY] = made;
    });
  }
  if (!result.ok) return result;
  if (!result.replay) {
    await cart.empty();
    await req.shop.updateSessionData((d) => {
      delete d[CHECKOUT_TOKEN_KEY];
    });
    if (!loggedIn && result.customerId) {
      await req.shop.signIn(result.customerId);
      // docs/contract/storefront.md §9: the order-received page prints CompleteRegistration once.
      if (newAccount) await req.shop.updateSessionData((d) => (d[REGISTRATION_SESSION_FLAG] = true));
    }
    req.storefront.trackPurchase(result.orderId, input.attribution);
  }
  // This browser placed the order: it sees its order received page without confirming the e-mail address.
  await req.shop.updateSessionData((d) => rememberOrder(d, result.orderId));
  return result;
}

async function checkUserExist({ req, params, services }: HandlerInput): Promise<Reply> {
  await req.shop.session();
  if (!req.shop.verifyNonce("check-user-exist", params.security))
    return json(
      { success: false, data: { success: false, is_login_allowed: false, error: "Your session has expired. Please reload the page and try again." } },
      403,
    );
  const result = await checkUserExists(services.db, {
    email: firstString(params.user_name_email) ?? "",
    address: req.ip ?? "unknown",
    session: req.shop.cookies["shop_nonce_key"] ?? req.ip ?? "unknown",
    now: services.now(),
  });
  if (result.limited) return json({ success: false, data: { success: false, is_login_allowed: false, error: AUTH_LIMITS.tooManyMessage } }, 429);
  return json({ success: true, data: { success: result.exists, is_login_allowed: result.exists && result.loginAllowed } });
}

async function loginUser({ req, params, services }: HandlerInput): Promise<Reply> {
  const session = await req.shop.session();
  if (session?.customerId) return json({ success: true, data: { success: true } });
  if (!req.shop.verifyNonce("woocommerce-login", params.security)) {
    return json({ success: false, data: { success: false, error: "Your session has expired. Please reload the page and try again." } }, 403);
  }
  const outcome = await loginWithLimits(services.db, {
    login: firstString(params.user_name_email) ?? "",
    password: firstString(params.password) ?? "",
    address: req.ip ?? "unknown",
    now: services.now(),
  });
  if (!outcome.ok) return json({ success: false, data: { success: false, error: escapeHtml(outcome.message) } });
  await req.shop.signIn(outcome.customerId);
  return json({ success: true, data: { success: true } });
}

/**
 * What a script-error report may carry into the log. The report comes from the payment form's page, so its
 * message could quote what the shopper typed: every run of three or more digits — spaces, dashes, dots or
 * slashes between them included — is masked (card numbers, security codes, account and routing numbers).
 */
export function scriptEventFields(params: HandlerInput["params"]): { name: string; message: string } {
  // NFKC first: full-width digits (which the card form accepts) become ASCII and are masked like any others.
  const mask = (s: string) => s.normalize("NFKC").replace(/\d(?:[\s./-]*\d){2,}/g, "[digits]");
  const name = mask((firstString(params.name) ?? "").slice(0, 400))
    .replace(/[^\w .:/[\]-]/g, "")
    .slice(0, 200);
  const message = mask((firstString(params.message) ?? "").slice(0, 2000)).slice(0, 500);
  return { name, message };
}

/** Script-error reports per client address per minute, counted in the database: the bound holds across processes. */
const SCRIPT_EVENTS_PER_MINUTE = 10;

async function scriptEventAllowed(db: AppServices["db"], address: string, now: Date): Promise<boolean> {
  const taken = await consumeLimits(db, now, [{ kind: "script_event", scope: "address", subject: address, max: SCRIPT_EVENTS_PER_MINUTE, windowMs: 60_000 }]);
  return taken.ok;
}

async function logScriptEvent({ req, params, services }: HandlerInput, gatewayId: string): Promise<Reply> {
  const { name, message } = scriptEventFields(params);
  if (!name && !message) return json({ success: false }, 400);
  if (!(await scriptEventAllowed(services.db, req.ip ?? "unknown", services.now()))) return json({ success: false }, 429);
  services.logger.warn("payment form script event", { gateway: gatewayId, name, message });
  return json({ success: true });
}

function registerCheckoutEndpoints({ wcAjax, adminAjax }: Endpoints, services: AppServices): void {
  wcAjax.register("update_order_review", updateOrderReview);
  wcAjax.register("checkout", processCheckout);
  adminAjax.register("astra_woo_check_user_exist", checkUserExist);
  adminAjax.register("astra_woocommerce_login_user", loginUser);
  const rt = paymentRuntime(services);
  for (const g of [rt.gateways.card, rt.gateways.echeck]) {
    const action = g.type === "echeck" ? `${g.plugin_id}_echeck_payment_form_log_script_event` : `${g.plugin_id}_credit_card_payment_form_log_script_event`;
    adminAjax.register(action, async (input) => {
      await input.req.shop.session();
      if (!input.req.shop.verifyNonce(`${g.id}-log-script-event`, input.params.security)) return json({ success: false }, 403);
      return logScriptEvent(input, g.id);
    });
  }
}

function testNumbersPage(enabled: readonly string[]): string {
  // A card type this shop does not accept is refused by the form whatever the processor would say: say so.
  const rows = SANDBOX_TEST_CARDS.map(
    (c) =>
      `<tr><td><code>${escapeHtml(c.number.replace(/(\d{4})(?=\d)/g, "$1 "))}</code></td><td>${escapeHtml(c.brand)}</td><td>${escapeHtml(enabled.includes(c.brand) ? c.note : "not accepted by this shop (card type not enabled)")}</td></tr>`,
  ).join("");
  const banks = SANDBOX_TEST_BANK_ACCOUNTS.map((b) => `<tr><td><code>${escapeHtml(b.accountNumber)}</code></td><td>${escapeHtml(b.note)}</td></tr>`).join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Sandbox test numbers</title></head><body style="font-family:system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem">
<h1>Sandbox payments: test numbers</h1><p>This shop's payment processor is in <strong>test mode</strong>: no money moves. Only these numbers are approved. Use any future expiry (e.g. 12 / 30) and any CSC of the right length.</p>
<table border="1" cellpadding="6" style="border-collapse:collapse"><thead><tr><th>Card number</th><th>Brand</th><th>Result</th></tr></thead><tbody>${rows}</tbody></table>
<h2>E-check</h2><p>Routing numbers: ${SANDBOX_TEST_ROUTING_NUMBERS.map((r) => `<code>${r}</code>`).join(", ")} (any number passing the ABA checksum).</p>
<table border="1" cellpadding="6" style="border-collapse:collapse"><thead><tr><th>Account number</th><th>Result</th></tr></thead><tbody>${banks}</tbody></table></body></html>`;
}

export const checkoutFeature: Feature = {
  name: "checkout",
  endpoints: registerCheckoutEndpoints,
  routes(app, services) {
    app.get("/payments/test-numbers/", (_req, res, next) => {
      currentSiteConfig(services).then((config) => res.type("text/html").send(testNumbersPage(config.payments.enabledCardTypes)), next);
    });
  },
  async start({ services, env }) {
    const rt = paymentRuntime(services);
    // A single-process shop knows at start that every unfinished attempt is a dead process's:
    // PAYMENT_RECONCILE_STARTUP_AFTER_MS=0 finishes them at once. Several processes must keep the default.
    const startupAfter = env.PAYMENT_RECONCILE_STARTUP_AFTER_MS;
    const run = async (olderThan: number, atStart = false) => {
      try {
        const done = await reconcilePayments(rt.deps, olderThan);
        if (atStart || done.paid || done.failed || done.pending) services.logger.info(atStart ? "payments reconciled at start" : "payments reconciled", done);
      } catch (error) {
        services.logger.warn("payment reconciler failed", { error: (error as Error).message });
      }
    };
    await run(startupAfter, true);
    let running: Promise<void> | null = null;
    const timer = setInterval(() => {
      if (running) return; // a slow run is not overlapped by the next
      running = run(RECONCILE_AFTER_MS).finally(() => (running = null));
    }, RECONCILE_EVERY_MS);
    timer.unref();
    // Shutdown waits for a run in progress: the database closes after this, and must not close under it.
    return async () => {
      clearInterval(timer);
      await running;
    };
  },
};
