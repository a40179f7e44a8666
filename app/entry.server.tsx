import { Transform, type TransformCallback } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "react-router";
import { createReadableStreamFromReadable } from "@react-router/node";
import { ServerRouter } from "react-router";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { isDatabaseBusy } from "../core/db/client.ts";

export const streamTimeout = 5_000;

/** A piece this large goes out at once, without waiting for the turn of the event loop to end. */
const COALESCE_BYTES = 64 * 1024;

/**
 * React writes a page as hundreds of small pieces, and each piece written to the response is compressed and flushed
 * on its own (compression's flush after every write): about a fifth of a listing's CPU (issue 18). This joins what
 * React writes in one turn of the event loop into one piece, so a page rendered at once leaves as a few large
 * pieces, while a streamed boundary that resolves later still leaves as soon as it is written.
 */
class Coalesce extends Transform {
  private parts: Buffer[] = [];
  private size = 0;
  private scheduled = false;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.parts.push(chunk);
    this.size += chunk.length;
    if (this.size >= COALESCE_BYTES) this.release();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.release();
      });
    }
    callback();
  }

  override _flush(callback: TransformCallback): void {
    this.release();
    callback();
  }

  private release(): void {
    if (!this.size) return;
    this.push(this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.size));
    this.parts = [];
    this.size = 0;
  }
}

/**
 * A loader, action or render that failed: one line in the shop's JSON log (React Router's default prints the raw
 * error to the console, dozens of lines that are not JSON). An aborted request (the shopper left) is not an error.
 */
/** Page requests whose loader or action failed because the database was busy: they answer 503 (below). */
const busyRequests = new WeakSet<object>();

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  // In production React Router hands the document renderer a sanitized copy of the error; remember the kind here.
  const busy = isDatabaseBusy(error);
  if (busy && context) busyRequests.add(context);
  const logger = (context as Partial<AppLoadContext> | undefined)?.services?.logger;
  const fields = { method: request.method, path: new URL(request.url).pathname, error };
  if (logger && busy) logger.warn("page request refused: database busy", { ...fields, error: String((error as Error).message) });
  else if (logger) logger.error("page request failed", fields);
  else console.error(JSON.stringify({ level: "error", msg: "page request failed", path: fields.path, error: String(error) }));
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // A loader that failed because the database was busy (docs/decisions/0027): 503 and Retry-After, not a 500.
  if (busyRequests.has(loadContext)) {
    responseStatusCode = 503;
    responseHeaders.set("Retry-After", "5");
  }
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers and no-JS visitors get the whole document at once.
    const readyOption = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    const nonce = loadContext.cspNonce || undefined;
    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} nonce={nonce} />, {
      nonce,
      [readyOption]() {
        shellRendered = true;
        const body = new Coalesce();
        const stream = createReadableStreamFromReadable(body);
        responseHeaders.set("Content-Type", "text/html; charset=UTF-8");
        resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
        pipe(body);
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) loadContext.services.logger.error("page render failed", { path: new URL(request.url).pathname, error });
      },
    });
    setTimeout(abort, streamTimeout + 1000);
  });
}
