/**
 * Tracking's cost on the product page (issue 16): the JavaScript Chromium loads (gzipped, every script file the
 * page fetches, the lazy tracker chunk included), the page's HTML, and request time under load — with tracking
 * not configured, configured (the demo: dataLayer + server events) with consent refused, and with consent given.
 * Figures only: `npx tsx bench/tracking.ts` (BENCH_PRODUCTS, BENCH_SECONDS, BENCH_PORT to change).
 */
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { load, printLoad, startBenchServer, type LoadResult } from "./support.ts";

const products = Number(process.env.BENCH_PRODUCTS ?? 500);
const port = Number(process.env.BENCH_PORT ?? 3991);
const PATH = "/product/cotton-face-mask/";
const OFF = JSON.stringify({ tracking: { dataLayer: false, serverEvents: false } });

interface Loaded {
  name: string;
  jsGzip: number;
  jsFiles: number;
  trackerChunk: boolean;
  htmlGzip: number;
  events: number;
}

async function inChromium(url: string, name: string, consent: string | null): Promise<Loaded> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const context = await browser.newContext();
    if (consent) await context.addCookies([{ name: "shop_consent", value: consent, url }]);
    const page = await context.newPage();
    const scripts = new Set<string>();
    page.on("response", (r) => {
      if (r.request().resourceType() === "script") scripts.add(r.url());
    });
    await page.goto(url + PATH, { waitUntil: "load" });
    // The tracker is imported when the browser is idle after hydration: wait for an idle callback after that.
    await page.evaluate(() => new Promise((r) => requestIdleCallback(() => setTimeout(r, 300))));
    const events = await page.evaluate(() => ((window as unknown as { dataLayer?: unknown[] }).dataLayer ?? []).length);
    let jsGzip = 0;
    for (const src of scripts) jsGzip += gzipSync(Buffer.from(await (await fetch(src)).arrayBuffer()), { level: 9 }).length;
    const htmlGzip = gzipSync(Buffer.from(await (await fetch(url + PATH)).text()), { level: 9 }).length;
    return { name, jsGzip, jsFiles: scripts.size, trackerChunk: [...scripts].some((s) => s.includes("tracker.client")), htmlGzip, events };
  } finally {
    await browser.close();
  }
}

const rows: Loaded[] = [];
const loads: LoadResult[] = [];
const now = Math.floor(Date.now() / 1000);
for (const [label, settings] of [
  ["tracking not configured", OFF],
  ["tracking configured", undefined],
] as const) {
  const server = await startBenchServer({ products, port, env: settings ? { SHOP_SETTINGS: settings } : {} });
  try {
    await fetch(server.url + PATH);
    loads.push(await load(`product page, ${label}`, { url: server.url + PATH }));
    if (settings) rows.push(await inChromium(server.url, `${label}, consent given`, `v1.1.1.${now}`));
    else {
      rows.push(await inChromium(server.url, `${label}, consent refused`, `v1.0.0.${now}`));
      rows.push(await inChromium(server.url, `${label}, consent given`, `v1.1.1.${now}`));
    }
  } finally {
    await server.stop();
  }
}
console.log(`\n## Tracking on the product page (${products + 43}-product catalogue, ${process.env.BENCH_SECONDS ?? 8} s each, 16 connections)\n`);
printLoad(loads);
console.log("\n| Chromium load | JS gzipped (bytes) | JS files | tracker chunk | HTML gzipped (bytes) | dataLayer entries |");
console.log("|---|---:|---:|---|---:|---:|");
for (const r of rows) console.log(`| ${r.name} | ${r.jsGzip} | ${r.jsFiles} | ${r.trackerChunk ? "loaded" : "—"} | ${r.htmlGzip} | ${r.events} |`);
