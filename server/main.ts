/**
 * Process entry: parse the environment, open and migrate the database, seed the
 * demo shop on first start, start HTTP (pages and APIs) and the websocket hub at
 * /ws, and shut all of it down gracefully on SIGTERM / SIGINT.
 *
 * One module graph: this file is the input of the server bundle (vite.config.ts). `npm run build` compiles it
 * together with the React Router app (virtual:react-router/server-build) and everything both import from
 * core/ and server/ into {build}/server/index.js, so each module exists once per process (one payment
 * runtime, one pricing cache); packages in node_modules stay external. `npm start` runs that file with node.
 * `npm run dev` (server/dev.ts) loads this module through Vite and passes startShop Vite's live app instead.
 */
import http from "node:http";
import cluster from "node:cluster";
import path from "node:path";
import { existsSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { randomBytes } from "node:crypto";
import type { RequestHandler } from "express";
import type { ServerBuild } from "react-router";
import * as serverBuild from "virtual:react-router/server-build";
import { parseEnv, type Env } from "../core/config/env.server.ts";
import { openDatabase, type Db } from "../core/db/client.ts";
import { migrate } from "../core/db/migrate.ts";
import { settingOrInsert } from "../core/db/repositories/settings.ts";
import { seedDemoData, seedDemoMenus, seedDemoPages, seedBulkProducts } from "../core/db/seed/seed.ts";
import { ensureStaffAccount } from "../core/commerce/staff-accounts.ts";
import { defaultCheckoutGate, defaultOrderGate } from "../core/commerce/payment-runtime.server.ts";
import { createApp } from "./app.ts";
import { createServices, type AppServices } from "./services.ts";
import { destinationsFromEnv } from "../core/tracking/intake.ts";
import { createLogger, type Logger } from "./log.ts";
import { startRealtime, type Realtime } from "./realtime-wiring.ts";
import { processCount, runPrimary } from "./cluster.ts";
import { FEATURES } from "./features/index.ts";
import { singletonCounts } from "../core/singletons.ts";
import { DiskStorage, DOWNLOAD_KEY } from "../core/media/storage.server.ts";
import { reportingWrites } from "../core/db/write-tags.ts";
import { TagBus, postgresTransport, redisTransport } from "./cache/tag-bus.ts";
import { PageCache } from "./cache/page-cache.ts";
import { contentSecurityPolicy } from "./http/security.ts";
import { trackingCspSources } from "../core/domain/tracking/browser-tracking.ts";
import { countCachedPageView } from "./features/tracking.ts";
import { nextScheduledChange } from "../core/commerce/next-scheduled-change.ts";
import { enabledPopupCartConditions, shopperFitsKeptPage } from "../core/commerce/kept-pages.ts";
import { createStorefront } from "../core/commerce/storefront.server.ts";
import { RequestContext } from "./http/request-context.ts";
import { HASH_COOKIE, ITEMS_COOKIE } from "../core/commerce/session-keys.ts";
import { decodeSessionCookie, sessionCookieName } from "../core/security/session-token.ts";

/**
 * The shop's own copies, for code that starts it from this bundle (tests): a logger made by a copy of
 * log.ts imported from source has no request-log state in this bundle, and a rule saved through a source
 * copy of the repository does not clear this process's pricing cache.
 */
export { createLogger } from "./log.ts";
export { saveRule } from "../core/db/repositories/discounts.ts";
export { setPasswordCostForTests } from "../core/security/password.ts";

/** In the bundle: {build}/server. Paths are found from here, never from the working folder. */
const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Where pages come from: the app compiled into this bundle, or Vite's live one in development. */
export interface ShopApp {
  getBuild: () => Promise<ServerBuild>;
  /** Development: Vite's middlewares (assets, HMR). */
  devMiddleware?: RequestHandler;
  /** Production: the browser files ({build}/client). */
  clientDir?: string;
  /** Called last on stop (development: closes Vite). */
  close?: () => Promise<void>;
}

/** The app built into this bundle, with the browser files written beside it by the same build. */
export function bundledApp(): ShopApp {
  const build: ServerBuild = serverBuild;
  return { getBuild: async () => build, clientDir: path.resolve(HERE, "../client") };
}

async function loadSecret(db: Db, env: Env): Promise<string> {
  if (env.SESSION_SECRET) return env.SESSION_SECRET;
  // Kept in the database so every process of one shop signs cookies the same way.
  return String(await settingOrInsert(db, "session_secret", randomBytes(32).toString("hex")));
}

/**
 * Creates the staff account of the role when none exists, and logs what happened. A generated password is in the
 * message text (field names like "password" are redacted), at warn level so that it shows whatever LOG_LEVEL is
 * short of "error"; it is printed this once and stored only hashed.
 */
async function bootstrapStaff(db: Db, logger: Logger, q: Parameters<typeof ensureStaffAccount>[1]): Promise<void> {
  const done = await ensureStaffAccount(db, q);
  const who = q.role === "administrator" ? "administrator" : "shop manager";
  if (done.outcome === "created" && done.generatedPassword)
    logger.warn(
      `${who} account created: sign in at ${q.siteUrl}/wp-login.php as ${done.email} with the password ${done.generatedPassword} ` +
        `(shown only this once; change it under My account → Account details)`,
      { role: q.role, email: done.email },
    );
  else if (done.outcome === "created") logger.info(`${who} account created from the environment`, { role: q.role, email: done.email });
  else if (done.outcome === "promoted") logger.info(`existing account made ${who} (the environment's password matched)`, { role: q.role, email: done.email });
  else if (done.outcome === "refused")
    logger.error(`no ${who} created: ${done.email} belongs to an existing account and the configured password is not its own`, { role: q.role });
}

export interface RunningShop {
  server: http.Server;
  services: AppServices;
  realtime: Realtime;
  url: string;
  stop(): Promise<void>;
  /** The anonymous page cache, unless PAGE_CACHE=off (its stats are read by tests and the bench). */
  pageCache: PageCache | undefined;
}

export async function startShop(env: Env = parseEnv(), logger: Logger = createLogger(env.LOG_LEVEL), shopApp: ShopApp = bundledApp()): Promise<RunningShop> {
  const production = env.NODE_ENV === "production";
  const onPoolError = (error: Error) => logger.error("database pool: idle client failed", { error });
  const rawDb = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: path.join(env.dataDir, "pglite"),
    onPoolError,
    poolSize: env.DATABASE_POOL_SIZE,
    waitMs: env.DATABASE_WAIT_MS,
  });
  // Every committed write announces what it changed (docs/decisions/0028-page-cache.md): the page cache listens. The
  // same bus carries the in-process caches' named tags (core/cache-tags.ts) to the other processes (decision 0033).
  const bus = new TagBus();
  const db = reportingWrites(rawDb, (tags) => bus.publish(tags));
  const applied = await migrate(db);
  if (applied.length) logger.info("migrations applied", { applied });
  const seeded = await seedDemoData(db);
  if (seeded) logger.info("demo catalogue seeded");
  else {
    // A demo database from before the pages (issue 14) or the menus (migration 0027): what it lacks, once each.
    if (await seedDemoPages(db)) logger.info("demo pages seeded");
    if (await seedDemoMenus(db)) logger.info("demo menus seeded");
  }
  if (env.SEED_PRODUCTS > 0) logger.info("bulk products added", { added: await seedBulkProducts(db, env.SEED_PRODUCTS) });

  const siteUrl = (process.env.SITE_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, "");
  // The first administrator, and the demo seed's shop manager (docs/contract/rest/auth.md 'First start').
  await bootstrapStaff(db, logger, { role: "administrator", email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD, siteUrl });
  if (seeded) await bootstrapStaff(db, logger, { role: "shop_manager", email: env.SHOP_MANAGER_EMAIL, password: env.SHOP_MANAGER_PASSWORD, siteUrl });
  const services = createServices({
    db,
    siteUrl,
    secret: await loadSecret(db, env),
    logger,
    production,
    settingsJson: env.SHOP_SETTINGS,
    trackingDestinations: destinationsFromEnv(env),
    orderGate: defaultOrderGate({ db }, env.DATABASE_POOL_SIZE, env.DATABASE_WAIT_MS),
    checkoutGate: defaultCheckoutGate({ db }, env.DATABASE_POOL_SIZE, env.DATABASE_WAIT_MS),
    media: {
      storage: new DiskStorage(path.join(env.dataDir, "uploads")),
      downloads: new DiskStorage(path.join(env.dataDir, "woocommerce_uploads"), DOWNLOAD_KEY),
      maxBytes: env.MEDIA_MAX_BYTES,
      maxPixels: env.MEDIA_MAX_PIXELS,
      faults: { failSubsizes: env.MEDIA_FAIL_SUBSIZES },
      remoteAllowAddresses: env.IMPORT_ALLOWED_ADDRESSES,
    },
  });

  if (env.REDIS_URL) bus.connect(await redisTransport(bus, env.REDIS_URL, env.REDIS_PREFIX ?? "shop:rt", logger));
  else if (env.DATABASE_URL) bus.connect(await postgresTransport(bus, env.DATABASE_URL, rawDb, logger));
  // A page answered before Express still counts as a funnel view; the client's address needs the app's proxy rule,
  // so the counter is made once the app exists (a hit can only arrive after the server listens).
  let countView: (req: http.IncomingMessage) => void = () => undefined;
  const pageCache = env.PAGE_CACHE === "on" ? createPageCache(services, env, (req) => countView(req)) : undefined;
  const unlisten = pageCache?.listenTo(bus);

  const { getBuild, devMiddleware, clientDir } = shopApp;
  const app = createApp({ services, getBuild, devMiddleware, clientDir, trustProxy: env.TRUST_PROXY, pageCache });
  countView = countCachedPageView(services, app.get("trust proxy fn") as (address: string, hop: number) => boolean);
  // A page the page cache keeps is answered before Express: no router, compression, request log or session.
  const server = http.createServer(
    { requestTimeout: 30_000, headersTimeout: 20_000 },
    pageCache ? (req, res) => pageCache.serveRaw(req, res, () => app(req, res)) || app(req, res) : app,
  );
  const realtime = await startRealtime({ server, services, env });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(env.PORT, env.HOST, () => resolve());
  });
  const stopFeatures: (() => Promise<void>)[] = [];
  for (const feature of FEATURES) if (feature.start) stopFeatures.push(await feature.start({ services, realtime, env }));

  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  const url = `http://localhost:${port}`;

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      for (const stopFeature of stopFeatures.reverse()) await stopFeature();
      await realtime.close(); // tells websocket clients to reconnect elsewhere (3001)
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5000).unref();
      });
      await shopApp.close?.();
      unlisten?.();
      await bus.close();
      await db.close();
    })());

  return { server, services, realtime, url, stop, pageCache };
}

function createPageCache(services: AppServices, env: Env, onRawHit: (req: http.IncomingMessage) => void): PageCache {
  const csp = trackingCspSources(services.config.tracking);
  const sessionCookie = sessionCookieName(services.siteUrl);
  return new PageCache({
    onRawHit,
    maxBytes: env.PAGE_CACHE_MAX_BYTES,
    maxAgeSeconds: env.PAGE_CACHE_MAX_AGE,
    sharedMaxAgeSeconds: env.PAGE_CACHE_S_MAXAGE,
    staleWhileRevalidateSeconds: env.PAGE_CACHE_STALE_WHILE_REVALIDATE,
    policy: services.production ? (scripts) => contentSecurityPolicy(scripts, csp) : null,
    nextScheduledChange: (nowMs) => nextScheduledChange(services.db, services.config, nowMs),
    now: () => services.now().getTime(),
    // A shopper with a cart gets the kept page when their session is a guest's holding nothing else a page shows
    // (docs/decisions/0042-cart-shoppers-cached.md).
    shopperCookies: new Set([sessionCookie, ITEMS_COOKIE, HASH_COOKIE]),
    shopperFits: (cookies, popupCartConditions, decisions) => {
      const now = services.now();
      const sessionId = decodeSessionCookie(services.secret, cookies[sessionCookie], Math.floor(now.getTime() / 1000))?.id ?? null;
      // Only when no decision is known for their cart's lines (docs/decisions/0045-shopper-decision-memo.md).
      const pricedCart = () =>
        createStorefront(services, new RequestContext(services.db, services.secret, sessionCookie, false, cookies, services.now)).cart.get();
      return shopperFitsKeptPage(services.db, sessionId, now, popupCartConditions, decisions, pricedCart);
    },
    popupCartConditions: () => enabledPopupCartConditions(services.db),
  });
}

/**
 * The default DATA_DIR is `data` in the shop's folder (the nearest folder above the bundle holding a
 * package.json), so `node /srv/shop/build/server/index.js` started from anywhere opens the same database.
 * A DATA_DIR that is set is taken as given (relative to the working folder).
 */
function defaultDataDir(): string | undefined {
  for (let dir = HERE; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return path.join(dir, "data");
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * Logs how many copies of each module with process-wide state this process holds (core/singletons.ts):
 * at debug level always, as a warning when one was instantiated twice (its state is split between copies).
 */
function logModuleInstances(logger: Logger): void {
  const instances = Object.fromEntries(singletonCounts());
  logger.debug("module instances", { instances });
  const twice = Object.entries(instances).filter(([, n]) => n > 1);
  if (twice.length) logger.warn("modules instantiated more than once: their state is split between copies", { modules: Object.fromEntries(twice) });
}

/**
 * Starts the shop as this process's job: logs, and stops gracefully on SIGTERM / SIGINT. With WEB_CONCURRENCY above 1
 * this process becomes the primary of that many workers (server/cluster.ts), each of which runs this again as a
 * single shop; it then resolves with null.
 */
export async function runShop(
  shopApp: ShopApp = bundledApp(),
  env: Env = parseEnv({ DATA_DIR: defaultDataDir(), ...process.env }),
): Promise<RunningShop | null> {
  const logger = createLogger(env.LOG_LEVEL);
  if (cluster.isPrimary) {
    const wanted = processCount(env);
    if ("refused" in wanted) {
      logger.error(`could not start: ${wanted.refused}`);
      process.exit(1);
    }
    if (wanted.count > 1 && shopApp.devMiddleware) logger.warn("WEB_CONCURRENCY is ignored by the development server: one process", { asked: wanted.count });
    else if (wanted.count > 1) {
      await runPrimary(wanted.count, logger, "localhost").catch((error: unknown) => {
        logger.error("could not start", { error });
        process.exit(1);
      });
      return null;
    }
  }
  const shop = await startShop(env, logger, shopApp).catch((error) => {
    logger.error("could not start", { error });
    process.exit(1);
  });
  // A worker's readiness is the primary's to announce (once all of them listen).
  logger.info(cluster.isWorker ? `worker ready at ${shop.url}` : `shop ready at ${shop.url}`, { database: shop.services.db.kind, mode: env.NODE_ENV });
  logModuleInstances(logger);
  let signalled = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    // A worker gets both the terminal's SIGINT and its primary's SIGTERM: the second must not cut the graceful stop short.
    (cluster.isWorker ? process.on : process.once).call(process, signal, () => {
      if (signalled) return;
      signalled = true;
      logger.info("shutting down", { signal });
      logModuleInstances(logger);
      shop.stop().then(
        () => process.exit(0),
        (error) => {
          logger.error("shutdown failed", { error });
          process.exit(1);
        },
      );
    });
  }
  return shop;
}

const realPath = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};
// `node build/server/index.js` (what `npm start` runs). Not when imported (tests) or loaded by server/dev.ts.
if (process.argv[1] && realPath(path.resolve(process.argv[1])) === realPath(fileURLToPath(import.meta.url))) await runShop();
