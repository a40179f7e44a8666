/**
 * Typed SQL: Kysely's query builder over our own `Queryable` (PGlite or node-postgres, see client.ts).
 *
 * Every statement lives in core/db (repositories/) and is written with `sql(q)`: table and column names are
 * checked against core/db/schema.ts, which scripts/db-types.ts generates from the migrations, so a renamed column
 * fails `tsc` instead of a request. Transactions stay with `Db.transaction` (retries on serialization failures,
 * PGlite's single connection); Kysely only builds and runs statements on the executor it is given.
 * Why Kysely and how to write a repository: docs/decisions/0008-typed-sql-and-layers.md.
 */
import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from "kysely";
import type { Queryable } from "./client.ts";
import type { DB } from "./schema.ts";

export type { DB } from "./schema.ts";
/** The typed builder repositories write with. */
export type Sql = Kysely<DB>;

class QueryableConnection implements DatabaseConnection {
  constructor(private readonly executor: Queryable) {}
  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const rows = await this.executor.query<R>(compiled.sql, compiled.parameters);
    // node-postgres and PGlite both answer RETURNING rows; affected counts are read through RETURNING in this codebase.
    return { rows };
  }
  // eslint-disable-next-line require-yield -- streaming is not offered by either driver wrapper
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("streaming queries are not supported; page with LIMIT/OFFSET or keyset instead");
  }
}

class QueryableDriver implements Driver {
  private readonly connection: QueryableConnection;
  constructor(executor: Queryable) {
    this.connection = new QueryableConnection(executor);
  }
  async init() {}
  async acquireConnection() {
    return this.connection;
  }
  async beginTransaction() {
    throw new Error("use Db.transaction(fn) and pass its executor to sql(tx)");
  }
  async commitTransaction() {}
  async rollbackTransaction() {}
  async releaseConnection() {}
  async destroy() {}
}

const builders = new WeakMap<Queryable, Sql>();

/** The typed builder bound to a database or a transaction's executor (cached per executor). */
export function sql(executor: Queryable): Sql {
  let builder = builders.get(executor);
  if (!builder) {
    builder = new Kysely<DB>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => new QueryableDriver(executor),
        createIntrospector: (db) => new PostgresIntrospector(db),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
    });
    builders.set(executor, builder);
  }
  return builder;
}

/** Kysely's raw-SQL tag for the few expressions the builder has no method for (`now()`, `FOR UPDATE SKIP LOCKED` …). */
export { sql as raw } from "kysely";
