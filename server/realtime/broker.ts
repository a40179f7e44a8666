// Broker: where publications get their stream position, where history lives, and how a publication made on
// one process reaches the subscribers of every process. Mirrors centrifugal/centrifuge's Broker interface,
// trimmed to what an anonymous, server-published stream needs (no presence, no join/leave).
import type { Publication, StreamPosition } from "./protocol.ts";
import type { HistorySnapshot } from "./recovery.ts";

export interface HistoryOptions {
  /** Publications kept per channel; 0 disables history (the channel is then not recoverable). */
  historySize: number;
  /** Publications older than this are not replayed; 0 = no age limit. */
  historyTtlSeconds: number;
}

/** Called for every publication on every channel this process subscribed to, in stream order. */
export type BrokerHandler = (channel: string, pub: Publication) => void;

export interface Broker {
  /** Register a handler for publications from the broker. Returns a function that removes it. */
  onPublication(handler: BrokerHandler): () => void;
  /**
   * Start receiving publications of `channel`. Resolves once delivery is guaranteed for everything
   * published afterwards — the hub reads history only after that, so nothing falls between the two.
   */
  subscribe(channel: string): Promise<void>;
  /** Assign the next offset, append to history, fan out to every process. `data` is JSON text. */
  publish(channel: string, data: string, opts: HistoryOptions): Promise<StreamPosition>;
  /**
   * Atomically read the stream top and the retained publications after `sinceOffset` (all of them when
   * omitted, none when `limit` is 0).
   */
  history(channel: string, opts: { sinceOffset?: number; limit?: number; historyTtlSeconds: number }): Promise<HistorySnapshot>;
  close(): Promise<void>;
}
