/**
 * The one HTTP application: security headers, the per-request context, the
 * wc-ajax / admin-ajax / REST entry points, media and static files, then pages.
 * The websocket upgrade at /ws is attached to the HTTP server in main.ts.
 */
import express, { type Request, type Response, type NextFunction } from "express";
import compression from "compression";
import path from "node:path";
import type { ServerBuild } from "react-router";
import type { AppServices } from "./services.ts";
import { securityHeaders } from "./http/security.ts";
import { trackingCspSources } from "../core/domain/tracking/browser-tracking.ts";
import { requestContextMiddleware } from "./http/request-context.ts";
import { Registry } from "./http/dispatch.ts";
import { wcAjaxMiddleware, WC_AJAX_HEADERS } from "./http/wc-ajax.ts";
import { adminAjaxHandler } from "./http/admin-ajax.ts";
import { RestRouter, restMiddleware } from "./http/rest.ts";
import { mediaHandler } from "./http/media.ts";
import { pageHandler } from "./http/pages.ts";
import { pathGuard } from "./http/path-guard.ts";
import { sendBusy } from "./http/busy.ts";
import { isDatabaseBusy } from "../core/db/client.ts";
import { entriesToBody, isMultipart, readMultipart } from "./http/multipart.ts";
import { createStorefront } from "../core/commerce/storefront.server.ts";
import { sessionCookieName } from "../core/security/session-token.ts";
import { FEATURES } from "./features/index.ts";
import { requestLogger } from "./log.ts";
import type { Endpoints } from "./features/feature.ts";
import type { PageCache } from "./cache/page-cache.ts";
import { ANONYMOUS_NONCE_ACTIONS } from "../core/security/nonce.ts";
import { ADMIN_ASSETS_PATH, adminAssetVersion, adminAssets } from "./http/admin-assets.ts";

export interface AppOptions {
  services: AppServices;
  /** Where the React Router build comes from: the built bundle, or Vite in development. */
  getBuild: () => Promise<ServerBuild>;
  /** Development: Vite's middlewares (assets, HMR). */
  devMiddleware?: express.RequestHandler;
  clientDir?: string;
  /** Express's "trust proxy": which hops may set X-Forwarded-For (the client address the sign-in limits use). */
  trustProxy?: string;
  /** The anonymous page cache (server/cache/page-cache.ts); none: every page is rendered. */
  pageCache?: PageCache;
}

/** "3" → 3 hops; "false" → trust nobody; anything else is Express's list form ("loopback, 10.0.0.0/8"). */
function trustProxySetting(value: string): boolean | number | string {
  if (value === "false") return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

export function createApp(opts: AppOptions): express.Express {
  const { services } = opts;
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", trustProxySetting(opts.trustProxy ?? "loopback"));
  app.set("query parser", "extended"); // quantity[12]=1 style fields, as PHP reads them

  const endpoints: Endpoints = { wcAjax: new Registry(), adminAjax: new Registry(), rest: new RestRouter() };
  for (const feature of FEATURES) feature.endpoints?.(endpoints, services);

  // A kept page is answered before Express (server/main.ts); a page to keep is rendered by the page cache's fill below.
  app.use(compression());
  app.use(securityHeaders(services.production, trackingCspSources(services.config.tracking)));

  // The admin bundle's files are asked for by version (server/http/admin-assets.ts); in development Vite serves them.
  const adminVersion = opts.clientDir && !opts.devMiddleware ? adminAssetVersion(opts.clientDir) : null;
  if (opts.devMiddleware) app.use(opts.devMiddleware);
  else if (opts.clientDir) {
    app.use("/assets", express.static(path.join(opts.clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
    app.use(ADMIN_ASSETS_PATH, adminAssets(opts.clientDir, adminVersion));
    app.use(express.static(opts.clientDir, { maxAge: "1h", index: false }));
  }

  app.use(requestLogger(services.logger)); // pages and APIs, not static files: a request id and one line each
  app.use(
    requestContextMiddleware({
      db: services.db,
      secret: services.secret,
      sessionCookie: sessionCookieName(services.siteUrl),
      now: services.now,
      anonymousNonceActions: new Set([...ANONYMOUS_NONCE_ACTIONS, services.config.discounts.nonceAction]),
    }),
  );
  // One storefront per request, shared by the endpoints and the page loaders (context.storefront).
  app.use((req, _res, next) => {
    req.storefront = createStorefront(services, req.shop, { address: req.ip ?? "", userAgent: req.get("user-agent") ?? "" });
    next();
  });
  const pages = pageHandler(opts.getBuild, services, { adminAssetVersion: adminVersion ?? "" });
  app.use(pathGuard(pages.notFound)); // before every entry point: no endpoint or route sees an unnamable path

  // Bodies are parsed only for the API entry points; pages read their own (React Router actions).
  const limit = services.config.limits.requestBodyBytes;
  const bodyLimits = { bytes: limit, fields: 2000 };
  const parseBodies = [
    express.urlencoded({ extended: true, limit, parameterLimit: bodyLimits.fields }),
    express.json({ limit, strict: false, type: ["application/json", "application/*+json"] }),
  ];
  const isWcAjax = (req: Request) => req.query["wc-ajax"] !== undefined;
  const isRest = (req: Request) => req.path.startsWith("/wp-json") || req.query.rest_route !== undefined;
  // wc-ajax answers 200 in its endpoint's own shape whatever arrives (docs/contract/wire.md §1.2): like PHP dropping a
  // body over post_max_size, an oversized or malformed body is discarded and the endpoint runs without it (its
  // nonce check then fails with that endpoint's failure answer). The other entry points answer 413/400.
  const dropBadBody = (req: Request, next: NextFunction) => (e?: unknown) => {
    const type = (e as { type?: string } | undefined)?.type;
    if (e && isWcAjax(req) && (type === "entity.too.large" || type === "entity.parse.failed" || type === "parameters.too.many")) {
      req.body = {};
      return next();
    }
    next(e);
  };
  // multipart/form-data too, wherever WooCommerce reads $_REQUEST: PHP fills $_POST from either encoding.
  const parseMultipart = (req: Request, res: Response, done: (e?: unknown) => void) =>
    readMultipart(req, res, bodyLimits)
      .then((entries) => void (req.body = entriesToBody(entries, bodyLimits)))
      .then(() => done(), done);
  // An image upload's body is the media route's to read, under its own limit (server/http/upload-body.ts).
  const isMediaUpload = (req: Request) =>
    req.method === "POST" &&
    !req.get("X-HTTP-Method-Override") &&
    req.query._method === undefined &&
    /^\/(wp\/v2\/media|shop\/v1\/downloadable-files)\/?$/.test(
      req.path.startsWith("/wp-json") ? req.path.slice("/wp-json".length) : String(req.query.rest_route ?? ""),
    );
  app.use((req, res, next) => {
    if (!(isWcAjax(req) || isRest(req) || req.path === "/wp-admin/admin-ajax.php") || isMediaUpload(req)) return next();
    if (isMultipart(req)) return void parseMultipart(req, res, dropBadBody(req, next));
    parseBodies[0]!(req, res, (e?: unknown) => (e ? dropBadBody(req, next)(e) : parseBodies[1]!(req, res, dropBadBody(req, next))));
  });

  app.use(wcAjaxMiddleware(endpoints.wcAjax, services));
  app.all("/wp-admin/admin-ajax.php", adminAjaxHandler(endpoints.adminAjax, services));
  app.use(restMiddleware(endpoints.rest, services));
  app.get("/media/:slug.svg", mediaHandler(services.db));
  app.get("/healthz", (_req, res) => res.type("text/plain").send("ok"));
  for (const feature of FEATURES) feature.routes?.(app, services);

  // WordPress-style canonical URLs end with a slash.
  app.use((req, res, next) => {
    if ((req.method === "GET" || req.method === "HEAD") && !req.path.endsWith("/") && !path.extname(req.path) && !req.path.startsWith("/__")) {
      const query = req.originalUrl.slice(req.path.length);
      return res.redirect(301, `${req.path}/${query}`);
    }
    next();
  });

  if (opts.pageCache) {
    // The page for everyone is rendered with a shopper without cookies; undone when a shopper's own page is needed.
    const forEveryone = (req: Request) => {
      const own = { shop: req.shop, storefront: req.storefront };
      req.shop = req.shop.forEveryone();
      req.storefront = createStorefront(services, req.shop, { address: req.ip ?? "", userAgent: req.get("user-agent") ?? "" });
      return () => Object.assign(req, own);
    };
    app.all("/{*splat}", opts.pageCache.fill(pages.renderToBuffer, forEveryone));
  }
  app.all("/{*splat}", pages);

  app.use(errorHandler(services));
  return app;
}

/** Maps body-parser and unexpected errors to each entry point's own error shape. */
function errorHandler(services: AppServices) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (isDatabaseBusy(error)) {
      services.logger.warn("request refused: database busy", { method: req.method, path: req.path, error: String((error as Error).message) });
      if (res.headersSent) return void res.destroy();
      return sendBusy(req, res);
    }
    const e = error as { type?: string; status?: number; statusCode?: number };
    const status =
      e.type === "entity.too.large" ? 413 : e.type === "entity.parse.failed" || e.type === "parameters.too.many" ? 400 : (e.status ?? e.statusCode ?? 500);
    if (status >= 500) services.logger.error("request failed", { method: req.method, path: req.path, error });
    if (res.headersSent) return void res.destroy();
    const rest = req.path.startsWith("/wp-json") || req.query?.rest_route !== undefined;
    if (rest) {
      const code = status === 413 ? "rest_request_too_large" : status === 400 ? "rest_invalid_json" : "rest_internal_error";
      const message = status === 413 ? "The request body is too large." : status === 400 ? "Invalid JSON body passed." : "An internal error occurred.";
      return void res.status(status).json({ code, message, data: { status } });
    }
    if (req.query?.["wc-ajax"] !== undefined) {
      for (const [k, v] of Object.entries(WC_AJAX_HEADERS)) res.setHeader(k, v);
      return void res.status(status >= 500 ? status : 200).end();
    }
    if (req.path === "/wp-admin/admin-ajax.php")
      return void res
        .status(status)
        .type("text/html")
        .send(status >= 500 ? "" : "0");
    res
      .status(status)
      .type("text/plain")
      .send(status === 413 ? "Request body too large" : status === 400 ? "Bad request" : "Something went wrong");
  };
}
