/**
 * Shopper-action tracking (analytics only, never shop behaviour): the event names the browser may send, their
 * GA4-style names (docs/contract/storefront.md §9 'Tracking (analytics)'), and the event id that pairs a browser
 * event with its server-side copy. Shared by the browser tracker and the server's event endpoint, so both sides
 * accept exactly the same names.
 */

/** The e-commerce events of the contract, then the engagement events the tracker adds. */
export const TRACKING_EVENTS = [
  "PageView",
  "ViewContent",
  "AddToCart",
  "AddToWishList",
  "InitiateCheckout",
  "Purchase",
  "Lead",
  "CompleteRegistration",
  "AddPaymentInfo",
  "PageScroll",
  "TimeOnPage",
  "OutboundClick",
  "FormSubmit",
] as const;
export type TrackingEventName = (typeof TRACKING_EVENTS)[number];

export function isTrackingEventName(name: unknown): name is TrackingEventName {
  return typeof name === "string" && (TRACKING_EVENTS as readonly string[]).includes(name);
}

/** The name a GA4 / tag-manager destination receives. The first eight are the contract's mapping. */
export const GA4_EVENT_NAMES: Record<TrackingEventName, string> = {
  PageView: "page_view",
  ViewContent: "view_item",
  AddToCart: "add_to_cart",
  AddToWishList: "add_to_wishlist",
  InitiateCheckout: "begin_checkout",
  Purchase: "purchase",
  Lead: "generate_lead",
  CompleteRegistration: "sign_up",
  AddPaymentInfo: "set_checkout_option",
  PageScroll: "scroll",
  TimeOnPage: "time_on_page",
  OutboundClick: "click",
  FormSubmit: "form_submit",
};

/** 36 characters, random (a v4 UUID): the contract's event id. Works in the browser and in Node. */
export const EVENT_ID_LENGTH = 36;
export function newEventId(): string {
  return globalThis.crypto.randomUUID();
}
export function isEventId(value: unknown): value is string {
  return typeof value === "string" && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

/** The cookie that keeps the event id per event name, so a browser pixel and the server event share it. */
export const EVENT_ID_COOKIE = "pys_fb_event_id";

/** The REST route (under /wp-json/) the browser posts server-side events to; the fallback is admin-ajax `pys_api_event`. */
export const TRACKING_REST_ROUTE = "pys/v1/event";
export const TRACKING_AJAX_ACTION = "pys_api_event";

/**
 * The customer session's one-shot flag: an account was just created (My account → Register, or "create an account"
 * at checkout). The next page prints CompleteRegistration for the tracker and clears it
 * (docs/contract/storefront.md §9 'Tracking (analytics)').
 */
export const REGISTRATION_SESSION_FLAG = "tracking_registered";
