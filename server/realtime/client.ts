// One WebSocket client: parses frames, runs its commands in order, owns its subscriptions' stream
// positions, pings it, and batches everything it writes. Knows the hub only through `NodeApi`.
import { randomUUID } from "node:crypto";
import type { Duplex } from "node:stream";
import WebSocket from "ws";
import type { Broker, HistoryOptions } from "./broker.ts";
import { decodeFrame, encodeError, encodePublicationPush, encodeReply, encodeSubscribeReply, PING, type SubscribeResult } from "./codec.ts";
import {
  commandMethod,
  DisconnectCode,
  ErrorCode,
  errors,
  HubError,
  RequestSchemas,
  SubscribeFlag,
  type CommandEnvelope,
  type Publication,
  type SubscribeRequest,
} from "./protocol.ts";
import { decideRecovery } from "./recovery.ts";
import type { Logger, RpcRegistry } from "./rpc.ts";

export interface ClientConfig extends HistoryOptions {
  pingIntervalSeconds: number;
  pongTimeoutSeconds: number;
  /** A socket that sends no connect command within this time is closed (3502 stale). */
  staleSeconds: number;
  /** Close a client whose unsent output exceeds this (3008 slow) instead of buffering without bound. */
  maxBufferedBytes: number;
  serverVersion: string;
}

/** What a client needs from the hub (node): configuration, broker, rpc and the subscription index. */
export interface NodeApi {
  readonly config: ClientConfig;
  readonly broker: Broker;
  readonly rpc: RpcRegistry;
  readonly logger: Logger;
  channelAllowed(channel: string): boolean;
  /** Resolves once the broker delivers this channel's publications to this process. */
  brokerSubscribe(channel: string): Promise<void>;
  addSubscriber(channel: string, client: ClientConnection): void;
  removeSubscriber(channel: string, client: ClientConnection): void;
  clientClosed(client: ClientConnection): void;
}

interface ChannelSub {
  /** `subscribing` until the reply is written: publications are held back so none precedes it. */
  state: "subscribing" | "subscribed";
  held: Publication[];
  /** Last offset this client has (via reply position, recovered or live publications). */
  offset: number;
  epoch: string;
}

// Publications held for one subscribe in flight; more means history reads are far too slow, and the
// client is better off reconnecting and recovering than us buffering forever.
const MAX_HELD = 10_000;

/**
 * Publications of one channel that reached the hub in one event-loop turn, encoded once for every
 * subscriber: each push (for the slow path) and the whole batch as one ready WebSocket frame.
 */
export interface FanoutBatch {
  readonly pubs: readonly Publication[];
  readonly pushes: readonly string[];
  /** `pushes` joined by newlines, framed; written as is to every subscriber that is in step. */
  readonly frame: Buffer;
  /** Every publication in the same epoch with consecutive offsets (the only case the frame is used for). */
  readonly contiguous: boolean;
}

export class ClientConnection {
  readonly id = randomUUID();
  private connected = false;
  private closing = false;
  private readonly subs = new Map<string, ChannelSub>();
  /** Commands run one after another: a subscribe in the connect frame must see the connection. */
  private queue: Promise<void> = Promise.resolve();
  private out: string[] = [];
  private flushScheduled = false;
  private pingTimer: NodeJS.Timeout | undefined;
  private pongTimer: NodeJS.Timeout | undefined;
  private staleTimer: NodeJS.Timeout | undefined;
  private terminateTimer: NodeJS.Timeout | undefined;
  readonly closed: Promise<void>;

  constructor(
    private readonly ws: WebSocket,
    /** The upgraded socket under `ws`: ready publication frames are written to it directly (deliverBatch). */
    private readonly socket: Duplex,
    private readonly node: NodeApi,
  ) {
    let resolveClosed!: () => void;
    this.closed = new Promise((r) => (resolveClosed = r));
    ws.on("message", (data, isBinary) => this.onMessage(data, isBinary));
    ws.on("error", (err) => this.node.logger.info("realtime: socket error", { client: this.id, err: String(err) }));
    ws.on("close", () => {
      this.closing = true;
      this.clearTimers();
      for (const channel of this.subs.keys()) this.node.removeSubscriber(channel, this);
      this.subs.clear();
      this.out = [];
      this.node.clientClosed(this);
      resolveClosed();
    });
    this.staleTimer = setTimeout(() => this.disconnect(DisconnectCode.stale), node.config.staleSeconds * 1000);
    this.staleTimer.unref();
  }

  isConnected(): boolean {
    return this.connected && !this.closing;
  }

  /** Close with a protocol close code; pending output goes first so a final error reply is not lost. */
  disconnect(d: { code: number; reason: string }): void {
    if (this.closing) return;
    this.closing = true;
    this.flush();
    this.clearTimers();
    try {
      this.ws.close(d.code, d.reason);
    } catch {
      this.ws.terminate();
    }
    // A peer that never answers the close frame must not keep the socket (and the hub's close()) waiting.
    this.terminateTimer = setTimeout(() => this.ws.terminate(), 5000);
    this.terminateTimer.unref();
  }

  /** A publication from the broker for a channel this client is in the index of. */
  deliver(channel: string, pub: Publication, push: string): void {
    const sub = this.subs.get(channel);
    if (!sub || this.closing) return;
    if (sub.state === "subscribing") {
      if (sub.held.length >= MAX_HELD) return this.disconnect(DisconnectCode.insufficientState);
      sub.held.push(pub);
      return;
    }
    this.deliverInOrder(channel, sub, pub, push);
  }

  /**
   * A fan-out batch. The fast path, for a subscriber that is subscribed, in step with the batch and has
   * nothing queued, writes the batch's shared frame straight to the socket: no copy, no closure, no timer.
   * Everyone else takes the per-publication path above, which holds, deduplicates and detects gaps.
   */
  deliverBatch(channel: string, batch: FanoutBatch): void {
    const sub = this.subs.get(channel);
    if (!sub || this.closing) return;
    const first = batch.pubs[0]!;
    if (
      batch.contiguous &&
      sub.state === "subscribed" &&
      this.out.length === 0 &&
      first.epoch === sub.epoch &&
      first.offset === sub.offset + 1 &&
      this.ws.readyState === WebSocket.OPEN
    ) {
      // Same order as ws's own writes: without permessage-deflate ws writes every frame synchronously to
      // this socket, so nothing of its own can be queued behind us.
      if (this.ws.bufferedAmount > this.node.config.maxBufferedBytes) return this.disconnect(DisconnectCode.slow);
      sub.offset = batch.pubs[batch.pubs.length - 1]!.offset;
      this.socket.write(batch.frame);
      return;
    }
    for (let i = 0; i < batch.pubs.length; i++) this.deliver(channel, batch.pubs[i]!, batch.pushes[i]!);
  }

  private deliverInOrder(channel: string, sub: ChannelSub, pub: Publication, push?: string): void {
    if (pub.epoch === sub.epoch && pub.offset <= sub.offset) return; // already delivered (reply or history)
    if (pub.epoch !== sub.epoch || pub.offset !== sub.offset + 1) {
      // A gap (lost broker message, stream reset): reconnecting makes the client recover from its own
      // position or learn recovered:false, instead of silently skipping publications.
      this.node.logger.warn("realtime: stream gap, reconnecting client", { client: this.id, channel });
      return this.disconnect(DisconnectCode.insufficientState);
    }
    sub.offset = pub.offset;
    this.write(push ?? encodePublicationPush(channel, pub));
  }

  // ---- input ------------------------------------------------------------------------------------------

  private onMessage(data: WebSocket.RawData, isBinary: boolean): void {
    if (this.closing) return;
    if (isBinary) return this.disconnect(DisconnectCode.badRequest); // JSON protocol: text frames only
    const text = Array.isArray(data) ? Buffer.concat(data).toString("utf8") : Buffer.from(data as Buffer).toString("utf8");
    const decoded = decodeFrame(text);
    if (!decoded.ok) {
      this.node.logger.info("realtime: bad frame", { client: this.id, reason: decoded.reason });
      return this.disconnect(DisconnectCode.badRequest);
    }
    for (const cmd of decoded.commands) {
      this.queue = this.queue
        .then(() => this.handleCommand(cmd))
        .catch((err: unknown) => {
          this.node.logger.error("realtime: command failed", { client: this.id, err });
          this.disconnect(DisconnectCode.internalServerError);
        });
    }
  }

  private async handleCommand(cmd: CommandEnvelope): Promise<void> {
    if (this.closing) return;
    const method = commandMethod(cmd);
    if (method === null) {
      // The empty command is the client's pong.
      if (!this.connected) return this.disconnect(DisconnectCode.badRequest);
      clearTimeout(this.pongTimer);
      this.pongTimer = undefined;
      return;
    }
    if (method === "unknown") return this.disconnect(DisconnectCode.badRequest);
    if (method === "connect") return this.handleConnect(cmd);
    if (!this.connected) return this.disconnect(DisconnectCode.badRequest); // must connect first
    if (method === "send") return; // asynchronous message: no handler in this shop, no reply by design
    const id = cmd.id;
    if (id === undefined || id === 0) return this.disconnect(DisconnectCode.badRequest); // calls need an id
    try {
      switch (method) {
        case "subscribe": {
          const req = RequestSchemas.subscribe.safeParse(cmd.subscribe);
          if (!req.success) throw errors.badRequest();
          return await this.handleSubscribe(id, req.data);
        }
        case "unsubscribe": {
          const req = RequestSchemas.unsubscribe.safeParse(cmd.unsubscribe);
          if (!req.success) throw errors.badRequest();
          if (this.subs.delete(req.data.channel)) this.node.removeSubscriber(req.data.channel, this);
          return this.write(encodeReply(id, "unsubscribe", {}));
        }
        case "rpc": {
          const req = RequestSchemas.rpc.safeParse(cmd.rpc);
          if (!req.success) throw errors.badRequest();
          // Not awaited: a slow handler must not hold up later commands (e.g. an unsubscribe).
          this.node.rpc.call(req.data.method, req.data.data, { clientId: this.id }, this.node.logger).then(
            (data) => this.write(encodeReply(id, "rpc", data === undefined ? {} : { data })),
            (err: unknown) => this.writeError(id, err),
          );
          return;
        }
        case "publish":
          throw errors.permissionDenied(); // only the server publishes
        case "ping":
          return this.write(encodeReply(id, "ping", {})); // protocol v1-style ping command; harmless to answer
        default:
          // presence, history, refresh …: features this anonymous hub does not offer.
          throw errors.notAvailable();
      }
    } catch (err) {
      this.writeError(id, err);
    }
  }

  private handleConnect(cmd: CommandEnvelope): void {
    const id = cmd.id;
    if (this.connected || id === undefined || id === 0) return this.disconnect(DisconnectCode.badRequest);
    const req = RequestSchemas.connect.safeParse(cmd.connect);
    if (!req.success) return this.disconnect(DisconnectCode.badRequest);
    // Anonymous: tokens are ignored and the connection never expires, so no `expires`/`ttl`.
    this.connected = true;
    clearTimeout(this.staleTimer);
    const { pingIntervalSeconds, serverVersion } = this.node.config;
    const result: Record<string, unknown> = { client: this.id, version: serverVersion };
    if (pingIntervalSeconds > 0) {
      result.ping = Math.ceil(pingIntervalSeconds); // uint32 seconds on the wire
      result.pong = true;
      this.pingTimer = setInterval(() => this.sendPing(), pingIntervalSeconds * 1000);
      this.pingTimer.unref();
    }
    this.write(encodeReply(id, "connect", result));
  }

  private sendPing(): void {
    if (this.closing) return;
    this.write(PING);
    this.flush(); // not batched: the ping must not wait behind anything
    if (this.pongTimer === undefined) {
      this.pongTimer = setTimeout(() => this.disconnect(DisconnectCode.noPong), this.node.config.pongTimeoutSeconds * 1000);
      this.pongTimer.unref();
    }
  }

  private async handleSubscribe(id: number, req: SubscribeRequest): Promise<void> {
    const { channel } = req;
    // 102 is terminal for the client: a channel outside the configuration will never become valid.
    if (!this.node.channelAllowed(channel)) throw errors.unknownChannel();
    if (this.subs.has(channel)) throw errors.alreadySubscribed();
    const sub: ChannelSub = { state: "subscribing", held: [], offset: 0, epoch: "" };
    this.subs.set(channel, sub);
    const stillWanted = () => !this.closing && this.subs.get(channel) === sub;
    try {
      try {
        await this.node.brokerSubscribe(channel);
      } catch (err) {
        this.node.logger.error("realtime: broker subscribe failed", { channel, err });
        throw errors.internal(); // temporary: the client resubscribes with backoff
      }
      if (!stillWanted()) return;
      // Joined before reading history: whatever is published after the read is held, whatever before it
      // is in the read, so nothing falls between the two.
      this.node.addSubscriber(channel, this);
      const { historySize, historyTtlSeconds } = this.node.config;
      const recoverable = historySize > 0;
      const recovering = recoverable && req.recover === true;
      const since = { offset: req.offset ?? 0, epoch: req.epoch ?? "" };
      let snapshot;
      try {
        snapshot = await this.node.broker.history(channel, recovering ? { sinceOffset: since.offset, historyTtlSeconds } : { limit: 0, historyTtlSeconds });
      } catch (err) {
        this.node.logger.error("realtime: history read failed", { channel, err });
        throw errors.internal();
      }
      if (!stillWanted()) return;

      const result: SubscribeResult = {};
      let position = snapshot.top.offset;
      if (recoverable) {
        result.recoverable = true;
        result.positioned = true;
        result.epoch = snapshot.top.epoch;
        result.offset = snapshot.top.offset;
      }
      if (req.recover === true) {
        result.was_recovering = true;
        const outcome = recovering ? decideRecovery(since, snapshot) : { recovered: false as const };
        if (outcome.recovered) {
          result.recovered = true;
          result.publications = outcome.publications;
          // centrifuge-js advances its position with each recovered publication from the reply's offset,
          // so the reply carries the position recovery started from (see its _setSubscribed).
          result.offset = outcome.from;
          position = outcome.publications.at(-1)?.offset ?? outcome.from;
        } else if (((req.flag ?? 0) & SubscribeFlag.rejectUnrecovered) !== 0) {
          throw errors.unrecoverablePosition();
        }
      }
      sub.state = "subscribed";
      sub.offset = position;
      sub.epoch = snapshot.top.epoch;
      this.write(encodeSubscribeReply(id, result));
      const held = sub.held;
      sub.held = [];
      for (const pub of held) {
        if (!stillWanted()) break;
        this.deliverInOrder(channel, sub, pub);
      }
    } catch (err) {
      if (this.subs.get(channel) === sub) {
        this.subs.delete(channel);
        this.node.removeSubscriber(channel, this);
      }
      throw err;
    }
  }

  // ---- output -----------------------------------------------------------------------------------------

  private writeError(id: number, err: unknown): void {
    if (err instanceof HubError) return this.write(encodeError(id, err));
    this.node.logger.error("realtime: unexpected error", { client: this.id, err });
    this.write(encodeError(id, { code: ErrorCode.internal, message: "internal server error", temporary: true }));
  }

  /** Queue a reply/push; everything queued in the same event-loop turn leaves in one frame. */
  private write(message: string): void {
    if (this.closing) return;
    this.out.push(message);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.out.length === 0 || this.ws.readyState !== WebSocket.OPEN) return;
    if (this.ws.bufferedAmount > this.node.config.maxBufferedBytes) {
      this.out = [];
      return this.disconnect(DisconnectCode.slow);
    }
    const frame = this.out.length === 1 ? this.out[0]! : this.out.join("\n");
    this.out = [];
    // No per-send callback: at fan-out scale the closures cost more than they tell; a failed write
    // surfaces as the socket's 'error'/'close'.
    this.ws.send(frame);
  }

  private clearTimers(): void {
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    clearTimeout(this.staleTimer);
    this.pongTimer = undefined;
  }
}
