/**
 * Checkout benchmark (issue 6): complete checkouts against a production server — a new shopper adds a product,
 * opens /checkout/ and places the order by card through the sandbox (authorize + capture). Figures only:
 * orders per second, and p50 / p99 of the whole flow and of the `?wc-ajax=checkout` call alone.
 * `npx tsx bench/checkout.ts` (BENCH_SECONDS, BENCH_PORT, BENCH_CONCURRENCY to change).
 *
 * A checkout is four dependent requests with their own cookies and hidden fields, which autocannon's fixed request
 * lists cannot express, so this drives the flow with plain fetch from N concurrent shoppers.
 */
import { checkoutBody, checkoutFields, cookieSession, startBenchServer } from "./support.ts";

const FORM = { "content-type": "application/x-www-form-urlencoded; charset=UTF-8" };
const server = await startBenchServer({ products: 50, port: Number(process.env.BENCH_PORT ?? 3994) });
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);

const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0);

try {
  // Simple products from the listing pages (their loop buttons carry data-product_id), bought in turn so that
  // no single product's stock runs out during the run.
  const productIds: string[] = [];
  for (let page = 1; page <= 5; page++) {
    const listing = await (await fetch(`${server.url}/shop/page/${page}/?orderby=price`)).text();
    for (const m of listing.matchAll(/data-product_id="(\d+)"[^>]*ajax_add_to_cart|ajax_add_to_cart[^>]*data-product_id="(\d+)"/g)) {
      const id = m[1] ?? m[2];
      if (id && !productIds.includes(id)) productIds.push(id);
    }
  }
  if (!productIds.length) throw new Error("no product to buy");
  const flow: number[] = [];
  const posts: number[] = [];
  let failures = 0;
  let soldOut = 0;
  const end = Date.now() + seconds * 1000;
  const worker = async (w: number) => {
    for (let i = 0; Date.now() < end; i++) {
      const send = cookieSession(server.url);
      const t0 = performance.now();
      const added = (await (
        await send("/?wc-ajax=add_to_cart", { method: "POST", headers: FORM, body: `product_id=${productIds[(w * 7919 + i) % productIds.length]}&quantity=1` })
      ).json()) as { error?: boolean };
      // The demo catalogue's stock runs out under a long run: a refused add is a sold-out product, not a failed checkout.
      if (added.error) {
        soldOut++;
        continue;
      }
      const page = await (await send("/checkout/")).text();
      const fields = checkoutFields(page) ?? { nonce: "", token: "" };
      const t1 = performance.now();
      const reply = (await (
        await send("/?wc-ajax=checkout", { method: "POST", headers: FORM, body: checkoutBody(fields, `bench${w}-${i}@example.com`) })
      ).json()) as { result?: string };
      const t2 = performance.now();
      if (reply.result === "success") {
        flow.push(t2 - t0);
        posts.push(t2 - t1);
      } else {
        failures++;
        if (failures <= 3) console.error("checkout refused:", JSON.stringify(reply).slice(0, 300));
      }
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  const elapsed = (Date.now() - started) / 1000;
  flow.sort((a, b) => a - b);
  posts.sort((a, b) => a - b);
  console.log(`| checkout (${concurrency} concurrent shoppers, ${seconds} s) | orders/s | p50 ms | p99 ms | failures |`);
  console.log("|---|---:|---:|---:|---:|");
  console.log(
    `| whole flow: add_to_cart + GET /checkout/ + checkout | ${(flow.length / elapsed).toFixed(1)} | ${quantile(flow, 0.5).toFixed(0)} | ${quantile(flow, 0.99).toFixed(0)} | ${failures} |`,
  );
  console.log(`| ?wc-ajax=checkout alone | — | ${quantile(posts, 0.5).toFixed(0)} | ${quantile(posts, 0.99).toFixed(0)} | — |`);
  if (soldOut) console.log(`(${soldOut} adds refused: product sold out during the run; not counted)`);
} finally {
  await server.stop();
}
