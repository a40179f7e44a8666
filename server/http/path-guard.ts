/**
 * Addresses that cannot name anything, refused before any entry point or route sees them: a path segment that
 * decodes to a control character (U+0000–U+001F, U+007F–U+009F). PostgreSQL refuses the NUL byte in text outright,
 * so a slug carrying it once reached a query and answered 500; no product, post, term or endpoint is named with a
 * control character, so the answer is 404, in the entry point's own shape (REST's error object, else the 404 page).
 */
import type { NextFunction, Request, Response } from "express";
import { sendReply } from "./dispatch.ts";
import { restNoRoute } from "./rest.ts";

const CONTROL = /\p{Cc}/u;

/** Whether every segment of the raw (still percent-encoded) `pathname` decodes to text free of control characters. */
export function isNamablePath(pathname: string): boolean {
  if (CONTROL.test(pathname)) return false;
  for (const segment of pathname.split("/")) {
    if (!segment.includes("%")) continue;
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      continue; // a malformed escape: the router's own answer (400) stands
    }
    if (CONTROL.test(decoded)) return false;
  }
  return true;
}

type Handler = (req: Request, res: Response, next: NextFunction) => unknown;

/** Express middleware: unnamable paths get 404 (REST: `rest_no_route`; pages: `notFoundPage`, the shop's 404 page). */
export function pathGuard(notFoundPage: Handler) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (isNamablePath(req.path)) return next();
    if (req.path.startsWith("/wp-json")) return void sendReply(req, res, restNoRoute());
    if (req.method !== "GET" && req.method !== "HEAD") return void res.status(404).type("text/plain").send("Not Found");
    return notFoundPage(req, res, next);
  };
}
