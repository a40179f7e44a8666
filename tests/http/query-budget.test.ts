// How many database statements a page runs (issue 18): the request log's `dbQueries` (core/db/query-count.ts) for the
// shop listing, a category archive, a product page and the search results page stays within a budget, so an N+1
// (a statement per product, per category, per variation) fails here as a count, whatever the machine's speed.
// At debug level the line also lists the statements, which the failure message shows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";

let shop: TestShop;
const lines: string[] = [];

beforeAll(async () => {
  shop = await startTestShop({ LOG_LEVEL: "debug" }, { log: (line) => lines.push(line) });
});
afterAll(async () => shop?.close());

interface RequestLine {
  msg: string;
  req?: { id?: string };
  dbQueries?: number;
  dbStatements?: string[];
}

/** The request line of one GET (the log line is written when the response finishes). */
async function queriesOf(path: string): Promise<RequestLine> {
  // A cookie the page cache does not know (docs/decisions/0028-page-cache.md): the page is rendered, not served kept.
  const res = await fetch(shop.url + path, { headers: { cookie: "query_budget=render" } });
  expect(res.status, path).toBe(200);
  await res.arrayBuffer();
  const id = res.headers.get("x-request-id");
  await expect.poll(() => lines.some((l) => l.includes(`"id":"${id}"`) && l.includes('"request completed"'))).toBe(true);
  return lines.map((l) => JSON.parse(l) as RequestLine).find((l) => l.msg === "request completed" && l.req?.id === id)!;
}

describe("database statements per page", () => {
  // Budgets: what the pages ran when this was written (16, 17, 21, 19) plus two; an N+1 over a page of 12 products
  // would add 12 or more. Most of each is the header, menus and popups every page reads.
  const budgets = [
    ["/shop/", 18],
    ["/product-category/face-masks/", 19],
    ["/product/cotton-face-mask/", 23],
    ["/?s=mask", 21],
  ] as const;

  for (const [path, budget] of budgets) {
    it(`${path} runs at most ${budget}`, async () => {
      await queriesOf(path); // the first visit may fill a process-wide cache
      const line = await queriesOf(path);
      expect(line.dbQueries, path).toBeTypeOf("number");
      expect(line.dbStatements).toHaveLength(line.dbQueries!);
      expect(line.dbQueries, `${path}:\n${line.dbStatements!.join("\n")}`).toBeLessThanOrEqual(budget);
    });
  }

  it("the listing's count does not grow with the page's products (no statement per item)", async () => {
    const grid = await queriesOf("/shop/");
    const later = await queriesOf("/shop/page/2/");
    expect(later.dbQueries).toBe(grid.dbQueries);
  });
});
