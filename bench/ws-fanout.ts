// Fan-out benchmark for the real-time hub (server/realtime). Figures only, no pass/fail.
//
//   npx tsx bench/ws-fanout.ts
//   WS_CONNECTIONS=10000 WS_PUBLICATIONS=50 npx tsx bench/ws-fanout.ts
//
// The hub runs in this process; the subscribed raw `ws` clients run in a forked child, so each process
// needs only one file descriptor per connection (10,000 connections = 20,000 sockets on loopback). The
// hub's memory per connection is this process's RSS delta divided by the connections held. Latency is
// from just before hub.publish() to the moment the last client received the push (clocks are
// performance.timeOrigin + performance.now() in both processes, same machine).
import { fork, spawnSync } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import WebSocket from "ws";
import { createHub } from "../server/realtime/index.ts";

const CONNECTIONS = Number(process.env.WS_CONNECTIONS ?? 10_000);
const PUBLICATIONS = Number(process.env.WS_PUBLICATIONS ?? 50);
const OPEN_CONCURRENCY = Number(process.env.WS_OPEN_CONCURRENCY ?? 200);
const OPEN_DEADLINE_MS = Number(process.env.WS_OPEN_DEADLINE_MS ?? 60_000);
const now = () => performance.timeOrigin + performance.now();

type FromWorker =
  | { type: "progress"; connected: number }
  | { type: "ready"; connected: number; failed: number; firstError?: string }
  | { type: "delivered"; offset: number; count: number; first: number; p50: number; p99: number; last: number };

// ---------------------------------------------------------------------------------------------------------
// Client side (child process): open connections, subscribe, record when each publication arrives.
async function clientWorker(url: string, target: number): Promise<void> {
  const send = (m: FromWorker) => process.send!(m);
  const sockets: WebSocket[] = [];
  const arrivals = new Map<number, number[]>();
  let subscribed = 0;
  let failed = 0;
  let firstError: string | undefined;
  let stop = false;

  const onFrame = (ws: WebSocket, frame: string) => {
    const at = now();
    for (const line of frame.split("\n")) {
      if (line === "{}") {
        ws.send("{}"); // pong, as centrifuge-js does
        continue;
      }
      const msg = JSON.parse(line);
      const offset = msg.push?.pub?.offset;
      if (typeof offset !== "number") continue;
      let list = arrivals.get(offset);
      if (!list) arrivals.set(offset, (list = []));
      list.push(at);
      if (list.length === subscribed) {
        list.sort((x, y) => x - y);
        const pick = (q: number) => list[Math.min(list.length - 1, Math.floor(q * list.length))]!;
        send({ type: "delivered", offset, count: list.length, first: list[0]!, p50: pick(0.5), p99: pick(0.99), last: list.at(-1)! });
        arrivals.delete(offset);
      }
    }
  };

  const openOne = () =>
    new Promise<boolean>((resolve) => {
      let done = false;
      const finish = (ok: boolean, err?: unknown) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (!ok) {
          failed++;
          firstError ??= String((err as Error)?.message ?? err);
          stop = true; // EMFILE, ECONNRESET …: stop opening, report what we hold
        }
        resolve(ok);
      };
      const timer = setTimeout(() => finish(false, new Error("open/subscribe timeout")), 15_000);
      let ws: WebSocket;
      try {
        ws = new WebSocket(url, { perMessageDeflate: false });
      } catch (err) {
        return finish(false, err);
      }
      ws.on("error", (err) => finish(false, err));
      ws.on("open", () => ws.send('{"connect":{"name":"js"},"id":1}\n{"subscribe":{"channel":"football","flag":1},"id":2}'));
      let ready = false;
      ws.on("message", (data) => {
        const frame = String(data);
        if (!ready) {
          if (frame.includes('"id":2,"subscribe"')) {
            ready = true;
            sockets.push(ws);
            subscribed++;
            finish(true);
          } else if (frame.includes('"error"')) finish(false, new Error(frame));
          return;
        }
        onFrame(ws, frame);
      });
    });

  const deadline = Date.now() + OPEN_DEADLINE_MS;
  let lastReport = 0;
  let opened = 0;
  while (opened < target && !stop && Date.now() < deadline) {
    const batch = Math.min(OPEN_CONCURRENCY, target - opened);
    opened += batch;
    await Promise.all(Array.from({ length: batch }, openOne));
    if (Date.now() - lastReport > 1000) {
      lastReport = Date.now();
      send({ type: "progress", connected: subscribed });
    }
  }
  send({ type: "ready", connected: subscribed, failed, firstError });
  process.on("message", (m: { type: string }) => {
    if (m.type === "exit") {
      for (const ws of sockets) ws.terminate();
      process.exit(0);
    }
  });
}

// ---------------------------------------------------------------------------------------------------------
// Server side (this process).
function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

async function main(): Promise<void> {
  const fdLimit = spawnSync("sh", ["-c", "ulimit -n"], { encoding: "utf8" }).stdout.trim();
  console.log(`ws-fanout: target ${CONNECTIONS} connections, ${PUBLICATIONS} publications, fd limit (ulimit -n) ${fdLimit}`);
  if (Number(fdLimit) < CONNECTIONS + 100) {
    console.log(`  note: the fd limit is below the target; raise it (ulimit -n ${CONNECTIONS * 2}) to hold them all`);
  }

  const hub = createHub({ channels: ["football"], logger: { info() {}, warn() {}, error: console.error } });
  const server = createServer((_req, res) => res.writeHead(404).end());
  server.on("upgrade", (req, socket, head) => hub.handleUpgrade(req, socket, head));
  server.on("error", (err) => console.error("server error:", err.message));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;

  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const started = Date.now();
  const worker = fork(process.argv[1]!, ["--client", url, String(CONNECTIONS)], { stdio: "inherit" });

  const delivered = new Map<number, (m: Extract<FromWorker, { type: "delivered" }>) => void>();
  const ready = new Promise<Extract<FromWorker, { type: "ready" }>>((resolve) => {
    worker.on("message", (m: FromWorker) => {
      if (m.type === "progress") process.stdout.write(`  connected ${m.connected}\r`);
      else if (m.type === "ready") resolve(m);
      else if (m.type === "delivered") delivered.get(m.offset)?.(m);
    });
  });
  const r = await ready;
  const openSeconds = (Date.now() - started) / 1000;
  global.gc?.();
  const rssAfter = process.memoryUsage().rss;
  const held = hub.connectionCount();
  console.log(`  opened ${r.connected} subscribed connections in ${openSeconds.toFixed(1)} s (hub holds ${held})`);
  if (r.failed > 0) console.log(`  stopped opening after an error: ${r.firstError} (${r.failed} failed)`);

  const toLast: number[] = [];
  const toMedian: number[] = [];
  const toFirst: number[] = [];
  if (r.connected > 0) {
    for (let i = 0; i < PUBLICATIONS; i++) {
      const t0 = now();
      const expected = i + 1; // fresh hub: offsets start at 1
      const got = new Promise<Extract<FromWorker, { type: "delivered" }> | null>((resolve) => {
        const t = setTimeout(() => resolve(null), 15_000);
        delivered.set(expected, (m) => {
          clearTimeout(t);
          resolve(m);
        });
      });
      const pos = await hub.publish("football", { slug: "bench", seq: i, home: { score: i, periods: { p1: i } } });
      if (pos.offset !== expected) throw new Error(`unexpected offset ${pos.offset}`);
      const m = await got;
      delivered.delete(expected);
      if (!m) {
        console.log(`  publication ${expected} not delivered to all clients within 15 s; stopping`);
        break;
      }
      toFirst.push(m.first - t0);
      toMedian.push(m.p50 - t0);
      toLast.push(m.last - t0);
    }
  }

  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const sort = (a: number[]) => [...a].sort((x, y) => x - y);
  console.log("\nresults");
  console.log(`  connections held:          ${held}`);
  console.log(`  hub RSS delta:             ${((rssAfter - rssBefore) / 1048576).toFixed(1)} MiB`);
  console.log(
    `  memory per connection:     ${held > 0 ? ((rssAfter - rssBefore) / held / 1024).toFixed(1) : "n/a"} KiB (RSS delta / connections${global.gc ? ", after GC" : ", no forced GC"})`,
  );
  if (toLast.length > 0) {
    const last = sort(toLast);
    const med = sort(toMedian);
    console.log(`  publications measured:     ${toLast.length}`);
    console.log(`  publish → last client:     p50 ${ms(quantile(last, 0.5))}  p99 ${ms(quantile(last, 0.99))}  max ${ms(last.at(-1)!)}`);
    console.log(`  publish → median client:   p50 ${ms(quantile(med, 0.5))}  p99 ${ms(quantile(med, 0.99))}`);
    console.log(`  publish → first client:    p50 ${ms(quantile(sort(toFirst), 0.5))}`);
  }

  worker.send({ type: "exit" });
  await new Promise((r) => worker.once("exit", r));
  await hub.close(); // sockets are gone already, so this is quick
  server.closeAllConnections();
  server.close();
}

if (process.argv[2] === "--client") {
  void clientWorker(process.argv[3]!, Number(process.argv[4]));
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
