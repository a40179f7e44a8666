/**
 * Counts the database statements run on behalf of one unit of work (an HTTP request), without passing anything
 * down: the Db wrappers (client.ts) call noteQuery() for every statement, and whatever runs inside
 * countQueries(fn), however deep and across awaits (AsyncLocalStorage), adds to that scope's count.
 * The request log carries the count as `dbQueries` (server/log.ts); tests assert a page's budget on it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { registerSingleton } from "../singletons.ts";

export interface QueryTally {
  /** Statements run so far in this scope. */
  count: number;
  /** When set, each statement's text is kept too (the request log's debug line). */
  statements?: string[];
}

const scope = new AsyncLocalStorage<QueryTally>();
registerSingleton("db query counter");

/** Runs `fn` with a fresh tally that every statement it runs (directly or not) adds to. */
export function countQueries<T>(tally: QueryTally, fn: () => T): T {
  return scope.run(tally, fn);
}

/** Called by the Db wrappers once per statement. */
export function noteQuery(text: string): void {
  const tally = scope.getStore();
  if (!tally) return;
  tally.count++;
  tally.statements?.push(text.length > 300 ? `${text.slice(0, 300)}…` : text);
}
