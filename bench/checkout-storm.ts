/**
 * Checkout storm (issue 18, docs/decisions/0027): N shoppers (default 200) each have one unit of the same product in
 * their cart, 10 are in stock, and all submit the checkout at the same moment — on PGlite, and on PostgreSQL when
 * one answers at BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test, a scratch schema per run).
 * While the storm runs, a visitor loads the product page every 100 ms. Figures only, no pass/fail:
 * units sold, how the others were answered (sold out / busy / anything else), HTTP 5xx and 408, checkout p50 / p99,
 * the product page's p50 / p99 during the storm, and the server's CPU-ms per checkout.
 *
 *   npx tsx bench/checkout-storm.ts       (BENCH_SHOPPERS, BENCH_STORMS, BENCH_PORT to change)
 */
import { createScratchSchema } from "../core/db/scratch-schema.ts";
import { checkoutBody, checkoutFields, cookieSession, cpuMs, startBenchServer } from "./support.ts";

const SHOPPERS = Number(process.env.BENCH_SHOPPERS ?? 200);
const STORMS = Number(process.env.BENCH_STORMS ?? 1);
const STOCK = 10;
const PORT = Number(process.env.BENCH_PORT ?? 3996);
const ADMIN = { email: "storm-admin@example.com", password: "storm admin password 1" };
const FORM = { "content-type": "application/x-www-form-urlencoded; charset=UTF-8" };

const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0);

async function postgresReachable(url: string): Promise<boolean> {
  try {
    const { openPostgres } = await import("../core/db/client.ts");
    const db = await openPostgres(url, 1, { waitMs: 2_000 });
    await db.query("SELECT 1");
    await db.close();
    return true;
  } catch {
    return false;
  }
}

/** Signs the administrator in with WordPress's form and returns a REST caller (cookie + X-WP-Nonce). */
async function adminApi(base: string) {
  const send = cookieSession(base);
  const login = await send("/wp-login.php", { method: "POST", headers: FORM, body: new URLSearchParams({ log: ADMIN.email, pwd: ADMIN.password }).toString() });
  if (login.status !== 302) throw new Error(`admin sign-in answered ${login.status}`);
  const nonce = await (await send("/wp-admin/admin-ajax.php?action=rest-nonce")).text();
  return async (method: string, path: string, body?: unknown) => {
    const res = await send(`/wp-json/wc/v3/${path}`, {
      method,
      headers: { "X-WP-Nonce": nonce, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown> & { id: number; permalink: string; stock_quantity: number | null };
  };
}

async function storm(base: string, pid: number, api: Awaited<ReturnType<typeof adminApi>>, productId: number, permalink: string) {
  await api("PUT", `products/${productId}`, { manage_stock: true, stock_quantity: 1_000 });
  // Carts first (adding does not reserve stock, as in WooCommerce), then the stock set to 10, then the storm.
  const shoppers: { send: ReturnType<typeof cookieSession>; fields: { nonce: string; token: string } }[] = [];
  for (let i = 0; i < SHOPPERS; i += 25) {
    shoppers.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(25, SHOPPERS - i) }, async () => {
          const send = cookieSession(base);
          await send("/?wc-ajax=add_to_cart", { method: "POST", headers: FORM, body: `product_id=${productId}&quantity=1` });
          const page = await (await send("/checkout/")).text();
          const fields = checkoutFields(page);
          if (!fields) throw new Error("checkout page without its hidden fields");
          return { send, fields };
        }),
      )),
    );
  }
  await api("PUT", `products/${productId}`, { stock_quantity: STOCK });

  const answers = { sold: 0, soldOut: 0, busy: 0, other: 0, http5xx: 0, http408: 0 };
  const checkoutMs: number[] = [];
  const pageMs: number[] = [];
  let storming = true;
  const prober = (async () => {
    while (storming) {
      const t0 = performance.now();
      const res = await fetch(permalink.replace(/^https?:\/\/[^/]+/, base));
      await res.arrayBuffer();
      pageMs.push(performance.now() - t0);
      if (res.status >= 500) answers.http5xx++;
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const cpu0 = cpuMs(pid);
  const t0 = performance.now();
  await Promise.all(
    shoppers.map(async ({ send, fields }, i) => {
      const started = performance.now();
      const res = await send("/?wc-ajax=checkout", { method: "POST", headers: FORM, body: checkoutBody(fields, `storm${i}@example.com`) });
      const text = await res.text();
      checkoutMs.push(performance.now() - started);
      if (res.status === 408) return void answers.http408++;
      if (res.status >= 500) return void answers.http5xx++;
      const reply = JSON.parse(text) as { result?: string; messages?: string };
      if (reply.result === "success") answers.sold++;
      else if (/not in stock|do not have enough/.test(reply.messages ?? "")) answers.soldOut++;
      else if (/very busy/.test(reply.messages ?? "")) answers.busy++;
      else answers.other++;
    }),
  );
  const wallMs = performance.now() - t0;
  const cpu = cpuMs(pid) - cpu0;
  storming = false;
  await prober;
  const left = (await api("GET", `products/${productId}`)).stock_quantity;
  checkoutMs.sort((a, b) => a - b);
  pageMs.sort((a, b) => a - b);
  return { ...answers, left, wallMs, cpuPerCheckout: cpu / SHOPPERS, checkoutMs, pageMs };
}

async function run(label: string, env: Record<string, string>) {
  const server = await startBenchServer({ products: 50, port: PORT, env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ...env } });
  try {
    const api = await adminApi(server.url);
    const [product] = (await api("GET", "products?type=simple&status=publish&per_page=1")) as unknown as { id: number; permalink: string }[];
    if (!product) throw new Error("no simple product");
    for (let s = 1; s <= STORMS; s++) {
      const r = await storm(server.url, server.child.pid!, api, product.id, product.permalink);
      console.log(
        `| ${label} | ${s} | ${r.sold} of ${STOCK} (left ${r.left}) | ${r.soldOut} | ${r.busy} | ${r.other} | ${r.http5xx} | ${r.http408} | ${quantile(r.checkoutMs, 0.5).toFixed(0)} | ${quantile(r.checkoutMs, 0.99).toFixed(0)} | ${(r.wallMs / 1000).toFixed(1)} | ${quantile(r.pageMs, 0.5).toFixed(0)} / ${quantile(r.pageMs, 0.99).toFixed(0)} | ${r.cpuPerCheckout.toFixed(1)} |`,
      );
    }
  } finally {
    await server.stop();
  }
}

console.log(`${SHOPPERS} shoppers check out one product with ${STOCK} in stock, all at once`);
console.log(
  "| database | storm | sold | sold out | busy | other | 5xx | 408 | checkout p50 ms | p99 ms | storm s | product page p50 / p99 ms | CPU-ms per checkout |",
);
console.log("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|");
await run("PGlite", {});
const pgUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
if (await postgresReachable(pgUrl)) {
  const scratch = await createScratchSchema(pgUrl, "bench_storm");
  try {
    await run("PostgreSQL", { DATABASE_URL: scratch.url });
  } finally {
    await scratch.drop();
  }
} else console.log(`(no PostgreSQL at ${pgUrl}: skipped)`);
