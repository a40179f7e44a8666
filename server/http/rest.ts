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
import { findCustomerRole } from "../../core/db/repositories/customers.ts";
import { readSiteOptions } from "../../core/commerce/site-options.ts";

export { REST_NONCE_ACTION };

export interface RestInput {
  req: Request;
  method: string;
  pathParams: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  authenticated: boolean; // a valid nonce came with the request
  services: AppServices;
  /**
   * Who is calling (server/http/rest-permission.ts): the user of an application password (HTTP Basic), else the
   * signed-in user when a valid X-WP-Nonce came with the cookie, else null (a guest). Resolved once per request.
   */
  user: () => Promise<RestUser | null>;
}

/** The caller of a REST route. `via` tells how they proved it. */
export interface RestUser {
  id: number;
  role: string;
  via: "cookie" | "application-password";
  /** The uuid of the application password that authenticated the request (introspection). */
  applicationPassword?: string;
}

/**
 * Checks an `Authorization` header another way than the cookie (application passwords, docs/contract/wire.md §2.3).
 * Returns the user, an error reply (a wrong password is never silently a guest), or null when the header is not
 * its kind.
 */
export type RestAuthenticator = (req: Request, services: AppServices) => Promise<RestUser | Reply | null>;

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
  readonly authenticators: RestAuthenticator[] = [];
  /** Namespaces the REST index lists beside wp/v2 and shop/v1. */
  readonly namespaces: string[] = ["wp/v2", "shop/v1"];

  /** `prefix` like "wc/store/" (no leading slash). */
  prepare(prefix: string, hook: RestPrepare): this {
    this.prepares.push({ prefix, hook });
    return this;
  }

  /** Adds a way to authenticate by the `Authorization` header (tried in order; the first non-null answer wins). */
  authenticate(authenticator: RestAuthenticator): this {
    this.authenticators.push(authenticator);
    return this;
  }

  async runPrepare(req: Request, path: string, services: AppServices): Promise<void> {
    for (const p of this.prepares) if (path.startsWith(p.prefix)) await p.hook(req, services);
  }

  /**
   * `path` like "wp/v2/posts/:id" (no leading slash); `:id(\d+)` matches digits only, as WordPress's `(?P<id>[\d]+)`,
   * so "wc/v3/products/:id(\d+)" leaves "wc/v3/products/categories" to its own route whatever the order.
   */
  register(method: string, path: string, handler: RestHandler): this {
    const keys: string[] = [];
    const source = path
      .split("/")
      .map((seg) => {
        const param = /^:(\w+)(?:\((.+)\))?$/.exec(seg);
        if (param) return (keys.push(param[1]!), `(${param[2] ?? "[^/]+"})`);
        return seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      })
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
      try {
        route.keys.forEach((k, i) => (params[k] = decodeURIComponent(m[i + 1]!)));
      } catch {
        return null; // a malformed escape (%E0%A4%A) names no object: rest_no_route, never a 500
      }
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
        const site = await readSiteOptions(services.db, services.config); // title and tagline as staff set them (wp/v2/settings)
        return await sendReply(
          req,
          res,
          json({ name: site.title, description: site.description, url: services.siteUrl, namespaces: router.namespaces, routes: {} }),
        );
      }
      const found = router.match(method, path);
      if (found === null || found === "method") return await sendReply(req, res, restNoRoute());
      // Authorization header first (application passwords); a refused header answers at once, as WordPress does.
      let headerUser: RestUser | null = null;
      if (req.get("Authorization")) {
        for (const authenticate of router.authenticators) {
          const outcome = await authenticate(req, services);
          if (outcome === null) continue;
          if ("kind" in outcome) return await sendReply(req, res, outcome);
          headerUser = outcome;
          break;
        }
      }
      let resolved: Promise<RestUser | null> | undefined;
      const user = () =>
        (resolved ??= (async () => {
          if (headerUser) return headerUser;
          if (nonce === undefined) return null;
          const id = req.shop.customerId();
          if (!(id > 0)) return null;
          const role = await findCustomerRole(services.db, id);
          return role === null ? null : { id, role, via: "cookie" as const };
        })());
      const reply = await found.route.handler({
        req,
        method,
        pathParams: found.params,
        query: req.query as Record<string, unknown>,
        body: req.body,
        authenticated: nonce !== undefined || headerUser !== null,
        services,
        user,
      });
      const headers: Record<string, string> = {};
      if (nonce !== undefined) headers["X-WP-Nonce"] = req.shop.nonce(REST_NONCE_ACTION);
      await sendReply(req, res, withFields(reply, req.query._fields), headers);
    } catch (error) {
      next(error);
    }
  };
}

/**
 * WordPress's `_fields`: a comma-separated list (or array) of the top-level fields to keep, `a.b` for nested ones;
 * applied to a successful JSON answer, an object or each object of a list. Errors pass unchanged.
 */
export function withFields(reply: Reply, raw: unknown): Reply {
  if (reply.kind !== "json" || (reply.status ?? 200) >= 400 || raw === undefined) return reply;
  const list = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => (typeof v === "string" ? v.split(",") : []));
  const fields = list.map((f) => f.trim()).filter(Boolean);
  if (fields.length === 0) return reply;
  const pick = (value: unknown): unknown => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
    const out: Record<string, unknown> = {};
    for (const field of fields) {
      const path = field.split(".");
      let from: unknown = value;
      let to: Record<string, unknown> = out;
      for (let i = 0; i < path.length; i++) {
        if (from === null || typeof from !== "object" || !Object.hasOwn(from, path[i]!)) break;
        from = (from as Record<string, unknown>)[path[i]!];
        if (i === path.length - 1) to[path[i]!] = from;
        else to = (to[path[i]!] ??= {}) as Record<string, unknown>;
      }
    }
    return out;
  };
  const body = Array.isArray(reply.body) ? reply.body.map(pick) : pick(reply.body);
  return { ...reply, body };
}
