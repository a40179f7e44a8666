/**
 * The staff products API (issue 13): `GET /wp-json/wc/v3/products?per_page=100` on the 5,000-product catalogue,
 * the first page, a deep page, and a filtered and price-sorted page, signed in as an administrator (cookie +
 * X-WP-Nonce). Prints requests/s, p50/p99 and the server's CPU milliseconds per request (its utime + stime from
 * /proc over the run, the database included when it is the embedded PGlite). Figures only, no pass/fail.
 * `npx tsx bench/rest-products.ts` (needs a build). BENCH_SIZES (default "5000"), BENCH_SECONDS (default 8),
 * BENCH_PORT (default 3293), BENCH_DATABASE_URL=postgres://… for a PostgreSQL server instead of PGlite.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { openPglite, openPostgres } from "../core/db/client.ts";
import { migrate } from "../core/db/migrate.ts";
import { analyze } from "../core/db/seed/bench.ts";
import { createScratchSchema } from "../core/db/scratch-schema.ts";
import { benchServerEnv, cpuMs, waitForHealth } from "./support.ts";
import { seedBulkProducts, seedDemoData } from "../core/db/seed/seed.ts";
import { registerCustomer } from "../core/commerce/accounts.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const sizes = (process.env.BENCH_SIZES ?? "5000").split(",").map(Number);
const port = Number(process.env.BENCH_PORT ?? 3293);
const url = `http://127.0.0.1:${port}`;
const baseDatabaseUrl = process.env.BENCH_DATABASE_URL;
const EMAIL = "bench-admin@example.com";
const PASSWORD = "bench admin password 1";

async function prepare(dataDir: string, size: number, databaseUrl: string | undefined): Promise<void> {
  const db = databaseUrl ? await openPostgres(databaseUrl, 2) : await openPglite(path.join(dataDir, "pglite"));
  try {
    await migrate(db);
    await seedDemoData(db);
    await seedBulkProducts(db, size);
    const made = await registerCustomer(db, { email: EMAIL, password: PASSWORD, first_name: "Bench", last_name: "Admin" });
    if (!made.ok) throw new Error(made.message);
    await db.query(`UPDATE customers SET role = 'administrator' WHERE id = $1`, [made.customerId]);
    await analyze(db);
  } finally {
    await db.close();
  }
}

/** Signs in through the account page's form, as a browser does, and fetches the REST nonce. */
async function signIn(): Promise<Record<string, string>> {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
    return res;
  };
  const page = await keep(await fetch(`${url}/my-account/`)).text();
  const nonce = /name="woocommerce-login-nonce" value="([^"]+)"/.exec(page)?.[1] ?? "";
  const body = new URLSearchParams({ intent: "login", username: EMAIL, password: PASSWORD, "woocommerce-login-nonce": nonce });
  const login = keep(
    await fetch(`${url}/my-account/`, {
      method: "POST",
      body,
      headers: { cookie: cookie(), "content-type": "application/x-www-form-urlencoded" },
      redirect: "manual",
    }),
  );
  if (login.status !== 302) throw new Error(`sign-in answered ${login.status}`);
  const restNonce = await (await fetch(`${url}/wp-admin/admin-ajax.php?action=rest-nonce`, { headers: { cookie: cookie() } })).text();
  return { cookie: cookie(), "X-WP-Nonce": restNonce };
}

async function measure(pid: number, name: string, path: string, headers: Record<string, string>): Promise<void> {
  const check = await fetch(url + path, { headers });
  if (!check.ok) throw new Error(`${path}: ${check.status} ${await check.text()}`);
  const total = check.headers.get("x-wp-total");
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({ url: url + path, headers, connections: 8, duration: seconds });
  const cpu = cpuMs(pid) - cpuBefore;
  const requests = result.requests.total || 1;
  console.log(
    `  ${name.padEnd(40)} ${String(Math.round(result.requests.average)).padStart(5)} req/s   p50 ${String(result.latency.p50).padStart(4)} ms   p99 ${String(result.latency.p99).padStart(5)} ms   CPU ${(cpu / requests).toFixed(1).padStart(5)} ms/req   ${(result.throughput.total / requests / 1024).toFixed(0)} KB/answer   non-2xx ${result.non2xx}   errors ${result.errors}   (X-WP-Total ${total})`,
  );
}

async function runSize(size: number): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-bench-rest-products-"));
  const schema = baseDatabaseUrl ? await createScratchSchema(baseDatabaseUrl, "bench_rest_products") : null;
  const started = Date.now();
  await prepare(dataDir, size, schema?.url);
  console.log(`\n${size.toLocaleString("en")} generated products (+ demo catalogue), seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const child = spawn(process.execPath, ["build/server/index.js"], {
    env: benchServerEnv({ port, dataDir, databaseUrl: schema?.url }),
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
  });
  try {
    await waitForHealth(url, child);
    const headers = await signIn();
    const pid = child.pid!;
    await measure(pid, "baseline: rest-nonce (trivial)", "/wp-admin/admin-ajax.php?action=rest-nonce", headers);
    await measure(pid, "products?per_page=100 (page 1)", "/wp-json/wc/v3/products?per_page=100", headers);
    await measure(pid, "products?per_page=100&page=40", "/wp-json/wc/v3/products?per_page=100&page=40", headers);
    await measure(pid, "… &category=<id>&orderby=price&order=asc", "/wp-json/wc/v3/products?per_page=100&category=1&orderby=price&order=asc", headers);
    await measure(pid, "… &search=product 12&stock_status=instock", "/wp-json/wc/v3/products?per_page=100&search=product%2012&stock_status=instock", headers);
  } finally {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      /* gone */
    }
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once("exit", r)));
    rmSync(dataDir, { recursive: true, force: true });
    await schema?.drop();
  }
}

console.log(
  `wc/v3/products benchmark: autocannon, 8 connections, ${seconds} s per figure, production server on loopback (${baseDatabaseUrl ? "PostgreSQL" : "PGlite"}); load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
for (const size of sizes) await runSize(size);
