/**
 * A real HTTP server standing in for the tracking destinations (127.0.0.1, a free port). It keeps every request
 * with the status it answered, and fails on purpose: `failing = true` answers 500 until set back, `failFor(ms)`
 * answers 500 for that long from now.
 */
import http from "node:http";

export interface ReceivedEvent {
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
  status: number;
  at: number;
}

export interface TrackingReceiver {
  url: string;
  received: ReceivedEvent[];
  /** Requests answered 2xx. */
  delivered(): ReceivedEvent[];
  failing: boolean;
  failFor(ms: number): void;
  close(): Promise<void>;
}

export async function startTrackingReceiver(): Promise<TrackingReceiver> {
  let failUntil = 0;
  const receiver: TrackingReceiver = {
    url: "",
    received: [],
    delivered: () => receiver.received.filter((r) => r.status < 300),
    failing: false,
    failFor(ms) {
      failUntil = Date.now() + ms;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://receiver");
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
      } catch {
        /* kept empty: the test sees it */
      }
      const status = receiver.failing || Date.now() < failUntil ? 500 : 200;
      receiver.received.push({ path: url.pathname, query: url.searchParams, headers: req.headers, body, status, at: Date.now() });
      res.writeHead(status, { "Content-Type": "application/json" }).end(status === 200 ? '{"events_received":1}' : '{"error":"down on purpose"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  receiver.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return receiver;
}
