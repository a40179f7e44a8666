/**
 * The three WordPress-shaped entry points, each a registry of named handlers so
 * features register themselves (`wcAjax.register("add_to_cart", …)`) and the
 * dispatcher owns the contract's rules: how the name is found, what an unknown
 * name answers, and that a client's mistake is never a 500.
 */
import type { Request, Response } from "express";
import type { AppServices } from "../services.ts";

/** What a handler returns; the dispatcher writes it. */
export type Reply =
  | { kind: "json"; status?: number; body: unknown; headers?: Record<string, string> }
  | { kind: "text"; status?: number; body: string; contentType?: string; headers?: Record<string, string> }
  | { kind: "empty"; status?: number };

export const json = (body: unknown, status = 200, headers?: Record<string, string>): Reply => ({ kind: "json", body, status, headers });
export const text = (body: string, status = 200, contentType = "text/plain; charset=UTF-8"): Reply => ({ kind: "text", body, status, contentType });
export const html = (body: string, status = 200): Reply => ({ kind: "text", body, status, contentType: "text/html; charset=UTF-8" });
export const empty = (status = 200): Reply => ({ kind: "empty", status });

export interface HandlerInput {
  req: Request;
  /** Query and form/JSON body merged (body wins), as PHP's $_REQUEST. */
  params: Record<string, unknown>;
  services: AppServices;
}

export type Handler = (input: HandlerInput) => Promise<Reply> | Reply;

export class Registry {
  private readonly handlers = new Map<string, Handler>();
  register(name: string, handler: Handler): this {
    if (this.handlers.has(name)) throw new Error(`handler ${name} registered twice`);
    this.handlers.set(name, handler);
    return this;
  }
  get(name: string): Handler | undefined {
    return this.handlers.get(name);
  }
  names(): string[] {
    return [...this.handlers.keys()];
  }
}

export function firstString(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && typeof value[0] === "string") return value[0];
  return undefined;
}

export function requestParams(req: Request): Record<string, unknown> {
  const body = req.body && typeof req.body === "object" && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
  return { ...(req.query as Record<string, unknown>), ...body };
}

export async function sendReply(req: Request, res: Response, reply: Reply, extraHeaders: Record<string, string> = {}): Promise<void> {
  await req.shop.flush();
  for (const [k, v] of Object.entries({ ...extraHeaders, ...("headers" in reply ? reply.headers : {}) })) res.setHeader(k, v);
  res.status(reply.status ?? 200);
  if (reply.kind === "json") {
    res.setHeader("Content-Type", "application/json; charset=UTF-8");
    res.end(JSON.stringify(reply.body));
  } else if (reply.kind === "text") {
    res.setHeader("Content-Type", reply.contentType ?? "text/plain; charset=UTF-8");
    res.end(reply.body);
  } else {
    res.end();
  }
}
