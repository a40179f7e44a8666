/**
 * Popups' cost on the product page (issue 15): the JavaScript (gzip) the page ships on first load, and what Chromium
 * fetches in all once the page is interactive (the popup engine is a lazy chunk loaded then), with the demo popups
 * on the page and with every popup disabled. Also the page's requests per second both ways (the popups' query).
 * Figures only: `npx tsx bench/popups.ts` (BENCH_PORT, BENCH_SECONDS to change).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { load, shippedBytes, startBenchServer } from "./support.ts";
import { openPglite } from "../core/db/client.ts";

const PRODUCT = "/product/cotton-face-mask/";
const dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-bench-popups-"));
const port = Number(process.env.BENCH_PORT ?? 3991);

/** Every script Chromium fetches for the page until it is idle (and the engine's chunk, when the page has popups, has come). */
async function fetchedScripts(url: string, expectEngine: boolean): Promise<{ bytes: number; engine: boolean }> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage();
    const scripts = new Map<string, Promise<number>>();
    let engine = false;
    page.on("response", (res) => {
      if (!/\.js(\?|$)/.test(res.url())) return;
      if (/PopupEngine-/.test(res.url())) engine = true;
      scripts.set(
        res.url(),
        res.body().then((b) => gzipSync(b, { level: 9 }).length),
      );
    });
    await page.goto(url, { waitUntil: "load" });
    if (expectEngine) await page.waitForResponse(/PopupEngine-/, { timeout: 30_000 }).catch(() => undefined);
    await page.evaluate(() => new Promise((r) => requestIdleCallback(r, { timeout: 3000 })));
    await page.waitForTimeout(500);
    const sizes = await Promise.all(scripts.values());
    return { bytes: sizes.reduce((a, b) => a + b, 0), engine };
  } finally {
    await browser.close();
  }
}

async function measure(label: string, withPopups: boolean) {
  const server = await startBenchServer({ products: 0, port, env: { DATA_DIR: dataDir } });
  try {
    await fetch(server.url + PRODUCT);
    const first = await shippedBytes(server.url + PRODUCT);
    const all = await fetchedScripts(server.url + PRODUCT, withPopups);
    const rps = await load(label, { url: server.url + PRODUCT });
    return { label, first: first.js, all: all.bytes, engine: all.engine, rps: rps.rps, p50: rps.p50 };
  } finally {
    await server.stop();
  }
}

try {
  const rows = [await measure("demo popups on the page", true)];
  // The same shop with every popup disabled (the server then sends none).
  const db = await openPglite(path.join(dataDir, "pglite"));
  await db.query(`UPDATE popups SET settings = jsonb_set(settings, '{enabled}', 'false')`);
  await db.close();
  rows.push(await measure("no popup on the page", false));
  console.log(`\n## Product page ${PRODUCT}: JavaScript (gzip) and throughput\n`);
  console.log("| popups | first load JS (bytes) | all JS once interactive (bytes) | engine chunk loaded | req/s | p50 ms |");
  console.log("|---|---:|---:|---|---:|---:|");
  for (const r of rows) console.log(`| ${r.label} | ${r.first} | ${r.all} | ${r.engine ? "yes" : "no"} | ${r.rps} | ${r.p50} |`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
