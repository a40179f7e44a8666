/**
 * Several server processes on one port (WEB_CONCURRENCY, decision 0033): a primary that forks N workers with
 * node:cluster (the primary accepts connections and hands them round-robin to the workers), restarts a worker that
 * dies, and on SIGTERM / SIGINT asks every worker to stop gracefully and exits when they have.
 *
 * The primary never opens the database. The first worker starts alone (it migrates and seeds a new database), the
 * others once it listens. Everything the workers share goes through PostgreSQL and Redis: sessions, carts, stock,
 * rate limits and the script-error limit are rows; the live hub shares publications through Redis (decision 0029);
 * the in-process caches are cleared everywhere through the invalidation bus (server/cache/tag-bus.ts); the scheduled jobs were
 * already safe to run in every process (leases, SKIP LOCKED, idempotent updates, a Redis lease for the simulator).
 */
import cluster, { type Worker } from "node:cluster";
import os from "node:os";
import type { Env } from "../core/config/env.server.ts";
import type { Logger } from "./log.ts";

/** The number of server processes the environment asks for, or why it cannot have them. */
export function processCount(env: Pick<Env, "WEB_CONCURRENCY" | "DATABASE_URL" | "REDIS_URL">): { count: number } | { refused: string } {
  const shared = Boolean(env.DATABASE_URL && env.REDIS_URL);
  // Unset or auto: a process per core once everything the processes share has somewhere to live (decision 0033).
  if (!env.WEB_CONCURRENCY || env.WEB_CONCURRENCY === "auto") return { count: shared ? os.availableParallelism() : 1 };
  const count = Number(env.WEB_CONCURRENCY);
  if (count === 1) return { count };
  if (!env.DATABASE_URL)
    return {
      refused: `WEB_CONCURRENCY=${count} needs DATABASE_URL: the embedded PGlite database belongs to one process (set DATABASE_URL to a PostgreSQL server, or WEB_CONCURRENCY=1)`,
    };
  if (!env.REDIS_URL)
    return {
      refused: `WEB_CONCURRENCY=${count} needs REDIS_URL: without it each process would have its own live hub (set REDIS_URL, or WEB_CONCURRENCY=1)`,
    };
  return { count };
}

/** A worker that dies sooner than this after it started counts as a failed start. */
const QUICK_DEATH_MS = 10_000;
/** Failed starts in a row after which the primary gives up (a broken database URL, a port in use). */
const MAX_QUICK_DEATHS = 5;
/** How long the primary waits for its workers to stop before it kills them. */
const STOP_WAIT_MS = 30_000;

/**
 * Runs this process as the primary of `count` workers. Each worker runs the same entry script (process.argv[1]) and
 * serves the shop as a single process would. Resolves with a function that stops them all (also bound to SIGTERM /
 * SIGINT, after which the process exits).
 */
export async function runPrimary(count: number, logger: Logger, host: string): Promise<() => Promise<void>> {
  let stopping = false;
  let quickDeaths = 0;
  const startedAt = new Map<Worker, number>();

  let port = 0;
  const fork = (): Promise<Worker> =>
    new Promise((resolve, reject) => {
      const worker = cluster.fork();
      startedAt.set(worker, Date.now());
      const onExit = (code: number | null) => reject(new Error(`worker ${worker.process.pid} exited (${code}) before it listened`));
      worker.once("exit", onExit);
      worker.once("listening", (address) => {
        worker.off("exit", onExit);
        // PORT=0: the primary picks one free port on the first listen and gives every later worker the same one.
        port = address.port;
        resolve(worker);
      });
    });

  cluster.on("exit", (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    if (stopping) return;
    quickDeaths = lived < QUICK_DEATH_MS ? quickDeaths + 1 : 0;
    if (quickDeaths >= MAX_QUICK_DEATHS) {
      logger.error("workers keep dying at start; stopping", { deaths: quickDeaths });
      void stop().then(() => process.exit(1));
      return;
    }
    logger.error("worker died; starting another", { pid: worker.process.pid, code, signal, livedMs: lived });
    // A short pause so a crash loop does not spin the CPU.
    setTimeout(() => {
      if (!stopping) fork().catch((error: unknown) => logger.error("replacement worker failed to start", { error }));
    }, 500 * quickDeaths).unref();
  });

  const stop = async (): Promise<void> => {
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w) && !w!.isDead());
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.isDead()) return resolve();
            worker.once("exit", () => resolve());
            const kill = setTimeout(() => worker.process.kill("SIGKILL"), STOP_WAIT_MS);
            kill.unref();
            worker.process.kill("SIGTERM"); // the worker's own graceful stop (server/main.ts runShop)
          }),
      ),
    );
  };

  // The first worker alone: it migrates and seeds a new database; the others find it ready.
  const first = await fork();
  const rest = await Promise.all(Array.from({ length: count - 1 }, () => fork()));
  const pids = [first, ...rest].map((w) => w.process.pid);
  logger.info(`shop ready at http://${host}:${port}`, { processes: count, workers: pids });

  let signalled = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (signalled) return;
      signalled = true;
      logger.info("shutting down", { signal, processes: count });
      void stop().then(() => process.exit(0));
    });
  }
  return stop;
}
