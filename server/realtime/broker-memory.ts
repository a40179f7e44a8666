// Single-process broker. History and offsets live in this process, so a restart starts a new epoch and
// every reconnecting client is told recovered:false (it reloads full state) — never a silent gap.
import { randomBytes } from "node:crypto";
import type { Broker, BrokerHandler, HistoryOptions } from "./broker.ts";
import type { Publication, StreamPosition } from "./protocol.ts";
import { withinTtl } from "./recovery.ts";

interface Stream {
  epoch: string;
  offset: number;
  pubs: Publication[];
}

export function newEpoch(): string {
  return randomBytes(6).toString("hex");
}

export function createMemoryBroker(options: { now?: () => number } = {}): Broker {
  const now = options.now ?? Date.now;
  const streams = new Map<string, Stream>();
  const handlers = new Set<BrokerHandler>();

  const stream = (channel: string): Stream => {
    let s = streams.get(channel);
    if (!s) {
      s = { epoch: newEpoch(), offset: 0, pubs: [] };
      streams.set(channel, s);
    }
    return s;
  };

  return {
    onPublication(handler) {
      handlers.add(handler);
      return () => void handlers.delete(handler);
    },
    async subscribe() {
      // Every handler sees every channel; the hub filters by its own subscription index.
    },
    async publish(channel: string, data: string, opts: HistoryOptions): Promise<StreamPosition> {
      const s = stream(channel);
      const pub: Publication = { offset: ++s.offset, epoch: s.epoch, data, time: now() };
      if (opts.historySize > 0) {
        s.pubs.push(pub);
        if (s.pubs.length > opts.historySize) s.pubs.splice(0, s.pubs.length - opts.historySize);
      }
      // Synchronous fan-out keeps stream order equal to offset order without any extra sequencing.
      for (const h of handlers) h(channel, pub);
      return { offset: pub.offset, epoch: pub.epoch };
    },
    async history(channel, opts) {
      const s = stream(channel);
      const top = { offset: s.offset, epoch: s.epoch };
      if (opts.limit === 0) return { top, publications: [] };
      s.pubs = withinTtl(s.pubs, opts.historyTtlSeconds, now()); // expire lazily
      const since = opts.sinceOffset ?? 0;
      let pubs = s.pubs.filter((p) => p.offset > since);
      if (opts.limit !== undefined && pubs.length > opts.limit) pubs = pubs.slice(0, opts.limit);
      return { top, publications: pubs };
    },
    async close() {
      handlers.clear();
    },
  };
}
