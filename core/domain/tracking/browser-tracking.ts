/**
 * The browser tracker's pure rules (docs/contract/storefront.md §3 'Tracking data', §4 'Tracking behaviour', §5
 * 'Automatic form-submit tracking skips these forms', §9 'Tracking (analytics)'): the per-product params printed
 * with a page, the params of an add-to-cart / checkout / purchase, the forms that are never tracked, the event id
 * cookie, and which destinations the visitor's consent lets load. No DOM here: the tracker passes plain values.
 */
import { EVENT_ID_COOKIE, TRACKING_EVENTS, isEventId, isTrackingEventName, type TrackingEventName } from "./events.ts";
import { consentAllows, type ConsentChoice } from "./consent.ts";

/** The params every destination receives (money in the currency's major unit, like the ad networks want). */
export interface TrackingParams {
  value: number;
  currency: string;
  contents: { id: string; quantity: number }[];
  content_ids: string[];
  items: { id: string; quantity: number; price: number }[];
  ecomm_totalvalue: number;
  order_id?: number;
}

/** What a page prints per product id: its params for one unit, and for a grouped (or variable) product the child map. */
export interface ProductTrackingData {
  params: TrackingParams;
  /** Child (grouped) or variation id → its content id and unit price. */
  children?: Record<string, { content_id: string; price: number }>;
}

const major = (cents: number) => Math.round(cents) / 100;
const sum = (items: { quantity: number; price: number }[]) => Math.round(items.reduce((n, i) => n + i.quantity * i.price * 100, 0)) / 100;

function paramsOf(items: { id: string; quantity: number; price: number }[], currency: string): TrackingParams {
  const value = sum(items);
  return {
    value,
    currency,
    contents: items.map((i) => ({ id: i.id, quantity: i.quantity })),
    content_ids: items.map((i) => i.id),
    items,
    ecomm_totalvalue: value,
  };
}

export interface TrackedProductInput {
  id: number;
  /** The unit price in cents (the lowest for a variable or grouped product); null = no price. */
  priceCents: number | null;
  /** A grouped product's children, or a variable product's variations, with their prices in cents. */
  children?: { id: number; priceCents: number | null }[];
}

export function productTrackingData(product: TrackedProductInput, currency: string): ProductTrackingData {
  const data: ProductTrackingData = { params: paramsOf([{ id: String(product.id), quantity: 1, price: major(product.priceCents ?? 0) }], currency) };
  if (product.children?.length) {
    data.children = {};
    for (const c of product.children) data.children[String(c.id)] = { content_id: String(c.id), price: major(c.priceCents ?? 0) };
  }
  return data;
}

/**
 * An add-to-cart's params from what was added: a quantity (a variation id picks the variation's price) or, for a
 * grouped product, a quantity per child id (a missing quantity counts 0, docs/contract/storefront.md §5). A grouped
 * add whose total is 0 sends nothing (§4): null.
 */
export function addToCartParams(
  data: ProductTrackingData,
  added: { quantity: number; variationId?: number | null } | { grouped: Record<string, number> },
): TrackingParams | null {
  const currency = data.params.currency;
  if ("grouped" in added) {
    const items = Object.entries(added.grouped)
      .map(([id, q]) => ({ child: data.children?.[id], quantity: Number.isFinite(q) && q > 0 ? Math.floor(q) : 0 }))
      .filter((x): x is { child: { content_id: string; price: number }; quantity: number } => !!x.child && x.quantity > 0)
      .map(({ child, quantity }) => ({ id: child.content_id, quantity, price: child.price }));
    const params = paramsOf(items, currency);
    return params.value > 0 ? params : null;
  }
  const quantity = Number.isFinite(added.quantity) && added.quantity > 0 ? Math.floor(added.quantity) : 1;
  const variation = added.variationId ? data.children?.[String(added.variationId)] : undefined;
  const base = data.params.items[0];
  if (!base) return null;
  return paramsOf([{ id: variation?.content_id ?? base.id, quantity, price: variation?.price ?? base.price }], currency);
}

/** A cart's or an order's lines (cents) as params; the total is the server's (the order's total for a Purchase). */
export function linesParams(
  lines: { productId: number; variationId: number | null; quantity: number; unitCents: number }[],
  totalCents: number,
  currency: string,
): TrackingParams {
  const params = paramsOf(
    lines.map((l) => ({ id: String(l.variationId ?? l.productId), quantity: l.quantity, price: major(l.unitCents) })),
    currency,
  );
  return { ...params, value: major(totalCents), ecomm_totalvalue: major(totalCents) };
}

/** A form as the form-submit tracker sees it. */
export interface FormFacts {
  id: string;
  classes: string[];
  role: string | null;
  action: string;
  /** Classes of the form's ancestors (a form add-on's wrapper). */
  ancestorClasses: string[];
}

/**
 * docs/contract/storefront.md §5 'Automatic form-submit tracking skips these forms': why a form is not tracked, or
 * null when it is. Form add-ons are tracked on their own success events instead.
 */
export function formSkipReason(form: FormFacts): string | null {
  const has = (c: string) => form.classes.includes(c);
  const inside = (c: string) => form.ancestorClasses.includes(c);
  if (form.id === "commentform" || has("comment-form")) return "comment";
  if (form.id === "adminbarsearch") return "admin-bar search";
  if (has("woocommerce-product-search")) return "product search";
  if (form.role === "search" || has("search-form") || has("searchform") || form.id === "searchform") return "search";
  if (has("woocommerce-cart-form")) return "cart form";
  if (has("cart")) return "cart";
  if (has("woocommerce-shipping-calculator")) return "shipping calculator";
  if (has("checkout_coupon") || has("woocommerce-form-coupon")) return "coupon";
  if (has("checkout") || has("woocommerce-checkout")) return "checkout";
  if (has("edd_download_purchase_form")) return "download purchase";
  if (FORM_ADDON_CLASSES.some((c) => has(c) || inside(c)) || /^gform_\d+$/.test(form.id)) return "form add-on";
  return null;
}

/** Forms built by third-party form add-ons (Contact Form 7, WPForms, Gravity Forms, Formidable, Ninja Forms, …). */
const FORM_ADDON_CLASSES = [
  "wpcf7-form",
  "wpforms-form",
  "gform_wrapper",
  "frm-show-form",
  "nf-form-cont",
  "forminator-custom-form",
  "fluent_form",
  "frm_forms",
  "mc4wp-form",
];

/** The id cookie's value: a JSON map of event name → the id of its latest occurrence. Anything malformed is empty. */
export function parseEventIds(value: string | undefined | null): Partial<Record<TrackingEventName, string>> {
  if (!value) return {};
  try {
    const parsed: unknown = JSON.parse(value);
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return {};
    const out: Partial<Record<TrackingEventName, string>> = {};
    for (const [k, v] of Object.entries(parsed)) if (isTrackingEventName(k) && isEventId(v)) out[k] = v;
    return out;
  } catch {
    return {};
  }
}

/** The cookie after an event: the event's new id replaces its previous one (one id per event name). */
export function eventIdsCookie(current: string | undefined | null, name: TrackingEventName, eventId: string): string {
  return `${EVENT_ID_COOKIE}=${encodeURIComponent(JSON.stringify({ ...parseEventIds(current), [name]: eventId }))}; path=/; SameSite=Lax`;
}

/** The tracking settings the browser sees (site-config `tracking`, picked by `browserTrackingConfig`). */
export interface BrowserTrackingConfig {
  dataLayer: string | null;
  gtm: string | null;
  ga4: string | null;
  pixels: Record<string, string[]>;
  serverEvents: boolean;
  restUrl: string;
  ajaxUrl: string;
  scrollPercent: number;
  timeOnPageSeconds: number;
  events: TrackingEventName[];
  currency: string;
  /** The signed-in customer's id (tag manager's `user_id`, docs/contract/storefront.md §6); 0 for a guest. */
  userId: number;
}

/**
 * The destinations that may load and receive events: configured AND consented. The dataLayer, tag manager and GA4
 * need `analytics`, ad pixels `marketing`; the server copy either (the server routes it per destination again).
 */
export function allowedDestinations(config: BrowserTrackingConfig, consent: ConsentChoice | null) {
  const analytics = consentAllows(consent, "analytics");
  const marketing = consentAllows(consent, "marketing");
  const pixels = marketing ? Object.fromEntries(Object.entries(config.pixels).filter(([, ids]) => ids.length > 0)) : {};
  return {
    dataLayer: analytics && config.dataLayer ? config.dataLayer : null,
    gtm: analytics ? config.gtm : null,
    ga4: analytics ? config.ga4 : null,
    pixels,
    server: config.serverEvents && (analytics || marketing),
  };
}

export function anyDestination(d: ReturnType<typeof allowedDestinations>): boolean {
  return !!(d.dataLayer || d.gtm || d.ga4 || d.server || Object.keys(d.pixels).length);
}

/** The settings' id formats: they end up in script addresses, so a bad one stops the start. */
const ID_FORMATS = { gtm: /^GTM-[A-Z0-9]{4,12}$/, ga4: /^G-[A-Z0-9]{4,16}$/, pixel: /^[A-Za-z0-9_-]{1,64}$/, dataLayer: /^[A-Za-z_$][\w$]{0,63}$/ };

export interface TrackingSettings {
  dataLayer: boolean;
  dataLayerName: string;
  gtmContainerId: string;
  ga4MeasurementId: string;
  pixels: Record<string, readonly string[]>;
  serverEvents: boolean;
  scrollPercent: number;
  timeOnPageSeconds: number;
  events: readonly string[];
}

/** Throws on a setting the tracker could not use (SHOP_SETTINGS checks only kinds). */
export function checkTrackingSettings(t: TrackingSettings): void {
  const fail = (what: string) => {
    throw new Error(`SHOP_SETTINGS: tracking.${what}`);
  };
  if (!ID_FORMATS.dataLayer.test(t.dataLayerName)) fail("dataLayerName must be a JavaScript name");
  if (t.gtmContainerId && !ID_FORMATS.gtm.test(t.gtmContainerId)) fail("gtmContainerId must look like GTM-XXXXXXX");
  if (t.ga4MeasurementId && !ID_FORMATS.ga4.test(t.ga4MeasurementId)) fail("ga4MeasurementId must look like G-XXXXXXXXXX");
  for (const [network, ids] of Object.entries(t.pixels))
    if (ids.length > 10 || !ids.every((id) => typeof id === "string" && ID_FORMATS.pixel.test(id)))
      fail(`pixels.${network} must be up to 10 ids of letters, digits, _ or -`);
  if (!(t.scrollPercent > 0 && t.scrollPercent <= 100)) fail("scrollPercent must be between 1 and 100");
  if (!(t.timeOnPageSeconds > 0 && t.timeOnPageSeconds <= 86_400)) fail("timeOnPageSeconds must be between 1 and 86400");
  const unknown = t.events.find((e) => !isTrackingEventName(e));
  if (unknown !== undefined) fail(`events: unknown event ${unknown} (known: ${TRACKING_EVENTS.join(", ")})`);
}

export function browserTrackingConfig(
  t: TrackingSettings,
  page: { restUrl: string; ajaxUrl: string; currency: string; userId: number },
): BrowserTrackingConfig {
  return {
    dataLayer: t.dataLayer ? t.dataLayerName : null,
    gtm: t.gtmContainerId || null,
    ga4: t.ga4MeasurementId || null,
    pixels: Object.fromEntries(Object.entries(t.pixels).map(([n, ids]) => [n, [...ids]])),
    serverEvents: t.serverEvents,
    scrollPercent: t.scrollPercent,
    timeOnPageSeconds: t.timeOnPageSeconds,
    events: t.events.filter(isTrackingEventName),
    ...page,
  };
}

/** Where each configured destination's script comes from and where it reports (the page's CSP allows exactly these). */
export const DESTINATION_ORIGINS = {
  google: {
    script: ["https://www.googletagmanager.com"],
    connect: ["https://*.google-analytics.com", "https://*.analytics.google.com", "https://www.googletagmanager.com"],
  },
  facebook: { script: ["https://connect.facebook.net"], connect: ["https://www.facebook.com"] },
} as const;

/** The CSP sources the configured destinations need; none when only the page's own dataLayer is on. */
export function trackingCspSources(t: Pick<TrackingSettings, "gtmContainerId" | "ga4MeasurementId" | "pixels">): { script: string[]; connect: string[] } {
  const script = new Set<string>();
  const connect = new Set<string>();
  const add = (o: { script: readonly string[]; connect: readonly string[] }) => {
    o.script.forEach((s) => script.add(s));
    o.connect.forEach((s) => connect.add(s));
  };
  if (t.gtmContainerId || t.ga4MeasurementId) add(DESTINATION_ORIGINS.google);
  if (t.pixels.facebook?.length) add(DESTINATION_ORIGINS.facebook);
  return { script: [...script], connect: [...connect] };
}
