// The hub (centrifuge's "node"): accepts WebSocket upgrades, keeps the channel → clients index, and fans
// broker publications out to local subscribers. Protocol details live in client.ts, storage in brokers.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import type { Broker } from "./broker.ts";
import { createMemoryBroker } from "./broker-memory.ts";
import { ClientConnection, type ClientConfig, type NodeApi } from "./client.ts";
import { encodePublicationPush } from "./codec.ts";
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
  const rpc = new RpcRegistry();
  const clients = new Map<string, ClientConnection>();
  const index = new Map<string, Set<ClientConnection>>();
  const brokerSubscriptions = new Map<string, Promise<void>>();
  let closed = false;

  // ws enforces maxPayload itself and closes with 1009, which the client treats as terminal.
  // No permessage-deflate: the client never negotiates it and it costs memory per socket.
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxFrameBytes ?? 65536,
    perMessageDeflate: false,
    clientTracking: false,
  });

  const onPublication = (channel: string, pub: Publication) => {
    const subscribers = index.get(channel);
    if (!subscribers || subscribers.size === 0) return;
    const push = encodePublicationPush(channel, pub); // encoded once for all subscribers
    for (const client of subscribers) client.deliver(channel, pub, push);
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
        const client = new ClientConnection(ws, node);
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
      wss.close();
      if (ownsBroker) await broker.close();
    },
  };
}
