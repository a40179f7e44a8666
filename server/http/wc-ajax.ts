/**
 * WooCommerce's front-end AJAX entry: any path with `?wc-ajax=<endpoint>`, any
 * method (docs/contract/wire.md §1.2). Every answer is 200 with no-cache headers unless
 * a handler says otherwise; an unknown endpoint answers an empty 200.
 */
import type { Request, Response, NextFunction } from "express";
import { type Registry, firstString, requestParams, sendReply, empty } from "./dispatch.ts";
import type { AppServices } from "../services.ts";

export const WC_AJAX_HEADERS = {
  "Cache-Control": "no-cache, must-revalidate, max-age=0, no-store, private",
  "X-Robots-Tag": "noindex",
};

export function wcAjaxMiddleware(registry: Registry, services: AppServices) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const endpoint = firstString(req.query["wc-ajax"]);
    if (endpoint === undefined) return next();
    try {
      const handler = registry.get(endpoint.replace(/[^\w-]/g, ""));
      const reply = handler ? await handler({ req, params: requestParams(req), services }) : empty();
      await sendReply(req, res, reply, WC_AJAX_HEADERS);
    } catch (error) {
      next(error);
    }
  };
}
