/**
 * WordPress's /wp-admin/admin-ajax.php: dispatched on `action` from the query or
 * the form body. An unknown or missing action answers `0` with status 400, as
 * WordPress does.
 */
import type { Request, Response, NextFunction } from "express";
import { type Registry, firstString, requestParams, sendReply, text } from "./dispatch.ts";
import type { AppServices } from "../services.ts";

export function adminAjaxHandler(registry: Registry, services: AppServices) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const params = requestParams(req);
      const action = firstString(params.action);
      const handler = action ? registry.get(action) : undefined;
      const reply = handler ? await handler({ req, params, services }) : text("0", 400, "text/html; charset=UTF-8");
      await sendReply(req, res, reply, { "Cache-Control": "no-cache, must-revalidate, max-age=0, no-store, private", "X-Robots-Tag": "noindex" });
    } catch (error) {
      next(error);
    }
  };
}
