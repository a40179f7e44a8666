/**
 * The browser tracker (docs/contract/storefront.md §4 'Tracking behaviour', §9 'Tracking (analytics)'; the request:
 * docs/contract/wire.md §6.1). A lazy chunk that TrackingScript imports after hydration, only with consent. Each
 * event gets a new 36-character id, kept per event name in the pys_fb_event_id cookie and shared by every
 * destination's copy (dataLayer, gtag, pixel, server) so they deduplicate. Consent is read again for every event:
 * a withdrawal stops everything at once. Analytics only: nothing here changes what the shop does.
 */
import {
  addToCartParams,
  allowedDestinations,
  anyDestination,
  eventIdsCookie,
  formSkipReason,
  linesParams,
  type BrowserTrackingConfig,
  type ProductTrackingData,
  type TrackingParams,
} from "../../../core/domain/tracking/browser-tracking.ts";
import { pageChoice } from "../../../core/domain/tracking/choice.ts";
import { CONSENT_CHANGE_EVENT, consentAllows } from "../../../core/domain/tracking/consent.ts";
import { EXTERNAL_ID_COOKIE, EXTERNAL_ID_COOKIE_DAYS, trackingCookieAllowed, trackingCookiesToClear } from "../../../core/domain/tracking/consent.ts";
import { EVENT_ID_COOKIE, GA4_EVENT_NAMES, TRACKING_AJAX_ACTION, newEventId, type TrackingEventName } from "../../../core/domain/tracking/events.ts";
import type { CartSummaryView } from "../cart/cart-view.ts";

type Params = TrackingParams | Record<string, string | number>;
type Destinations = ReturnType<typeof allowedDestinations>;
type Queue = ((...args: unknown[]) => void) & { queue?: unknown[][]; callMethod?: (...args: unknown[]) => void; loaded?: boolean };

const w = window as unknown as Record<string, unknown>;
const PURCHASES_KEY = "pys_purchase_orders";
/** The ad networks' own names for the contract's events (anything else goes as a custom event). */
const FACEBOOK_STANDARD: Partial<Record<TrackingEventName, string>> = {
  PageView: "PageView",
  ViewContent: "ViewContent",
  AddToCart: "AddToCart",
  AddToWishList: "AddToWishlist",
  InitiateCheckout: "InitiateCheckout",
  Purchase: "Purchase",
  Lead: "Lead",
  CompleteRegistration: "CompleteRegistration",
  AddPaymentInfo: "AddPaymentInfo",
};

let config: BrowserTrackingConfig | null = null;
let lastView = 0;
let scrolled = false;
/** The checkout's params of this page view, for AddPaymentInfo; null once sent or off the checkout. */
let paymentInfo: TrackingParams | null = null;
let timer: number | undefined;
const loaded = new Set<string>();

function cookie(name: string): string | null {
  const m = document.cookie.split("; ").find((c) => c.startsWith(`${name}=`));
  return m ? decodeURIComponent(m.slice(name.length + 1)) : null;
}

const currentChoice = () => pageChoice(document.cookie, (navigator as { globalPrivacyControl?: unknown }).globalPrivacyControl, w.shop_consent, Date.now());

/** Read again for every event, so a withdrawal stops everything at once. */
const destinations = (c: BrowserTrackingConfig) => allowedDestinations(c, currentChoice());

/** Third-party scripts: only for a configured, consented destination, once, after the page is interactive, async. */
function loadScript(key: string, src: string): void {
  if (loaded.has(key)) return;
  loaded.add(key);
  const s = document.createElement("script");
  s.async = true;
  s.src = src;
  // The payment page's script-failure report skips these (a blocked tracker is not a broken checkout).
  s.dataset.shopTracking = key;
  document.head.append(s);
}

function dataLayer(name: string): unknown[] {
  if (!Array.isArray(w[name])) w[name] = [];
  return w[name] as unknown[];
}

/** Google Consent Mode's four signals from the visitor's choice: analytics → analytics_storage, marketing → the ad ones. */
function consentSignals(): Record<"analytics_storage" | "ad_storage" | "ad_user_data" | "ad_personalization", "granted" | "denied"> {
  const choice = currentChoice();
  const analytics = consentAllows(choice, "analytics") ? "granted" : "denied";
  const marketing = consentAllows(choice, "marketing") ? "granted" : "denied";
  return { analytics_storage: analytics, ad_storage: marketing, ad_user_data: marketing, ad_personalization: marketing };
}

/** Google's gtag stub on the shop's dataLayer (gtag.js and GTM read the Arguments object, as Google's snippet pushes it). */
function gtagFor(c: BrowserTrackingConfig): Queue {
  const layer = dataLayer(c.dataLayer ?? "dataLayer");
  w.gtag ??= function gtag() {
    // eslint-disable-next-line prefer-rest-params
    layer.push(arguments);
  };
  return w.gtag as Queue;
}

/**
 * docs/contract/storefront.md §9: before the tag manager or gtag loads, the consent default from the visitor's
 * choice, so tags inside a GTM container (ads among them) honour it; once per page.
 */
function consentDefault(c: BrowserTrackingConfig): void {
  if (loaded.has("consent")) return;
  loaded.add("consent");
  gtagFor(c)("consent", "default", consentSignals());
}

function loadDestinations(c: BrowserTrackingConfig, d: Destinations): void {
  if (d.gtm || d.ga4) consentDefault(c);
  if (d.gtm) {
    const name = c.dataLayer ?? "dataLayer";
    if (!loaded.has("gtm")) dataLayer(name).push({ "gtm.start": Date.now(), event: "gtm.js" });
    loadScript("gtm", `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(d.gtm)}${name === "dataLayer" ? "" : `&l=${name}`}`);
  }
  if (d.ga4 && !loaded.has("ga4")) {
    const gtag = gtagFor(c);
    gtag("js", new Date());
    gtag("config", d.ga4, { send_page_view: false, ...(c.userId ? { user_id: String(c.userId) } : {}) });
    loadScript("ga4", `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(d.ga4)}`);
  }
  const facebook = d.pixels.facebook;
  if (facebook?.length && !loaded.has("facebook")) {
    // Facebook's stub: calls queue until fbevents.js arrives and replays them.
    const fbq: Queue = function (...args: unknown[]) {
      if (fbq.callMethod) fbq.callMethod(...args);
      else fbq.queue!.push(args);
    };
    fbq.queue = [];
    fbq.loaded = true;
    Object.assign(fbq, { push: fbq, version: "2.0" });
    w.fbq ??= fbq;
    w._fbq ??= w.fbq;
    // The pixel is only loaded with marketing consent; a later withdrawal revokes it (onConsentChange).
    (w.fbq as Queue)("consent", consentSignals().ad_storage === "granted" ? "grant" : "revoke");
    const externalId = ensureExternalId();
    for (const id of facebook) (w.fbq as Queue)("init", id, externalId ? { external_id: externalId } : {});
    loadScript("facebook", "https://connect.facebook.net/en_US/fbevents.js");
  }
}

/**
 * The browser's external id for ad destinations (`pbid`, kept 180 days, docs/contract/storefront.md §9): a marketing
 * cookie, so only with marketing consent and unless the owner turned it off; null otherwise.
 */
function ensureExternalId(): string | null {
  const choice = currentChoice();
  const disabled = ((w.shop_consent as { disabledCookies?: unknown } | undefined)?.disabledCookies ?? []) as string[];
  if (!trackingCookieAllowed(EXTERNAL_ID_COOKIE, choice, Array.isArray(disabled) ? disabled : [])) return null;
  const id = /^[0-9a-f-]{36}$/i.test(cookie(EXTERNAL_ID_COOKIE) ?? "") ? cookie(EXTERNAL_ID_COOKIE)! : newEventId();
  document.cookie = `${EXTERNAL_ID_COOKIE}=${id}; path=/; max-age=${EXTERNAL_ID_COOKIE_DAYS * 86_400}; SameSite=Lax`;
  return id;
}

function isEcommerce(params: Params): params is TrackingParams {
  return Array.isArray((params as TrackingParams).items);
}

/** One event to every consented destination, all with the same event id. */
export function track(name: TrackingEventName, params: Params, orderId = 0): string | null {
  const c = config;
  if (!c || !c.events.includes(name)) return null;
  const d = destinations(c);
  if (!anyDestination(d)) return null;
  loadDestinations(c, d);
  const eventId = newEventId();
  document.cookie = eventIdsCookie(cookie(EVENT_ID_COOKIE), name, eventId);
  const ga4Name = GA4_EVENT_NAMES[name];
  const ga4Params = isEcommerce(params)
    ? {
        currency: c.currency,
        value: params.value,
        items: params.items.map((i) => ({ item_id: i.id, quantity: i.quantity, price: i.price })),
        ...(orderId ? { transaction_id: String(orderId) } : {}),
      }
    : params;
  if (d.dataLayer) {
    dataLayer(d.dataLayer).push({
      event: ga4Name,
      event_id: eventId,
      ...(isEcommerce(params) ? { ecommerce: ga4Params } : params),
      // docs/contract/storefront.md §6: the tag manager gets the signed-in visitor's id.
      ...(c.userId ? { user_id: String(c.userId) } : {}),
    });
  }
  if (d.ga4) (w.gtag as Queue)("event", ga4Name, { ...ga4Params, event_id: eventId });
  if (d.pixels.facebook?.length) {
    const standard = FACEBOOK_STANDARD[name];
    const fbParams = isEcommerce(params) ? { ...params, currency: c.currency, content_type: "product" } : params;
    (w.fbq as Queue)(standard ? "track" : "trackCustom", standard ?? name, fbParams, { eventID: eventId });
  }
  if (d.server) sendToServer(c, d, name, params, eventId, orderId);
  return eventId;
}

/**
 * docs/contract/wire.md §6.1: a beacon to the REST route where the browser queues one, else a form-urlencoded POST;
 * if that fails, the admin-ajax fallback with the ad network, the page and the same event id.
 */
function sendToServer(c: BrowserTrackingConfig, d: Destinations, name: TrackingEventName, params: Params, eventId: string, orderId: number): void {
  const data = isEcommerce(params) ? { ...params, currency: c.currency } : params;
  const body = new URLSearchParams({ event: name, data: JSON.stringify(data), eventID: eventId, woo_order: String(orderId), edd_order: "0" });
  const networks = Object.keys(d.pixels);
  for (const id of networks.flatMap((n) => d.pixels[n] ?? [])) body.append("ids[]", id);
  if (typeof navigator.sendBeacon === "function" && navigator.sendBeacon(c.restUrl, body)) return;
  const fallback = () => {
    const ajax = new URLSearchParams({ action: TRACKING_AJAX_ACTION, pixel: networks[0] ?? "ga", url: location.href, ajax_event: eventId });
    for (const [k, v] of body) ajax.append(k, v);
    return fetch(c.ajaxUrl, { method: "POST", body: ajax, credentials: "same-origin", keepalive: true });
  };
  fetch(c.restUrl, { method: "POST", body, credentials: "same-origin", keepalive: true })
    .then((res) => (res.ok ? res : fallback()))
    .catch(fallback)
    .catch(() => undefined);
}

function productData(productId: string | null): ProductTrackingData | null {
  if (!productId || !/^\d+$/.test(productId)) return null;
  return printedJson<ProductTrackingData>(document.querySelector(`script.pys-product-data[data-product-id="${productId}"]`));
}

const warned = new WeakSet<Element>();
/**
 * A JSON script the page printed for the tracker. Invalid JSON is a console warning only, once per element
 * (docs/contract/storefront.md §9): the event is skipped, nothing else changes.
 */
function printedJson<T>(el: Element | null): T | null {
  if (!el?.textContent) return null;
  try {
    return JSON.parse(el.textContent) as T;
  } catch (error) {
    if (!warned.has(el)) {
      warned.add(el);
      console.warn(`Tracking: invalid JSON in ${el.id ? `#${el.id}` : `.${el.className}`}; the event is skipped.`, error);
    }
    return null;
  }
}

/** AddToCart from what the server confirmed: cart-client raises `added_to_cart` only after a successful add. */
function onAddedToCart(e: Event): void {
  const button = (e as CustomEvent<{ button?: Element }>).detail?.button;
  if (!(button instanceof HTMLElement)) return;
  const form = button instanceof HTMLFormElement ? button : button.closest<HTMLFormElement>("form.cart");
  let params: TrackingParams | null = null;
  if (form) {
    const fields = new FormData(form);
    const id =
      (button.getAttribute("name") === "add-to-cart" ? button.getAttribute("value") : null) ??
      String(fields.get("add-to-cart") ?? fields.get("product_id") ?? "");
    const data = productData(id);
    if (!data) return;
    const grouped: Record<string, number> = {};
    for (const [k, v] of fields) {
      const m = /^quantity\[(\d+)\]$/.exec(k);
      if (m) grouped[m[1]!] = Number(v);
    }
    params = Object.keys(grouped).length
      ? addToCartParams(data, { grouped })
      : addToCartParams(data, { quantity: Number(fields.get("quantity") ?? 1), variationId: Number(fields.get("variation_id")) || null });
  } else {
    const data = productData(button.dataset.product_id ?? null);
    if (!data) return;
    params = addToCartParams(data, { quantity: Number(button.dataset.quantity ?? 1), variationId: Number(button.dataset.variation_id) || null });
  }
  if (params) track("AddToCart", params);
}

function onClick(e: MouseEvent): void {
  const link = (e.target as Element | null)?.closest?.<HTMLAnchorElement>("a[href]");
  if (!link) return;
  let url: URL;
  try {
    url = new URL(link.href, location.href);
  } catch {
    return;
  }
  if ((url.protocol === "http:" || url.protocol === "https:") && url.origin !== location.origin)
    track("OutboundClick", { url: url.href.slice(0, 500), text: (link.textContent ?? "").trim().slice(0, 100) });
}

function onSubmit(e: SubmitEvent): void {
  const form = e.target;
  if (!(form instanceof HTMLFormElement)) return;
  const ancestorClasses: string[] = [];
  for (let el = form.parentElement; el; el = el.parentElement) ancestorClasses.push(...el.classList);
  const facts = { id: form.id, classes: [...form.classList], role: form.getAttribute("role"), action: form.getAttribute("action") ?? "", ancestorClasses };
  if (formSkipReason(facts)) return;
  track("FormSubmit", {
    form_id: form.id.slice(0, 100),
    form_class: form.className.slice(0, 200),
    text: (e.submitter?.textContent ?? "").trim().slice(0, 100),
  });
}

function onScroll(): void {
  if (scrolled || !config) return;
  const doc = document.documentElement;
  const percent = ((window.scrollY + window.innerHeight) / Math.max(1, doc.scrollHeight)) * 100;
  if (percent < config.scrollPercent) return;
  scrolled = true;
  track("PageScroll", { percent: config.scrollPercent });
}

/**
 * AddPaymentInfo: the payment form's own check passed (`sv_wc_payment_form_valid_payment_data`, not bubbling, so
 * caught in the capture phase), once per checkout page view, with the cart's params and the gateway.
 */
function onValidPayment(e: Event): void {
  const detail = (e as CustomEvent<{ gateway?: unknown; valid?: unknown }>).detail;
  if (!paymentInfo || detail?.valid !== true) return;
  const params = paymentInfo;
  paymentInfo = null;
  track("AddPaymentInfo", params);
}

/**
 * A consent change: Google's tags and the pixel already on the page get the new state; on a withdrawal the event id
 * cookie goes too (nothing is sent any more: every event reads consent again).
 */
function onConsentChange(): void {
  if (config && loaded.has("consent")) gtagFor(config)("consent", "update", consentSignals());
  if (loaded.has("facebook") && typeof w.fbq === "function") (w.fbq as Queue)("consent", consentSignals().ad_storage === "granted" ? "grant" : "revoke");
  if (trackingCookiesToClear(currentChoice(), []).includes(EVENT_ID_COOKIE) && cookie(EVENT_ID_COOKIE) !== null)
    document.cookie = `${EVENT_ID_COOKIE}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax`;
}

function mount(c: BrowserTrackingConfig): void {
  config = c;
  document.body.addEventListener("added_to_cart", onAddedToCart);
  document.addEventListener("click", onClick, true);
  document.addEventListener("submit", onSubmit);
  window.addEventListener("scroll", onScroll, { passive: true });
  document.addEventListener("sv_wc_payment_form_valid_payment_data", onValidPayment, true);
  document.addEventListener(CONSENT_CHANGE_EVENT, onConsentChange);
}

function pageEvent(): { event: TrackingEventName; params: TrackingParams; orderId: number } | null {
  return printedJson<{ event: TrackingEventName; params: TrackingParams; orderId: number }>(document.getElementById("pys-page-event"));
}

/**
 * CompleteRegistration, printed by the root layout on the first page after an account was created. The element
 * outlives in-app navigations until the layout reloads its data, so it is sent once per element.
 */
function registrationEvent(): void {
  const el = document.getElementById("pys-registration-event");
  if (!el || el.dataset.sent) return;
  const ev = printedJson<{ params?: Record<string, string> }>(el);
  if (ev && track("CompleteRegistration", ev.params ?? {})) el.dataset.sent = "1";
}

/** An account created by an in-app form (no new page view): the layout's fresh config (with the user id), then the event. */
export function trackRegistration(c: BrowserTrackingConfig): void {
  // Not mounted yet: the page view (trackPage) sends it after its PageView.
  if (!config) return;
  config = c;
  registrationEvent();
}

/** A Purchase fires once per order: a reload or a second visit to the order's page does not count it again. */
function firstPurchase(orderId: number): boolean {
  try {
    const seen = JSON.parse(localStorage.getItem(PURCHASES_KEY) ?? "[]") as unknown;
    const list = Array.isArray(seen) ? seen.filter((x): x is number => typeof x === "number") : [];
    if (list.includes(orderId)) return false;
    localStorage.setItem(PURCHASES_KEY, JSON.stringify([...list, orderId].slice(-50)));
    return true;
  } catch {
    return true;
  }
}

/** A page view (the document load or an in-app navigation): PageView, the page's own event, scroll and time reset. */
export function trackPage(c: BrowserTrackingConfig, page: { view: number; checkoutCart: CartSummaryView | null }): void {
  if (!config) mount(c);
  config = c;
  // The same view again (consent granted later on this page): only if nothing was sent for it yet.
  if (page.view === lastView) return;
  if (!anyDestination(destinations(c))) return;
  lastView = page.view;
  scrolled = false;
  window.clearTimeout(timer);
  timer = window.setTimeout(() => track("TimeOnPage", { seconds: c.timeOnPageSeconds }), c.timeOnPageSeconds * 1000);
  track("PageView", { page_path: location.pathname.slice(0, 500) });
  const ev = pageEvent();
  if (ev?.event === "Purchase") {
    if (ev.orderId && c.events.includes("Purchase") && firstPurchase(ev.orderId)) track("Purchase", ev.params, ev.orderId);
  } else if (ev) track(ev.event, ev.params);
  registrationEvent();
  const cart = page.checkoutCart;
  paymentInfo = cart?.lines.length
    ? linesParams(
        cart.lines.map((l) => ({ productId: l.productId, variationId: l.variationId, quantity: l.quantity, unitCents: l.unitPriceCents })),
        cart.subtotalCents,
        c.currency,
      )
    : null;
  if (paymentInfo) track("InitiateCheckout", paymentInfo);
  onScroll();
}
