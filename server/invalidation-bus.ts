/**
 * The invalidation bus: carries cache tags (core/cache-tags.ts) between the processes of one shop over Redis
 * pub/sub, on the channel `{REDIS_PREFIX}:invalidate` (decision 0033). Started by server/main.ts when REDIS_URL is
 * set, whatever WEB_CONCURRENCY is (several hosts may share one Redis too); without REDIS_URL nothing is relayed and
 * the caches' own lifetimes bound how stale another process can be.
 *
 * A message is `{"tag":"…","from":"<this process's id>"}`; a process ignores its own. Delivery is at most once and
 * arrives a few milliseconds after the writer's commit: a reader in another process in between still sees the old
 * cached value. A page cache with tag invalidation publishes and receives through the same two functions
 * (`tagChanged`, `onTagChanged`), not through a second channel.
 */
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { addTagRelay, clearTagHere } from "../core/cache-tags.ts";
import type { Logger } from "./log.ts";

export interface InvalidationBus {
  close(): Promise<void>;
}

export async function startInvalidationBus(url: string, prefix: string, logger: Logger): Promise<InvalidationBus> {
  const channel = `${prefix}:invalidate`;
  const id = randomUUID();
  const pub = new Redis(url, { maxRetriesPerRequest: 3 });
  // A subscribed connection accepts no other commands.
  const sub = new Redis(url, { maxRetriesPerRequest: 3 });
  sub.on("message", (from: string, text: string) => {
    if (from !== channel) return;
    try {
      const message = JSON.parse(text) as { tag?: unknown; from?: unknown };
      if (typeof message.tag === "string" && message.from !== id) clearTagHere(message.tag);
    } catch {
      logger.warn("invalidation bus: a message that is not JSON was ignored", { channel });
    }
  });
  for (const connection of [pub, sub]) connection.on("error", (error: Error) => logger.warn("invalidation bus: Redis error", { error: error.message }));
  await sub.subscribe(channel);
  const removeRelay = addTagRelay((tag) => {
    pub
      .publish(channel, JSON.stringify({ tag, from: id }))
      .catch((error: Error) => logger.warn("invalidation bus: publish failed", { tag, error: error.message }));
  });
  return {
    async close() {
      removeRelay();
      await Promise.all([sub.quit().catch(() => undefined), pub.quit().catch(() => undefined)]);
    },
  };
}
