/**
 * When every pool connection stays taken longer than DATABASE_WAIT_MS (PostgreSQL only: PGlite has no pool), pages,
 * REST and wc-ajax answer "busy, please try again" with Retry-After in their own shapes, never a 500
 * (docs/decisions/0027, docs/contract/wire.md §1.2).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { orderLaneSize } from "../../core/db/client.ts";

const onPostgres = !!process.env.TEST_DATABASE_URL;
let shop: TestShop;

beforeAll(async () => {
  if (onPostgres) shop = await startTestShop({ DATABASE_POOL_SIZE: "2", DATABASE_WAIT_MS: "150" });
});
afterAll(async () => shop?.close());

/** Holds every connection outside the order lane (transactions sleeping) while `fn` runs. */
async function withPoolTaken<T>(fn: () => Promise<T>): Promise<T> {
  let started = 0;
  let allIn!: () => void;
  const inside = new Promise<void>((r) => (allIn = r));
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const connections = 2 - orderLaneSize(2);
  const holders = Array.from({ length: connections }, () =>
    shop.services.db.transaction(async (tx) => {
      await tx.query("SELECT 1");
      if (++started === connections) allIn();
      await released;
    }),
  );
  await inside;
  try {
    return await fn();
  } finally {
    release();
    await Promise.all(holders);
  }
}

describe.skipIf(!onPostgres)("a shop whose database connections are all taken", () => {
  it("answers pages with 503 and Retry-After, REST with shop_busy, wc-ajax with 503 JSON; then serves again", async () => {
    // A fresh visitor each time: the session lookup needs the database too.
    const [page, rest, ajax] = await withPoolTaken(() =>
      Promise.all([
        fetch(`${shop.url}/shop/`),
        fetch(`${shop.url}/wp-json/wc/store/v1/products`),
        fetch(`${shop.url}/?wc-ajax=add_to_cart`, { method: "POST", body: new URLSearchParams({ product_id: "1", quantity: "1" }) }),
      ]),
    );
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe("5");
    expect(await page.text()).toMatch(/try again in a moment/i);
    expect(rest.status).toBe(503);
    expect(rest.headers.get("retry-after")).toBe("5");
    expect(await rest.json()).toMatchObject({ code: "shop_busy", data: { status: 503 } });
    expect(ajax.status).toBe(503);
    expect(await ajax.json()).toEqual({ success: false, data: "The shop is very busy right now. Please try again in a moment." });
    expect((await fetch(`${shop.url}/shop/`)).status).toBe(200);
  });
});
