/** Serves the generated product and blog images from the database, cached hard (slugs never change content); sends an uploaded one to its file. */
import type { Request, Response, NextFunction } from "express";
import type { Db } from "../../core/db/client.ts";
import { findMedia } from "../../core/db/repositories/media.ts";
import { uploadUrl } from "../../core/domain/media/sizes.ts";

export function mediaHandler(db: Db) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const slug = String(req.params.slug ?? "");
    if (!/^[a-z0-9-]{1,120}$/.test(slug)) return res.status(404).type("text/plain").send("Not found");
    try {
      const row = await findMedia(db, slug);
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
