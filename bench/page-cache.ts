/**
 * The anonymous page cache (issue 18, docs/decisions/0028-page-cache.md): req/s and CPU-ms per request for `/shop/` and
 * a product page, served from the cache, served from the cache to a shopper with a cart (their session and cart lines
 * read first: decisions 0042 and 0045), rendered (the same request with a cookie the cache does not know, so it is the visitor's own page),
 * and the same bytes with the same headers served from memory by a bare Node `http` server, side by side in one run;
 * and the cart fragments refresh such a shopper's browser sends on each kept page. The goal: the cached pages at
 * least 50% of the bare server's req/s.
 * CPU-ms is each server process's user+system time before and after its load (/proc/<pid>/stat) over the requests.
 * Requests ask for gzip, as browsers do (BENCH_ENCODING=identity for none).
 * `npx tsx bench/page-cache.ts` (needs a build). BENCH_SECONDS (default 8), BENCH_CONNECTIONS (default 16),
 * BENCH_PORT (default 4290; the bare server takes the next port), BENCH_PRODUCTS (bulk products, default 0).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import http from "node:http";
import autocannon from "autocannon";
import { cpuMs, startBenchServer } from "./support.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const port = Number(process.env.BENCH_PORT ?? 4290);
const encoding = process.env.BENCH_ENCODING ?? "gzip";
const PAGES = [
  ["/shop/", "/shop/"],
  ["product", "/product/cotton-face-mask/"],
] as const;

/** The bare server: each page's bytes and headers from a JSON file, answered from memory, nothing else. */
const BARE = `
const http = require("node:http");
const pages = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"));
for (const p of Object.values(pages)) p.body = Buffer.from(p.body, "base64");
http.createServer((req, res) => {
  const page = pages[req.url];
  if (!page) { res.writeHead(404); return res.end(); }
  res.writeHead(200, page.headers);
  res.end(page.body);
}).listen(Number(process.argv[2]), "127.0.0.1");
`;

interface Row {
  page: string;
  variant: string;
  rps: number;
  cpuMs: number;
  bytes: number;
}

async function measure(pid: number, url: string, headers: Record<string, string>, post?: string): Promise<{ rps: number; cpuMs: number; bytes: number }> {
  const request = post === undefined ? {} : { method: "POST" as const, body: post };
  await autocannon({ url, connections, duration: 2, headers, ...request }); // warm-up
  const before = cpuMs(pid);
  const result = await autocannon({ url, connections, duration: seconds, headers, ...request });
  const used = cpuMs(pid) - before;
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    rps: Math.round(result.requests.average),
    cpuMs: used / Math.max(1, result.requests.total),
    bytes: Math.round(result.throughput.total / Math.max(1, result.requests.total)),
  };
}

async function main(): Promise<void> {
  const shop = await startBenchServer({ products: Number(process.env.BENCH_PRODUCTS ?? 0), port, env: { PAGE_CACHE: "on" } });
  const dir = mkdtempSync(path.join(os.tmpdir(), "shop-bench-bare-"));
  const bare = { port: port + 1, child: null as ReturnType<typeof spawn> | null };
  const accept = { "accept-encoding": encoding };
  const rows: Row[] = [];
  try {
    // The cached bytes and headers, exactly as the shop sends them (still encoded), for the bare server.
    const pages: Record<string, { headers: Record<string, string>; body: string }> = {};
    for (const [, p] of PAGES) {
      await rawGet(shop.url + p, accept);
      const res = await rawGet(shop.url + p, accept);
      if (res.headers["x-cache"] !== "HIT") throw new Error(`${p} is not served from the cache (x-cache: ${res.headers["x-cache"]})`);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string" && !["date", "connection", "keep-alive"].includes(k)) headers[k] = v;
      pages[p] = { headers, body: res.body.toString("base64") };
    }
    writeFileSync(path.join(dir, "pages.json"), JSON.stringify(pages));
    const shopper = await shopperWithCart(shop.url);
    bare.child = spawn(process.execPath, ["-e", BARE, path.join(dir, "pages.json"), String(bare.port)], { stdio: ["ignore", "inherit", "inherit"] });
    const bareUrl = `http://127.0.0.1:${bare.port}`;
    for (
      let i = 0;
      !(await rawGet(bareUrl + PAGES[0][1], accept).then(
        () => true,
        () => false,
      ));
      i++
    ) {
      if (i > 100) throw new Error("the bare server did not start");
      await new Promise((r) => setTimeout(r, 100));
    }

    for (const [name, p] of PAGES) {
      rows.push({ page: name, variant: "cached", ...(await measure(shop.child.pid!, shop.url + p, accept)) });
      const asShopper = { ...accept, cookie: shopper };
      const check = await rawGet(shop.url + p, asShopper);
      if (check.headers["x-cache"] !== "HIT")
        throw new Error(`${p} is not served from the cache to a shopper with a cart (x-cache: ${check.headers["x-cache"]})`);
      rows.push({
        page: name,
        variant: "cached, shopper with a cart (session and cart lines read; the demo's cart popup decided once for those lines)",
        ...(await measure(shop.child.pid!, shop.url + p, asShopper)),
      });
      rows.push({ page: name, variant: "uncached", ...(await measure(shop.child.pid!, shop.url + p, { ...accept, cookie: "bench_uncached=1" })) });
      rows.push({ page: name, variant: "bare node http", ...(await measure(bare.child.pid!, bareUrl + p, accept)) });
    }
    const fragmentsHeaders = { ...accept, cookie: shopper, "content-type": "application/x-www-form-urlencoded; charset=UTF-8" };
    rows.push({
      page: "fragments",
      variant: "shopper with a cart (once per kept page)",
      ...(await measure(shop.child.pid!, `${shop.url}/?wc-ajax=get_refreshed_fragments`, fragmentsHeaders, "time=1")),
    });
  } finally {
    bare.child?.kill();
    await shop.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`page cache: ${connections} connections, ${seconds} s each, accept-encoding ${encoding}`);
  console.log("| page | served | req/s | CPU-ms/req | bytes/resp | req/s ÷ bare |");
  console.log("|---|---|---:|---:|---:|---:|");
  for (const r of rows) {
    const bareRps = rows.find((x) => x.page === r.page && x.variant === "bare node http")?.rps;
    console.log(`| ${r.page} | ${r.variant} | ${r.rps} | ${r.cpuMs.toFixed(3)} | ${r.bytes} | ${bareRps ? `${((100 * r.rps) / bareRps).toFixed(0)}%` : "–"} |`);
  }
}

/**
 * A shopper with one line in the cart (a pocket square: not a mask, so the demo's "free mask with 6" popup does not
 * apply to them): the Cookie header their browser sends (session, cart cookies, nonce key).
 */
async function shopperWithCart(base: string): Promise<string> {
  const page = await (await fetch(`${base}/product/silk-pocket-square/`)).text();
  const button = /<button [^>]*name="add-to-cart"[^>]*>/.exec(page)?.[0] ?? "";
  const productId = /value="(\d+)"/.exec(button)?.[1];
  if (!productId) throw new Error("no product to add (silk-pocket-square)");
  const res = await fetch(`${base}/?wc-ajax=add_to_cart`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded; charset=UTF-8" },
    body: new URLSearchParams({ product_id: productId, quantity: "2" }).toString(),
  });
  const cookies = res.headers.getSetCookie().map((line) => line.split(";")[0]!);
  if (!cookies.some((c) => c.startsWith("woocommerce_items_in_cart="))) throw new Error(`add_to_cart set no cart cookie (${res.status})`);
  return cookies.join("; ");
}

/** A GET whose body is returned as sent (still encoded), with its headers. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const parts: Buffer[] = [];
        res.on("data", (c: Buffer) => parts.push(c));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(parts) }));
      })
      .on("error", reject);
  });
}

await main();
