/** Serves the generated product and blog images from the database, cached hard (slugs never change content); sends an uploaded one to its file. */
import type { Request, Response, NextFunction } from "express";
import type { Db } from "../../core/db/client.ts";
import { findMedia } from "../../core/db/repositories/media.ts";
import { uploadUrl } from "../../core/domain/media/sizes.ts";

/** The image of a product or post that has none (`mediaUrl(null)`), as WooCommerce's placeholder: a plain frame. */
const PLACEHOLDER_SLUG = "placeholder";
const PLACEHOLDER_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 300" width="300" height="300"><rect width="300" height="300" fill="#f2f2f2"/>' +
  '<g fill="none" stroke="#c4c4c4" stroke-width="6" stroke-linejoin="round"><rect x="95" y="105" width="110" height="90" rx="6"/>' +
  '<path d="m101 185 35-38 26 26 16-15 22 27"/><circle cx="176" cy="132" r="9"/></g></svg>';

export function mediaHandler(db: Db) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const slug = String(req.params.slug ?? "");
    if (!/^[a-z0-9-]{1,120}$/.test(slug)) return res.status(404).type("text/plain").send("Not found");
    try {
      const row = await findMedia(db, slug);
      if (!row && slug === PLACEHOLDER_SLUG) {
        res.setHeader("Cache-Control", "public, max-age=86400");
        res.setHeader("Content-Security-Policy", "default-src 'none'");
        return res.type("image/svg+xml").send(PLACEHOLDER_SVG);
      }
      if (!row) return res.status(404).type("text/plain").send("Not found");
      // An uploaded image named by its slug (mediaUrl): its file lives under /wp-content/uploads/.
      if (row.body === null) return row.file ? res.redirect(302, uploadUrl(row.file)) : res.status(404).type("text/plain").send("Not found");
      res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
      res.setHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
      res.type(row.mime).send(row.body);
    } catch (error) {
      next(error);
    }
  };
}
