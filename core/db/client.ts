/**
 * One small database interface over the two drivers we support. The SQL is the
 * same PostgreSQL for both: embedded PGlite (a data folder, the default) and a
 * real server through DATABASE_URL (node-postgres pool).
 */
import { mkdirSync } from "node:fs";
import { noteQuery } from "./query-count.ts";

export type Row = Record<string, unknown>;

export interface Queryable {
  /** Parameterised query ($1, $2 …); returns the rows. */
  query<T = Row>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** Several statements without parameters (migrations). */
  exec(text: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: "pglite" | "postgres";
  /**
   * Runs `fn` in a transaction, retried a few times on serialization failures
   * and deadlocks, so callers can use row locks and SERIALIZABLE safely.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * The same database through connections set aside for placing orders: on PostgreSQL a second, smaller pool, so an
   * order that has its turn at the order gate never queues for a connection behind a storm's page and cart reads
   * (docs/decisions/0027); on PGlite, which has one connection, the database itself.
   */
  readonly orderLane: Db;
  close(): Promise<void>;
}

const RETRYABLE = new Set(["40001", "40P01"]);

/**
 * Thrown, and recognised by `isDatabaseBusy`, when the database could not serve a request in time: no pool connection
 * within the wait, too many connections, a lock not granted within lock_timeout, or conflicts left after the retries.
 * The HTTP layer answers it with "busy, please try again" in each entry point's shape (server/http/busy.ts).
 */
export class DatabaseBusyError extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = "DatabaseBusyError";
  }
}

/** PostgreSQL's codes for "not now": too many connections, starting or stopping, lock_timeout, and the retried conflicts. */
const BUSY_CODES = new Set(["53300", "57P03", "55P03", ...RETRYABLE]);

export function isDatabaseBusy(error: unknown): boolean {
  if (error instanceof DatabaseBusyError) return true;
  const e = error as { code?: unknown; message?: unknown } | null;
  if (typeof e?.code === "string" && BUSY_CODES.has(e.code)) return true;
  // node-postgres's pool gives no code when connectionTimeoutMillis passes.
  return typeof e?.message === "string" && e.message.startsWith("timeout exceeded when trying to connect");
}
const MAX_ATTEMPTS = 5;

async function withRetries<T>(attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (!code || !RETRYABLE.has(code) || n >= MAX_ATTEMPTS) throw error;
      await new Promise((r) => setTimeout(r, 5 * n + Math.random() * 10));
    }
  }
}

export async function openPglite(dataDir: string | null): Promise<Db> {
  const { PGlite } = await import("@electric-sql/pglite");
  // The contrib extensions product search uses (0028_product_search.sql); PostgreSQL servers ship them in contrib.
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { fuzzystrmatch } = await import("@electric-sql/pglite/contrib/fuzzystrmatch");
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pg = new PGlite(dataDir ?? undefined, { extensions: { pg_trgm, fuzzystrmatch } });
  await pg.waitReady;
  const wrap = (q: { query: typeof pg.query; exec: typeof pg.exec }): Queryable => ({
    async query<T>(text: string, params: readonly unknown[] = []) {
      noteQuery(text);
      const result = await q.query<T>(text, params as unknown[]);
      return result.rows;
    },
    async exec(text: string) {
      noteQuery(text);
      await q.exec(text);
    },
  });
  const base = wrap(pg);
  const db: Db = {
    kind: "pglite",
    ...base,
    // PGlite runs one query at a time, and its transaction() holds the whole
    // database until it ends, so transactions here are serial by construction.
    transaction: (fn) => withRetries(() => pg.transaction((tx) => fn(wrap(tx as never)))),
    get orderLane() {
      return db;
    },
    close: () => pg.close(),
  };
  return db;
}

/** What the pool reports that no query sees: an idle client whose connection failed (the pool replaces it). */
export type PoolErrorHandler = (error: Error) => void;

/** Without a handler, pool errors go to stderr as one JSON line: never swallowed. */
const poolErrorToStderr: PoolErrorHandler = (error) =>
  void process.stderr.write(
    JSON.stringify({
      level: "error",
      t: new Date().toISOString(),
      msg: "database pool: idle client failed",
      error: { message: error.message, code: (error as { code?: string }).code },
    }) + "\n",
  );

export interface PoolOptions {
  onError?: PoolErrorHandler;
  /** Longest wait (ms) for a free connection; then the query fails with a busy error (isDatabaseBusy). */
  waitMs?: number;
}

/**
 * A transaction's connection runs one query at a time: callers may start several at once (Promise.all over
 * repository reads, as PGlite allows), and node-postgres queues them itself only as a deprecated behaviour.
 */
function oneAtATime(c: { query: (t: string, p?: unknown[]) => Promise<{ rows: unknown[] }> }) {
  let last: Promise<unknown> = Promise.resolve();
  return {
    query(text: string, params?: unknown[]) {
      const next = last.then(
        () => c.query(text, params),
        () => c.query(text, params),
      );
      last = next.catch(() => undefined);
      return next;
    },
  };
}

export async function openPostgres(url: string, poolSize = 10, opts: PoolOptions = {}): Promise<Db> {
  const pgModule = await import("pg");
  const pg = pgModule.default ?? pgModule;
  // Bigint counts (count(*)) come back as JS numbers; amounts are int4 cents anyway.
  pg.types.setTypeParser(20, (v: string) => Number(v));
  pg.types.setTypeParser(1700, (v: string) => Number(v));
  // Waits are bounded, so a stuck lock or a starved pool becomes an error the caller sees (and a transaction that
  // is rolled back) instead of a request that never answers.
  const newPool = (max: number) => {
    const pool = new pg.Pool({
      connectionString: url,
      max,
      connectionTimeoutMillis: opts.waitMs ?? 30_000,
      lock_timeout: 30_000,
      idle_in_transaction_session_timeout: 60_000,
    });
    pool.on("error", opts.onError ?? poolErrorToStderr); // an idle client died; the pool replaces it
    return pool;
  };
  const wrap = (c: { query: (t: string, p?: unknown[]) => Promise<{ rows: unknown[] }> }): Queryable => ({
    async query<T>(text: string, params: readonly unknown[] = []) {
      noteQuery(text);
      return (await c.query(text, params as unknown[])).rows as T[];
    },
    async exec(text: string) {
      noteQuery(text);
      await c.query(text);
    },
  });
  const dbOver = (pool: InstanceType<typeof pg.Pool>, lane: () => Db): Db => ({
    kind: "postgres",
    ...wrap(pool),
    transaction: (fn) =>
      withRetries(async () => {
        const client = await pool.connect();
        try {
          await client.query("BEGIN");
          const result = await fn(wrap(oneAtATime(client)));
          await client.query("COMMIT");
          return result;
        } catch (error) {
          await client.query("ROLLBACK").catch(() => undefined);
          throw error;
        } finally {
          client.release();
        }
      }),
    get orderLane() {
      return lane();
    },
    close: () => pool.end(),
  });
  // The pool's connections split in two: the order lane's share (orderLaneSize) and the rest for everything else.
  const lanePool = newPool(orderLaneSize(poolSize));
  const mainPool = newPool(poolSize - orderLaneSize(poolSize));
  const orderLane: Db = dbOver(lanePool, () => orderLane);
  const main = dbOver(mainPool, () => orderLane);
  return { ...main, orderLane, close: async () => void (await Promise.all([mainPool.end(), lanePool.end()])) };
}

/** Connections of a PostgreSQL pool of `poolSize` set aside for placing orders: half (at least one). */
export function orderLaneSize(poolSize: number): number {
  return Math.max(1, Math.floor(poolSize / 2));
}

export function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string | null;
  onPoolError?: PoolErrorHandler;
  poolSize?: number;
  waitMs?: number;
}): Promise<Db> {
  return opts.databaseUrl
    ? openPostgres(opts.databaseUrl, opts.poolSize, { onError: opts.onPoolError, ...(opts.waitMs ? { waitMs: opts.waitMs } : {}) })
    : openPglite(opts.dataDir);
}
