/**
 * multipart/form-data bodies, read the way PHP fills `$_POST` (docs/contract/wire.md §1.2): text fields in order,
 * file parts drained and dropped (nothing here keeps uploads). The same limits as the url-encoded parser: the
 * body is read with Express's raw parser under the same byte limit (so too large is body-parser's own
 * `entity.too.large`), at most `fieldLimit` parts, and a malformed body is `entity.parse.failed`.
 */
import express, { type Request, type Response } from "express";
import busboy from "busboy";
import qs from "qs";

export interface BodyLimits {
  bytes: number;
  /** The url-encoded parser's parameterLimit: the most fields (and parts) a body may carry. */
  fields: number;
}

/** An error shaped like body-parser's, so the entry points' existing handling (413/400, wc-ajax drop) applies. */
function bodyError(status: number, type: string, message: string): Error {
  return Object.assign(new Error(message), { status, statusCode: status, type, expose: true });
}

export const isMultipart = (req: Request) => req.is("multipart/form-data") === "multipart/form-data";

/** The fields of a multipart body as `[name, value]` pairs, in the order they came. */
export function readMultipart(req: Request, res: Response, limits: BodyLimits): Promise<[string, string][]> {
  const raw = express.raw({ type: "multipart/form-data", limit: limits.bytes });
  return new Promise((resolve, reject) => {
    raw(req, res, (error?: unknown) => {
      if (error) return reject(error);
      const body: unknown = req.body;
      req.body = undefined;
      if (!Buffer.isBuffer(body)) return resolve([]);
      let parser: busboy.Busboy;
      try {
        parser = busboy({
          headers: req.headers,
          defParamCharset: "utf8",
          limits: { fields: limits.fields, parts: limits.fields, fieldSize: limits.bytes, fieldNameSize: 1000 },
        });
      } catch {
        return reject(bodyError(400, "entity.parse.failed", "malformed multipart body"));
      }
      const entries: [string, string][] = [];
      let failed: Error | null = null;
      let settled = false;
      const settle = () => {
        if (settled) return;
        settled = true;
        if (failed) reject(failed);
        else resolve(entries);
      };
      const tooMany = () => (failed ??= bodyError(413, "parameters.too.many", "too many parameters"));
      parser.on("field", (name, value) => entries.push([name, value]));
      parser.on("file", (_name, stream) => stream.resume());
      parser.on("fieldsLimit", tooMany);
      parser.on("partsLimit", tooMany);
      parser.on("filesLimit", tooMany);
      parser.on("error", () => {
        failed ??= bodyError(400, "entity.parse.failed", "malformed multipart body");
        settle();
      });
      parser.on("close", settle);
      parser.end(body);
    });
  });
}

/**
 * Field pairs as the url-encoded parser (extended) would have parsed the same fields: `shipping_method[0]`,
 * `quantity[12]` become nested objects, with body-parser's own qs options.
 */
export function entriesToBody(entries: [string, string][], limits: BodyLimits): Record<string, unknown> {
  if (entries.length === 0) return {};
  if (entries.length > limits.fields) throw bodyError(413, "parameters.too.many", "too many parameters");
  try {
    return qs.parse(new URLSearchParams(entries).toString(), {
      allowPrototypes: true,
      arrayLimit: Math.max(100, entries.length),
      depth: 32,
      parameterLimit: limits.fields,
      strictDepth: true,
    }) as Record<string, unknown>;
  } catch {
    throw bodyError(400, "entity.parse.failed", "field names nested too deep");
  }
}
