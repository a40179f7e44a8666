/**
 * The server side of shopper-action tracking, pure (docs/contract/wire.md §6): what a browser's event post must
 * hold (REST `pys/v1/event` and admin-ajax `pys_api_event`), the JSON bodies the two destination styles receive
 * (a Conversions-API-style and a Measurement-Protocol-style POST), and the funnel's attribution fallback.
 */
import { GA4_EVENT_NAMES, TRACKING_EVENTS, isEventId, isTrackingEventName, type TrackingEventName } from "./events.ts";
import { NONE, decodeCookieValue } from "../attribution/sourcebuster.ts";

export const SERVER_EVENT_LIMITS = {
  /** The `data` field's JSON text, in bytes (UTF-8). */
  dataMaxBytes: 8192,
  /** Pixel ids per event, and each id's length. */
  idsMax: 10,
  idMaxLength: 64,
  urlMaxLength: 2048,
  /** Keys kept from `data` (the rest are dropped, never forwarded). */
  dataKeysMax: 40,
} as const;

export interface IncomingEvent {
  name: TrackingEventName;
  /** The browser's params (value, currency, content_ids, contents, items, …), keys checked. */
  data: Record<string, unknown>;
  ids: string[];
  eventId: string;
  wooOrder: number;
  /** The ad network the admin-ajax fallback names (`pixel`); null on the REST route. */
  pixel: string | null;
  /** The page the event happened on (admin-ajax's `url`), when given. */
  url: string | null;
}

/** A refusal in WordPress's REST terms: `rest_missing_callback_param` or `rest_invalid_param`, naming the field. */
export interface EventRefusal {
  code: "rest_missing_callback_param" | "rest_invalid_param";
  param: string;
  /** Why, in words, for `data.params[param]` and the admin-ajax answer. */
  reason: string;
}

const first = (v: unknown): unknown => (Array.isArray(v) && v.length === 1 && typeof v[0] === "string" ? v[0] : v);
const isBlank = (v: unknown) => v === undefined || v === null || v === "";
const byteLength = (s: string) => new TextEncoder().encode(s).length;
const DATA_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;
const ID = /^[A-Za-z0-9_.:-]+$/;

function orderNumber(v: unknown, param: string): number | EventRefusal {
  const value = first(v);
  if (isBlank(value)) return 0;
  if ((typeof value === "string" && /^\d{1,10}$/.test(value)) || (typeof value === "number" && Number.isInteger(value) && value >= 0)) {
    const n = Number(value);
    if (n <= 2_147_483_647) return n;
  }
  return { code: "rest_invalid_param", param, reason: `${param} is not a valid order id.` };
}

/**
 * Reads an event post: `event`, `data` (JSON text of an object, at most 8 KB), `ids` / `ids[]`, `eventID`,
 * `woo_order`, `edd_order`; the admin-ajax fallback adds `pixel`, `url` and `ajax_event`. The first problem found
 * is returned, so the answer names one field.
 */
export function parseIncomingEvent(
  params: Record<string, unknown>,
  via: "rest" | "ajax",
): { ok: true; event: IncomingEvent } | { ok: false; refusal: EventRefusal } {
  const refuse = (code: EventRefusal["code"], param: string, reason: string) => ({ ok: false as const, refusal: { code, param, reason } });

  const name = first(params.event);
  if (isBlank(name)) return refuse("rest_missing_callback_param", "event", "event is required.");
  if (!isTrackingEventName(name)) return refuse("rest_invalid_param", "event", `event is not one of ${TRACKING_EVENTS.join(", ")}.`);

  const eventId = first(params.eventID);
  if (isBlank(eventId)) return refuse("rest_missing_callback_param", "eventID", "eventID is required.");
  if (!isEventId(eventId)) return refuse("rest_invalid_param", "eventID", "eventID is not a valid event id (a UUID).");

  let data: Record<string, unknown> = {};
  const rawData = first(params.data);
  if (!isBlank(rawData)) {
    if (typeof rawData !== "string") {
      // A JSON body may carry the object itself rather than its text.
      if (typeof rawData !== "object" || Array.isArray(rawData)) return refuse("rest_invalid_param", "data", "data is not a JSON object.");
      const text = JSON.stringify(rawData);
      if (byteLength(text) > SERVER_EVENT_LIMITS.dataMaxBytes)
        return refuse("rest_invalid_param", "data", `data is longer than ${SERVER_EVENT_LIMITS.dataMaxBytes} bytes.`);
      data = rawData as Record<string, unknown>;
    } else {
      if (byteLength(rawData) > SERVER_EVENT_LIMITS.dataMaxBytes)
        return refuse("rest_invalid_param", "data", `data is longer than ${SERVER_EVENT_LIMITS.dataMaxBytes} bytes.`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(rawData);
      } catch {
        return refuse("rest_invalid_param", "data", "data is not valid JSON.");
      }
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return refuse("rest_invalid_param", "data", "data is not a JSON object.");
      data = parsed as Record<string, unknown>;
    }
    const keys = Object.keys(data);
    if (keys.length > SERVER_EVENT_LIMITS.dataKeysMax)
      return refuse("rest_invalid_param", "data", `data has more than ${SERVER_EVENT_LIMITS.dataKeysMax} keys.`);
    const bad = keys.find((k) => !DATA_KEY.test(k));
    if (bad !== undefined) return refuse("rest_invalid_param", "data", "data has a key that is not a parameter name.");
  }

  const rawIds = params.ids ?? params["ids[]"];
  const ids = isBlank(rawIds) ? [] : Array.isArray(rawIds) ? rawIds : [rawIds];
  if (ids.length > SERVER_EVENT_LIMITS.idsMax) return refuse("rest_invalid_param", "ids", `ids has more than ${SERVER_EVENT_LIMITS.idsMax} entries.`);
  if (!ids.every((id) => typeof id === "string" && id.length <= SERVER_EVENT_LIMITS.idMaxLength && ID.test(id)))
    return refuse("rest_invalid_param", "ids", "ids holds a value that is not a pixel id.");

  const wooOrder = orderNumber(params.woo_order, "woo_order");
  if (typeof wooOrder !== "number") return { ok: false, refusal: wooOrder };
  const eddOrder = orderNumber(params.edd_order, "edd_order");
  if (typeof eddOrder !== "number") return { ok: false, refusal: eddOrder };
  if (name === "Purchase" && wooOrder === 0) return refuse("rest_missing_callback_param", "woo_order", "woo_order is required for a Purchase.");

  let pixel: string | null = null;
  let url: string | null = null;
  if (via === "ajax") {
    const p = first(params.pixel);
    if (isBlank(p)) return refuse("rest_missing_callback_param", "pixel", "pixel is required.");
    if (typeof p !== "string" || !/^[a-z][a-z0-9_]{0,31}$/.test(p)) return refuse("rest_invalid_param", "pixel", "pixel is not an ad network name.");
    pixel = p;
    const u = first(params.url);
    if (!isBlank(u)) {
      if (typeof u !== "string" || u.length > SERVER_EVENT_LIMITS.urlMaxLength || !isHttpUrl(u))
        return refuse("rest_invalid_param", "url", "url is not a web address.");
      url = u;
    }
    const ajaxEvent = first(params.ajax_event);
    if (!isBlank(ajaxEvent) && (typeof ajaxEvent !== "string" || !/^[\w-]{1,64}$/.test(ajaxEvent)))
      return refuse("rest_invalid_param", "ajax_event", "ajax_event is not a valid token.");
  }
  return { ok: true, event: { name, data, ids: ids as string[], eventId, wooOrder, pixel, url } };
}

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Destination bodies
// ---------------------------------------------------------------------------------------------------------------

/** What only the server knows, added to the browser's event. Money in minor units (decision 0003). */
export interface EventEnrichment {
  /** Epoch seconds when the server received the event. */
  time: number;
  pageUrl: string | null;
  clientAddress: string;
  userAgent: string;
  /** The Purchase's order, as stored: its id, total and currency, and its lines' product ids and quantities. */
  order: { id: number; total: number; currency: string; lines: { productId: number; quantity: number; total: number }[] } | null;
  attribution: { source: string; medium: string; campaign: string };
  /** SHA-256 of the signed-in customer's trimmed, lower-cased e-mail; only a destination that accepts one gets it. */
  hashedEmail: string | null;
  /** A stable pseudonymous browser id for the analytics destination (client_id). */
  clientId: string;
  /** The signed-in customer's id, 0 for a guest. */
  userId: number;
}

const toMajor = (minor: number) => Math.round(minor) / 100;

/** The browser's params with the Purchase's value, currency and contents replaced by the stored order's. */
function customData(event: IncomingEvent, e: EventEnrichment): Record<string, unknown> {
  const out: Record<string, unknown> = { ...event.data };
  if (e.order) {
    out.value = toMajor(e.order.total);
    out.currency = e.order.currency;
    out.order_id = String(e.order.id);
    out.content_ids = e.order.lines.map((l) => String(l.productId));
    out.contents = e.order.lines.map((l) => ({ id: String(l.productId), quantity: l.quantity }));
    out.num_items = e.order.lines.reduce((n, l) => n + l.quantity, 0);
  }
  return out;
}

/** A Conversions-API-style body: `{data: [event]}` (Meta's shape), the user data hashed where it names a person. */
export function capiBody(event: IncomingEvent, e: EventEnrichment): Record<string, unknown> {
  const userData: Record<string, unknown> = { client_ip_address: e.clientAddress, client_user_agent: e.userAgent };
  if (e.hashedEmail) userData.em = [e.hashedEmail];
  return {
    data: [
      {
        event_name: event.name,
        event_time: e.time,
        event_id: event.eventId,
        action_source: "website",
        ...(e.pageUrl ? { event_source_url: e.pageUrl } : {}),
        user_data: userData,
        custom_data: { ...customData(event, e), utm_source: e.attribution.source, utm_medium: e.attribution.medium, utm_campaign: e.attribution.campaign },
      },
    ],
  };
}

/** A Measurement-Protocol-style body (GA4's): `{client_id, events: [{name, params}]}`, GA4 event names. */
export function mpBody(event: IncomingEvent, e: EventEnrichment): Record<string, unknown> {
  const data = customData(event, e);
  const params: Record<string, unknown> = { ...data, event_id: event.eventId, engagement_time_msec: 1 };
  if (e.order) {
    params.transaction_id = String(e.order.id);
    params.items = e.order.lines.map((l) => ({ item_id: String(l.productId), quantity: l.quantity, price: toMajor(l.total / Math.max(1, l.quantity)) }));
    delete params.contents;
    delete params.content_ids;
    delete params.order_id;
  }
  if (e.pageUrl) params.page_location = e.pageUrl;
  params.source = e.attribution.source;
  params.medium = e.attribution.medium;
  params.campaign = e.attribution.campaign;
  return {
    client_id: e.clientId,
    ...(e.userId > 0 ? { user_id: String(e.userId) } : {}),
    timestamp_micros: e.time * 1_000_000,
    events: [{ name: GA4_EVENT_NAMES[event.name], params }],
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Attribution for the funnel
// ---------------------------------------------------------------------------------------------------------------

export interface FunnelAttribution {
  source: string;
  medium: string;
  campaign: string;
}

export const DIRECT: FunnelAttribution = { source: "(direct)", medium: NONE, campaign: NONE };

const clean = (v: string | undefined) => {
  const s = (v ?? "").trim().slice(0, 100);
  return s === "" ? NONE : s;
};

/**
 * Where a visit came from: the `sbjs_current` cookie when the browser has one, else the order's stored attribution
 * (`_wc_order_attribution_utm_*` meta, docs/contract/wire.md §4.5), else `(direct)` / `(none)` / `(none)`.
 */
export function funnelAttribution(sbjsCurrent: string | undefined, orderMeta: Record<string, string> | null = null): FunnelAttribution {
  if (sbjsCurrent) {
    const c = decodeCookieValue(sbjsCurrent);
    if (c.src) return { source: clean(c.src), medium: clean(c.mdm), campaign: clean(c.cmp) };
  }
  const src = orderMeta?._wc_order_attribution_utm_source;
  if (src && src !== NONE) {
    return {
      source: clean(src),
      medium: clean(orderMeta?._wc_order_attribution_utm_medium),
      campaign: clean(orderMeta?._wc_order_attribution_utm_campaign),
    };
  }
  return DIRECT;
}
