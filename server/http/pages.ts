/**
 * The React Router request handler for pages. It is a close cousin of
 * @react-router/express's, with one difference that matters: the session a
 * loader or action changed is saved before the response is sent.
 */
import type { Request, Response, NextFunction } from "express";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "react-router";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import type { AppServices } from "../services.ts";
import type { ShopServices } from "../../core/commerce/services.ts";
import type { ShopSession } from "../../core/commerce/session.ts";
import type { Storefront } from "../../core/commerce/storefront.server.ts";

// The load context is typed with core/commerce's types only, so route modules never name a server/ module.
declare module "react-router" {
  interface AppLoadContext {
    services: ShopServices;
    /** This request's session, cookies and nonces. */
    shop: ShopSession;
    /** The use cases bound to this request's shopper: cart, pricing, checkout (core/commerce/storefront.server.ts). */
    storefront: Storefront;
    cspNonce: string;
    origin: string;
    /** The client's IP address (behind a proxy on loopback, the forwarded one): the per-address sign-in limit's key. */
    clientAddress: string;
    /** False for the 404 page of an address no route may see (path-guard.ts): rendered without the browser scripts. */
    hydrate: boolean;
    /** The built admin files' version, asked for as `?v=` (server/http/admin-assets.ts); "" in development. */
    adminAssetVersion: string;
    /**
     * The page the page cache renders for everyone (no cookie was read): its cart parts are placeholders the browser
     * fills from the cart fragments (docs/decisions/0042-cart-shoppers-cached.md).
     */
    forEveryone: boolean;
  }
}

/** Matched by the catch-all not-found route only: the 404 page of an address that no route may see. */
const NOT_FOUND_PATH = "/__not-found/";

export function requestOrigin(req: Request): string {
  return `${req.protocol}://${req.get("host") ?? "localhost"}`;
}

function toFetchRequest(req: Request, res: Response, url: string): globalThis.Request {
  const headers = new Headers();
  for (const [key, values] of Object.entries(req.headers)) {
    if (values === undefined) continue;
    if (Array.isArray(values)) for (const v of values) headers.append(key, v);
    else headers.set(key, values);
  }
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(`${requestOrigin(req)}${url}`, init);
}

/**
 * The page handler, and `notFound`: the shop's 404 page for an address no route may see. React Router renders it
 * for the not-found route's own address, so no loader of the route the address would match runs; as the browser
 * would hydrate that route, not the one rendered, the page goes without its scripts.
 */
export function pageHandler(getBuild: () => Promise<ServerBuild>, services: AppServices, assets: { adminAssetVersion: string }) {
  let cached: { build: ServerBuild; handle: ReturnType<typeof createRequestHandler> } | null = null;
  /** The page's response, with the session a loader changed saved; `cspNonce` "" renders the scripts without one. */
  const respond = async (req: Request, res: Response, notFound: boolean, cspNonce: string) => {
    const build = await getBuild();
    if (!cached || cached.build !== build) cached = { build, handle: createRequestHandler(build, services.production ? "production" : "development") };
    const context: AppLoadContext = {
      services,
      shop: req.shop,
      storefront: req.storefront,
      cspNonce,
      origin: requestOrigin(req),
      clientAddress: req.ip ?? "unknown",
      hydrate: !notFound,
      adminAssetVersion: assets.adminAssetVersion,
      forEveryone: req.shop.anonymous,
    };
    const response = await cached.handle(toFetchRequest(req, res, notFound ? NOT_FOUND_PATH : req.originalUrl), context);
    await req.shop.flush();
    return response;
  };
  const render = async (req: Request, res: Response, next: NextFunction, notFound: boolean) => {
    try {
      const response = await respond(req, res, notFound, String(res.locals.cspNonce ?? ""));
      if (res.destroyed || res.writableEnded) return void (await response.body?.cancel());
      res.status(response.status);
      for (const [key, value] of response.headers.entries()) res.append(key, value);
      // A page that is not the page cache's is this visitor's own: no shared cache (a CDN, a proxy) keeps it.
      if (!res.hasHeader("Cache-Control") && (req.method === "GET" || req.method === "HEAD")) res.setHeader("Cache-Control", "private, no-cache");
      if (response.body) await writeReadableStreamToWritable(response.body, res);
      else res.end();
    } catch (error) {
      // A client that goes away mid-stream is not a server error.
      if (res.destroyed || res.writableEnded || (res.headersSent && req.socket.destroyed)) return;
      next(error);
    }
  };
  /** For the page cache (server/cache/page-cache.ts): the whole page in memory, its scripts without a CSP nonce. */
  const renderToBuffer = async (req: Request, res: Response): Promise<RenderedPage> => {
    const response = await respond(req, res, false, "");
    const body = Buffer.from(await response.arrayBuffer());
    return { status: response.status, headers: [...response.headers.entries()], body };
  };
  return Object.assign((req: Request, res: Response, next: NextFunction) => render(req, res, next, false), {
    notFound: (req: Request, res: Response, next: NextFunction) => render(req, res, next, true),
    renderToBuffer,
  });
}

export interface RenderedPage {
  status: number;
  headers: [string, string][];
  body: Buffer;
}
