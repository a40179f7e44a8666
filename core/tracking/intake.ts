/**
 * Taking a browser's server-side event (docs/contract/wire.md §6.1): decide which configured destinations may
 * receive it under the visitor's consent (`marketing` for the Conversions-API style, `analytics` for the
 * Measurement-Protocol style), add what only the server knows (a Purchase's real value, currency and contents from
 * the stored order; the attribution; a hashed e-mail for a signed-in customer, Conversions-API style only), and
 * queue one outbox row per destination. Delivery is core/tracking/delivery.ts's job; nothing here waits on a
 * destination.
 */
import { createHash, createHmac } from "node:crypto";
import type { Db } from "../db/client.ts";
import { enqueueTrackingEvents, type NewTrackingEvent } from "../db/repositories/tracking.ts";
import { findOrder } from "../db/repositories/orders.ts";
import { findCustomerProfile } from "../db/repositories/customers.ts";
import type { SessionData } from "../db/repositories/sessions.ts";
import { canSeeOrder } from "../commerce/order-access.ts";
import { CONSENT_COOKIE, consentAllows, effectiveChoice, type ConsentCategory } from "../domain/tracking/consent.ts";
import { capiBody, funnelAttribution, mpBody, type EventEnrichment, type EventRefusal, type IncomingEvent } from "../domain/tracking/server-events.ts";
import { COOKIE_NAMES } from "../domain/attribution/sourcebuster.ts";

/** The two destination styles; their URLs and secrets come from the environment (core/config/env.server.ts). */
export type DestinationName = "capi" | "mp";

export interface Destination {
  name: DestinationName;
  url: string;
  /** CAPI: sent as `Authorization: Bearer`; MP: the `api_secret` query argument (GA4's form). */
  secret: string;
}

/** The destinations the environment configures (a URL set = that destination is on). */
export function destinationsFromEnv(env: {
  TRACKING_CAPI_URL?: string;
  TRACKING_CAPI_TOKEN?: string;
  TRACKING_MP_URL?: string;
  TRACKING_MP_SECRET?: string;
}): Destination[] {
  const out: Destination[] = [];
  if (env.TRACKING_CAPI_URL) out.push({ name: "capi", url: env.TRACKING_CAPI_URL, secret: env.TRACKING_CAPI_TOKEN ?? "" });
  if (env.TRACKING_MP_URL) out.push({ name: "mp", url: env.TRACKING_MP_URL, secret: env.TRACKING_MP_SECRET ?? "" });
  return out;
}

/** Which consent category each destination needs. */
export const DESTINATION_CONSENT: Record<DestinationName, ConsentCategory> = { capi: "marketing", mp: "analytics" };

export interface IntakeRequest {
  event: IncomingEvent;
  cookies: Record<string, string>;
  session: { customerId: number | null; data: SessionData } | null;
  clientAddress: string;
  userAgent: string;
  /** The page the event came from when the post did not say (its Referer). */
  referer: string | null;
  /** The browser's Global Privacy Control signal (the `Sec-GPC: 1` header): a refusal unless the visitor chose. */
  globalPrivacyControl: boolean;
  /** The shop's consent mode (`consent.required`): opt-in (true) or opt-out (false). */
  consentRequired: boolean;
  now: Date;
  /** The shop's secret: keys the pseudonymous analytics client id. */
  secret: string;
}

export type IntakeResult = { ok: true; queued: number } | { ok: false; refusal: EventRefusal };

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/** GA's `_ga` cookie (GA1.1.<random>.<time>) gives its client id; otherwise one keyed on the browser's nonce key. */
function analyticsClientId(cookies: Record<string, string>, secret: string, fallback: string): string {
  const ga = /^GA\d\.\d\.(\d+\.\d+)$/.exec(cookies._ga ?? "");
  if (ga) return ga[1]!;
  const h = createHmac("sha256", secret)
    .update(`ga-client:${cookies.shop_nonce_key ?? fallback}`)
    .digest();
  return `${h.readUInt32BE(0)}.${h.readUInt32BE(4)}`;
}

export async function acceptEvent(db: Db, destinations: readonly Destination[], req: IntakeRequest): Promise<IntakeResult> {
  // The same rule the browser obeys (consent.ts): an explicit choice, else GPC's refusal, else the shop's mode.
  const consent = effectiveChoice(req.cookies[CONSENT_COOKIE], req.globalPrivacyControl, req.consentRequired, req.now.getTime());
  const allowed = destinations.filter((d) => consentAllows(consent, DESTINATION_CONSENT[d.name]));
  // Refused (or nothing configured): the answer is the same success, and nothing is read or queued.
  if (!allowed.length) return { ok: true, queued: 0 };
  const { event } = req;

  let order: EventEnrichment["order"] = null;
  let orderMeta: Record<string, string> | null = null;
  if (event.name === "Purchase") {
    const found = await findOrder(db, event.wooOrder);
    // Only the browser that placed (or owns) a paid order reports its Purchase: nobody can spend another's.
    if (!found || !canSeeOrder(found, req.session) || found.paidAt === null) {
      return { ok: false, refusal: { code: "rest_invalid_param", param: "woo_order", reason: "woo_order is not a paid order of this visitor." } };
    }
    order = {
      id: found.id,
      total: found.total,
      currency: found.currency,
      lines: found.lines.map((l) => ({ productId: l.productId, quantity: l.quantity, total: l.total })),
    };
    orderMeta = found.meta;
  }

  const customerId = req.session?.customerId ?? null;
  let hashedEmail: string | null = null;
  if (customerId && allowed.some((d) => d.name === "capi")) {
    const profile = await findCustomerProfile(db, customerId);
    if (profile) hashedEmail = sha256(profile.email.trim().toLowerCase());
  }

  const enrichment: EventEnrichment = {
    time: Math.floor(req.now.getTime() / 1000),
    pageUrl: event.url ?? req.referer,
    clientAddress: req.clientAddress,
    userAgent: req.userAgent,
    order,
    attribution: funnelAttribution(req.cookies[COOKIE_NAMES.current], orderMeta),
    hashedEmail,
    clientId: analyticsClientId(req.cookies, req.secret, `${req.clientAddress}|${req.userAgent}`),
    userId: customerId ?? 0,
  };
  const rows: NewTrackingEvent[] = allowed.map((d) => ({
    destination: d.name,
    // An order's Purchase once per destination, whatever event id each report carries; any other event once per id.
    dedupeKey: order ? `${d.name}:order:${order.id}` : `${d.name}:${event.eventId}`,
    eventName: event.name,
    eventId: event.eventId,
    orderId: order?.id ?? null,
    payload: d.name === "capi" ? capiBody(event, enrichment) : mpBody(event, enrichment),
  }));
  return { ok: true, queued: await enqueueTrackingEvents(db, rows) };
}
