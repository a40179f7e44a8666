/**
 * Uncached rendering cost (issue 18, "Cheaper uncached rendering" and "Scale of the catalogue"): req/s and CPU-ms
 * per request of the server process for the shop listing, a category archive, a product page and the search
 * results page (`/?s=…`), at each catalogue size, on PGlite and (with BENCH_DATABASE_URL) on PostgreSQL, in one run.
 * CPU-ms is the server process's user+system time (all its threads; /proc/<pid>/stat) before and after each load,
 * divided by the requests it answered. On PostgreSQL the database's CPU is printed beside it ("db CPU-ms"): the
 * backends connected to the bench's database, so give BENCH_DATABASE_URL a database nobody else uses
 * (`CREATE DATABASE bench`), or other sessions' work is counted too.
 * Also prints the database queries each page runs (the `dbQueries` field of the request log) and the ratio of the
 * largest catalogue's CPU-ms to the smallest's.
 * `npx tsx bench/render-cost.ts` (needs a build: SHOP_BUILD_DIR or build/; BENCH_BUILDS="before=DIR,after=DIR" measures
 * several builds on the same seeded databases, one after the other). BENCH_SIZES (default "5000,50000"), BENCH_SECONDS (default 8),
 * BENCH_CONNECTIONS (default 8), BENCH_PORT (default 3293), BENCH_DATABASES (default "pglite,postgres" when
 * BENCH_DATABASE_URL is set, else "pglite").
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { openPglite, openPostgres, type Db } from "../core/db/client.ts";
import { migrate } from "../core/db/migrate.ts";
import { analyze } from "../core/db/seed/bench.ts";
import { createScratchSchema } from "../core/db/scratch-schema.ts";
import { seedBulkProducts, seedDemoData } from "../core/db/seed/seed.ts";
import { benchServerEnv, cpuMs, waitForHealth } from "./support.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 8);
const sizes = (process.env.BENCH_SIZES ?? "5000,50000").split(",").map(Number);
const port = Number(process.env.BENCH_PORT ?? 3293);
const baseDatabaseUrl = process.env.BENCH_DATABASE_URL;
const databases = (process.env.BENCH_DATABASES ?? (baseDatabaseUrl ? "pglite,postgres" : "pglite")).split(",") as ("pglite" | "postgres")[];
const url = `http://127.0.0.1:${port}`;

const PAGES = [
  ["GET /shop/", "/shop/"],
  ["GET category", "/product-category/face-masks/"],
  ["GET product", "/product/cotton-face-mask/"],
  ["GET /?s=mask", "/?s=mask"],
] as const;

async function prepare(size: number, kind: "pglite" | "postgres", dataDir: string, databaseUrl: string | undefined): Promise<void> {
  const db = kind === "postgres" ? await openPostgres(databaseUrl!, 2) : await openPglite(path.join(dataDir, "pglite"));
  try {
    await migrate(db);
    await seedDemoData(db);
    await seedBulkProducts(db, size);
    // Some of the bulk products match the search, as real names would.
    await db.exec(`UPDATE products SET name = 'Bulk Mask ' || id WHERE slug LIKE 'bulk-%' AND id % 10 = 0`);
    await analyze(db);
  } finally {
    await db.close();
  }
}

interface Row {
  build: string;
  db: string;
  size: number;
  page: string;
  rps: number;
  cpuMs: number;
  queries: number | null;
  dbCpuMs: number | null;
}

/** The CPU of the PostgreSQL backends connected to the bench's database (same machine), by pid, in ms. */
async function backendsCpu(admin: Db | null): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (!admin) return out;
  const rows = await admin.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);
  for (const { pid } of rows) {
    try {
      out.set(pid, cpuMs(pid));
    } catch {
      /* gone, or not on this machine */
    }
  }
  return out;
}

function dbCpuUsed(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, ms] of after) sum += ms - (before.get(pid) ?? 0);
  return sum;
}

/** The builds to compare on the same seeded database: BENCH_BUILDS="before=/tmp/old-build,after=build", or SHOP_BUILD_DIR / build. */
const builds = (process.env.BENCH_BUILDS ?? `this=${process.env.SHOP_BUILD_DIR ?? "build"}`).split(",").map((pair) => {
  const [name, dir] = pair.split("=") as [string, string];
  return { name, dir };
});

async function runOne(kind: "pglite" | "postgres", size: number): Promise<Row[]> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-bench-render-"));
  const schema = kind === "postgres" ? await createScratchSchema(baseDatabaseUrl!, "bench_render") : null;
  const rows: Row[] = [];
  try {
    const started = Date.now();
    await prepare(size, kind, dataDir, schema?.url);
    console.log(`\n${kind}, ${size.toLocaleString("en")} generated products: seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    for (const build of builds) rows.push(...(await measureBuild(build, kind, size, dataDir, schema?.url)));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await schema?.drop();
  }
  return rows;
}

async function measureBuild(
  build: { name: string; dir: string },
  kind: "pglite" | "postgres",
  size: number,
  dataDir: string,
  databaseUrl: string | undefined,
): Promise<Row[]> {
  const queriesByPath = new Map<string, number>();
  const child = spawn(process.execPath, [path.join(build.dir, "server/index.js")], {
    env: benchServerEnv({ port, dataDir, databaseUrl, logLevel: "info" }), // info: one request line each, carrying dbQueries
    stdio: ["ignore", "pipe", "inherit"],
  });
  child.stdout!.on("data", (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n")) {
      if (!line.includes('"dbQueries"')) continue;
      try {
        const parsed = JSON.parse(line) as { req?: { url?: string }; dbQueries?: number };
        if (parsed.req?.url && typeof parsed.dbQueries === "number") queriesByPath.set(parsed.req.url, parsed.dbQueries);
      } catch {
        /* not a log line */
      }
    }
  });
  const rows: Row[] = [];
  const admin = kind === "postgres" ? await openPostgres(baseDatabaseUrl!, 1) : null;
  try {
    await waitForHealth(url, child);
    console.log(`  build ${build.name} (${build.dir})`);
    for (const [name, p] of PAGES) {
      for (let i = 0; i < 20; i++) {
        const res = await fetch(url + p, { headers: { "accept-encoding": "gzip" } });
        if (!res.ok) throw new Error(`${p}: ${res.status}`);
        await res.arrayBuffer();
      }
      const dbBefore = await backendsCpu(admin);
      const before = cpuMs(child.pid!);
      const result = await autocannon({ url: url + p, connections, duration: seconds, headers: { "accept-encoding": "gzip" } });
      const used = cpuMs(child.pid!) - before;
      const dbUsed = admin ? dbCpuUsed(dbBefore, await backendsCpu(admin)) : null;
      const served = result.requests.total;
      if (result.non2xx || result.errors) console.log(`  ${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      rows.push({
        build: build.name,
        db: kind,
        size,
        page: name,
        rps: Math.round(result.requests.average),
        cpuMs: used / served,
        queries: queriesByPath.get(p) ?? null,
        dbCpuMs: dbUsed === null ? null : dbUsed / served,
      });
      console.log(
        `    ${name.padEnd(16)} ${String(Math.round(result.requests.average)).padStart(6)} req/s   ${(used / served).toFixed(2).padStart(7)} CPU-ms/req${dbUsed === null ? "" : ` + db ${(dbUsed / served).toFixed(2)}`}   p50 ${result.latency.p50} ms   queries ${queriesByPath.get(p) ?? "?"}`,
      );
    }
  } finally {
    await admin?.close();
    child.kill("SIGTERM");
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once("exit", r)));
  }
  return rows;
}

console.log(
  `render cost: autocannon, ${connections} connections, ${seconds} s per page, gzip, production server on loopback; load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
const all: Row[] = [];
for (const kind of databases) for (const size of sizes) all.push(...(await runOne(kind, size)));

const cpu = (r: Row | undefined) => (r ? r.cpuMs + (r.dbCpuMs ?? 0) : NaN);
console.log(
  `\n| build | database | page | ${sizes.map((s) => `${s}: req/s | ${s}: CPU-ms/req (server + db)`).join(" | ")} | CPU ratio ${sizes.at(-1)}/${sizes[0]} | queries |`,
);
console.log(`|---|---|---|${sizes.map(() => "---:|---:|").join("")}---:|---:|`);
for (const kind of databases)
  for (const [name] of PAGES)
    for (const build of builds) {
      const cells = sizes.map((s) => all.find((r) => r.build === build.name && r.db === kind && r.size === s && r.page === name));
      const first = cpu(cells[0]);
      const last = cpu(cells.at(-1));
      console.log(
        `| ${build.name} | ${kind} | ${name} | ${cells.map((c) => `${c?.rps ?? "?"} | ${c ? `${c.cpuMs.toFixed(1)}${c.dbCpuMs === null ? "" : ` + ${c.dbCpuMs.toFixed(1)}`}` : "?"}`).join(" | ")} | ${(last / first).toFixed(2)} | ${cells.at(-1)?.queries ?? "?"} |`,
      );
    }
