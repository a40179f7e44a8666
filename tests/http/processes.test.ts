/**
 * Several server processes (WEB_CONCURRENCY, server/cluster.ts, decision 0033): the compiled server started as
 * `npm start` starts it, with WEB_CONCURRENCY=2 on PostgreSQL (TEST_DATABASE_URL, a scratch schema) and Redis
 * (REDIS_URL or 127.0.0.1:6379, a prefix of its own). Which worker served a request is read from the request log
 * (each worker's lines carry its pid), so the shop exposes nothing new. On PGlite (no TEST_DATABASE_URL) only the
 * refusal is tested: PGlite belongs to one process.
 */
import { readJsonLines } from "../support/json-lines.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { openDatabase, type Db } from "../../core/db/client.ts";
import { createScratchSchema } from "../../core/db/scratch-schema.ts";
import { registerCustomer } from "../../core/commerce/accounts.ts";
import { TestClient } from "../support/client.ts";
import { TEST_PASSWORD } from "../support/staff.ts";
import { billing, cardFields, openCheckout } from "./checkout-support.ts";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const BASE = process.env.TEST_DATABASE_URL;

interface LogLine {
  msg?: string;
  pid?: number;
  workers?: number[];
  req?: { url?: string };
}

interface Shop {
  child: ChildProcess;
  /** The address the primary logged as ready (the shop starts on PORT=0, so no port is picked here and raced for). */
  url: string;
  lines: LogLine[];
  waitForLog(match: (line: LogLine) => boolean): Promise<LogLine>;
  exited: Promise<number | null>;
  output: () => string;
}

function startShop(env: Record<string, string>): Shop {
  const child = spawn(process.execPath, [`${process.env.SHOP_BUILD_DIR ?? "build"}/server/index.js`], {
    env: { ...process.env, NODE_ENV: "production", PORT: "0", HOST: "127.0.0.1", SIMULATOR: "off", SESSION_SECRET: "p".repeat(40), ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const lines: LogLine[] = [];
  let text = "";
  const waiters: { match: (l: LogLine) => boolean; resolve: (l: LogLine) => void }[] = [];
  const shop: Shop = {
    child,
    url: "",
    lines,
    waitForLog: (match) =>
      new Promise<LogLine>((resolve) => {
        const seen = lines.find(match);
        if (seen) return resolve(seen);
        waiters.push({ match, resolve });
      }),
    exited: new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code))),
    output: () => text,
  };
  readJsonLines<LogLine>(
    child,
    (line) => {
      lines.push(line);
      if (line.msg?.startsWith("shop ready at ")) shop.url = line.msg.slice("shop ready at ".length).replace("localhost", "127.0.0.1");
      for (const w of [...waiters])
        if (w.match(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
    },
    (chunk) => (text += chunk),
  );
  return shop;
}

/** One GET on a connection of its own (so the primary hands it to the next worker); resolves with status, body and the pid that served it. */
async function probe(shop: Shop, pathname: string): Promise<{ status: number; body: string; pid: number }> {
  const id = randomBytes(6).toString("hex");
  const url = `${pathname}${pathname.includes("?") ? "&" : "?"}probe=${id}`;
  const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    http
      .get(shop.url + url, { agent: false }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on("error", reject);
  });
  const line = await shop.waitForLog((l) => l.msg === "request completed" && Boolean(l.req?.url?.includes(`probe=${id}`)));
  return { status, body, pid: line.pid! };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(BASE)("WEB_CONCURRENCY on PGlite", () => {
  it("is refused with a clear message: the embedded database belongs to one process", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-procs-"));
    try {
      const shop = startShop({ WEB_CONCURRENCY: "2", DATA_DIR: dataDir, DATABASE_URL: "", REDIS_URL: "" });
      expect(await shop.exited).toBe(1);
      expect(shop.output()).toContain("WEB_CONCURRENCY=2 needs DATABASE_URL");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!BASE)("two server processes on PostgreSQL and Redis", () => {
  let scratch: { url: string; drop: () => Promise<void> };
  let dataDir: string;
  let shop: Shop;
  let db: Db;
  let redis: Redis;
  const prefix = `test:procs:${randomBytes(4).toString("hex")}`;

  beforeAll(async () => {
    scratch = await createScratchSchema(BASE!, "t_procs");
    dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-procs-"));
    redis = new Redis(REDIS_URL);
    shop = startShop({ WEB_CONCURRENCY: "2", DATA_DIR: dataDir, DATABASE_URL: scratch.url, REDIS_URL, REDIS_PREFIX: prefix });
    await Promise.race([
      shop.waitForLog((l) => typeof l.msg === "string" && l.msg.startsWith("shop ready at")),
      shop.exited.then((code) => Promise.reject(new Error(`shop exited (${code}) before it was ready:\n${shop.output().slice(-3000)}`))),
    ]);
    db = await openDatabase({ databaseUrl: scratch.url, dataDir: null });
  }, 120_000);

  afterAll(async () => {
    if (shop && shop.child.exitCode === null && shop.child.signalCode === null) {
      process.kill(-shop.child.pid!, "SIGKILL");
      await shop.exited;
    }
    await db?.close();
    const keys = redis ? await redis.keys(`${prefix}:*`) : [];
    if (keys.length) await redis.del(...keys);
    await redis?.quit();
    await scratch?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** Probes until two different workers answered; returns one answer of each. */
  async function bothWorkers(pathname: string) {
    const first = await probe(shop, pathname);
    for (let i = 0; i < 20; i++) {
      const next = await probe(shop, pathname);
      if (next.pid !== first.pid) return [first, next] as const;
    }
    throw new Error("every request went to one worker");
  }

  it("serves requests from two worker processes, not the primary", async () => {
    const ready = shop.lines.find((l) => l.msg?.startsWith("shop ready at"))!;
    expect(ready.workers).toHaveLength(2);
    const [a, b] = await bothWorkers("/shop/");
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(new Set([a.pid, b.pid])).toEqual(new Set(ready.workers));
    expect(ready.workers).not.toContain(shop.child.pid);
  });

  let signedIn: { admin: TestClient; nonce: string } | null = null;
  /** An administrator signed in over HTTP (the session is a row, so either process accepts it). */
  async function administrator(): Promise<{ admin: TestClient; nonce: string }> {
    if (signedIn) return signedIn;
    const made = await registerCustomer(db, { email: "owner@example.com", password: TEST_PASSWORD, first_name: "Ada", last_name: "Lovelace" });
    if (!made.ok) throw new Error(made.message);
    await db.query(`UPDATE customers SET role = 'administrator' WHERE id = $1`, [made.customerId]);
    const admin = new TestClient(shop.url);
    const page = await (await admin.get("/my-account/")).text();
    const res = await admin.post("/my-account/", {
      intent: "login",
      username: "owner@example.com",
      password: TEST_PASSWORD,
      "woocommerce-login-nonce": /name="woocommerce-login-nonce" value="([^"]+)"/.exec(page)?.[1] ?? "",
    });
    expect(res.status).toBe(302);
    const nonce = await (await admin.get("/wp-admin/admin-ajax.php?action=rest-nonce")).text();
    return (signedIn = { admin, nonce });
  }

  /** The next page from a worker other than `pid`. */
  async function fromOtherThan(pid: number, pathname: string) {
    for (let i = 0; i < 20; i++) {
      const got = await probe(shop, pathname);
      if (got.pid !== pid) return got;
    }
    throw new Error("no page came from the other worker");
  }

  it("shows a price changed through REST on one process on a page served by the other at once", async () => {
    const { admin, nonce } = await administrator();
    const id = (await db.query<{ id: number }>(`SELECT id FROM products WHERE slug = 'tie-clip'`))[0]!.id;

    for (const price of ["87.65", "76.54"]) {
      const put = await admin.request(`/wp-json/wc/v3/products/${id}?probe=put${price}`, {
        method: "PUT",
        json: { regular_price: price },
        headers: { "x-wp-nonce": nonce },
      });
      expect(put.status).toBe(200);
      const writer = await shop.waitForLog((l) => l.msg === "request completed" && Boolean(l.req?.url?.includes(`probe=put${price}`)));
      // The next page from the other worker, right after the write answered.
      const other = await fromOtherThan(writer.pid!, "/product/tie-clip/");
      expect(other.status).toBe(200);
      expect(other.body.includes(price), `the other process (${other.pid}) shows an old price`).toBe(true);
    }
  });

  it("clears a cached setting in the other process at once (the invalidation bus, not the cache's 5 s lifetime)", async () => {
    const { admin, nonce } = await administrator();
    for (const text of ["First notice from one process", "Second notice from one process"]) {
      // Both processes have the site settings cached before the change.
      await bothWorkers("/shop/");
      const put = await admin.request(`/wp-json/shop/v1/settings/store-notice?probe=notice${text.length}${text[0]}`, {
        method: "PUT",
        json: { enabled: true, text },
        headers: { "x-wp-nonce": nonce },
      });
      expect(put.status).toBe(200);
      const writer = await shop.waitForLog((l) => l.msg === "request completed" && Boolean(l.req?.url?.includes(`probe=notice${text.length}${text[0]}`)));
      const other = await fromOtherThan(writer.pid!, "/shop/");
      expect(other.body.includes(text), `the other process (${other.pid}) still shows the cached settings`).toBe(true);
    }
  });

  it("sells exactly the stock to a checkout storm split across both processes", async () => {
    const STOCK = 6;
    const SHOPPERS = 24;
    const id = (
      await db.query<{ id: number }>(
        `UPDATE products SET stock_quantity = $1, stock_status = 'instock', sale_price = NULL WHERE slug = 'tie-clip' RETURNING id`,
        [STOCK],
      )
    )[0]!.id;
    const ordersBefore = (
      await db.query<{ n: number }>(
        `SELECT coalesce(sum(l.quantity), 0)::int AS n FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE l.product_id = $1 AND o.status IN ('processing', 'completed')`,
        [id],
      )
    )[0]!.n;
    const results = await Promise.all(
      Array.from({ length: SHOPPERS }, async (_, i) => {
        const client = new TestClient(shop.url);
        await client.post("/?wc-ajax=add_to_cart", { product_id: String(id), quantity: "1" });
        const page = await openCheckout(client);
        const res = await client.post(`/?wc-ajax=checkout&probe=storm${i}`, {
          "woocommerce-process-checkout-nonce": page.nonce,
          _checkout_token: page.token,
          ...billing(),
          ...cardFields(),
        });
        return ((await res.json()) as { result?: string }).result;
      }),
    );
    expect(results.filter((r) => r === "success")).toHaveLength(STOCK);
    const stock = (await db.query<{ stock: number }>(`SELECT stock_quantity AS stock FROM products WHERE id = $1`, [id]))[0]!.stock;
    expect(stock).toBe(0);
    const ordersAfter = (
      await db.query<{ n: number }>(
        `SELECT coalesce(sum(l.quantity), 0)::int AS n FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE l.product_id = $1 AND o.status IN ('processing', 'completed')`,
        [id],
      )
    )[0]!.n;
    expect(ordersAfter - ordersBefore).toBe(STOCK);
    // Both processes took part in the storm.
    const lines = await Promise.all(
      Array.from({ length: SHOPPERS }, (_, i) => shop.waitForLog((l) => l.msg === "request completed" && Boolean(l.req?.url?.endsWith(`probe=storm${i}`)))),
    );
    expect(new Set(lines.map((l) => l.pid)).size).toBe(2);
  }, 120_000);

  it("replaces a worker that dies, and stops every worker on SIGTERM", async () => {
    const ready = shop.lines.find((l) => l.msg?.startsWith("shop ready at"))!;
    const victim = ready.workers![0]!;
    process.kill(victim, "SIGKILL");
    const replaced = await shop.waitForLog(
      (l) => l.msg === "worker ready at " + shop.url.replace("127.0.0.1", "localhost") && l.pid !== undefined && !ready.workers!.includes(l.pid),
    );
    expect(alive(replaced.pid!)).toBe(true);
    const [a, b] = await bothWorkers("/shop/");
    expect(new Set([a.pid, b.pid])).toEqual(new Set([ready.workers![1], replaced.pid]));

    process.kill(shop.child.pid!, "SIGTERM");
    expect(await shop.exited).toBe(0);
    expect(alive(replaced.pid!)).toBe(false);
    expect(alive(ready.workers![1]!)).toBe(false);
  }, 60_000);
});
