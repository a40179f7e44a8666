/**
 * Discount benchmarks (issue 5):
 *  1. the price call `wdr_ajax / get_price_html` against a production server on loopback (autocannon:
 *     requests/s, p50, p99), for a mask at 6 (a tier applies) and a tie at 1;
 *  2. `evaluateCart` on a 100-line cart with 50 active rules — pure, in process (ops/s, µs per call).
 * Prints figures; no pass/fail. `npx tsx bench/discounts.ts` (needs a build: SHOP_BUILD_DIR or build/).
 * BENCH_SECONDS (default 8) sets each load run's length; BENCH_PORT (default 3290) the server's port.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";
import { evaluateCart, MASK_PROMOTION_RULES, type CartLineInput, type DiscountRule } from "../core/domain/pricing/index.ts";
import { DEMO_SHIPPING_METHODS } from "../core/db/seed/demo-discounts.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 8);

// ---------------------------------------------------------------------------------------------------
// 2. evaluateCart, pure
// ---------------------------------------------------------------------------------------------------

function syntheticCart(): { lines: CartLineInput[]; rules: DiscountRule[] } {
  const cats = ["face-masks", "ties", "bow-ties", "accessories", "gift-sets"];
  const lines: CartLineInput[] = Array.from({ length: 100 }, (_, i) => ({
    key: `line-${i}`,
    productId: 1000 + (i % 60),
    ...(i % 3 === 0 ? { variationId: 5000 + i } : {}),
    name: `Product ${i}`,
    categorySlugs: [cats[i % cats.length]!],
    quantity: 1 + (i % 7),
    regularUnitPrice: 300 + ((i * 137) % 4000),
    ...(i % 5 === 0 ? { saleUnitPrice: 250 + ((i * 137) % 3500) } : {}),
  }));
  const rules: DiscountRule[] = [...MASK_PROMOTION_RULES];
  for (let r = 0; rules.length < 50; r++) {
    const base = { code: `bench-${r}`, title: `Bench rule ${r}`, priority: 30 + r, enabled: true, conditions: [], stacking: "combinable" as const };
    const cat = cats[r % cats.length]!;
    switch (r % 5) {
      case 0:
        rules.push({
          ...base,
          filters: [{ type: "categories", categorySlugs: [cat] }],
          action: {
            kind: "bulk",
            countBy: "product",
            tiers: [
              { min: 2, max: 4, type: "percent", value: 5 },
              { min: 5, type: "percent", value: 10 },
            ],
          },
        });
        break;
      case 1:
        rules.push({ ...base, filters: [{ type: "products", productIds: [1000 + r, 1001 + r, 1002 + r] }], action: { kind: "product_percent", percent: 3 } });
        break;
      case 2:
        rules.push({
          ...base,
          filters: [{ type: "categories", categorySlugs: [cat] }],
          conditions: [{ type: "cart_subtotal", min: 10_000 }],
          action: { kind: "cart_percent", percent: 2, maxDiscount: 5000 },
        });
        break;
      case 3:
        rules.push({
          ...base,
          filters: [
            { type: "on_sale", onSale: false },
            { type: "categories", categorySlugs: [cat] },
          ],
          action: { kind: "bulk", countBy: "matched", tiers: [{ min: 10, type: "fixed_per_unit", value: 20 }] },
        });
        break;
      default:
        rules.push({
          ...base,
          filters: [{ type: "products", productIds: [1000 + (r % 60)] }],
          action: {
            kind: "buy_x_get_y",
            buyQuantity: 3,
            getProductId: 1000 + ((r + 1) % 60),
            choosableProductIds: [],
            getQuantity: 1,
            recursive: true,
            discountPercent: 100,
          },
        });
    }
  }
  return { lines, rules };
}

function benchEvaluateCart(): void {
  const { lines, rules } = syntheticCart();
  const now = new Date("2026-06-01T12:00:00Z");
  const run = () => evaluateCart({ lines, rules, now, shippingMethods: DEMO_SHIPPING_METHODS, chosenShippingMethodId: "flat_rate:1" });
  for (let i = 0; i < 200; i++) run(); // warm up the JIT
  const durations: number[] = [];
  const deadline = performance.now() + Math.min(seconds, 5) * 1000;
  let calls = 0;
  const started = performance.now();
  while (performance.now() < deadline) {
    const t = performance.now();
    run();
    durations.push(performance.now() - t);
    calls++;
  }
  const elapsed = (performance.now() - started) / 1000;
  durations.sort((a, b) => a - b);
  const us = (q: number) => (durations[Math.min(durations.length - 1, Math.floor(q * durations.length))]! * 1000).toFixed(0);
  const result = run();
  console.log(
    `evaluateCart  100 lines × ${rules.length} rules: ${Math.round(calls / elapsed)} ops/s, ${((elapsed * 1e6) / calls).toFixed(0)} µs/call (p50 ${us(0.5)} µs, p99 ${us(0.99)} µs); ` +
      `${result.appliedRules.length} rules applied, grand total ${result.totals.grandTotal} cents`,
  );
}

// ---------------------------------------------------------------------------------------------------
// 1. The price call against a production server
// ---------------------------------------------------------------------------------------------------

async function benchPriceCall(): Promise<void> {
  const port = Number(process.env.BENCH_PORT ?? 3290);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-bench-discounts-"));
  const child = spawn(process.execPath, ["build/server/index.js"], {
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, SIMULATOR: "off", LOG_LEVEL: "warn" },
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    const deadline = Date.now() + 300_000;
    for (;;) {
      try {
        if ((await fetch(`${url}/product/black-everyday-mask/`)).ok) break;
      } catch {
        /* not up yet */
      }
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error("server did not start");
      await new Promise((r) => setTimeout(r, 500));
    }
    // A browser's cookies and nonce, as the page would send them.
    const page = await fetch(`${url}/product/black-everyday-mask/`);
    const cookie = page.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const html = await page.text();
    const nonce = /var awdr_params = \{[^;]*"nonce":"([0-9a-f]{10})"/.exec(html)?.[1];
    const mask = /<div id="product-(\d+)"/.exec(html)?.[1];
    const tiePage = await (await fetch(`${url}/product/skinny-cotton-tie/`, { headers: { cookie } })).text();
    const tie = /<div id="product-(\d+)"/.exec(tiePage)?.[1];
    if (!nonce || !mask || !tie) throw new Error("could not read the nonce or product ids from the pages");
    // Baseline: the cheapest admin-ajax call (session + nonce, no pricing), to read the figures against.
    const baseline = await autocannon({ url: `${url}/wp-admin/admin-ajax.php?action=rest-nonce`, headers: { cookie }, connections: 16, duration: seconds });
    console.log(
      `${"baseline rest-nonce".padEnd(24)} ${Math.round(baseline.requests.average)} req/s, p50 ${baseline.latency.p50} ms, p99 ${baseline.latency.p99} ms`,
    );
    for (const [name, productId, qty] of [
      ["get_price_html mask ×6", mask, 6],
      ["get_price_html tie ×1", tie, 1],
    ] as const) {
      const body = new URLSearchParams({ action: "wdr_ajax", method: "get_price_html", product_id: productId, qty: String(qty), awdr_nonce: nonce }).toString();
      const check = await fetch(`${url}/wp-admin/admin-ajax.php`, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body,
      });
      if (!check.ok) throw new Error(`${name}: ${check.status} ${await check.text()}`);
      const result = await autocannon({
        url: `${url}/wp-admin/admin-ajax.php`,
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body,
        connections: 16,
        duration: seconds,
      });
      console.log(
        `${name.padEnd(24)} ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, errors ${result.errors}, non-2xx ${result.non2xx}`,
      );
    }
  } finally {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      /* gone */
    }
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once("exit", r)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

benchEvaluateCart();
await benchPriceCall();
