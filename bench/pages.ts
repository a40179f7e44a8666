/**
 * Page benchmark (issue 2): a production server on a large generated catalogue;
 * requests per second and latency under load for the shop listing, a category
 * archive, a product page and the cart page, and the gzipped JS and CSS each ships.
 * Figures only: `npx tsx bench/pages.ts` (BENCH_PRODUCTS, BENCH_SECONDS to change).
 */
import { load, printLoad, shippedBytes, startBenchServer } from "./support.ts";

const products = Number(process.env.BENCH_PRODUCTS ?? 5000);
const server = await startBenchServer({ products, port: Number(process.env.BENCH_PORT ?? 3990) });
try {
  const pages = [
    ["shop listing", "/shop/"],
    ["category archive", "/product-category/face-masks/"],
    ["product page", "/product/cotton-face-mask/"],
    ["cart page", "/cart/"],
  ] as const;
  console.log(`\n## Pages on a ${products + 43}-product catalogue (${process.env.BENCH_SECONDS ?? 8} s each, 16 connections)\n`);
  const rows = [];
  for (const [name, path] of pages) {
    await fetch(server.url + path); // warm up
    rows.push(await load(name, { url: server.url + path }));
  }
  printLoad(rows);
  console.log("\n| page | JS gzipped (bytes) | CSS gzipped (bytes) | files |");
  console.log("|---|---:|---:|---:|");
  for (const [name, path] of pages) {
    const s = await shippedBytes(server.url + path);
    console.log(`| ${name} | ${s.js} | ${s.css} | ${s.files} |`);
  }
} finally {
  await server.stop();
}
