/** Shared by the benchmarks: start a production shop in a child process, load it, and measure what pages ship. */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";

export interface BenchServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** The environment of a production shop started by a bench: loopback, no simulator, its own data folder and database. */
export function benchServerEnv(o: {
  port: number;
  dataDir: string;
  databaseUrl?: string | undefined;
  seedProducts?: number;
  logLevel?: string;
  extra?: Record<string, string> | undefined;
}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(o.port),
    HOST: "127.0.0.1",
    DATA_DIR: o.dataDir,
    SEED_PRODUCTS: String(o.seedProducts ?? 0),
    SIMULATOR: "off",
    LOG_LEVEL: o.logLevel ?? "warn",
    ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : {}),
    ...o.extra,
  };
}

export async function startBenchServer(opts: { products: number; port: number; env?: Record<string, string> }): Promise<BenchServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-bench-"));
  const child = spawn(process.execPath, [path.join(process.env.SHOP_BUILD_DIR ?? "build", "server/index.js")], {
    env: benchServerEnv({ port: opts.port, dataDir, seedProducts: opts.products, extra: opts.env }),
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
  });
  const url = `http://127.0.0.1:${opts.port}`;
  await waitForHealth(url, child, 600_000);
  return {
    url,
    child,
    async stop() {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        /* gone */
      }
      await new Promise((r) => child.once("exit", r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface LoadResult {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export async function load(name: string, opts: autocannon.Options): Promise<LoadResult> {
  const result = await autocannon({ connections: 16, duration: Number(process.env.BENCH_SECONDS ?? 8), ...opts });
  return { name, rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, errors: result.errors, non2xx: result.non2xx };
}

export function printLoad(rows: LoadResult[]): void {
  console.log("| endpoint | req/s | p50 ms | p99 ms | errors | non-2xx |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const r of rows) console.log(`| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} |`);
}

/** The JavaScript and CSS a page makes the browser download, gzipped (what travels on the wire). */
export async function shippedBytes(url: string): Promise<{ js: number; css: number; files: number }> {
  const html = await (await fetch(url)).text();
  const origin = new URL(url).origin;
  const js = new Set<string>();
  const css = new Set<string>();
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) js.add(m[1]!);
  for (const m of html.matchAll(/<script[^>]+src="([^"]+)"/g)) js.add(m[1]!);
  for (const m of html.matchAll(/import\("([^"]+\.js)"\)/g)) js.add(m[1]!);
  for (const m of html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)) css.add(m[1]!);
  const size = async (href: string) => gzipSync(Buffer.from(await (await fetch(new URL(href, origin))).arrayBuffer()), { level: 9 }).length;
  let jsBytes = 0;
  for (const href of js) jsBytes += await size(href);
  let cssBytes = 0;
  for (const href of css) cssBytes += await size(href);
  return { js: jsBytes, css: cssBytes, files: js.size + css.size };
}

/** A process's CPU time so far (user + system), in milliseconds (Linux /proc; clock ticks of 100 Hz). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // After the command (which may hold ") "): utime and stime are the 12th and 13th fields.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A browser's cookie jar over fetch: each call sends the cookies the earlier answers set. */
export function cookieSession(base: string) {
  const jar = new Map<string, string>();
  return async (path: string, init: RequestInit = {}): Promise<Response> => {
    const res = await fetch(base + path, {
      ...init,
      redirect: "manual",
      headers: { ...(init.headers as Record<string, string>), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return res;
  };
}

/** The checkout page's hidden fields, or null when the page lacks them. */
export function checkoutFields(page: string): { nonce: string; token: string } | null {
  const nonce = /name="woocommerce-process-checkout-nonce" value="([^"]+)"/.exec(page)?.[1];
  const token = /name="_checkout_token" value="([0-9a-f]{32})"/.exec(page)?.[1];
  return nonce && token ? { nonce, token } : null;
}

/** A valid `?wc-ajax=checkout` body: a US address and the sandbox's approved test card. */
export function checkoutBody(fields: { nonce: string; token: string }, email: string): string {
  return new URLSearchParams({
    "woocommerce-process-checkout-nonce": fields.nonce,
    _checkout_token: fields.token,
    billing_first_name: "Bench",
    billing_last_name: "Mark",
    billing_country: "US",
    billing_address_1: "1 Load St",
    billing_city: "Springfield",
    billing_state: "IL",
    billing_postcode: "62701",
    billing_phone: "555 123 4567",
    billing_email: email,
    "shipping_method[0]": "flat_rate:1",
    payment_method: "sandbox_credit_card",
    "wc-sandbox-credit-card-account-number": "4242424242424242",
    "wc-sandbox-credit-card-expiry": "12 / 34",
    "wc-sandbox-credit-card-csc": "123",
  }).toString();
}

/** Resolves once the shop at `url` answers /healthz; throws when `child` exits first or the time runs out. */
export async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      /* not up yet */
    }
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error("server did not start");
    await new Promise((r) => setTimeout(r, 300));
  }
}
