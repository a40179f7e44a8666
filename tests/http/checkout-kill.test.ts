/**
 * SIGKILL during a stream of checkouts: the server process is killed at a random moment, restarted, and must
 * leave no captured payment without its paid order, no order charged twice, no unfinished attempt, and stock
 * conserved (what is left plus what paid orders hold = what there was). PGlite by default; PostgreSQL with
 * TEST_DATABASE_URL. CHECKOUT_KILL_RUNS repeats the kill (default 1).
 */
import { readJsonLines } from "../support/json-lines.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase, type Db } from "../../core/db/client.ts";
import { createScratchSchema } from "../../core/db/scratch-schema.ts";
import { TestClient } from "../support/client.ts";
import { billing, cardFields, openCheckout } from "./checkout-support.ts";

const RUNS = Math.max(1, Number(process.env.CHECKOUT_KILL_RUNS ?? 1));
const STOCK = 1000;
let dataDir: string;
let databaseUrl: string | undefined;
let scratch: { url: string; drop: () => Promise<void> } | null = null;
/** Everything every server process wrote, for the card-data check. */
let allOutput = "";

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-kill-"));
  const base = process.env.TEST_DATABASE_URL;
  if (base) {
    scratch = await createScratchSchema(base, "t_kill");
    databaseUrl = scratch.url;
  }
});
afterAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  await scratch?.drop();
});

interface Server {
  child: ChildProcess;
  /** Where it listens, as its "shop ready at" line says (127.0.0.1 for localhost). */
  url: string;
  /** Resolves with the first log line (parsed) that matches. */
  waitForLog(match: (line: { msg?: string; pending?: number }) => boolean): Promise<void>;
}

/** Starts the compiled server (what `npm start` runs) in its own process group and resolves once it logged that it is ready. */
function startServer(): Promise<Server> {
  const child = spawn(process.execPath, [`${process.env.SHOP_BUILD_DIR ?? "build"}/server/index.js`], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      // The shop picks a free port and logs it ("shop ready at …"): no port is chosen here and raced for.
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SIMULATOR: "off",
      // Debug: every log line the payment path can write is checked for card data below.
      LOG_LEVEL: "debug",
      SESSION_SECRET: "k".repeat(40),
      PAYMENT_RECONCILE_STARTUP_AFTER_MS: "0",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const lines: { msg?: string; pending?: number }[] = [];
  const waiters: { match: (l: { msg?: string; pending?: number }) => boolean; resolve: () => void }[] = [];
  readJsonLines<{ msg?: string; pending?: number }>(
    child,
    (line) => {
      lines.push(line);
      for (const w of [...waiters]) if (w.match(line)) w.resolve();
    },
    (text) => (allOutput += text),
  );
  const waitForLog = (match: (l: { msg?: string; pending?: number }) => boolean) =>
    new Promise<void>((resolve) => {
      if (lines.some(match)) return resolve();
      waiters.push({ match, resolve });
    });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`server exited (${code}) before it was ready`)));
    const ready = (l: { msg?: string }) => typeof l.msg === "string" && l.msg.startsWith("shop ready at ");
    void waitForLog(ready).then(() => {
      const url = lines.find(ready)!.msg!.slice("shop ready at ".length).replace("localhost", "127.0.0.1");
      resolve({ child, url, waitForLog });
    });
  });
}

function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    process.kill(-child.pid!, signal);
  });
}

async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await openDatabase({ databaseUrl, dataDir: path.join(dataDir, "pglite") });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/** One shopper placing orders one after another until the server goes away. */
async function stream(url: string, productId: number, alive: () => boolean, onOrder: () => void): Promise<void> {
  while (alive()) {
    try {
      const client = new TestClient(url);
      await client.post("/?wc-ajax=add_to_cart", { product_id: String(productId), quantity: "1" });
      const page = await openCheckout(client);
      const res = await client.post("/?wc-ajax=checkout", {
        "woocommerce-process-checkout-nonce": page.nonce,
        _checkout_token: page.token,
        ...billing(),
        ...cardFields(),
      });
      if (((await res.json()) as { result?: string }).result === "success") onOrder();
    } catch (error) {
      if (alive()) console.error("stream stopped:", (error as Error).message);
      return; // the server died under us
    }
  }
}

describe("a killed server process", () => {
  it(
    `leaves no captured payment without its order and no double charge after restart (${RUNS} kill(s))`,
    async () => {
      // First start: migrate and seed, then set a known stock while the server is down.
      await stop((await startServer()).child, "SIGTERM");
      const productId = await withDb(async (db) => {
        const [row] = await db.query<{ id: number }>(`UPDATE products SET stock_quantity = $1, stock_status = 'instock' WHERE slug = 'tie-clip' RETURNING id`, [
          STOCK,
        ]);
        return row!.id;
      });
      for (let run = 0; run < RUNS; run++) {
        const server = await startServer();
        let alive = true;
        let firstOrder!: () => void;
        const flowing = new Promise<void>((r) => (firstOrder = r));
        const streams = Array.from({ length: 6 }, () =>
          stream(
            server.url,
            productId,
            () => alive,
            () => firstOrder(),
          ),
        );
        // Kill at a random moment once orders are flowing.
        await flowing;
        await new Promise((r) => setTimeout(r, Math.random() * 2000));
        alive = false;
        await stop(server.child, "SIGKILL");
        await Promise.all(streams);
        // Restart: the reconciler finishes every attempt the dead process left (at start, or — for a capture the
        // dead process had claimed — on a periodic run once the processor releases the claim).
        const restarted = await startServer();
        await restarted.waitForLog((l) => (l.msg === "payments reconciled at start" || l.msg === "payments reconciled") && l.pending === 0);
        await stop(restarted.child, "SIGTERM");
      }
      const state = await withDb(async (db) => {
        const [open] = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM payment_attempts WHERE status IN ('started', 'authorized', 'late_captured')`,
        );
        // Every charge pays a processing order, or landed late and was refunded in full.
        const orphanCharges = await db.query(
          `SELECT r.id FROM sandbox_records r WHERE r.type = 'charge'
         AND NOT EXISTS (SELECT 1 FROM payment_attempts a JOIN orders o ON o.id = a.order_id WHERE a.charge_id = r.id AND a.status = 'captured' AND o.status = 'processing')
         AND NOT ((r.data->>'refunded')::int = (r.data->>'amount')::int AND EXISTS (SELECT 1 FROM payment_attempts a WHERE a.charge_id = r.id AND a.status = 'refunded'))`,
        );
        const doubleCharged = await db.query(`SELECT order_id FROM payment_attempts WHERE status = 'captured' GROUP BY order_id HAVING count(*) > 1`);
        const unpaidProcessing = await db.query(
          `SELECT o.id FROM orders o WHERE o.status = 'processing' AND NOT EXISTS (SELECT 1 FROM payment_attempts a WHERE a.order_id = o.id AND a.status = 'captured')`,
        );
        const heldAuths = await db.query(`SELECT r.id FROM sandbox_records r WHERE r.type = 'authorization' AND r.data->>'status' = 'authorized'`);
        const [stock] = await db.query<{ n: number }>(`SELECT stock_quantity AS n FROM products WHERE id = $1`, [productId]);
        const [sold] = await db.query<{ n: number }>(
          `SELECT coalesce(sum(l.quantity), 0)::int AS n FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE l.product_id = $1 AND o.stock_held`,
          [productId],
        );
        const [orders] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders WHERE status = 'processing'`);
        return { open: open!.n, orphanCharges, doubleCharged, unpaidProcessing, heldAuths, stock: stock!.n, sold: sold!.n, paidOrders: orders!.n };
      });
      expect(state.paidOrders).toBeGreaterThan(0);
      expect(state.open).toBe(0);
      expect(state.orphanCharges).toEqual([]);
      expect(state.doubleCharged).toEqual([]);
      expect(state.unpaidProcessing).toEqual([]);
      expect(state.heldAuths).toEqual([]);
      expect(state.stock + state.sold).toBe(STOCK);
      // Neither the logs nor the database hold the card number or the CSC field.
      expect(allOutput.length).toBeGreaterThan(0);
      expect(allOutput).not.toMatch(/4242\s?4242\s?4242\s?4242|account-number|"csc"/);
      const dump = await withDb(async (db) => {
        const tables = await db.query<{ table_name: string }>(
          `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
        );
        let text = "";
        for (const { table_name } of tables) for (const r of await db.query<{ t: string }>(`SELECT t::text AS t FROM "${table_name}" t`)) text += r.t + "\n";
        return text;
      });
      expect(dump.length).toBeGreaterThan(1000);
      expect(dump).not.toMatch(/4242\s?4242\s?4242\s?4242/);
    },
    60_000 + 60_000 * RUNS,
  );
});
