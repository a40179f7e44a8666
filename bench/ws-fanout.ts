// Fan-out benchmark for the real-time hub (server/realtime). Figures only, no pass/fail.
//
//   node --expose-gc --import tsx bench/ws-fanout.ts
//   WS_CONNECTIONS=10000 WS_PUBLICATIONS=50 node --expose-gc --import tsx bench/ws-fanout.ts
//   WS_HUB=tmp/baseline/server/realtime/index.ts …   another hub build, e.g. main's, for a side-by-side run
//   REDIS_URL=redis://127.0.0.1:6379 …                 the hub on the Redis broker (prefix bench:rt:<random>)
//
// How it measures (decision 0029):
// - The hub runs in this process; the subscribed clients run in one forked child, so the clients' work is
//   not on the hub's event loop (both still share the machine's cores, as they would in any same-host
//   test) and each process needs one file descriptor per connection. The clients are a minimal WebSocket
//   client on plain TCP sockets (frameReader, clientFrame below) that speak the Centrifugo JSON protocol
//   like centrifuge-js (connect + subscribe in one frame, pong to `{}`), to leave the hub the CPU.
// - Each publication carries its publish timestamp (`sentAt`, taken just before hub.publish()); the child
//   subtracts it from the arrival time of every push it reads. Both clocks are
//   performance.timeOrigin + performance.now() on the same machine.
// - Publications go one at a time: the next is published when every client has received the previous
//   (the child counts arrivals per `seq`).
// - publish → receive: quantiles over every (publication, client) arrival. publish → last client: the
//   slowest client of each publication, quantiles over publications.
// - Memory per connection: this process's RSS delta (after GC with --expose-gc) over the connections held.
// - CPU: process.cpuUsage() of each process over the publishing phase, per publication (user + system;
//   writing to 10,000 sockets is mostly system time). Event-loop delay: the hub's largest stall while
//   publishing (perf_hooks.monitorEventLoopDelay), i.e. how long a ping, pong or new connection could wait.
import { fork, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import type * as Realtime from "../server/realtime/index.ts";

const CONNECTIONS = Number(process.env.WS_CONNECTIONS ?? 10_000);
const PUBLICATIONS = Number(process.env.WS_PUBLICATIONS ?? 50);
const OPEN_CONCURRENCY = Number(process.env.WS_OPEN_CONCURRENCY ?? 200);
const OPEN_DEADLINE_MS = Number(process.env.WS_OPEN_DEADLINE_MS ?? 60_000);
const now = () => performance.timeOrigin + performance.now();

interface Cpu {
  user: number;
  system: number;
}
type FromWorker =
  | { type: "progress"; connected: number }
  | { type: "ready"; connected: number; failed: number; firstError?: string }
  | { type: "delivered"; seq: number; last: number }
  | { type: "summary"; p50: number; p99: number; max: number; count: number; cpu: Cpu };
type ToWorker = { type: "start" } | { type: "finish" } | { type: "exit" };

function quantile(sorted: ArrayLike<number>, q: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

// ---------------------------------------------------------------------------------------------------------
// WebSocket framing for the bench client.

/** A masked client text frame (the mask key is random per frame, as RFC 6455 §5.3 asks). */
function clientFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const header = payload.length < 126 ? 2 : 4;
  const frame = Buffer.allocUnsafe(header + 4 + payload.length);
  frame[0] = 0x81;
  if (header === 2) frame[1] = 0x80 | payload.length;
  else {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(payload.length, 2);
  }
  const mask = randomBytes(4);
  mask.copy(frame, header);
  for (let i = 0; i < payload.length; i++) frame[header + 4 + i] = payload[i]! ^ mask[i & 3]!;
  return frame;
}

/** Reads the 101 response, then server frames; calls `onText` per text frame (other opcodes are skipped). */
function frameReader(onUpgrade: (ok: boolean) => void, onText: (text: string) => void): (chunk: Buffer) => void {
  let buffered: Buffer = Buffer.alloc(0);
  let upgraded = false;
  return (chunk) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    if (!upgraded) {
      const end = buffered.indexOf("\r\n\r\n");
      if (end < 0) return;
      upgraded = true;
      onUpgrade(buffered.subarray(0, 12).toString() === "HTTP/1.1 101");
      buffered = buffered.subarray(end + 4);
    }
    while (buffered.length >= 2) {
      let length = buffered[1]! & 0x7f;
      let header = 2;
      if (length === 126) {
        if (buffered.length < 4) return;
        length = buffered.readUInt16BE(2);
        header = 4;
      } else if (length === 127) {
        if (buffered.length < 10) return;
        length = Number(buffered.readBigUInt64BE(2));
        header = 10;
      }
      if (buffered.length < header + length) return;
      if ((buffered[0]! & 0x0f) === 1) onText(buffered.toString("utf8", header, header + length));
      buffered = buffered.subarray(header + length);
    }
  };
}

// ---------------------------------------------------------------------------------------------------------
// Client side (child process): open connections, subscribe, record publish → arrival for every push.
async function clientWorker(url: string, target: number): Promise<void> {
  const send = (m: FromWorker) => process.send!(m);
  const sockets: Socket[] = [];
  const { hostname: host, port, pathname: path } = new URL(url);
  const arrivals = new Map<number, { count: number; last: number }>();
  let latencies = new Float64Array(1 << 16);
  let recorded = 0;
  let subscribed = 0;
  let failed = 0;
  let firstError: string | undefined;
  let stop = false;
  let cpuStart = process.cpuUsage();

  const record = (latency: number) => {
    if (recorded === latencies.length) {
      const bigger = new Float64Array(latencies.length * 2);
      bigger.set(latencies);
      latencies = bigger;
    }
    latencies[recorded++] = latency;
  };

  const onFrame = (socket: Socket, frame: string) => {
    const at = now();
    for (const line of frame.split("\n")) {
      if (line === "{}") {
        socket.write(clientFrame("{}")); // pong, as centrifuge-js does
        continue;
      }
      const pub = JSON.parse(line).push?.pub;
      if (pub === undefined) continue;
      const { seq, sentAt } = pub.data as { seq: number; sentAt: number };
      const latency = at - sentAt;
      record(latency);
      let a = arrivals.get(seq);
      if (!a) arrivals.set(seq, (a = { count: 0, last: 0 }));
      a.count++;
      a.last = Math.max(a.last, latency);
      if (a.count === subscribed) {
        send({ type: "delivered", seq, last: a.last });
        arrivals.delete(seq);
      }
    }
  };

  // A minimal WebSocket client on a plain TCP socket (RFC 6455: the upgrade request, masked client frames,
  // unmasked server frames). Its only work per push is one JSON.parse, so the load generator takes as little
  // of the machine's CPU from the hub as it can; `ws`'s client costs about twice as much per message.
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
      const socket = connect(Number(port), host);
      const handshake = (ok: boolean) => {
        if (!ok) return finish(false, new Error("upgrade refused"));
        socket.write(clientFrame('{"connect":{"name":"js"},"id":1}\n{"subscribe":{"channel":"football","flag":1},"id":2}'));
      };
      let ready = false;
      const onText = (frame: string) => {
        if (ready) return onFrame(socket, frame);
        if (frame.includes('"id":2,"subscribe"')) {
          ready = true;
          sockets.push(socket);
          subscribed++;
          finish(true);
        } else if (frame.includes('"error"')) finish(false, new Error(frame));
      };
      socket.on("error", (err) => finish(false, err));
      socket.on("connect", () =>
        socket.write(
          `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
        ),
      );
      socket.on("data", frameReader(handshake, onText));
    });

  process.on("message", (m: ToWorker) => {
    if (m.type === "start") {
      cpuStart = process.cpuUsage();
    } else if (m.type === "finish") {
      const cpu = process.cpuUsage(cpuStart);
      const sorted = latencies.slice(0, recorded).sort();
      send({ type: "summary", p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted[recorded - 1] ?? NaN, count: recorded, cpu });
    } else if (m.type === "exit") {
      for (const socket of sockets) socket.destroy();
      process.exit(0);
    }
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
}

// ---------------------------------------------------------------------------------------------------------
// Server side (this process).
async function main(): Promise<void> {
  const hubModule = process.env.WS_HUB ? pathToFileURL(resolve(process.env.WS_HUB)).href : "../server/realtime/index.ts";
  const { createHub, createRedisBroker } = (await import(hubModule)) as typeof Realtime;
  const fdLimit = spawnSync("sh", ["-c", "ulimit -n"], { encoding: "utf8" }).stdout.trim();
  const redisPrefix = `bench:rt:${randomBytes(4).toString("hex")}`;
  const broker = process.env.REDIS_URL ? await createRedisBroker(process.env.REDIS_URL, { prefix: redisPrefix }) : undefined;
  console.log(
    `ws-fanout: hub ${process.env.WS_HUB ?? "server/realtime"}, ${broker ? `Redis broker (${redisPrefix})` : "memory broker"}, ` +
      `target ${CONNECTIONS} connections, ${PUBLICATIONS} publications, fd limit (ulimit -n) ${fdLimit}`,
  );
  if (Number(fdLimit) < CONNECTIONS + 100) {
    console.log(`  note: the fd limit is below the target; raise it (ulimit -n ${CONNECTIONS * 2}) to hold them all`);
  }

  const hub = createHub({ channels: ["football"], broker, logger: { info() {}, warn() {}, error: console.error } });
  const server = createServer((_req, res) => res.writeHead(404).end());
  server.on("upgrade", (req, socket, head) => hub.handleUpgrade(req, socket, head));
  server.on("error", (err) => console.error("server error:", err.message));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;

  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const started = Date.now();
  const worker = fork(process.argv[1]!, ["--client", url, String(CONNECTIONS)], { stdio: "inherit" });
  const toWorker = (m: ToWorker) => worker.send(m);

  const delivered = new Map<number, (m: Extract<FromWorker, { type: "delivered" }>) => void>();
  let onSummary: (m: Extract<FromWorker, { type: "summary" }>) => void = () => {};
  const ready = new Promise<Extract<FromWorker, { type: "ready" }>>((resolve) => {
    worker.on("message", (m: FromWorker) => {
      if (m.type === "progress") process.stdout.write(`  connected ${m.connected}\r`);
      else if (m.type === "ready") resolve(m);
      else if (m.type === "delivered") delivered.get(m.seq)?.(m);
      else if (m.type === "summary") onSummary(m);
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
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  toWorker({ type: "start" });
  const cpuStart = process.cpuUsage();
  loopDelay.enable();
  if (r.connected > 0) {
    for (let i = 0; i < PUBLICATIONS; i++) {
      const got = new Promise<Extract<FromWorker, { type: "delivered" }> | null>((resolve) => {
        const t = setTimeout(() => resolve(null), 15_000);
        delivered.set(i, (m) => {
          clearTimeout(t);
          resolve(m);
        });
      });
      await hub.publish("football", { slug: "bench", seq: i, home: { score: i, periods: { "1": i } }, away: { score: 0 }, sentAt: now() });
      const m = await got;
      delivered.delete(i);
      if (!m) {
        console.log(`  publication ${i + 1} not delivered to all clients within 15 s; stopping`);
        break;
      }
      toLast.push(m.last);
    }
  }
  loopDelay.disable();
  const cpu = process.cpuUsage(cpuStart);
  const summary = await new Promise<Extract<FromWorker, { type: "summary" }>>((res) => {
    onSummary = res;
    toWorker({ type: "finish" });
  });

  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const perPub = (c: Cpu) => {
    const n = Math.max(1, toLast.length);
    return `${((c.user + c.system) / 1000 / n).toFixed(1)} ms (user ${(c.user / 1000 / n).toFixed(1)}, system ${(c.system / 1000 / n).toFixed(1)})`;
  };
  console.log("\nresults");
  console.log(`  connections held:          ${held}`);
  console.log(`  hub RSS delta:             ${((rssAfter - rssBefore) / 1048576).toFixed(1)} MiB`);
  console.log(
    `  memory per connection:     ${held > 0 ? ((rssAfter - rssBefore) / held / 1024).toFixed(1) : "n/a"} KiB (RSS delta / connections${global.gc ? ", after GC" : ", no forced GC"})`,
  );
  if (toLast.length > 0) {
    const last = [...toLast].sort((x, y) => x - y);
    console.log(`  publications measured:     ${toLast.length} (${summary.count} receives)`);
    console.log(`  publish → receive:         p50 ${ms(summary.p50)}  p99 ${ms(summary.p99)}  max ${ms(summary.max)}  (every client, every publication)`);
    console.log(`  publish → last client:     p50 ${ms(quantile(last, 0.5))}  p99 ${ms(quantile(last, 0.99))}  max ${ms(last.at(-1)!)}`);
    console.log(`  hub CPU per publication:   ${perPub(cpu)}`);
    console.log(`  client CPU per publication: ${perPub(summary.cpu)}`);
    console.log(`  hub event-loop delay:      max ${ms(loopDelay.max / 1e6)}  p99 ${ms(loopDelay.percentile(99) / 1e6)} while publishing`);
  }

  toWorker({ type: "exit" });
  await new Promise((r) => worker.once("exit", r));
  await hub.close(); // sockets are gone already, so this is quick
  await broker?.close();
  if (process.env.REDIS_URL) {
    const { Redis } = await import("ioredis");
    const admin = new Redis(process.env.REDIS_URL);
    const keys = await admin.keys(`${redisPrefix}:*`);
    if (keys.length > 0) await admin.del(...keys);
    await admin.quit();
  }
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
