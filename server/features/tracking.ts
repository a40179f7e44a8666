/**
 * Shopper-action tracking on the server (docs/contract/wire.md §6):
 * - the browser's server-side events: REST `POST /wp-json/pys/v1/event` and the admin-ajax fallback
 *   `pys_api_event`, validated field by field (a refusal is logged at most once a minute per client address),
 *   then queued per consented destination (core/tracking/intake.ts);
 * - the delivery worker that drains the queue in the background (core/tracking/delivery.ts);
 * - the first-party funnel's page steps (product and shop pages, the checkout page), counted after the response
 *   is sent, and its report `GET /wp-json/shop/v1/reports/funnel` for staff (view_woocommerce_reports).
 */
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { Request, Response, NextFunction } from "express";
import proxyAddr from "proxy-addr";
import type { Feature } from "./feature.ts";
import { json, type HandlerInput, type Reply } from "../http/dispatch.ts";
import { restError, type RestInput } from "../http/rest.ts";
import type { AppServices } from "../services.ts";
import { TRACKING_AJAX_ACTION, TRACKING_REST_ROUTE } from "../../core/domain/tracking/events.ts";
import { parseIncomingEvent, type EventRefusal } from "../../core/domain/tracking/server-events.ts";
import { parseFunnelQuery } from "../../core/domain/tracking/funnel-report.ts";
import { acceptEvent } from "../../core/tracking/intake.ts";
import { deliverDueEvents, DELIVERY_DEFAULTS, type DeliveryResult } from "../../core/tracking/delivery.ts";
import { funnelHit, type FunnelStep } from "../../core/tracking/funnel.ts";
import { funnelReport } from "../../core/tracking/report.ts";
import { requireCapability } from "../http/rest-permission.ts";
import { LogLimiter } from "../../core/tracking/log-limit.ts";
import { currentSiteConfig } from "../../core/commerce/site-settings.ts";
import { parseCookies } from "../http/request-context.ts";

export const FUNNEL_REPORT_ROUTE = "shop/v1/reports/funnel";

/** How long a shutdown waits for a delivery run in flight. */
const STOP_WAIT_MS = 10_000;
/** A client's refusals are logged once per this window (the rest are counted into the next line). */
const REFUSAL_LOG_WINDOW_MS = 60_000;

/** One limiter per running shop (tests run several in one process). */
const refusalLogs = new WeakMap<AppServices, LogLimiter>();

async function takeEvent(req: Request, params: Record<string, unknown>, services: AppServices, via: "rest" | "ajax") {
  const parsed = parseIncomingEvent(params, via);
  const client = req.ip ?? "unknown";
  const refused = (refusal: EventRefusal) => {
    let limit = refusalLogs.get(services);
    if (!limit) refusalLogs.set(services, (limit = new LogLimiter(REFUSAL_LOG_WINDOW_MS)));
    // Once a minute per client address; never the body.
    const line = limit.take(client, Date.now());
    if (line) services.logger.warn("tracking event refused", { client, via, code: refusal.code, param: refusal.param, suppressed: line.suppressed });
    return { ok: false as const, refusal };
  };
  if (!parsed.ok) return refused(parsed.refusal);
  const session = await req.shop.session();
  const result = await acceptEvent(services.db, services.trackingDestinations, {
    event: parsed.event,
    cookies: req.shop.cookies,
    session: session ? { customerId: session.customerId, data: session.data } : null,
    clientAddress: client,
    userAgent: (req.get("user-agent") ?? "").slice(0, 500),
    referer: req.get("referer")?.slice(0, 2048) ?? null,
    globalPrivacyControl: req.get("sec-gpc") === "1",
    consentRequired: (await currentSiteConfig(services)).consent.required,
    now: services.now(),
    secret: services.secret,
  });
  return result.ok ? result : refused(result.refusal);
}

/** WordPress's REST answer for a parameter problem (rest_missing_callback_param / rest_invalid_param). */
function restRefusal(r: EventRefusal): Reply {
  return r.code === "rest_missing_callback_param"
    ? restError(r.code, `Missing parameter(s): ${r.param}`, 400, { params: [r.param] })
    : restError(r.code, `Invalid parameter(s): ${r.param}`, 400, { params: { [r.param]: r.reason } });
}

async function restEvent({ req, query, body, services }: RestInput): Promise<Reply> {
  const fields = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const result = await takeEvent(req, { ...query, ...fields }, services, "rest");
  // The same success whether or not consent let anything be queued: the page learns nothing from it.
  return result.ok ? json({ success: true }) : restRefusal(result.refusal);
}

async function ajaxEvent({ req, params, services }: HandlerInput): Promise<Reply> {
  const result = await takeEvent(req, params, services, "ajax");
  if (result.ok) return json({ success: true });
  const r = result.refusal;
  return json({ success: false, data: { code: r.code, param: r.param, message: r.reason } }, 400);
}

async function funnelReportRoute(input: RestInput): Promise<Reply> {
  const { query, services } = input;
  const denied = await requireCapability(input, "view_woocommerce_reports");
  if (denied) return denied;
  const parsed = parseFunnelQuery(query, services.now());
  if (!parsed.ok) return restError("rest_invalid_param", `Invalid parameter(s): ${Object.keys(parsed.params).join(", ")}`, 400, { params: parsed.params });
  await services.funnel.flush(); // what has been counted so far, not what was counted a second ago
  return json(await funnelReport(services.db, parsed.query, services.config.currency.code), 200, { "Cache-Control": "no-store" });
}

/** The funnel's page steps: a shop, category or product page is a view, the checkout page a checkout. */
export function pageStep(path: string): FunnelStep | null {
  // React Router's client-side navigations load the same page's data at <path>.data.
  const p = path.replace(/\.data$/, "").replace(/\/$/, "");
  if (/^\/(?:shop|product-category\/[^/]+)(?:\/page\/\d+)?$/.test(p) || /^\/product\/[^/]+$/.test(p)) return "view";
  if (p === "/checkout") return "checkout";
  return null;
}

/** The funnel step a request views: a GET of such a page that is not a browser's speculative prefetch. */
function viewedStep(method: string | undefined, path: string, headers: IncomingHttpHeaders): FunnelStep | null {
  if (method !== "GET") return null;
  const purpose = headers["sec-purpose"] ?? headers["purpose"];
  if (/prefetch|prerender/i.test(String(purpose ?? ""))) return null;
  return pageStep(path);
}

function funnelPages(services: AppServices) {
  return (req: Request, res: Response, next: NextFunction) => {
    const step = viewedStep(req.method, req.path, req.headers);
    if (step) {
      const cookies = req.shop.cookies;
      const visitor = { address: req.ip ?? "", userAgent: req.get("user-agent") ?? "" };
      // When the page's head goes out (its status known; a sync push to the buffer, nothing awaited). Not on
      // 'finish': that waits for the client to read the whole body, so a slow reader would be counted late or never.
      const writeHead = res.writeHead;
      res.writeHead = function (this: Response, ...args: Parameters<typeof writeHead>) {
        res.writeHead = writeHead;
        const status = typeof args[0] === "number" ? args[0] : this.statusCode;
        if (status === 200) services.funnel.record(funnelHit(step, visitor, cookies));
        return writeHead.apply(this, args);
      } as typeof writeHead;
    }
    next();
  };
}

/**
 * The same count for a page the page cache answered before Express (server/cache/page-cache.ts `onRawHit`): the
 * client's address by the app's own "trust proxy" rule (`app.get("trust proxy fn")`), as `req.ip` would give it.
 */
export function countCachedPageView(services: AppServices, trustProxy: (address: string, hop: number) => boolean) {
  return (req: IncomingMessage) => {
    const step = viewedStep(req.method, (req.url ?? "/").split("?")[0]!, req.headers);
    if (!step) return;
    const visitor = { address: proxyAddr(req, trustProxy), userAgent: req.headers["user-agent"] ?? "" };
    services.funnel.record(funnelHit(step, visitor, parseCookies(req.headers.cookie)));
  };
}

export const trackingFeature: Feature = {
  name: "tracking",
  endpoints(endpoints) {
    endpoints.rest.register("POST", TRACKING_REST_ROUTE, restEvent);
    endpoints.adminAjax.register(TRACKING_AJAX_ACTION, ajaxEvent);
    endpoints.rest.register("GET", FUNNEL_REPORT_ROUTE, funnelReportRoute);
  },
  routes(app, services) {
    app.use(funnelPages(services));
  },
  async start({ services, env }) {
    const { logger } = services;
    const destinations = services.trackingDestinations;
    const stopFunnel = () => services.funnel.close();
    if (!destinations.length) {
      logger.info("no tracking destination configured: server-side events are not queued (the funnel still counts)");
      return stopFunnel;
    }
    const stopper = new AbortController();
    let timer: NodeJS.Timeout | null = null;
    let running: Promise<void> | null = null;
    const down = new Set<string>();
    const runOnce = async (): Promise<DeliveryResult | null> => {
      try {
        const done = await deliverDueEvents({
          db: services.db,
          destinations,
          log: logger,
          signal: stopper.signal,
          baseDelayMs: env.TRACKING_RETRY_BASE_MS,
          maxDelayMs: env.TRACKING_RETRY_MAX_MS,
          maxAttempts: env.TRACKING_MAX_ATTEMPTS,
        });
        if (done.sent || done.deferred || done.failed) logger.debug("tracking delivery run", { ...done, down: done.down.length });
        // One warning when a destination starts failing and one line when it answers again, not one per run.
        for (const { destination, reason } of done.down) {
          if (!down.has(destination)) logger.warn("tracking destination failing: its events wait and are retried", { destination, reason });
          down.add(destination);
        }
        if (done.sent)
          for (const destination of [...down])
            if (!done.down.some((d) => d.destination === destination)) {
              down.delete(destination);
              logger.info("tracking destination answering again", { destination });
            }
        return done;
      } catch (error) {
        logger.warn("tracking delivery failed", { error: (error as Error).message });
        return null;
      }
    };
    // A chain of timeouts, as the mail sender's: a slow run is never overlapped by the next.
    const schedule = (ms: number) => {
      if (stopper.signal.aborted) return;
      timer = setTimeout(() => {
        timer = null;
        running = runOnce().then((done) => {
          running = null;
          schedule(done && done.claimed >= DELIVERY_DEFAULTS.batchSize ? 0 : env.TRACKING_SEND_EVERY_MS);
        });
      }, ms);
      timer.unref();
    };
    schedule(Math.min(250, env.TRACKING_SEND_EVERY_MS));
    // Names and hosts only: URLs may carry keys, tokens never go to the log.
    logger.info("tracking delivery started", {
      destinations: destinations.map((d) => `${d.name}:${new URL(d.url).host}`),
      everyMs: env.TRACKING_SEND_EVERY_MS,
    });
    return async () => {
      stopper.abort();
      if (timer) clearTimeout(timer);
      if (running) {
        let waited: NodeJS.Timeout | undefined;
        await Promise.race([running, new Promise<void>((resolve) => (waited = setTimeout(resolve, STOP_WAIT_MS)))]);
        clearTimeout(waited);
      }
      await stopFunnel();
    };
  },
};
