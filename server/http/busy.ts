/**
 * "Busy, please try again" (docs/decisions/0027-checkout-under-contention.md): what each entry point answers when the
 * database could not serve a request in time (core/db/client.ts isDatabaseBusy: no pool connection, no turn at the
 * order gate, a lock not granted). Never a bare 500 or 408: a 503 with Retry-After in the entry point's own shape,
 * and for the checkout the failure JSON WooCommerce's checkout.js shows as a notice (it needs a 200 to read it).
 */
import type { Request, Response } from "express";
import { errorListHtml } from "../../core/commerce/checkout-form.ts";
import { WC_AJAX_HEADERS } from "./wc-ajax.ts";

export const BUSY_MESSAGE = "The shop is very busy right now. Please try again in a moment.";
/** Seconds a client is asked to wait before trying again. */
export const BUSY_RETRY_AFTER_S = 5;

export function sendBusy(req: Request, res: Response): void {
  res.setHeader("Retry-After", String(BUSY_RETRY_AFTER_S));
  res.setHeader("Cache-Control", "no-store");
  const wcAjax = req.query?.["wc-ajax"];
  if (wcAjax !== undefined) {
    for (const [k, v] of Object.entries(WC_AJAX_HEADERS)) res.setHeader(k, v);
    if (wcAjax === "checkout")
      return void res.status(200).json({ result: "failure", messages: errorListHtml([{ id: "", html: BUSY_MESSAGE }]), refresh: false, reload: false });
    return void res.status(503).json({ success: false, data: BUSY_MESSAGE });
  }
  if (req.path.startsWith("/wp-json") || req.query?.rest_route !== undefined)
    return void res.status(503).json({ code: "shop_busy", message: BUSY_MESSAGE, data: { status: 503 } });
  if (req.path === "/wp-admin/admin-ajax.php") return void res.status(503).json({ success: false, data: BUSY_MESSAGE });
  res.status(503).type("text/plain").send(BUSY_MESSAGE);
}
