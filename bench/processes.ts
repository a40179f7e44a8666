/**
 * One server process against two (WEB_CONCURRENCY, decision 0033), on PostgreSQL (BENCH_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test, a scratch schema per run) and Redis (REDIS_URL, default
 * redis://127.0.0.1:6379, a prefix per run): `/shop/` loaded by autocannon with 10 and with 50 connections, and
 * the CPU-ms per request of the whole server (the primary and its workers, read from /proc). Figures only.
 * The load generator runs on the same machine and takes CPU from the shop.
 *
 *   npx tsx bench/processes.ts          (BENCH_SECONDS per run, default 8; BENCH_PORT; BENCH_PROCESSES, default "1,2")
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { Redis } from "ioredis";
import { createScratchSchema } from "../core/db/scratch-schema.ts";
import { cpuMs, load, startBenchServer } from "./support.ts";

const PORT = Number(process.env.BENCH_PORT ?? 3994);
const COUNTS = (process.env.BENCH_PROCESSES ?? "1,2").split(",").map(Number);
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const pgUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** The pids of `root` and every process below it (the cluster's workers). */
function tree(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      /* gone */
    }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) for (const [pid, ppid] of parent) if (ppid === out[i]) out.push(pid);
  return out;
}
const treeCpuMs = (pids: number[]) =>
  pids.reduce((sum, pid) => {
    try {
      return sum + cpuMs(pid);
    } catch {
      return sum;
    }
  }, 0);

console.log(`/shop/ on PostgreSQL, ${COUNTS.join(" vs ")} server processes (2 cores shared with the load generator)`);
console.log("| processes | connections | req/s | p50 ms | p99 ms | CPU-ms per request | errors | non-2xx |");
console.log("|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const count of COUNTS) {
  const scratch = await createScratchSchema(pgUrl, "bench_procs");
  const prefix = `bench:procs:${randomBytes(4).toString("hex")}`;
  const server = await startBenchServer({
    products: 0,
    port: PORT,
    env: { DATABASE_URL: scratch.url, REDIS_URL, REDIS_PREFIX: prefix, WEB_CONCURRENCY: String(count) },
  });
  try {
    const pids = tree(server.child.pid!);
    await load("warm-up", { url: `${server.url}/shop/`, connections: 10, duration: 3 });
    for (const connections of [10, 50]) {
      const cpu0 = treeCpuMs(pids);
      const r = await load("/shop/", { url: `${server.url}/shop/`, connections });
      const cpu = treeCpuMs(pids) - cpu0;
      const requests = r.rps * Number(process.env.BENCH_SECONDS ?? 8);
      console.log(`| ${count} | ${connections} | ${r.rps} | ${r.p50} | ${r.p99} | ${(cpu / Math.max(1, requests)).toFixed(2)} | ${r.errors} | ${r.non2xx} |`);
    }
  } finally {
    await server.stop();
    await scratch.drop();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }
}
