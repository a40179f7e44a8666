// The hub (centrifuge's "node"): accepts WebSocket upgrades, keeps the channel → clients index, and fans
// broker publications out to local subscribers. Protocol details live in client.ts, storage in brokers.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import type { Broker } from "./broker.ts";
import { createMemoryBroker } from "./broker-memory.ts";
import { ClientConnection, type ClientConfig, type FanoutBatch, type NodeApi } from "./client.ts";
import { encodePublicationPush, encodeTextFrame } from "./codec.ts";
import { DisconnectCode, errors, HubError, type Publication, type StreamPosition } from "./protocol.ts";
import { RpcRegistry, type Logger, type RpcHandler } from "./rpc.ts";

export interface HubOptions {
  /** Channels clients may subscribe to (the shop: `football`, `footballDetail`). Anything else → 102. */
  channels: string[];
  /** Defaults to a fresh in-memory broker (single process). */
  broker?: Broker;
  /** Server ping interval announced in the connect reply; 0 disables pings. Default 25. */
  pingIntervalSeconds?: number;
  /** Time a client has to answer a ping before it is closed with 3012. Default 8. */
  pongTimeoutSeconds?: number;
  /** Publications kept per channel for recovery; 0 makes channels non-recoverable. Default 1000. */
  historySize?: number;
  /** Age limit of replayable publications. Default 300 (5 min). */
  historyTtlSeconds?: number;
  /** Largest accepted client frame; larger ones close the connection with 1009. Default 65536. */
  maxFrameBytes?: number;
  /** Unsent output per client above which it is closed as slow (3008). Default 8 MiB. */
  maxBufferedBytes?: number;
  /** Subscribers written to before a fan-out yields the event loop. Default 1000 (decision 0029). */
  fanoutChunk?: number;
  logger?: Logger;
}

export interface Hub {
  /** The HTTP server calls this for `GET /ws` upgrade requests. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Publish to every subscriber of `channel` on every process sharing the broker. */
  publish(channel: string, data: unknown): Promise<StreamPosition>;
  /** Handler may throw `HubError(code, message, temporary?)` to send that error to the client. */
  registerRpc(method: string, handler: RpcHandler): void;
  connectionCount(): number;
  /** Clients of this process subscribed to at least one of `channels` (each client once). */
  subscriberCount(channels: readonly string[]): number;
  /** Close one client with a protocol close code (3000–3499 reconnect, 3500–3999 don't). */
  disconnectClient(clientId: string, code: number, reason: string): boolean;
  /** Close every client with the given code. */
  disconnectAll(code: number, reason: string): void;
  /** Graceful: stop accepting upgrades, close every client with 3001 "shutdown" (they reconnect elsewhere). */
  close(): Promise<void>;
}

/**
 * Subscribers written to before the fan-out yields the event loop (setImmediate), so pongs, commands and
 * new connections are not starved while 10,000 sockets are written. A write costs ~10 µs of kernel time on
 * loopback, so a chunk blocks the loop for ~10-20 ms on an idle core (decision 0029).
 */
const FANOUT_CHUNK = 1000;

function fanoutBatch(channel: string, pubs: Publication[]): FanoutBatch {
  const pushes = pubs.map((pub) => encodePublicationPush(channel, pub));
  let contiguous = true;
  for (let i = 1; i < pubs.length; i++) {
    if (pubs[i]!.epoch !== pubs[0]!.epoch || pubs[i]!.offset !== pubs[i - 1]!.offset + 1) contiguous = false;
  }
  return { pubs, pushes, frame: encodeTextFrame(pushes.join("\n")), contiguous };
}

const silentInfo: Logger = { info: () => {}, warn: console.warn, error: console.error };

export function createHub(options: HubOptions): Hub {
  const ownsBroker = options.broker === undefined;
  const broker = options.broker ?? createMemoryBroker();
  const logger = options.logger ?? silentInfo;
  const channels = new Set(options.channels);
  const config: ClientConfig = {
    pingIntervalSeconds: options.pingIntervalSeconds ?? 25,
    pongTimeoutSeconds: options.pongTimeoutSeconds ?? 8,
    staleSeconds: 10,
    historySize: options.historySize ?? 1000,
    historyTtlSeconds: options.historyTtlSeconds ?? 300,
    maxBufferedBytes: options.maxBufferedBytes ?? 8 * 1024 * 1024,
    serverVersion: "shop-realtime 0.1.0",
  };
  const fanoutChunk = Math.max(1, options.fanoutChunk ?? FANOUT_CHUNK);
  const rpc = new RpcRegistry();
  const clients = new Map<string, ClientConnection>();
  const index = new Map<string, Set<ClientConnection>>();
  const brokerSubscriptions = new Map<string, Promise<void>>();
  let closed = false;

  // ws enforces maxPayload itself and closes with 1009, which the client treats as terminal.
  // No permessage-deflate: it costs memory per socket, and the fan-out writes ready frames straight to the
  // socket (ClientConnection.deliverBatch), which is in order only because ws, without compression, never
  // queues a frame of its own. Keep it off (decision 0029).
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxFrameBytes ?? 65536,
    perMessageDeflate: false,
    clientTracking: false,
  });

  // Fan-out. Publications are collected per channel for the rest of the event-loop turn, then encoded
  // once per channel (one frame for all subscribers) and written in chunks of `fanoutChunk` subscribers.
  // Only one fan-out runs at a time, so each client sees batches in broker order; what arrives meanwhile
  // becomes the next batch. Membership is read while writing: a client that joins the index after a
  // publication arrived read its position from the broker afterwards, so the publication is in its reply
  // or history, and its offset check drops the duplicate.
  const pending = new Map<string, Publication[]>();
  let fanoutRunning = false;

  const onPublication = (channel: string, pub: Publication) => {
    if (!index.has(channel)) return;
    let list = pending.get(channel);
    if (!list) pending.set(channel, (list = []));
    list.push(pub);
    if (!fanoutRunning) {
      fanoutRunning = true;
      setImmediate(runFanout);
    }
  };

  const runFanout = () => {
    const batches = [...pending].map(([channel, pubs]) => ({ channel, batch: fanoutBatch(channel, pubs) }));
    pending.clear();
    let current = 0;
    let subscribers: Iterator<ClientConnection> | undefined;
    const step = () => {
      let budget = fanoutChunk;
      while (current < batches.length) {
        const { channel, batch } = batches[current]!;
        subscribers ??= (index.get(channel) ?? new Set<ClientConnection>()).values();
        for (let r = subscribers.next(); !r.done; r = subscribers.next()) {
          r.value.deliverBatch(channel, batch);
          if (--budget === 0) return void setImmediate(step);
        }
        current++;
        subscribers = undefined;
      }
      if (pending.size > 0 && !closed) setImmediate(runFanout);
      else fanoutRunning = false;
    };
    step();
  };
  const removeBrokerHandler = broker.onPublication(onPublication);

  const node: NodeApi = {
    config,
    broker,
    rpc,
    logger,
    channelAllowed: (channel) => channels.has(channel),
    brokerSubscribe(channel) {
      // Once per channel for the hub's lifetime: the channel set is fixed by configuration, so there is
      // nothing to gain from unsubscribing the broker when the last local client leaves.
      let p = brokerSubscriptions.get(channel);
      if (!p) {
        p = broker.subscribe(channel);
        brokerSubscriptions.set(channel, p);
        p.catch(() => brokerSubscriptions.delete(channel)); // retry on the next subscribe
      }
      return p;
    },
    addSubscriber(channel, client) {
      let set = index.get(channel);
      if (!set) index.set(channel, (set = new Set()));
      set.add(client);
    },
    removeSubscriber(channel, client) {
      const set = index.get(channel);
      if (!set) return;
      set.delete(client);
      if (set.size === 0) index.delete(channel);
    },
    clientClosed(client) {
      clients.delete(client.id);
    },
  };

  return {
    handleUpgrade(req, socket, head) {
      if (closed) {
        socket.end("HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        if (closed) return ws.close(DisconnectCode.shutdown.code, DisconnectCode.shutdown.reason);
        const client = new ClientConnection(ws, socket, node);
        clients.set(client.id, client);
      });
    },

    async publish(channel, data) {
      if (!channels.has(channel)) throw errors.unknownChannel();
      const json = JSON.stringify(data);
      if (json === undefined) throw new HubError(107, "publication data is not JSON");
      return broker.publish(channel, json, config);
    },

    registerRpc(method, handler) {
      rpc.register(method, handler);
    },

    connectionCount: () => clients.size,

    subscriberCount(names) {
      const seen = new Set<ClientConnection>();
      for (const name of names) for (const client of index.get(name) ?? []) seen.add(client);
      return seen.size;
    },

    disconnectClient(clientId, code, reason) {
      const client = clients.get(clientId);
      if (!client) return false;
      client.disconnect({ code, reason });
      return true;
    },

    disconnectAll(code, reason) {
      for (const client of clients.values()) client.disconnect({ code, reason });
    },

    async close() {
      if (closed) return;
      closed = true;
      const all = [...clients.values()];
      for (const client of all) client.disconnect(DisconnectCode.shutdown);
      // Each client is terminated after 5 s if it ignores the close frame, so this is bounded.
      await Promise.all(all.map((c) => c.closed));
      removeBrokerHandler();
      pending.clear();
      wss.close();
      if (ownsBroker) await broker.close();
    },
  };
}
