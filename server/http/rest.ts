/**
 * The REST root /wp-json/ (and ?rest_route=), as @wordpress/api-fetch expects it
 * (docs/contract/wire.md §2): method override by header or ?_method, `_locale` accepted,
 * X-WP-Nonce checked against the browser (missing = anonymous, wrong = 403
 * rest_cookie_invalid_nonce), and every error in WordPress's {code, message, data}.
 */
import type { Request, Response, NextFunction } from "express";
import { sendReply, json, type Reply } from "./dispatch.ts";
import type { AppServices } from "../services.ts";

import { REST_NONCE_ACTION } from "../../core/security/nonce.ts";

export { REST_NONCE_ACTION };

export interface RestInput {
  req: Request;
  method: string;
  pathParams: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  authenticated: boolean; // a valid nonce came with the request
  services: AppServices;
}

export type RestHandler = (input: RestInput) => Promise<Reply> | Reply;

interface Route {
  method: string;
  pattern: RegExp;
  keys: string[];
  handler: RestHandler;
}

export function restError(code: string, message: string, status: number, extra: Record<string, unknown> = {}): Reply {
  return json({ code, message, data: { status, ...extra } }, status);
}

/** Runs before the session is loaded, for the routes under a prefix (the Store API's Cart-Token picks the session). */
export type RestPrepare = (req: Request, services: AppServices) => Promise<void> | void;

export class RestRouter {
  private readonly routes: Route[] = [];
  private readonly prepares: { prefix: string; hook: RestPrepare }[] = [];
  /** Namespaces the REST index lists beside wp/v2 and shop/v1. */
  readonly namespaces: string[] = ["wp/v2", "shop/v1"];

  /** `prefix` like "wc/store/" (no leading slash). */
  prepare(prefix: string, hook: RestPrepare): this {
    this.prepares.push({ prefix, hook });
    return this;
  }

  async runPrepare(req: Request, path: string, services: AppServices): Promise<void> {
    for (const p of this.prepares) if (path.startsWith(p.prefix)) await p.hook(req, services);
  }

  /** `path` like "wp/v2/posts/:id" (no leading slash). */
  register(method: string, path: string, handler: RestHandler): this {
    const keys: string[] = [];
    const source = path
      .split("/")
      .map((seg) => (seg.startsWith(":") ? (keys.push(seg.slice(1)), "([^/]+)") : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/");
    this.routes.push({ method: method.toUpperCase(), pattern: new RegExp(`^${source}/?$`), keys, handler });
    return this;
  }

  match(method: string, path: string): { route: Route; params: Record<string, string> } | "method" | null {
    let pathMatched = false;
    for (const route of this.routes) {
      const m = route.pattern.exec(path);
      if (!m) continue;
      pathMatched = true;
      if (route.method !== method && !(method === "HEAD" && route.method === "GET")) continue;
      const params: Record<string, string> = {};
      route.keys.forEach((k, i) => (params[k] = decodeURIComponent(m[i + 1]!)));
      return { route, params };
    }
    return pathMatched ? "method" : null;
  }
}

/** REST's answer for an address no route serves (also path-guard.ts's, for addresses no route may see). */
export const restNoRoute = () => restError("rest_no_route", "No route was found matching the URL and request method.", 404);

export function restMiddleware(router: RestRouter, services: AppServices) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const restRoute = typeof req.query.rest_route === "string" ? req.query.rest_route : undefined;
    let path: string;
    if (req.path.startsWith("/wp-json")) path = req.path.slice("/wp-json".length);
    else if (restRoute !== undefined) path = restRoute;
    else return next();
    path = path.replace(/^\/+/, "");
    try {
      const override = req.get("X-HTTP-Method-Override") ?? (typeof req.query._method === "string" ? req.query._method : undefined);
      const method = (req.method === "POST" && override ? override : req.method).toUpperCase();
      const nonce = req.get("X-WP-Nonce") ?? (typeof req.query._wpnonce === "string" ? req.query._wpnonce : undefined);
      await router.runPrepare(req, path, services);
      await req.shop.session(); // nonces depend on who is signed in
      if (nonce !== undefined && !req.shop.verifyNonce(REST_NONCE_ACTION, nonce)) {
        return await sendReply(req, res, restError("rest_cookie_invalid_nonce", "Cookie check failed", 403));
      }
      if (path === "") {
        return await sendReply(
          req,
          res,
          json({ name: services.config.siteName, description: services.config.tagline, url: services.siteUrl, namespaces: router.namespaces, routes: {} }),
        );
      }
      const found = router.match(method, path);
      if (found === null || found === "method") return await sendReply(req, res, restNoRoute());
      const reply = await found.route.handler({
        req,
        method,
        pathParams: found.params,
        query: req.query as Record<string, unknown>,
        body: req.body,
        authenticated: nonce !== undefined,
        services,
      });
      const headers: Record<string, string> = {};
      if (nonce !== undefined) headers["X-WP-Nonce"] = req.shop.nonce(REST_NONCE_ACTION);
      await sendReply(req, res, reply, headers);
    } catch (error) {
      next(error);
    }
  };
}
