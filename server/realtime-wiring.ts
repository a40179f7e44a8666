/**
 * Attaches the live-score hub (server/realtime/, the Centrifugo client protocol)
 * to the HTTP server's websocket upgrade at /ws. Any other upgrade path is
 * refused. With REDIS_URL the hub shares publications and history with every
 * other process of the shop; without it, an in-memory broker.
 */
import type http from "node:http";
import type { Duplex } from "node:stream";
import type { Env } from "../core/config/env.server.ts";
import type { AppServices } from "./services.ts";
import { createHub, createRedisBroker, type Broker, type Hub } from "./realtime/index.ts";

export interface Realtime {
  hub: Hub;
  close(): Promise<void>;
  connectionCount(): number;
  /** Viewers of this process subscribed to the live-match channels (the sport's two; the admin dashboard's "live visitors"). */
  liveViewerCount(): number;
}

export async function startRealtime(opts: { server: http.Server; services: AppServices; env: Env }): Promise<Realtime> {
  const { server, services, env } = opts;
  const sport = services.config.sports.sport;
  const broker: Broker | undefined = env.REDIS_URL ? await createRedisBroker(env.REDIS_URL, { prefix: env.REDIS_PREFIX }) : undefined;
  const hub = createHub({
    channels: [sport, `${sport}Detail`],
    broker,
    maxFrameBytes: services.config.limits.websocketFrameBytes,
    logger: { info: (m: string) => services.logger.info(m), warn: (m: string) => services.logger.warn(m), error: (m: string) => services.logger.error(m) },
  });
  const refuse = (socket: Duplex, status: string) => socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  server.on("upgrade", (req, socket, head) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/ws") return refuse(socket, "404 Not Found");
    hub.handleUpgrade(req, socket, head);
  });
  return {
    hub,
    connectionCount: () => hub.connectionCount(),
    liveViewerCount: () => hub.subscriberCount([sport, `${sport}Detail`]),
    async close() {
      await hub.close(); // every client gets 3001 "shutdown" and reconnects
      await broker?.close();
    },
  };
}
