/**
 * Attaches the live-score hub to the HTTP server's websocket upgrade at /ws.
 * Any other upgrade path is refused; the hub itself lives in server/realtime/.
 */
import type http from "node:http";
import type { Duplex } from "node:stream";
import type { Env } from "../core/config/env.server.ts";
import type { AppServices } from "./services.ts";

export interface Realtime {
  close(): Promise<void>;
  connectionCount(): number;
}

export async function startRealtime(opts: { server: http.Server; services: AppServices; env: Env }): Promise<Realtime> {
  const { server } = opts;
  const refuse = (socket: Duplex, status: string) => {
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };
  server.on("upgrade", (req, socket, _head) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/ws") return refuse(socket, "404 Not Found");
    refuse(socket, "503 Service Unavailable"); // replaced by the hub once it lands
  });
  return { close: async () => {}, connectionCount: () => 0 };
}
