// Test helpers: a plain node:http server routing /ws upgrades to a hub, the real centrifuge client set up
// as the widgets do, a raw ws client, and an event recorder that waits for events instead of sleeping.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Centrifuge, type EventMap, type Options, type TypedEventEmitter } from "centrifuge";
import WebSocket from "ws";
import { createHub, type Hub, type HubOptions } from "../../server/realtime/index.ts";

export interface TestServer {
  hub: Hub;
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startServer(options: Partial<HubOptions> = {}, port = 0): Promise<TestServer> {
  const hub = createHub({ channels: ["football", "footballDetail"], ...options });
  const server: Server = createServer((_req, res) => {
    res.statusCode = 404;
    res.end();
  });
  server.on("upgrade", (req, socket, head) => {
    if (new URL(req.url ?? "/", "http://localhost").pathname === "/ws") hub.handleUpgrade(req, socket, head);
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  let closed = false;
  return {
    hub,
    port: actual,
    url: `ws://127.0.0.1:${actual}/ws`,
    async close() {
      if (closed) return;
      closed = true;
      await hub.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Frames the real client received, tapped from its socket (the SDK has no ping event). */
export function tappedWebSocket(frames: string[]): typeof WebSocket {
  class TappedWebSocket extends WebSocket {
    constructor(...args: ConstructorParameters<typeof WebSocket>) {
      super(...args);
      this.on("message", (data) => frames.push(String(data)));
    }
  }
  return TappedWebSocket as unknown as typeof WebSocket;
}

/** The widget's client options (docs/contract/wire.md §3.7), with a short reconnect delay to keep tests quick. */
export function newClient(url: string, options: Partial<Options> = {}): Centrifuge {
  return new Centrifuge(url, {
    websocket: WebSocket,
    timeout: 60000,
    maxServerPingDelay: 10000,
    minReconnectDelay: 50,
    maxReconnectDelay: 500,
    ...options,
  });
}

/** The context a listener of event `E` receives. */
type EventContext<Events extends EventMap, E extends keyof Events> = Parameters<Events[E]>[0];

/** Records every event of the named kinds; `next` waits for one that was not consumed yet. */
export class Recorder<Events extends EventMap> {
  readonly events: { name: string; ctx: unknown }[] = [];
  private waiters: { name: string; pred: (ctx: unknown) => boolean; resolve: (ctx: unknown) => void }[] = [];
  private consumed = new Set<number>();

  constructor(emitter: TypedEventEmitter<Events>, names: readonly NoInfer<keyof Events & string>[]) {
    for (const name of names) {
      emitter.on(name, ((ctx: unknown) => {
        this.events.push({ name, ctx });
        this.wake();
      }) as Events[typeof name]);
    }
  }

  all<E extends keyof Events & string>(name: E): EventContext<Events, E>[] {
    return this.events.filter((e) => e.name === name).map((e) => e.ctx as EventContext<Events, E>);
  }

  /** Resolves with the first not-yet-consumed event `name` matching `pred`; rejects after `timeoutMs`. */
  next<E extends keyof Events & string>(
    name: E,
    pred: (ctx: EventContext<Events, E>) => boolean = () => true,
    timeoutMs = 10_000,
  ): Promise<EventContext<Events, E>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`timed out waiting for '${name}' (seen: ${this.events.map((e) => e.name).join(",")})`));
      }, timeoutMs);
      const waiter = {
        name,
        pred: (ctx: unknown) => pred(ctx as EventContext<Events, E>),
        resolve: (ctx: unknown) => {
          clearTimeout(timer);
          resolve(ctx as EventContext<Events, E>);
        },
      };
      this.waiters.push(waiter);
      this.wake();
    });
  }

  private wake(): void {
    for (const w of [...this.waiters]) {
      const i = this.events.findIndex((e, idx) => !this.consumed.has(idx) && e.name === w.name && w.pred(e.ctx));
      if (i === -1) continue;
      this.consumed.add(i);
      this.waiters = this.waiters.filter((x) => x !== w);
      w.resolve(this.events[i]!.ctx);
    }
  }
}

/** A reply or push as the hub writes it (Centrifuge JSON protocol); the fields the tests read. */
export interface ProtocolFrame {
  id?: number;
  error?: { code: number; message: string };
  connect?: { client?: string; version?: string; ping?: number; pong?: boolean };
  subscribe?: {
    offset?: number;
    epoch?: string;
    recoverable?: boolean;
    was_recovering?: boolean;
    recovered?: boolean;
    publications?: { data?: unknown; offset?: number }[];
  };
  push?: { channel?: string; pub?: { data?: unknown; offset?: number } };
}

/** A raw ws client that keeps every text frame and its close code. */
export class RawClient {
  readonly ws: WebSocket;
  readonly frames: string[] = [];
  closeCode: number | undefined;
  closeReason = "";
  readonly opened: Promise<void>;
  readonly closed: Promise<{ code: number; reason: string }>;
  private frameWaiters: (() => void)[] = [];

  constructor(url: string) {
    this.ws = new WebSocket(url);
    this.opened = new Promise((resolve, reject) => {
      this.ws.once("open", () => resolve());
      this.ws.once("error", reject);
    });
    this.closed = new Promise((resolve) => {
      this.ws.on("close", (code, reason) => {
        this.closeCode = code;
        this.closeReason = reason.toString();
        resolve({ code, reason: this.closeReason });
        this.frameWaiters.forEach((w) => w());
      });
    });
    this.ws.on("error", () => {}); // failures show up as close codes
    this.ws.on("message", (data) => {
      this.frames.push(String(data));
      this.frameWaiters.forEach((w) => w());
    });
  }

  send(text: string | Buffer): void {
    this.ws.send(text);
  }

  /** Waits until at least `n` frames arrived. */
  async frameCount(n: number, timeoutMs = 10_000): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.frames.length < n) {
      if (this.closeCode !== undefined) throw new Error(`closed (${this.closeCode}) after ${this.frames.length} frames`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${n} frames, got ${this.frames.length}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.frameWaiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
      this.frameWaiters = [];
    }
    return this.frames;
  }

  /** Every message received so far, frames split on newlines and parsed. */
  messages(): ProtocolFrame[] {
    return this.frames.flatMap((f) =>
      f
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as ProtocolFrame),
    );
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    this.ws.terminate();
    await this.closed;
  }
}

/** Polls a condition that has no event to await (e.g. frames seen by a socket tap); bounded. */
export async function waitUntil(cond: () => boolean, timeoutMs = 10_000, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
