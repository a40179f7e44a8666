// RPC registry: method name → handler. Kept apart from the connection so handlers (e.g. "sport:football")
// are plain functions other modules register without knowing about sockets.
import { ErrorCode, HubError, errors } from "./protocol.ts";

export interface RpcContext {
  clientId: string;
}

export type RpcHandler = (data: unknown, ctx: RpcContext) => Promise<unknown> | unknown;

export interface Logger {
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

export class RpcRegistry {
  private readonly handlers = new Map<string, RpcHandler>();

  register(method: string, handler: RpcHandler): void {
    // Silent replacement would hide a wiring mistake between two modules.
    if (this.handlers.has(method)) throw new Error(`rpc method already registered: ${method}`);
    this.handlers.set(method, handler);
  }

  /**
   * Run a handler. Resolves with the result, or rejects with a HubError: the handler's own, 104 for an
   * unknown method, or a temporary 100 for anything unexpected (logged, never shown to the client).
   */
  async call(method: string, data: unknown, ctx: RpcContext, logger: Logger): Promise<unknown> {
    const handler = this.handlers.get(method);
    if (!handler) throw errors.methodNotFound();
    try {
      return await handler(data, ctx);
    } catch (err) {
      if (err instanceof HubError) throw err;
      logger.error("realtime: rpc handler failed", { method, err });
      throw new HubError(ErrorCode.internal, "internal server error", true);
    }
  }
}
