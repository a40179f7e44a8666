/** Security headers for every response; a per-request CSP nonce for pages. */
import type { Request, Response, NextFunction } from "express";
import { randomBytes } from "node:crypto";

/** `extra`: the configured tracking destinations' sources (trackingCspSources), added to script-src, connect-src and img-src. */
export function securityHeaders(production: boolean, extra: { script: string[]; connect: string[] } = { script: [], connect: [] }) {
  const sources = (list: string[]) => (list.length ? ` ${list.join(" ")}` : "");
  return (req: Request, res: Response, next: NextFunction) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "SAMEORIGIN");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(self)");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    const nonce = randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    // Vite's dev server injects its own inline scripts, so the strict policy applies in production only.
    if (production) {
      res.setHeader(
        "Content-Security-Policy",
        [
          "default-src 'self'",
          `script-src 'self' 'nonce-${nonce}'${sources(extra.script)}`,
          "style-src 'self' 'unsafe-inline'",
          `img-src 'self' data:${sources(extra.connect)}`,
          `connect-src 'self' ws: wss:${sources(extra.connect)}`,
          "font-src 'self'",
          "object-src 'none'",
          "base-uri 'self'",
          "form-action 'self'",
          "frame-ancestors 'self'",
        ].join("; "),
      );
    }
    next();
  };
}
