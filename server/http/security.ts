/** Security headers for every response; a per-request CSP nonce for pages. */
import type { Request, Response, NextFunction } from "express";
import { randomBytes } from "node:crypto";

/** The tracking destinations' sources (trackingCspSources), added to script-src, connect-src and img-src. */
export interface CspSources {
  script: string[];
  connect: string[];
}

/**
 * The production Content-Security-Policy; `scripts` are the tokens that allow the page's inline scripts: this
 * response's `'nonce-…'`, or for a page the page cache keeps, the `'sha256-…'` hashes of its scripts (one set of
 * bytes for every visitor; docs/decisions/0028-page-cache.md).
 */
export function contentSecurityPolicy(scripts: string, extra: CspSources = { script: [], connect: [] }): string {
  const sources = (list: string[]) => (list.length ? ` ${list.join(" ")}` : "");
  return [
    "default-src 'self'",
    `script-src 'self'${scripts ? ` ${scripts}` : ""}${sources(extra.script)}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data:${sources(extra.connect)}`,
    `connect-src 'self' ws: wss:${sources(extra.connect)}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join("; ");
}

/** Security headers for every response; a per-request CSP nonce for pages (production only: Vite's dev server injects its own inline scripts). */
export function securityHeaders(production: boolean, extra: CspSources = { script: [], connect: [] }) {
  return (req: Request, res: Response, next: NextFunction) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "SAMEORIGIN");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(self)");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    const nonce = randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    if (production) res.setHeader("Content-Security-Policy", contentSecurityPolicy(`'nonce-${nonce}'`, extra));
    next();
  };
}
