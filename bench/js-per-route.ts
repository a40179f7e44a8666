/**
 * JavaScript per storefront route (issue 18): a production shop (demo catalogue), each route opened in Chromium with
 * an empty cache, every script response of its first view (until loaded, network quiet and idle once) counted raw and
 * gzip. Figures only: `npx tsx bench/js-per-route.ts` (BENCH_PORT to change; JS_FILES=1 lists each route's files).
 * The budgets (product ≤ 110 KB gzip, /shop/ ≤ 100 KB) are checked by tests/e2e/js-budget.test.ts.
 */
import { chromium } from "playwright-core";
import { startBenchServer } from "./support.ts";
import { kb, measureRouteJs, STOREFRONT_ROUTES } from "../tests/support/js-per-route.ts";

const server = await startBenchServer({ products: 0, port: Number(process.env.BENCH_PORT ?? 3992) });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
try {
  await fetch(server.url + "/shop/"); // warm up
  console.log("\n## JavaScript per route, first view in Chromium (KB = 1024 bytes; gzip at zlib's default level)\n");
  console.log("| route | path | JS raw KB | JS gzip KB | files |");
  console.log("|---|---|---:|---:|---:|");
  const details: string[] = [];
  for (const route of STOREFRONT_ROUTES) {
    const r = await measureRouteJs(browser, server.url, route);
    console.log(`| ${r.name} | \`${r.path}\` | ${kb(r.raw)} | ${kb(r.gzip)} | ${r.files.length} |`);
    if (process.env.JS_FILES) {
      details.push(`\n${r.name} (${r.path}):`);
      for (const f of r.files) details.push(`  ${kb(f.gzip).padStart(6)} KB gzip ${kb(f.raw).padStart(7)} KB raw  ${new URL(f.url).pathname}`);
    }
  }
  if (details.length) console.log(details.join("\n"));
} finally {
  await browser.close();
  await server.stop();
}
