/**
 * Product search benchmark (issue 17, docs/contract/storefront-search.md): latency p50/p99 and CPU-ms per request
 * of the suggestions search (8 rows) and the results page's search (first page of the listing, with typo
 * correction and suggestions when nothing matches) for typed prefixes ('m', 'ma', 'mas', 'mask') and misspellings
 * ('msak', 'coton'), at 5,000 and 50,000 products. In process, one request at a time (the use cases of
 * core/commerce/search.ts against the database), so the figures are the search's own cost.
 * The bulk products are renamed into a realistic vocabulary ("Floral Cotton Mask 123"…) so prefixes match
 * thousands of rows. CPU-ms is this process's CPU: on PGlite that includes the database; on a PostgreSQL server
 * (BENCH_DATABASE_URL) the server's CPU is not counted.
 * `npx tsx bench/search.ts`; BENCH_SIZES (default "5000,50000"), BENCH_ROUNDS (default 60 per term).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openPglite, openPostgres, type Db } from "../core/db/client.ts";
import { migrate } from "../core/db/migrate.ts";
import { analyze } from "../core/db/seed/bench.ts";
import { createScratchSchema } from "../core/db/scratch-schema.ts";
import { seedBulkProducts, seedDemoData } from "../core/db/seed/seed.ts";
import { searchListing, suggestProducts } from "../core/commerce/search.ts";

const sizes = (process.env.BENCH_SIZES ?? "5000,50000").split(",").map(Number);
const rounds = Number(process.env.BENCH_ROUNDS ?? 60);
const baseDatabaseUrl = process.env.BENCH_DATABASE_URL;
const TERMS = ["m", "ma", "mas", "mask", "msak", "coton"];

async function prepare(db: Db, size: number): Promise<void> {
  await migrate(db);
  await seedDemoData(db);
  await seedBulkProducts(db, size);
  await db.exec(`UPDATE products SET
      name = (ARRAY['Floral','Plaid','Striped','Paisley','Classic','Navy','Polka Dot','Herringbone'])[1 + id % 8] || ' ' ||
             (ARRAY['Cotton','Silk','Linen','Wool','Denim'])[1 + (id / 8) % 5] || ' ' ||
             (ARRAY['Mask','Tie','Bow Tie','Scarf','Pocket Square','Mask and Tie Set','Filter Pack','Care Kit'])[1 + (id / 40) % 8] || ' ' || id,
      description = 'Cut and sewn from ' || (ARRAY['cotton','silk','linen','wool','denim'])[1 + (id / 8) % 5] || ', washable, with adjustable ear loops.'
    WHERE slug LIKE 'bulk-%'`);
  await analyze(db);
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function time(label: string, fn: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 5; i++) await fn(); // warm-up
  const ms: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  const cpu = process.cpuUsage(cpu0);
  ms.sort((a, b) => a - b);
  console.log(
    `  ${label.padEnd(28)} p50 ${pct(ms, 50).toFixed(1).padStart(7)} ms   p99 ${pct(ms, 99).toFixed(1).padStart(7)} ms   CPU ${((cpu.user + cpu.system) / 1000 / rounds).toFixed(1).padStart(7)} ms/req`,
  );
}

async function runSize(size: number): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "shop-bench-search-"));
  const schema = baseDatabaseUrl ? await createScratchSchema(baseDatabaseUrl, "bench_search") : null;
  const db = schema ? await openPostgres(schema.url, 2) : await openPglite(path.join(dataDir, "pglite"));
  try {
    const started = Date.now();
    await prepare(db, size);
    const [{ n }] = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM products`)) as [{ n: number }];
    console.log(
      `\n${n.toLocaleString("en")} products (${size.toLocaleString("en")} generated), seeded in ${((Date.now() - started) / 1000).toFixed(1)} s on ${db.kind}`,
    );
    for (const term of TERMS) {
      await time(`suggest '${term}'`, () => suggestProducts(db, term, 8));
      await time(`results page '${term}'`, () =>
        searchListing(
          db,
          16,
          {
            search: term,
            orderby: "menu_order",
            page: 1,
            price: { minCents: null, maxCents: null },
            filters: {},
            basePath: "/",
            query: "",
            view: "grid",
          },
          [],
        ),
      );
    }
  } finally {
    await db.close();
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`Product search, ${rounds} sequential requests per term after 5 warm-up (${baseDatabaseUrl ? "PostgreSQL server" : "PGlite"})`);
for (const size of sizes) await runSize(size);
