/**
 * Catalogue benchmarks (issue 3): a production server on loopback, measured with autocannon
 * (requests/s, p50, p99) on the 5,000- and 50,000-product catalogues, so the figures show how
 * cost grows with the catalogue:
 *   the shop listing, the listing with filters (taxonomy + price + sort), a deep page (/shop/page/50/),
 *   the refresh-loop call, a product page with 200 variations, and get_variation on it.
 * Prints figures; no pass/fail. `npx tsx bench/catalog.ts` (needs a build: SHOP_BUILD_DIR or build/).
 * BENCH_SIZES (default "5000,50000"), BENCH_SECONDS (default 8), BENCH_PORT (default 3291).
 * BENCH_DATABASE_URL=postgres://… runs on a real PostgreSQL server (a fresh schema per size, dropped after)
 * instead of embedded PGlite. A trivial endpoint (rest-nonce) is measured first as the machine's baseline.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { openPglite, openPostgres } from "../core/db/client.ts";
import { migrate } from "../core/db/migrate.ts";
import { analyze, createManyVariationProduct } from "../core/db/seed/bench.ts";
import { createScratchSchema } from "../core/db/scratch-schema.ts";
import { seedBulkProducts, seedDemoData } from "../core/db/seed/seed.ts";
import { benchServerEnv } from "./support.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const sizes = (process.env.BENCH_SIZES ?? "5000,50000").split(",").map(Number);
const port = Number(process.env.BENCH_PORT ?? 3291);
const url = `http://127.0.0.1:${port}`;

const baseDatabaseUrl = process.env.BENCH_DATABASE_URL;

/** A fresh PostgreSQL schema (when BENCH_DATABASE_URL is set): its connection URL and how to drop it. */
async function freshSchema(): Promise<{ url: string; drop: () => Promise<void> } | null> {
  return baseDatabaseUrl ? createScratchSchema(baseDatabaseUrl, "bench_catalog") : null;
}

async function prepare(dataDir: string, size: number, databaseUrl: string | undefined): Promise<{ id: number; slug: string }> {
  const db = databaseUrl ? await openPostgres(databaseUrl, 2) : await openPglite(path.join(dataDir, "pglite"));
  try {
    await migrate(db);
    await seedDemoData(db);
    await seedBulkProducts(db, size);
    const many = await createManyVariationProduct(db);
    await analyze(db);
    return many;
  } finally {
    await db.close();
  }
}

async function measure(name: string, opts: autocannon.Options): Promise<void> {
  const result = await autocannon({ connections: 16, duration: seconds, ...opts });
  console.log(
    `  ${name.padEnd(34)} ${String(Math.round(result.requests.average)).padStart(6)} req/s   p50 ${String(result.latency.p50).padStart(4)} ms   p99 ${String(result.latency.p99).padStart(4)} ms   non-2xx ${result.non2xx}   errors ${result.errors}`,
  );
}

async function runSize(size: number): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-bench-catalog-"));
  const schema = await freshSchema();
  const started = Date.now();
  const many = await prepare(dataDir, size, schema?.url);
  console.log(`\n${size.toLocaleString("en")} generated products (+ demo catalogue), seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const child = spawn(process.execPath, ["build/server/index.js"], {
    env: benchServerEnv({ port, dataDir, databaseUrl: schema?.url }),
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
  });
  try {
    const deadline = Date.now() + 300_000;
    for (;;) {
      try {
        if ((await fetch(`${url}/shop/`)).ok) break;
      } catch {
        /* not up yet */
      }
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error("server did not start");
      await new Promise((r) => setTimeout(r, 500));
    }
    const filtered = "/shop/?e-filter-shop-pa_color=red~navy&min_price=10&max_price=60&orderby=price";
    for (const path of ["/shop/", filtered, "/shop/page/50/", `/product/${many.slug}/`]) {
      const res = await fetch(url + path);
      if (!res.ok) throw new Error(`${path}: ${res.status}`);
    }
    const refreshBody = JSON.stringify({
      post_id: 0,
      widget_id: "shop",
      widget_filters: { taxonomy: { pa_color: { terms: ["red", "navy"], logicalJoin: "OR" } } },
      pagination_base_url: `${url}/shop/?orderby=price`,
    });
    const variationBody = new URLSearchParams({ product_id: String(many.id), attribute_pa_color: "red", attribute_pa_pattern: "pattern-13" }).toString();
    await measure("baseline: rest-nonce (trivial)", { url: `${url}/wp-admin/admin-ajax.php?action=rest-nonce` });
    await measure("GET /shop/", { url: `${url}/shop/` });
    await measure("GET /shop/ filtered (colour+price)", { url: url + filtered });
    await measure("GET /shop/page/50/", { url: `${url}/shop/page/50/` });
    await measure("POST refresh-loop (colour OR)", {
      url: `${url}/wp-json/elementor-pro/v1/refresh-loop`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: refreshBody,
    });
    await measure("GET product, 200 variations", { url: `${url}/product/${many.slug}/` });
    await measure("POST get_variation (of 200)", {
      url: `${url}/?wc-ajax=get_variation`,
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: variationBody,
    });
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
  `catalogue benchmark: autocannon, 16 connections, ${seconds} s per figure, production server on loopback (${baseDatabaseUrl ? "PostgreSQL" : "PGlite"}); load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
for (const size of sizes) await runSize(size);
