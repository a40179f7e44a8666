/**
 * The body of `POST /wp-json/wp/v2/media` (docs/contract/rest/media.md 'Upload'), read here instead of by the
 * generic body parsers (server/app.ts leaves it alone): a multipart form with the image in its `file` part (and text
 * fields), or the raw image with `Content-Disposition: attachment; filename=…` as WordPress takes it. At most
 * `maxBytes` of image are kept; the rest of a larger body is read and dropped so the client still gets the answer.
 */
import type { Request } from "express";
import busboy from "busboy";

export type UploadBody =
  { ok: true; bytes: Buffer; filename: string; fields: Record<string, string> } | { ok: false; code: string; message: string; status: number };

const refuse = (code: string, message: string, status: number): UploadBody => ({ ok: false, code, message, status });
const tooBig = (maxBytes: number) => refuse("rest_upload_file_too_big", `The file is larger than the ${maxBytes} bytes an upload may have.`, 413);

/** `filename*=UTF-8''…` (RFC 6266) or `filename=…`, as WordPress's get_filename_from_disposition reads it. */
export function filenameFromDisposition(header: string | undefined): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8'[^']*')?([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim().replace(/^"|"$/g, "")) || null;
    } catch {
      return null;
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
  const name = (plain?.[2] ?? plain?.[1])?.trim();
  return name ? name : null;
}

function readMultipartUpload(req: Request, maxBytes: number): Promise<UploadBody> {
  return new Promise((resolve) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: "utf8",
        limits: { files: 1, fileSize: maxBytes, fields: 20, fieldSize: 100_000, parts: 25, fieldNameSize: 100 },
      });
    } catch {
      req.resume(); // e.g. no boundary: the body is not read
      return resolve(refuse("rest_upload_no_data", "No data supplied.", 400));
    }
    const fields: Record<string, string> = {};
    const chunks: Buffer[] = [];
    let filename: string | null = null;
    let truncated = false;
    let failed = false;
    parser.on("file", (name, stream, info) => {
      if (name !== "file") return void stream.resume();
      filename = info.filename || "image";
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("limit", () => (truncated = true));
    });
    parser.on("field", (name, value) => void (fields[name] = value));
    parser.on("error", () => {
      failed = true;
      req.unpipe(parser);
      req.resume();
      resolve(refuse("rest_upload_no_data", "The multipart body could not be read.", 400));
    });
    parser.on("close", () => {
      if (failed) return;
      if (truncated) return resolve(tooBig(maxBytes));
      if (filename === null) return resolve(refuse("rest_upload_no_data", "No data supplied.", 400));
      resolve({ ok: true, bytes: Buffer.concat(chunks), filename, fields });
    });
    req.pipe(parser);
  });
}

function readRawUpload(req: Request, maxBytes: number): Promise<UploadBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
    });
    req.on("error", () => resolve(refuse("rest_upload_no_data", "The body could not be read.", 400)));
    req.on("end", () => {
      if (size > maxBytes) return resolve(tooBig(maxBytes));
      resolve({ ok: true, bytes: Buffer.concat(chunks), filename: "", fields: {} });
    });
  });
}

export async function readUpload(req: Request, maxBytes: number): Promise<UploadBody> {
  if (req.is("multipart/form-data") === "multipart/form-data") return readMultipartUpload(req, maxBytes);
  if (!req.get("Content-Type")) {
    req.resume();
    return refuse("rest_upload_no_content_type", "No Content-Type supplied.", 400);
  }
  const filename = filenameFromDisposition(req.get("Content-Disposition"));
  if (!filename) {
    req.resume();
    return refuse("rest_upload_no_content_disposition", "No Content-Disposition supplied.", 400);
  }
  const body = await readRawUpload(req, maxBytes);
  return body.ok ? { ...body, filename } : body;
}
