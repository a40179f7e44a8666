/**
 * Process entry: parse the environment, open and migrate the database, seed the
 * demo shop on first start, start HTTP (pages and APIs) and the websocket hub at
 * /ws, and shut all of it down gracefully on SIGTERM / SIGINT.
 */
import http from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { randomBytes } from "node:crypto";
import type { ServerBuild } from "react-router";
import { parseEnv, type Env } from "../core/config/env.server.ts";
import { openDatabase, type Db } from "../core/db/client.ts";
import { migrate } from "../core/db/migrate.ts";
import { seedDemoData, seedBulkProducts } from "../core/db/seed/seed.ts";
import { createApp } from "./app.ts";
import { createServices, type AppServices } from "./services.ts";
import { createLogger, type Logger } from "./log.ts";
import { startRealtime, type Realtime } from "./realtime-wiring.ts";
import { FEATURES } from "./features/index.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The React Router build folder (SHOP_BUILD_DIR lets parallel test runs keep their own). */
const buildDir = () => process.env.SHOP_BUILD_DIR ?? "build";

async function loadSecret(db: Db, env: Env): Promise<string> {
  if (env.SESSION_SECRET) return env.SESSION_SECRET;
  // Kept in the database so every process of one shop signs cookies the same way.
  await db.query(`INSERT INTO settings (key, value) VALUES ('session_secret', $1) ON CONFLICT (key) DO NOTHING`, [JSON.stringify(randomBytes(32).toString("hex"))]);
  const [row] = await db.query<{ value: string }>(`SELECT value FROM settings WHERE key = 'session_secret'`);
  return row!.value;
}

export interface RunningShop {
  server: http.Server;
  services: AppServices;
  realtime: Realtime;
  url: string;
  stop(): Promise<void>;
}

export async function startShop(env: Env = parseEnv(), logger: Logger = createLogger(env.LOG_LEVEL)): Promise<RunningShop> {
  const production = env.NODE_ENV === "production";
  const onPoolError = (error: Error) => logger.error("database pool: idle client failed", { error });
  const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: path.join(env.dataDir, "pglite"), onPoolError });
  const applied = await migrate(db);
  if (applied.length) logger.info("migrations applied", { applied });
  if (await seedDemoData(db)) logger.info("demo catalogue seeded");
  if (env.SEED_PRODUCTS > 0) logger.info("bulk products added", { added: await seedBulkProducts(db, env.SEED_PRODUCTS) });

  const siteUrl = (process.env.SITE_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, "");
  const services = createServices({ db, siteUrl, secret: await loadSecret(db, env), logger, production, settingsJson: env.SHOP_SETTINGS });

  let getBuild: () => Promise<ServerBuild>;
  let devMiddleware: import("express").RequestHandler | undefined;
  let closeVite = async () => {};
  if (production) {
    const buildPath = path.join(ROOT, buildDir(), "server/index.js");
    const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
    getBuild = async () => build;
  } else {
    const vite = await import("vite");
    const devServer = await vite.createServer({ root: ROOT, server: { middlewareMode: true }, appType: "custom" });
    devMiddleware = devServer.middlewares as unknown as import("express").RequestHandler;
    getBuild = () => devServer.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
    closeVite = () => devServer.close();
  }

  const app = createApp({ services, getBuild, devMiddleware, clientDir: path.join(ROOT, buildDir(), "client"), trustProxy: env.TRUST_PROXY });
  const server = http.createServer({ requestTimeout: 30_000, headersTimeout: 20_000 }, app);
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
      await closeVite();
      await db.close();
    })());

  return { server, services, realtime, url, stop };
}

const isEntry = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isEntry) {
  const env = parseEnv();
  const logger = createLogger(env.LOG_LEVEL);
  const shop = await startShop(env, logger).catch((error) => {
    logger.error("could not start", { error });
    process.exit(1);
  });
  logger.info(`shop ready at ${shop.url}`, { database: shop.services.db.kind, mode: env.NODE_ENV });
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      logger.info("shutting down", { signal });
      shop.stop().then(
        () => process.exit(0),
        (error) => {
          logger.error("shutdown failed", { error });
          process.exit(1);
        },
      );
    });
  }
}
