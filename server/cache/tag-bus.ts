/**
 * The shop's one invalidation bus (docs/decisions/0028-page-cache.md, 0033-several-processes.md). It carries two
 * kinds of tag between the processes of one shop:
 * - write tags (core/db/write-tags.ts): the database wrapper publishes the tags of every committed write here; the
 *   page cache listens;
 * - named cache tags (core/cache-tags.ts): an in-process cache (pricing setup, site settings) cleared by its writer
 *   is cleared in every other process too.
 * Between processes the tags travel over Redis pub/sub when REDIS_URL is set, else PostgreSQL's LISTEN/NOTIFY;
 * PGlite is one process, so there the bus is local only.
 */
import { randomUUID } from "node:crypto";
import { CACHE_TAGS, type CacheTag } from "../../core/db/write-tags.ts";
import { addTagRelay, clearEveryTagHere, clearTagHere } from "../../core/cache-tags.ts";
import type { Logger } from "../log.ts";
import type { Queryable } from "../../core/db/client.ts";

type Listener = (tags: ReadonlySet<CacheTag>) => void;

/** How tags reach the other processes: `send` is fire-and-forget; `close` stops listening. */
export interface BusTransport {
  send(message: string): void;
  close(): Promise<void>;
}

/** Every tag: what a process delivers to itself when it may have missed messages (a dropped connection). */
const EVERY_TAG: ReadonlySet<CacheTag> = new Set(CACHE_TAGS);
/** A named cache tag from the wire: a short plain name ("pricing-setup"), nothing else is cleared. */
const NAMED_TAG = /^[a-z][a-z0-9:-]{0,63}$/;

export class TagBus {
  private readonly listeners = new Set<Listener>();
  private transport: BusTransport | null = null;
  private removeRelay: (() => void) | null = null;
  /** This process's id: its own messages come back from Redis and PostgreSQL, and are not delivered twice. */
  readonly origin = randomUUID();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Delivered here at once (before the write's response goes out), then sent to the other processes. */
  publish(tags: ReadonlySet<CacheTag>): void {
    this.deliver(tags);
    this.transport?.send(JSON.stringify({ o: this.origin, t: [...tags] }));
  }

  private deliver(tags: ReadonlySet<CacheTag>): void {
    for (const listener of this.listeners) listener(tags);
  }

  /**
   * A message from another process (or this one's echo, ignored): `t`, write tags; `n`, named cache tags. Anything
   * malformed is dropped.
   */
  receive(message: string): void {
    try {
      const parsed = JSON.parse(message) as { o?: unknown; t?: unknown; n?: unknown };
      if (parsed.o === this.origin) return;
      if (Array.isArray(parsed.t)) {
        const tags = new Set(parsed.t.filter((t): t is CacheTag => (CACHE_TAGS as readonly unknown[]).includes(t)));
        if (tags.size) this.deliver(tags);
      }
      if (Array.isArray(parsed.n)) for (const name of parsed.n) if (typeof name === "string" && NAMED_TAG.test(name)) clearTagHere(name);
    } catch {
      // not ours
    }
  }

  /** The connection to the other processes was lost for a while: whatever changed meanwhile is unknown. */
  resync(): void {
    this.deliver(EVERY_TAG);
    clearEveryTagHere();
  }

  /** Sends to the other processes from now on: the write tags, and the named cache tags cleared here. */
  connect(transport: BusTransport): void {
    this.transport = transport;
    this.removeRelay ??= addTagRelay((name) => this.transport?.send(JSON.stringify({ o: this.origin, n: [name] })));
  }

  async close(): Promise<void> {
    this.removeRelay?.();
    this.removeRelay = null;
    await this.transport?.close();
    this.transport = null;
  }
}

/** Redis pub/sub on `<prefix>:invalidate`: one connection publishes, a second one subscribes. */
export async function redisTransport(bus: TagBus, url: string, prefix: string, logger: Logger): Promise<BusTransport> {
  const { Redis } = await import("ioredis");
  const channel = `${prefix}:invalidate`;
  const pub = new Redis(url, { maxRetriesPerRequest: 2 });
  const sub = new Redis(url, { maxRetriesPerRequest: null });
  let lost = false;
  for (const c of [pub, sub]) c.on("error", (error) => logger.warn("invalidation bus: redis error", { error: String(error) }));
  sub.on("close", () => void (lost = true));
  sub.on("ready", () => {
    if (lost) bus.resync();
    lost = false;
  });
  sub.on("message", (ch: string, message: string) => {
    if (ch === channel) bus.receive(message);
  });
  await sub.subscribe(channel);
  return {
    send: (message) => void pub.publish(channel, message).catch((error) => logger.warn("invalidation bus: publish failed", { error: String(error) })),
    async close() {
      sub.disconnect();
      pub.disconnect();
    },
  };
}

/**
 * PostgreSQL's LISTEN/NOTIFY on channel `shop_invalidate`, over one connection of its own (a pooled one would drop
 * the LISTEN); NOTIFY goes through the shop's pool, so a change is sent while that connection is being reopened. A
 * dropped connection is reopened after a second, and the cache resynchronises (everything is stale).
 */
export async function postgresTransport(bus: TagBus, url: string, db: Queryable, logger: Logger): Promise<BusTransport> {
  const pgModule = await import("pg");
  const pg = pgModule.default ?? pgModule;
  const CHANNEL = "shop_invalidate";
  let client: InstanceType<typeof pg.Client> | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  const open = async (reconnect: boolean) => {
    const c = new pg.Client({ connectionString: url });
    c.on("notification", (n) => {
      if (n.channel === CHANNEL && n.payload) bus.receive(n.payload);
    });
    c.on("error", (error) => {
      logger.warn("invalidation bus: listen connection failed", { error: String(error) });
      again();
    });
    c.on("end", again);
    await c.connect();
    await c.query(`LISTEN ${CHANNEL}`);
    client = c;
    if (reconnect) bus.resync();
  };
  function again() {
    client = null;
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = null;
      open(true).catch(() => again());
    }, 1000);
    retry.unref();
  }
  await open(false);
  return {
    send(message) {
      db.query("SELECT pg_notify($1, $2)", [CHANNEL, message]).catch((error: unknown) =>
        logger.warn("invalidation bus: notify failed", { error: String(error) }),
      );
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}
