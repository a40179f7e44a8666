/**
 * Live football (issue 7): the match store on the database, the built-in
 * simulator (SIMULATOR=on), the hub's RPCs, the badge images, the provider
 * ingest (REST, bearer token) and the embed demo page.
 *
 * Several shops can run in one process (tests), so everything a shop starts is
 * kept per `services` object rather than in module state.
 */
import { randomUUID, timingSafeEqual } from "node:crypto";
import type express from "express";
import { z } from "zod";
import { liveUpdateSchema, sportsMatchSchema, type LiveUpdate } from "../../core/domain/live/schema.ts";
import { MATCH_RPC_METHOD, PERIODS, SPORT_RPC_METHOD } from "../../core/domain/live/constants.ts";
import { byKickoff } from "../../core/sports/store.ts";
import {
  createSimulator,
  leagueBadgeForSlug,
  matchRpcHandler,
  sportRpcHandler,
  teamBadgeForSlug,
  type MatchRecord,
  type MatchStore,
  type Runner,
} from "../../core/sports/index.ts";
import { Redis } from "ioredis";
import { createSqlMatchStore } from "../../core/sports/sql-store.ts";
import { json, type Reply } from "../http/dispatch.ts";
import { restError, type RestInput } from "../http/rest.ts";
import { parseArgs, requestArgs } from "../http/rest-args.ts";
import { isReply, staffUser } from "../http/rest-permission.ts";
import { HubError, type Hub } from "../realtime/index.ts";
import type { AppServices } from "../services.ts";
import type { Endpoints, Feature, StartContext } from "./feature.ts";

/** The simulator's seed: every process (and every restart) plays the same fixtures. */
const SIMULATOR_SEED = 1;
/** Most items one ingest request may carry. */
const MAX_BATCH = 500;

interface LiveRuntime {
  store: MatchStore;
  hub: Hub;
  channel: string;
  token: string | undefined;
  /** The simulated clock where the simulator runs here (it may be sped up), the wall clock elsewhere. */
  clock: () => number;
  /** Applies and publishes one thing at a time, so this process publishes in the order it stored. */
  serial<T>(fn: () => Promise<T>): Promise<T>;
}

const runtimes = new WeakMap<AppServices, LiveRuntime>();

export const liveFeature: Feature = {
  name: "live",
  endpoints(endpoints) {
    registerIngestEndpoints(endpoints);
    registerStaffReads(endpoints);
  },
  routes: registerRoutes,
  start: startLive,
};

async function startLive({ services, realtime, env }: StartContext): Promise<() => Promise<void>> {
  const store = createSqlMatchStore(services.db);
  const hub = realtime.hub;
  const channel = services.config.sports.sport;
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.then(fn, fn);
    chain = next.catch(() => undefined);
    return next;
  };
  const runtime: LiveRuntime = { store, hub, channel, token: env.LIVE_INGEST_TOKEN, clock: () => Date.now(), serial };
  runtimes.set(services, runtime);

  let runner: Runner | null = null;
  const runSimulator = async (): Promise<() => void> => {
    const sim = createSimulator({ seed: SIMULATOR_SEED, now: Date.now() });
    let playing = true;
    const started = sim.start({
      store,
      speed: env.SIMULATOR_SPEED,
      // A tick still in flight when the simulator stops (shutdown, lease lost) publishes nothing more.
      publish: (update) => (playing ? serial(() => hub.publish(channel, update)).then(() => undefined) : undefined),
      onError: (error) => services.logger.error("sports simulator failed", { error }),
    });
    await started.ready;
    runner = started;
    services.logger.info("sports simulator running", { speed: env.SIMULATOR_SPEED });
    return () => {
      playing = false;
      started.stop();
      if (runner === started) runner = null;
    };
  };
  let stopSimulator: () => Promise<void> = async () => {};
  if (env.SIMULATOR === "on") {
    if (env.REDIS_URL) {
      // Processes sharing a Redis share the feed: one of them plays it, the others take over if it goes.
      stopSimulator = await simulatorLease(env.REDIS_URL, `${env.REDIS_PREFIX ?? "shop:rt"}:live:simulator`, runSimulator, services);
    } else {
      const stop = await runSimulator();
      stopSimulator = async () => stop();
    }
  }
  // The simulated clock where the simulator runs here (it may be sped up), the wall clock elsewhere.
  const clock = (): number => (runner ? runner.now() : Date.now());
  runtime.clock = clock;

  // Without this the hub would answer a bad payload with a temporary error (100), which the widgets retry.
  const opts = { badRequest: () => new HubError(107, "bad request") };
  hub.registerRpc(SPORT_RPC_METHOD, sportRpcHandler(store, clock, opts));
  hub.registerRpc(MATCH_RPC_METHOD, matchRpcHandler(store, clock, opts));

  return async () => {
    await stopSimulator();
    await chain;
    runtimes.delete(services);
  };
}

/** How long a simulator lease lasts without renewal; renewed every third of it. */
const LEASE_MS = 15_000;
const RENEW = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

/**
 * Runs `lead` only while this process holds a Redis lease (SET NX PX, renewed
 * by its holder), so N processes publish the simulated feed once, not N times.
 */
async function simulatorLease(url: string, key: string, lead: () => Promise<() => void>, services: AppServices): Promise<() => Promise<void>> {
  const redis = new Redis(url, { maxRetriesPerRequest: 2 });
  const id = randomUUID();
  let stopLead: (() => void) | null = null;
  let stopped = false;
  const resign = () => {
    stopLead?.();
    stopLead = null;
  };
  const tick = async (): Promise<void> => {
    try {
      if (stopLead) {
        if (Number(await redis.eval(RENEW, 1, key, id, LEASE_MS)) === 0) {
          services.logger.warn("sports simulator lease lost; stopping here");
          resign();
        }
      } else if ((await redis.set(key, id, "PX", LEASE_MS, "NX")) === "OK" && !stopped) {
        stopLead = await lead();
      }
    } catch (error) {
      // Without Redis the lease cannot be renewed, and another process may take it over.
      services.logger.error("sports simulator lease failed", { error });
      resign();
    }
  };
  let running: Promise<void> = tick();
  const timer = setInterval(() => {
    running = running.then(tick);
  }, LEASE_MS / 3);
  await running;
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
    if (stopLead) {
      resign();
      await redis.eval(RELEASE, 1, key, id).catch(() => undefined);
    }
    await redis.quit().catch(() => undefined);
  };
}

// ---------------------------------------------------------------- ingest

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The runtime when the request may ingest, or the REST error to answer. */
function authorize(input: RestInput): LiveRuntime | Reply {
  const runtime = runtimes.get(input.services);
  if (!runtime) return restError("live_unavailable", "The live feed is not running yet.", 503);
  if (!runtime.token) return restError("live_ingest_disabled", "Live data ingest is not enabled on this shop.", 403);
  const header = input.req.get("authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match || !sameSecret(match[1]!, runtime.token)) {
    return json({ code: "live_unauthorized", message: "A valid bearer token is required.", data: { status: 401 } }, 401, {
      "WWW-Authenticate": 'Bearer realm="live"',
    });
  }
  return runtime;
}

/** One item or a list of up to MAX_BATCH; every item must pass or nothing is done. */
function batchOf<T extends z.ZodType>(item: T) {
  return z.union([z.array(item).min(1).max(MAX_BATCH), item.transform((one) => [one])]);
}
const matchesBody = batchOf(sportsMatchSchema);
const updatesBody = batchOf(liveUpdateSchema);

function invalid(code: string, what: string, error: z.ZodError): Reply {
  const errors = error.issues.slice(0, 20).map((i) => ({ path: i.path.join("."), message: i.message }));
  return restError(code, `Invalid ${what}: nothing was stored or published.`, 400, { errors });
}

/** A match written by the provider is published as an update too, so open widgets pick up corrections. */
function updateOf(m: MatchRecord): LiveUpdate {
  return liveUpdateSchema.parse({
    slug: m.slug,
    matchTime: m.matchTime,
    stage: m.stage,
    home: { score: m.home.score, periods: m.home.periods },
    away: { score: m.away.score, periods: m.away.periods },
  });
}

// ---------------------------------------------------------------- staff reads (the admin's Live scores screen)

const staffMatchesArgs = z.object({ period: z.enum(["all", ...PERIODS]).default("all") });

/** A stored match as the admin reads it (docs/contract/rest/shop-v1.md 'Live scores'). */
function staffMatchShape(m: MatchRecord) {
  const side = (t: MatchRecord["home"]) => ({ name: t.name, abbr: t.abbr, score: t.score });
  return {
    slug: m.slug,
    stage: m.stage,
    live: m.live,
    match_time: m.matchTime,
    kickoff_gmt: new Date(m.date * 1000).toISOString().slice(0, 19),
    league: { slug: m.league.slug, name: m.league.name, country: m.league.country },
    home: side(m.home),
    away: side(m.away),
  };
}

function registerStaffReads({ rest }: Endpoints): void {
  // The matches the hub serves: live ones whatever their day, then today's and tomorrow's (the widgets' periods), by kick-off.
  rest.register("GET", "shop/v1/live/matches", async (input) => {
    const user = await staffUser(input, "view_woocommerce_reports");
    if (isReply(user)) return user;
    const args = parseArgs(staffMatchesArgs, requestArgs(input));
    if (!args.ok) return args.reply;
    const runtime = runtimes.get(input.services);
    if (!runtime) return restError("live_unavailable", "The live feed is not running yet.", 503);
    const now = runtime.clock();
    const periods = args.data.period === "all" ? PERIODS : [args.data.period];
    const seen = new Map<string, MatchRecord>();
    for (const p of periods) for (const m of await runtime.store.list(p, now)) if (!seen.has(m.slug)) seen.set(m.slug, m);
    const matches = [...seen.values()].sort(byKickoff).map(staffMatchShape);
    return json(matches, 200, { "X-WP-Total": String(matches.length), "X-WP-TotalPages": "1", "Cache-Control": "no-store" });
  });

  // Who is watching now: this process's hub connections and the subscribers of each live channel (the widgets name no
  // match to the hub, so viewers are counted per channel, not per match).
  rest.register("GET", "shop/v1/live/viewers", async (input) => {
    const user = await staffUser(input, "view_woocommerce_reports");
    if (isReply(user)) return user;
    const runtime = runtimes.get(input.services);
    if (!runtime) return restError("live_unavailable", "The live feed is not running yet.", 503);
    const names = [runtime.channel, `${runtime.channel}Detail`];
    return json(
      {
        viewers: runtime.hub.subscriberCount(names),
        connections: runtime.hub.connectionCount(),
        channels: names.map((channel) => ({ channel, viewers: runtime.hub.subscriberCount([channel]) })),
      },
      200,
      { "Cache-Control": "no-store" },
    );
  });
}

function registerIngestEndpoints({ rest }: Endpoints): void {
  rest.register("POST", "shop/v1/live/matches", async (input) => {
    const runtime = authorize(input);
    if ("kind" in runtime) return runtime;
    const parsed = matchesBody.safeParse(input.body);
    if (!parsed.success) return invalid("live_invalid_match", "match data", parsed.error);
    const records: MatchRecord[] = parsed.data.map(({ details: _details, ...m }) => m);
    await runtime.serial(async () => {
      for (const m of records) {
        await runtime.store.upsert(m);
        await runtime.hub.publish(runtime.channel, updateOf(m));
      }
    });
    return json({ stored: records.map((m) => m.slug) }, 201);
  });

  rest.register("POST", "shop/v1/live/updates", async (input) => {
    const runtime = authorize(input);
    if ("kind" in runtime) return runtime;
    const parsed = updatesBody.safeParse(input.body);
    if (!parsed.success) return invalid("live_invalid_update", "live update", parsed.error);
    const published: { slug: string; offset: number }[] = [];
    const unknown: string[] = [];
    await runtime.serial(async () => {
      for (const update of parsed.data) {
        // An update for a match the shop does not know would be ignored by every widget: refuse it instead.
        if (!(await runtime.store.applyUpdate(update))) {
          unknown.push(update.slug);
          continue;
        }
        const position = await runtime.hub.publish(runtime.channel, update);
        published.push({ slug: update.slug, offset: position.offset });
      }
    });
    if (published.length === 0) {
      return restError("live_unknown_match", `Unknown match: ${unknown.join(", ")}. Push it to /wp-json/shop/v1/live/matches first.`, 404, { unknown });
    }
    return json({ published, unknown });
  });
}

// ---------------------------------------------------------------- routes

const SLUG = /^[a-z0-9-]{1,120}$/;

function svgRoute(find: (slug: string) => string | undefined): express.RequestHandler {
  return (req, res) => {
    const slug = String(req.params.slug ?? "");
    const svg = SLUG.test(slug) ? find(slug) : undefined;
    if (!svg) return void res.status(404).type("text/plain").send("Not found");
    // Generated from the slug alone: the same address always draws the same badge.
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.setHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
    res.type("image/svg+xml").send(svg);
  };
}

/** The embed script's address, as built by scripts/build-embed.ts into the client folder. */
export const LIVE_EMBED_SCRIPT = "/embed/live-match.js";

function embedDemoPage(lang: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Live-match widget: embed demo</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:720px;margin:40px auto;padding:0 16px;color:#222}code,pre{background:#f4f4f4;border-radius:4px}pre{padding:12px;overflow:auto}</style>
</head>
<body>
<h1>Live-match widget on any page</h1>
<p>This page is plain HTML, not part of the shop's app. It hosts the widget with one element and one script:</p>
<pre><code>&lt;div data-place="widget-live-match" data-lang="${lang}"&gt;&lt;/div&gt;
&lt;script src="${LIVE_EMBED_SCRIPT}" defer&gt;&lt;/script&gt;</code></pre>
<div data-place="widget-live-match" data-lang="${lang}"></div>
<script src="${LIVE_EMBED_SCRIPT}" defer></script>
</body>
</html>
`;
}

function registerRoutes(app: express.Express): void {
  app.get(
    "/media/teams/:slug.svg",
    svgRoute((slug) => teamBadgeForSlug(slug)),
  );
  app.get(
    "/media/leagues/:slug.svg",
    svgRoute((slug) => leagueBadgeForSlug(slug)),
  );
  app.get("/live/embed-demo.html", (req, res) => {
    // Only the languages the widget knows reach the page; anything else shows the default.
    const lang = typeof req.query.lang === "string" && /^[a-z]{2}$/.test(req.query.lang) ? req.query.lang : "pl";
    res.type("text/html").send(embedDemoPage(lang));
  });
}
