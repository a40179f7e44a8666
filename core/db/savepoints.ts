/**
 * A `Db` that lives inside one open transaction: its `transaction(fn)` is a SAVEPOINT of that transaction, released
 * when `fn` returns and rolled back to when it throws. Code written for a `Db` (the catalogue's use cases, which open
 * their own transaction) then runs unchanged as one step of a longer transaction: the product CSV import runs each
 * row this way, so a refused row leaves nothing behind while the rows before it stay (docs/decisions/0039).
 */
import type { Db, Queryable } from "./client.ts";

export function savepointDb(outer: Db, tx: Queryable): Db & { step<T>(fn: () => Promise<T>): Promise<T> } {
  let n = 0;
  const step = async <T>(fn: () => Promise<T>): Promise<T> => {
    const name = `sp_${++n}`;
    await tx.query(`SAVEPOINT ${name}`);
    try {
      const out = await fn();
      await tx.query(`RELEASE SAVEPOINT ${name}`);
      return out;
    } catch (error) {
      await tx.query(`ROLLBACK TO SAVEPOINT ${name}`);
      throw error;
    }
  };
  const db: Db & { step: typeof step } = {
    kind: outer.kind,
    query: (text, params) => tx.query(text, params),
    exec: (text) => tx.exec(text),
    transaction: (fn) => step(() => fn(tx)),
    get orderLane() {
      return db;
    },
    close: () => Promise.resolve(),
    step,
  };
  return db;
}
