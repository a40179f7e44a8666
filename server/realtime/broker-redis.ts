// Redis broker for several server processes. Per channel:
//   {prefix}:meta:{channel}    hash  e = epoch, s = last offset (HINCRBY)
//   {prefix}:stream:{channel}  stream, entry id "<offset>-0", fields d = JSON data, t = time (ms)
//   {prefix}:pub:{channel}     pub/sub fan-out, payload "<offset>:<epoch>:<json>"
// Offset assignment, history append and PUBLISH happen in one Lua script, so two processes publishing
// at once still produce one gap-free order that every subscriber sees identically.
import { Redis } from "ioredis";
import type { Broker, BrokerHandler, HistoryOptions } from "./broker.ts";
import { newEpoch } from "./broker-memory.ts";
import type { Publication, StreamPosition } from "./protocol.ts";
import { withinTtl } from "./recovery.ts";

export interface RedisBrokerOptions {
  /** Key and pub/sub prefix; several shops (or test runs) can share one Redis. Default "shop:rt". */
  prefix?: string;
}

// A missing meta hash means a new stream (first use, or Redis lost its data): start a new epoch and drop
// any stream left under it, so offsets restart cleanly and old positions can never recover against it.
const ENSURE_EPOCH = `
local epoch = redis.call('HGET', KEYS[1], 'e')
if not epoch then
  epoch = ARGV[1]
  redis.call('HSET', KEYS[1], 'e', epoch, 's', 0)
  redis.call('DEL', KEYS[2])
end
`;

// KEYS: meta, stream. ARGV: newEpoch, data, historySize, ttlMs, nowMs, pubsubChannel
const PUBLISH_SCRIPT = `${ENSURE_EPOCH}
local offset = redis.call('HINCRBY', KEYS[1], 's', 1)
local size = tonumber(ARGV[3])
if size > 0 then
  redis.call('XADD', KEYS[2], 'MAXLEN', size, offset .. '-0', 'd', ARGV[2], 't', ARGV[5])
  local ttl = tonumber(ARGV[4])
  if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
end
redis.call('PUBLISH', ARGV[6], offset .. ':' .. epoch .. ':' .. ARGV[2])
return {offset, epoch}
`;

// KEYS: meta, stream. ARGV: newEpoch, sinceOffset, limit (-1 = all, 0 = none)
const HISTORY_SCRIPT = `${ENSURE_EPOCH}
local offset = tonumber(redis.call('HGET', KEYS[1], 's'))
local limit = tonumber(ARGV[3])
local entries = {}
if limit ~= 0 then
  local start = tostring(tonumber(ARGV[2]) + 1)
  if limit > 0 then
    entries = redis.call('XRANGE', KEYS[2], start, '+', 'COUNT', limit)
  else
    entries = redis.call('XRANGE', KEYS[2], start, '+')
  end
end
return {epoch, offset, entries}
`;

type StreamEntry = [id: string, fields: string[]];

function parseEntry(entry: StreamEntry, epoch: string): Publication {
  const [id, fields] = entry;
  let data = "null";
  let time = 0;
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === "d") data = fields[i + 1]!;
    else if (fields[i] === "t") time = Number(fields[i + 1]);
  }
  return { offset: Number(id.split("-")[0]), epoch, data, time };
}

export async function createRedisBroker(url: string, options: RedisBrokerOptions = {}): Promise<Broker> {
  const prefix = options.prefix ?? "shop:rt";
  const redis = new Redis(url, { maxRetriesPerRequest: 3 });
  // Pub/sub needs its own connection: a subscribed Redis connection accepts no other commands.
  const sub = redis.duplicate();
  const handlers = new Set<BrokerHandler>();
  const subscribed = new Set<string>();
  const metaKey = (ch: string) => `${prefix}:meta:{${ch}}`;
  const streamKey = (ch: string) => `${prefix}:stream:{${ch}}`;
  const pubsubChannel = (ch: string) => `${prefix}:pub:${ch}`;
  const pubsubPrefix = `${prefix}:pub:`;

  try {
    await Promise.all([redis.ping(), sub.ping()]);
  } catch (err) {
    redis.disconnect();
    sub.disconnect();
    throw err;
  }

  sub.on("message", (rawChannel: string, message: string) => {
    if (!rawChannel.startsWith(pubsubPrefix)) return;
    const channel = rawChannel.slice(pubsubPrefix.length);
    const a = message.indexOf(":");
    const b = message.indexOf(":", a + 1);
    if (a < 0 || b < 0) return;
    const pub: Publication = {
      offset: Number(message.slice(0, a)),
      epoch: message.slice(a + 1, b),
      data: message.slice(b + 1),
      time: Date.now(),
    };
    for (const h of handlers) h(channel, pub);
  });

  return {
    onPublication(handler) {
      handlers.add(handler);
      return () => void handlers.delete(handler);
    },
    async subscribe(channel) {
      if (subscribed.has(channel)) return;
      // ioredis resolves once Redis acknowledged SUBSCRIBE: from then on every PUBLISH reaches us.
      await sub.subscribe(pubsubChannel(channel));
      subscribed.add(channel);
    },
    async publish(channel: string, data: string, opts: HistoryOptions): Promise<StreamPosition> {
      const res = (await redis.eval(
        PUBLISH_SCRIPT,
        2,
        metaKey(channel),
        streamKey(channel),
        newEpoch(),
        data,
        String(opts.historySize),
        String(opts.historyTtlSeconds * 1000),
        String(Date.now()),
        pubsubChannel(channel),
      )) as [number, string];
      return { offset: Number(res[0]), epoch: res[1] };
    },
    async history(channel, opts) {
      const res = (await redis.eval(
        HISTORY_SCRIPT,
        2,
        metaKey(channel),
        streamKey(channel),
        newEpoch(),
        String(opts.sinceOffset ?? 0),
        String(opts.limit ?? -1),
      )) as [string, number, StreamEntry[]];
      const epoch = res[0];
      const pubs = res[2].map((e) => parseEntry(e, epoch));
      return {
        top: { offset: Number(res[1]), epoch },
        // The stream key expires as a whole; per-entry age is checked here so the TTL means the same as
        // with the memory broker.
        publications: withinTtl(pubs, opts.historyTtlSeconds, Date.now()),
      };
    },
    async close() {
      handlers.clear();
      await Promise.allSettled([sub.quit(), redis.quit()]);
    },
  };
}
